// A merged sweep as Table values (formatted as text by src/report/sweep-text.ts).
import type { Table } from "../scenarios/table.js";
import type { MergedSweep } from "./lines.js";

/**
 * The sweep's tables: the k-th table of every cell's report, stacked into one table per
 * (position, columns), each row prefixed with the cell's parameters and seed (and its policy when
 * the table has no policy column). A title is the cells' common title: when cells' titles differ
 * (a seed or a parameter in them), their shared beginning, cut at a word, and "(per cell)".
 */
export function sweepTables(m: MergedSweep): Table[] {
  const keys = Object.keys(m.header.spec.params ?? {});
  const groups = new Map<string, Table>();
  const titles = new Map<string, Set<string>>();
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
      titles.get(id)?.add(t.title) ?? titles.set(id, new Set([t.title]));
      for (const row of t.rows) {
        const prefix = [...keys.map((key) => cell.params[key]), cell.seed];
        g.rows.push(hasPolicy ? [row[0], ...prefix, ...row.slice(1)] : [cell.policy, ...prefix, ...row]);
      }
    });
  }
  for (const [id, g] of groups) g.title = `${m.header.spec.scenario} sweep: ${commonTitle([...titles.get(id)!])}`;
  return [...groups.values()];
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

