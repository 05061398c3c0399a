// Summary statistics of the event core, used by every report: the one percentile function
// (nearest rank) of src/.

/** Nearest-rank percentile (p in [0, 100]) of an ascending-sorted array; null when empty. */
export function percentileSorted(sorted: ArrayLike<number>, p: number): number | null {
  const n = sorted.length;
  if (n === 0) return null;
  const rank = Math.ceil((p / 100) * n);
  return sorted[Math.min(n - 1, Math.max(0, rank - 1))];
}

export function mean(xs: ArrayLike<number>): number | null {
  if (xs.length === 0) return null;
  let s = 0;
  for (let i = 0; i < xs.length; i++) s += xs[i];
  return s / xs.length;
}

export interface Summary {
  count: number;
  mean: number | null;
  p50: number | null;
  p90: number | null;
  p99: number | null;
}

export function summarize(values: number[]): Summary {
  const s = Float64Array.from(values).sort();
  return { count: s.length, mean: mean(s), p50: percentileSorted(s, 50), p90: percentileSorted(s, 90), p99: percentileSorted(s, 99) };
}

/** Factor of improvement of `better` over `base` (base / better), null when undefined. */
export function improvement(base: number | null, better: number | null): number | null {
  if (base === null || better === null || better === 0) return null;
  return base / better;
}
