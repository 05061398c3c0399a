// A merged sweep as Table values (formatted as text by src/report/sweep-text.ts): the per-seed
// stack of every cell's tables (sweepTables), and the rows behind it (stackSweep) that the seed
// aggregation (aggregate.ts) groups.
import { improvement } from "../stats/summary.js";
import type { Table } from "../scenarios/table.js";
import type { SweepCell } from "./grid.js";
import type { MergedSweep } from "./lines.js";

type Value = string | number | null;

/** One row of one cell's k-th table, its policy column (if any) moved into `policy`. */
export interface StackedRow {
  cell: SweepCell;
  /** The row's policy: the table's own policy column, else the cell's policy. */
  policy: string;
  /** The scenario table's cells without its policy column. */
  values: Value[];
}

/** The k-th table of every cell with the same columns, stacked. */
export interface StackedTable {
  /** The cells' common title (commonTitle), never one cell's. */
  title: string;
  /** The scenario table's columns without its policy column. */
  columns: string[];
  rows: StackedRow[];
  /** Notes every cell's table carries, then the sweep's own (what a filled-in ratio is relative to). */
  notes: string[];
}

/** `LQ x vs drf` -> the class ("LQ") and baseline policy ("drf") of a factor-of-improvement column. */
const RATIO = /^(.+) x vs (\S+)$/;

/**
 * Every cell's tables grouped by (position, columns), rows in cell order. A factor-of-improvement
 * column (`<class> x vs <baseline>`, what src/scenarios/common.ts comparisonTable writes) is
 * null in a cell that did not run the baseline itself; it is filled from the baseline policy's
 * cell with the same parameters and seed: its `<class> avg s` divided by this row's.
 */
export function stackSweep(m: MergedSweep): StackedTable[] {
  const groups = new Map<string, StackedTable & { titles: Set<string>; noteSets: string[][] }>();
  for (const { cell, report } of m.cells) {
    report.tables.forEach((t, k) => {
      const hasPolicy = t.columns[0] === "policy";
      const id = `${k}\u0000${t.columns.join("\u0000")}`;
      let g = groups.get(id);
      if (!g) {
        g = { title: "", columns: hasPolicy ? t.columns.slice(1) : [...t.columns], rows: [], notes: [], titles: new Set(), noteSets: [] };
        groups.set(id, g);
      }
      g.titles.add(t.title);
      g.noteSets.push(t.notes ?? []);
      for (const row of t.rows) {
        g.rows.push(hasPolicy ? { cell, policy: String(row[0]), values: row.slice(1) } : { cell, policy: cell.policy, values: [...row] });
      }
    });
  }
  return [...groups.values()].map((g) => {
    const shared = g.noteSets[0].filter((n) => g.noteSets.every((s) => s.includes(n)));
    const table: StackedTable = { title: commonTitle([...g.titles]), columns: g.columns, rows: g.rows, notes: shared };
    fillRatios(table);
    return table;
  });
}

/** Fills null `<class> x vs <baseline>` cells from the baseline's row with the same parameters and seed. */
function fillRatios(t: StackedTable): void {
  t.columns.forEach((col, c) => {
    const m = RATIO.exec(col);
    const avg = m ? t.columns.indexOf(`${m[1]} avg s`) : -1;
    if (!m || avg < 0) return;
    const baseline = m[2];
    const key = (cell: SweepCell) => `${JSON.stringify(cell.params)}\u0000${cell.seed}`;
    const base = new Map<string, Value>();
    for (const r of t.rows) if (r.policy === baseline) base.set(key(r.cell), r.values[avg]);
    let filled = false;
    for (const r of t.rows) {
      if (r.values[c] !== null) continue;
      const b = base.get(key(r.cell));
      const own = r.values[avg];
      if (typeof b !== "number" || typeof own !== "number") continue;
      r.values[c] = improvement(b, own);
      filled = r.values[c] !== null || filled;
    }
    if (filled || base.size) {
      t.notes.push(`${col}: the ${baseline} cell's ${m[1]} avg s with the same parameters and seed / this row's ${m[1]} avg s (factor of improvement over ${baseline}; > 1: faster than ${baseline})`);
    }
  });
}

/**
 * The sweep's tables, one row per cell and seed: the k-th table of every cell's report, stacked
 * into one table per (position, columns), each row prefixed with the cell's parameters and seed
 * (and its policy when the table has no policy column). A title is the cells' common title
 * (commonTitle).
 */
export function sweepTables(m: MergedSweep): Table[] {
  const keys = Object.keys(m.header.spec.params ?? {});
  return stackSweep(m).map((t) => ({
    title: `${m.header.spec.scenario} sweep: ${t.title}`,
    columns: ["policy", ...keys, "seed", ...t.columns],
    rows: t.rows.map((r) => [r.policy, ...keys.map((key) => r.cell.params[key]), r.cell.seed, ...r.values]),
    ...(t.notes.length ? { notes: t.notes } : {}),
  }));
}

/** One title for cells' titles: the title when they agree, else their common beginning cut at a word. */
export function commonTitle(titles: string[]): string {
  if (titles.length === 1) return titles[0];
  let n = 0;
  while (titles.every((t) => n < t.length && t[n] === titles[0][n])) n++;
  let head = titles[0].slice(0, n);
  if (/\w$/.test(head)) head = head.replace(/\w+$/, ""); // a word cut in the middle goes
  if (head.lastIndexOf("(") > head.lastIndexOf(")")) head = head.slice(0, head.lastIndexOf("(")); // so does an open "(seed "
  head = head.replace(/[\s,;:+-]+$/, "");
  return head ? `${head} (per cell)` : "per-cell tables";
}
