// Turning report data into what uPlot draws: one shared x array per chart with one y array
// per series (uPlot's "aligned data"), and empirical CDFs of completion times.
import { empiricalCdf } from "../stats/cdf.js";
import type { Series } from "../scenarios/scenario.js";

/** uPlot's aligned data: [x, y1, y2, ...]; null = no sample at that x (a gap, spanned when drawn). */
export type Aligned = Array<Array<number | null>>;

/** JSON has no NaN/Infinity: they become null (a gap) instead of a silent 0. */
function finiteOrNull(v: number | null | undefined): number | null {
  return typeof v === "number" && Number.isFinite(v) ? v : null;
}

/** The x array every series is drawn on, and a function placing one series' values on it. */
function alignment(series: readonly Series[]): { x: Array<number | null>; place: (s: Series, v: ReadonlyArray<number | null>) => Array<number | null> } {
  for (const s of series) {
    if (!Array.isArray(s.x) || !Array.isArray(s.y) || s.x.length !== s.y.length) {
      throw new Error(`series '${s.name}': x and y must be arrays of the same length`);
    }
    for (const band of [s.lo, s.hi]) {
      if (band !== undefined && (!Array.isArray(band) || band.length !== s.x.length)) throw new Error(`series '${s.name}': lo and hi must be arrays as long as x`);
    }
  }
  const x0 = series[0].x;
  if (series.every((s) => s.x === x0 || (s.x.length === x0.length && s.x.every((v, i) => v === x0[i])))) {
    return { x: x0.map(finiteOrNull), place: (_s, v) => v.map(finiteOrNull) };
  }
  const xs = [...new Set(series.flatMap((s) => s.x.filter((v) => Number.isFinite(v))))].sort((a, b) => a - b);
  const at = new Map(xs.map((v, i) => [v, i]));
  return {
    x: xs,
    place: (s, v) => {
      const y: Array<number | null> = new Array(xs.length).fill(null);
      s.x.forEach((xv, i) => {
        const j = at.get(xv);
        if (j !== undefined) y[j] = finiteOrNull(v[i]);
      });
      return y;
    },
  };
}

/**
 * Aligns series that may have different x arrays. When every series shares one x array (the
 * simulator samples all queues at the same instants) it is used as is; otherwise the sorted
 * union of the x values, with null where a series has no sample.
 */
export function alignSeries(series: readonly Series[]): Aligned {
  if (series.length === 0) return [[]];
  const a = alignment(series);
  return [a.x, ...series.map((s) => a.place(s, s.y))];
}

/** Each series' interval ends ([lo, hi]) on the x array of alignSeries; null for a series without them. */
export function alignBands(series: readonly Series[]): Array<[Array<number | null>, Array<number | null>] | null> {
  if (series.length === 0) return [];
  const a = alignment(series);
  return series.map((s) => (s.lo && s.hi ? [a.place(s, s.lo), a.place(s, s.hi)] : null));
}

/** Empirical CDF of `values` as a named step series (src/stats/cdf.ts empiricalCdf). */
export function cdfSeries(name: string, values: readonly number[], maxPoints = 256): Series {
  return { name, ...empiricalCdf(values, maxPoints) };
}
