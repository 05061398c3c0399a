// A sweep as CSV (RFC 4180): one row per cell without its seed (policy, grid parameters, the
// row's labels) and per row of each of the sweep's tables, every metric as three columns
// `<metric> mean`, `<metric> lo`, `<metric> hi` (the 95% Student-t interval over the seeds;
// empty with one seed). Tables with different columns share one file: the `table` column names
// the table (its title without the interval note), and a column a table does not have is empty. Numbers are written in full precision.
import { aggregateSweep } from "../sweep/aggregate.js";
import type { MergedSweep } from "../sweep/lines.js";

/** A CSV field: quoted when it holds a comma, quote, CR or LF (quotes doubled). */
export function csvField(v: string | number | null | undefined): string {
  if (v === null || v === undefined) return "";
  const s = typeof v === "number" ? (Number.isFinite(v) ? String(v) : "") : v;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** The sweep's seed aggregates as CSV text (header line first, CRLF line ends). */
export function sweepCsv(m: MergedSweep): string {
  const tables = aggregateSweep(m);
  const paramKeys = Object.keys(m.header.spec.params ?? {});
  const union = (pick: (t: (typeof tables)[number]) => string[]) => [...new Set(tables.flatMap(pick))];
  // a grid parameter and a label column of the same name would collide: the label gets a prefix
  const labels = union((t) => t.labelColumns);
  const labelName = (l: string) => (l === "policy" || l === "table" || l === "seeds" || paramKeys.includes(l) ? `row ${l}` : l);
  const metrics = union((t) => t.metricColumns);
  const header = ["table", "policy", ...paramKeys, ...labels.map(labelName), "seeds", ...metrics.flatMap((c) => [`${c} mean`, `${c} lo`, `${c} hi`])];
  const lines = [header.map(csvField).join(",")];
  for (const t of tables) {
    for (const r of t.rows) {
      const label = new Map(t.labelColumns.map((c, i) => [c, r.labels[i]]));
      const stat = new Map(t.metricColumns.map((c, i) => [c, r.stats[i]]));
      lines.push([
        t.name, r.policy, ...r.params, ...labels.map((l) => label.get(l) ?? null), r.seeds,
        ...metrics.flatMap((c) => {
          const s = stat.get(c);
          return s ? [s.mean, s.lo, s.hi] : [null, null, null];
        }),
      ].map(csvField).join(","));
    }
  }
  return lines.join("\r\n") + "\r\n";
}
