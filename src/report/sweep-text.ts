// The text a sweep prints: its tables (src/sweep/tables.ts) formatted, then how complete it is.
import type { MergedSweep } from "../sweep/lines.js";
import { sweepTables } from "../sweep/tables.js";
import { formatTable } from "./table.js";

/** The text a sweep prints: every table, then a line saying how complete it is. */
export function formatSweep(m: MergedSweep): string {
  const parts = sweepTables(m).map(formatTable);
  const done = m.header.cells - m.missing.length;
  parts.push(`${done}/${m.header.cells} cells of sweep ${m.header.fingerprint}${m.missing.length ? ` (missing: ${m.missing.join(", ")})` : ""}`);
  return parts.join("\n\n") + "\n";
}
