// Where tests find the real traces (not in the repo; see README, Traces): the folder named by
// the FAIRSCHED_TRACES environment variable, else ../shared/traces next to the repo root
// (resolved from this file, not from the current directory).
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";

const REPO_ROOT = fileURLToPath(new URL("../..", import.meta.url));

/** The traces folder (holding google-2011/, swim/, eagle-format/). */
export const TRACES_DIR = process.env.FAIRSCHED_TRACES ? resolve(process.env.FAIRSCHED_TRACES) : resolve(REPO_ROOT, "../shared/traces");

/** A path inside the traces folder, e.g. tracePath("swim/FB-2009_samples_24_times_1hr_0.tsv"). */
export function tracePath(relative: string): string {
  return resolve(TRACES_DIR, relative);
}
