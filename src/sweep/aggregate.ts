// Seeds aggregated: a sweep's rows grouped per cell without its seed (policy, grid parameters,
// and the row's own labels), every numeric column as the mean over the seeds with its 95%
// Student-t interval (src/stats/confidence.ts meanCi95: mean ± t(0.975, n-1)·s/√n).
import { meanCi95, type MeanCi } from "../stats/confidence.js";
import type { ParamValue } from "./grid.js";
import type { MergedSweep } from "./lines.js";
import { stackSweep } from "./tables.js";

export interface AggregatedRow {
  policy: string;
  /** The grid parameters' values, in `paramKeys` order. */
  params: ParamValue[];
  /** The row's label columns (its text cells, e.g. a queue or deadline type), in `labelColumns` order. */
  labels: Array<string | number | null>;
  /** Seeds this row was seen in. */
  seeds: number;
  /** Per metric column: mean and 95% interval over the seeds that have a number there (null: none has). */
  stats: Array<MeanCi | null>;
}

export interface AggregatedTable {
  /** The stacked tables' title ("<scenario> sweep: <common title>"). */
  name: string;
  /** The name and what the numbers are (mean ± 95% t-interval over n seeds). */
  title: string;
  paramKeys: string[];
  /** Columns that hold text in some row: they identify a row within its cell's table. */
  labelColumns: string[];
  /** Every other column: aggregated. */
  metricColumns: string[];
  rows: AggregatedRow[];
  notes: string[];
}

/** What the interval is, for a table's notes and the docs. */
export const INTERVAL_NOTE = "mean ± half-width of the 95% Student-t interval over the seeds, t(0.975, n-1)·s/√n; a value equal on every seed is shown once";

/**
 * Each of the sweep's stacked tables (stackSweep, ratio columns filled) aggregated over seeds.
 * A row of a cell is matched across seeds by (policy, parameters, its label values, how many rows
 * with those labels came before it in the cell's table), so rows without labels match by position.
 */
export function aggregateSweep(m: MergedSweep): AggregatedTable[] {
  const paramKeys = Object.keys(m.header.spec.params ?? {});
  const nSeeds = m.header.spec.seeds.length;
  return stackSweep(m).map((t) => {
    const isLabel = t.columns.map((_, c) => t.rows.some((r) => typeof r.values[c] === "string"));
    const labelIdx = t.columns.flatMap((_, c) => (isLabel[c] ? [c] : []));
    const metricIdx = t.columns.flatMap((_, c) => (isLabel[c] ? [] : [c]));
    const groups = new Map<string, { row: Omit<AggregatedRow, "stats">; values: number[][] }>();
    const seen = new Map<string, number>(); // occurrences of (cell, labels) so far
    for (const r of t.rows) {
      const labels = labelIdx.map((c) => r.values[c]);
      const within = JSON.stringify([r.cell.index, r.policy, labels]);
      const occurrence = seen.get(within) ?? 0;
      seen.set(within, occurrence + 1);
      const params = paramKeys.map((k) => r.cell.params[k]);
      const key = JSON.stringify([r.policy, params, labels, occurrence]);
      let g = groups.get(key);
      if (!g) {
        g = { row: { policy: r.policy, params, labels, seeds: 0 }, values: metricIdx.map(() => []) };
        groups.set(key, g);
      }
      g.row.seeds++;
      metricIdx.forEach((c, j) => {
        const v = r.values[c];
        if (typeof v === "number" && Number.isFinite(v)) g.values[j].push(v);
      });
    }
    return {
      name: `${m.header.spec.scenario} sweep: ${t.title}`,
      title: `${m.header.spec.scenario} sweep: ${t.title}, mean ± 95% t-interval over ${nSeeds} seed${nSeeds === 1 ? "" : "s"}`,
      paramKeys,
      labelColumns: labelIdx.map((c) => t.columns[c]),
      metricColumns: metricIdx.map((c) => t.columns[c]),
      rows: [...groups.values()].map((g) => ({ ...g.row, stats: g.values.map((v) => (v.length ? meanCi95(v) : null)) })),
      notes: [...t.notes, INTERVAL_NOTE],
    };
  });
}
