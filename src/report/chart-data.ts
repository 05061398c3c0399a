// Turning report data into what uPlot draws: one shared x array per chart with one y array
// per series (uPlot's "aligned data"), and empirical CDFs of completion times.
import type { Series } from "../scenarios/scenario.js";

/** uPlot's aligned data: [x, y1, y2, ...]; null = no sample at that x (a gap, spanned when drawn). */
export type Aligned = Array<Array<number | null>>;

/** JSON has no NaN/Infinity: they become null (a gap) instead of a silent 0. */
function finiteOrNull(v: number | null | undefined): number | null {
  return typeof v === "number" && Number.isFinite(v) ? v : null;
}

/**
 * Aligns series that may have different x arrays. When every series shares one x array (the
 * simulator samples all queues at the same instants) it is used as is; otherwise the sorted
 * union of the x values, with null where a series has no sample.
 */
export function alignSeries(series: readonly Series[]): Aligned {
  if (series.length === 0) return [[]];
  for (const s of series) {
    if (!Array.isArray(s.x) || !Array.isArray(s.y) || s.x.length !== s.y.length) {
      throw new Error(`series '${s.name}': x and y must be arrays of the same length`);
    }
  }
  const x0 = series[0].x;
  if (series.every((s) => s.x === x0 || (s.x.length === x0.length && s.x.every((v, i) => v === x0[i])))) {
    const x = x0.map(finiteOrNull);
    return [x, ...series.map((s) => s.y.map(finiteOrNull))];
  }
  const xs = [...new Set(series.flatMap((s) => s.x.filter((v) => Number.isFinite(v))))].sort((a, b) => a - b);
  const at = new Map(xs.map((v, i) => [v, i]));
  const ys = series.map((s) => {
    const y: Array<number | null> = new Array(xs.length).fill(null);
    s.x.forEach((v, i) => {
      const j = at.get(v);
      if (j !== undefined) y[j] = finiteOrNull(s.y[i]);
    });
    return y;
  });
  return [xs, ...ys];
}

/**
 * Empirical CDF of `values` as a step series: x = the value, y = fraction of values <= x. Large
 * samples are reduced to `maxPoints` quantiles (the largest value always kept) so a report with
 * 100k jobs stays small; the curve's shape is unchanged at screen resolution.
 */
export function cdfSeries(name: string, values: readonly number[], maxPoints = 256): Series {
  const v = values.filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
  const n = v.length;
  const x: number[] = [];
  const y: number[] = [];
  if (n === 0) return { name, x, y };
  if (n <= maxPoints) {
    for (let i = 0; i < n; i++) {
      // Ties: keep only the last (highest) fraction at a repeated value.
      if (i + 1 < n && v[i + 1] === v[i]) continue;
      x.push(v[i]);
      y.push((i + 1) / n);
    }
    return { name, x, y };
  }
  let last = -1;
  for (let j = 1; j <= maxPoints; j++) {
    let i = Math.ceil((j / maxPoints) * n) - 1;
    while (i + 1 < n && v[i + 1] === v[i]) i++;
    if (i <= last) continue;
    last = i;
    x.push(v[i]);
    y.push((i + 1) / n);
  }
  return { name, x, y };
}
