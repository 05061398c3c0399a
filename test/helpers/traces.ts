// Where tests find traces. Two kinds, kept apart:
// - samples cut from the real traces, committed under test/fixtures/traces/ (its README says how
//   each was cut and under which licence): `npm test` reads only these (fixturePath);
// - the full traces (not in the repo; see README, Traces): the folder named by the
//   FAIRSCHED_TRACES environment variable, else ../shared/traces next to the repo root (resolved
//   from this file, not from the current directory). Only `npm run test:repro` reads them
//   (tracePath), and a missing file is one clear error naming the folder and the variable.
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";

const REPO_ROOT = fileURLToPath(new URL("../..", import.meta.url));

/** The committed samples (google-2011/, swim/, eagle-format/). */
export const FIXTURE_TRACES_DIR = resolve(REPO_ROOT, "test/fixtures/traces");

/** The full traces folder (holding google-2011/, swim/, eagle-format/). */
export const TRACES_DIR = process.env.FAIRSCHED_TRACES ? resolve(process.env.FAIRSCHED_TRACES) : resolve(REPO_ROOT, "../shared/traces");

/** The message a repro test fails with when a full trace is not where TRACES_DIR says. */
export function missingTraceMessage(file: string): string {
  return (
    `full trace not found: ${file}. The reproduction tests read the full traces from ${TRACES_DIR} ` +
    `(set FAIRSCHED_TRACES to the folder holding google-2011/, swim/ and eagle-format/; ` +
    `default ../shared/traces beside the repository). npm test needs none of them.`
  );
}

/** True when the full trace `relative` is present (for tests that can run without it). */
export function hasTrace(relative: string): boolean {
  return existsSync(resolve(TRACES_DIR, relative));
}

/**
 * A path inside the full traces folder, e.g. tracePath("swim/FB-2009_samples_24_times_1hr_0.tsv").
 * Throws missingTraceMessage when the file is not there (for repro tests only).
 */
export function tracePath(relative: string): string {
  const file = resolve(TRACES_DIR, relative);
  if (!existsSync(file)) throw new Error(missingTraceMessage(file));
  return file;
}

/** A committed sample, e.g. fixturePath("swim/FB-2009-sample.tsv"). */
export function fixturePath(relative: string): string {
  return resolve(FIXTURE_TRACES_DIR, relative);
}
