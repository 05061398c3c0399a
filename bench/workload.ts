// Deterministic DRF instances for the benchmarks. The same (N, K, seed) always gives the
// same arrays, so runs on different machines and before/after a change measure the same work.
//
// Shape, chosen to exercise every part of the kernel rather than its fast paths:
// - capacity C[r] = N (a fair share is about one unit per queue), different per resource;
// - 10% of demand entries are zero, so queues use different resource subsets;
// - demands are log-uniform over [0.05, 20]: total demand is ~3x capacity on every
//   resource, so some queues are capped, most freeze at a saturation, and saturations
//   happen at several distinct levels;
// - weights are uniform in [0.5, 4], no offsets (plain weighted DRF, the common call).

export interface DrfInstance {
  n: number;
  k: number;
  capacity: Float64Array;
  /** Queue-major N*K. */
  demands: Float64Array;
  weights: Float64Array;
}

/** splitmix32: tiny, seedable, 32-bit only, identical on every platform. */
export function seededUniform(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x9e3779b9) >>> 0;
    let z = s;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
    return ((z ^ (z >>> 16)) >>> 0) / 2 ** 32;
  };
}

export function drfInstance(n: number, k: number, seed = 1): DrfInstance {
  const rnd = seededUniform(seed * 1_000_003 + n * 31 + k);
  const capacity = new Float64Array(k);
  for (let r = 0; r < k; r++) capacity[r] = n * (0.75 + 0.5 * rnd());
  const demands = new Float64Array(n * k);
  const lo = Math.log(0.05), hi = Math.log(20);
  for (let i = 0; i < n * k; i++) demands[i] = rnd() < 0.1 ? 0 : Math.exp(lo + (hi - lo) * rnd());
  const weights = new Float64Array(n);
  for (let i = 0; i < n; i++) weights[i] = 0.5 + 3.5 * rnd();
  return { n, k, capacity, demands, weights };
}

/** The same demands as rows of plain numbers: what most callers have. */
export function demandRows(x: DrfInstance): number[][] {
  const rows: number[][] = new Array(x.n);
  for (let i = 0; i < x.n; i++) rows[i] = Array.from(x.demands.subarray(i * x.k, (i + 1) * x.k));
  return rows;
}
