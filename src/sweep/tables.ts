// A merged sweep as Table values (formatted as text by src/report/sweep-text.ts).
import type { Table } from "../scenarios/table.js";
import type { MergedSweep } from "./lines.js";

/**
 * The sweep's tables: the k-th table of every cell's report, stacked into one table per
 * (position, columns), each row prefixed with the cell's parameters and seed (and its policy when
 * the table has no policy column). Titles are the first cell's.
 */
export function sweepTables(m: MergedSweep): Table[] {
  const keys = Object.keys(m.header.spec.params ?? {});
  const groups = new Map<string, Table>();
  for (const { cell, report } of m.cells) {
    report.tables.forEach((t, k) => {
      const hasPolicy = t.columns[0] === "policy";
      const id = `${k}\u0000${t.columns.join("\u0000")}`;
      let g = groups.get(id);
      if (!g) {
        g = {
          title: `${m.header.spec.scenario} sweep: ${t.title}`,
          // The policy first: the cell's own, or the scenario table's policy column moved up.
          columns: ["policy", ...keys, "seed", ...(hasPolicy ? t.columns.slice(1) : t.columns)],
          rows: [],
        };
        groups.set(id, g);
      }
      for (const row of t.rows) {
        const prefix = [...keys.map((key) => cell.params[key]), cell.seed];
        g.rows.push(hasPolicy ? [row[0], ...prefix, ...row.slice(1)] : [cell.policy, ...prefix, ...row]);
      }
    });
  }
  return [...groups.values()];
}

