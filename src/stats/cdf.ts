// Empirical CDFs as step points: x = a value, y = the fraction of values <= x. The report draws
// them (src/report/chart-data.ts cdfSeries) and scenarios put them in their charts (Phoenix's
// response-time CDFs), so the computation lives here, below both.

/**
 * Empirical CDF of `values` (non-finite values dropped). Ties keep only the highest fraction at a
 * repeated value. Large samples are reduced to `maxPoints` quantiles (the largest value always
 * kept), so a chart of 100k jobs stays small; the curve's shape is unchanged at screen resolution.
 * Example: [3, 1, 2, 2] -> x [1, 2, 3], y [0.25, 0.75, 1].
 */
export function empiricalCdf(values: readonly number[], maxPoints = 256): { x: number[]; y: number[] } {
  const v = values.filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
  const n = v.length;
  const x: number[] = [];
  const y: number[] = [];
  if (n === 0) return { x, y };
  if (n <= maxPoints) {
    for (let i = 0; i < n; i++) {
      if (i + 1 < n && v[i + 1] === v[i]) continue;
      x.push(v[i]);
      y.push((i + 1) / n);
    }
    return { x, y };
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
  return { x, y };
}
