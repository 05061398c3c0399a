// Why a column of a results table is 0 in every row: a reader seeing "LQ met 0" for every policy
// otherwise cannot tell a measured zero from a broken column.
import type { Table } from "../scenarios/table.js";

/** Per column name, the reason it can be 0 everywhere ({param} reads the report's parameter). */
const WHY_ZERO: Record<string, string> = {
  "LQ met":
    "LQ met is 0 in every row: it is the share of LQ bursts finished within their deadline, which is the burst's own length " +
    "alone on the whole cluster times deadlineSlack ({deadlineSlack}); a burst that shares the cluster with any other work misses it.",
  rejected:
    "rejected is 0 in every row: it counts jobs refused by admission control, which only BoPF and N-BoPF have, and they admitted every queue here.",
};

const isZero = (v: unknown) => v === 0 || (typeof v === "string" && /^0(\.0+)?( ±.*)?$/.test(v.trim()));

/** The notes a table needs for its columns that are 0 in every row (tables of one row excepted). */
export function zeroColumnNotes(t: Table, params: Record<string, unknown> = {}): string[] {
  if (t.rows.length < 2) return [];
  const notes: string[] = [];
  t.columns.forEach((c, j) => {
    if (!t.rows.every((r) => isZero(r[j]))) return;
    const why = WHY_ZERO[c];
    notes.push(why ? why.replace(/\{(\w+)\}/g, (_, k: string) => (params[k] === undefined ? "default 1" : String(params[k]))) : `${c} is 0 in every row.`);
  });
  return notes;
}
