// `--out FILE`: a report written as self-contained HTML (.html, .htm) or JSON (.json), by the
// file's extension; any other extension is refused rather than given JSON under its name.
import { writeFileSync } from "node:fs";
import { InputError } from "../errors.js";
import { renderHtmlReport } from "../report/html.js";
import type { ScenarioReport } from "../scenarios/scenario.js";

/** The format `--out FILE` writes, by extension; an InputError for any other. */
export function reportFileFormat(file: string): "html" | "json" {
  if (/\.html?$/i.test(file)) return "html";
  if (/\.json$/i.test(file)) return "json";
  throw new InputError("--out", `${file}: the report is written as .html (a self-contained page) or .json (the report as JSON); name the file with one of them`);
}

/** Writes a report as HTML or JSON, by extension (reportFileFormat). */
export function writeReportFile(file: string, reports: ScenarioReport[]): void {
  const html = reportFileFormat(file) === "html";
  const text = html ? renderHtmlReport(reports) : JSON.stringify(reports.length === 1 ? reports[0] : reports, null, 2) + "\n";
  try {
    writeFileSync(file, text);
  } catch (e) {
    throw new InputError("--out", `cannot write ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
}
