// `--out FILE`: a report written as self-contained HTML (by extension .html/.htm) or JSON.
import { writeFileSync } from "node:fs";
import { InputError } from "../errors.js";
import { renderHtmlReport } from "../report/html.js";
import type { ScenarioReport } from "../scenarios/scenario.js";

/** Writes a report as HTML (by extension .html/.htm) or JSON. */
export function writeReportFile(file: string, reports: ScenarioReport[]): void {
  const html = /\.html?$/i.test(file);
  const text = html ? renderHtmlReport(reports) : JSON.stringify(reports.length === 1 ? reports[0] : reports, null, 2) + "\n";
  try {
    writeFileSync(file, text);
  } catch (e) {
    throw new InputError("--out", `cannot write ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
}
