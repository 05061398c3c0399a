// `--csv FILE` and `--html FILE` of `fairsched sweep` and `fairsched merge`: the merged sweep's
// seed aggregates as CSV (src/report/sweep-csv.ts) and as a self-contained HTML page with charts
// (src/report/sweep-html.ts).
import { writeFileSync } from "node:fs";
import { InputError } from "../errors.js";
import { sweepCsv } from "../report/sweep-csv.js";
import { renderSweepHtml } from "../report/sweep-html.js";
import type { MergedSweep } from "../sweep/lines.js";
import { writeStatus } from "./output.js";

export interface SweepFileOptions {
  csv?: string;
  html?: string;
}

/** Writes the files asked for and says so on stderr. */
export function writeSweepFiles(m: MergedSweep, o: SweepFileOptions): void {
  const write = (flag: string, file: string, text: string) => {
    try {
      writeFileSync(file, text);
    } catch (e) {
      throw new InputError(flag, `cannot write ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
    }
    writeStatus(`${flag === "--csv" ? "CSV" : "HTML report"} written to ${file}\n`);
  };
  if (o.csv) write("--csv", o.csv, sweepCsv(m));
  if (o.html) write("--html", o.html, renderSweepHtml(m));
}
