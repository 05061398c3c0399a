// The text a sweep prints: its tables (src/sweep/tables.ts) formatted, then how complete it is.
// With several seeds the tables are the seed aggregates (src/sweep/aggregate.ts): one row per
// cell without its seed, every number as mean ± the half-width of its 95% t-interval.
import type { MeanCi } from "../stats/confidence.js";
import { aggregateSweep, type AggregatedTable } from "../sweep/aggregate.js";
import type { MergedSweep } from "../sweep/lines.js";
import { sweepTables } from "../sweep/tables.js";
import type { Table } from "../scenarios/table.js";
import { formatCell, formatTable } from "./table.js";

/** Below this relative half-width the seeds' values differ only by rounding: the value is shown once. */
const ROUNDING = 1e-9;

/**
 * "56.31 ± 2.48"; the mean alone (a number) without an interval or when its width is zero (or rounding
 * noise: values equal on every seed); "(n=2)" when fewer seeds have a value than the row has.
 */
export function formatMeanCi(s: MeanCi | null, seeds: number): string | number | null {
  if (s === null) return null;
  const same = s.half === null || s.half <= ROUNDING * Math.abs(s.mean);
  if (same && s.n >= seeds) return s.mean;
  const text = same ? formatCell(s.mean) : `${formatCell(s.mean)} ± ${formatCell(s.half!)}`;
  return s.n < seeds ? `${text} (n=${s.n})` : text;
}

/** An aggregated table as a Table: policy, parameters, labels, seeds, then each metric as mean ± half-width. */
export function aggregatedAsTable(a: AggregatedTable): Table {
  return {
    title: a.title,
    columns: ["policy", ...a.paramKeys, ...a.labelColumns, "seeds", ...a.metricColumns],
    rows: a.rows.map((r) => [r.policy, ...r.params, ...r.labels, r.seeds, ...r.stats.map((s) => formatMeanCi(s, r.seeds))]),
    notes: a.notes,
  };
}

/** The sweep's tables: per seed with one seed, aggregated over the seeds with several. */
export function sweepResultTables(m: MergedSweep): Table[] {
  return m.header.spec.seeds.length > 1 ? aggregateSweep(m).map(aggregatedAsTable) : sweepTables(m);
}

/** The text a sweep prints: every table, then a line saying how complete it is. */
export function formatSweep(m: MergedSweep): string {
  const parts = sweepResultTables(m).map(formatTable);
  const done = m.header.cells - m.missing.length;
  parts.push(`${done}/${m.header.cells} cells of sweep ${m.header.fingerprint}${m.missing.length ? ` (missing: ${m.missing.join(", ")})` : ""}`);
  return parts.join("\n\n") + "\n";
}
