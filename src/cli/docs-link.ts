// Where `fairsched --help` sends the reader: the docs/ folder of a clone when it exists beside the
// build, else the repository's docs (the npm tarball ships no docs/).
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

/** The documentation folder of this checkout, or the repository's docs/ URL for an installed package. */
export function docsLocation(): string {
  const local = new URL("../../docs/", import.meta.url);
  if (existsSync(new URL("README.md", local))) return fileURLToPath(local);
  const pkg = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { repository?: { url?: string } };
  const repo = (pkg.repository?.url ?? "").replace(/^git\+/, "").replace(/\.git$/, "");
  return repo ? `${repo}/tree/main/docs` : "the docs/ folder of the fairsched repository";
}

/** The help text's closing lines: where the command reference and the protocols are documented. */
export function docsHelpText(): string {
  const where = docsLocation();
  return `\nDocumentation: ${where}\n  cli.md (every command), live-scheduler.md (the serve protocol), testkit.md (fuzz), sweeps.md (sweep, worker, merge)\n`;
}
