// Independent reference math for DRF tests: utilities, water-filling, random instances.
import fc from "fast-check";

export interface Instance {
  capacity: number[];
  demands: number[][];
  weights?: number[];
}

/** Leontief utility of allocation x for a queue whose true demand is d (SPEC §1). */
export function utility(d: ArrayLike<number>, x: ArrayLike<number>): number {
  let u = Infinity;
  for (let k = 0; k < d.length; k++) if (d[k] > 0) u = Math.min(u, x[k] / d[k]);
  return u === Infinity ? 0 : Math.min(1, u);
}

export function row(a: Float64Array, i: number, k: number): Float64Array {
  return a.subarray(i * k, i * k + k);
}

export function dominantShare(x: ArrayLike<number>, cap: ArrayLike<number>): number {
  let s = 0;
  for (let k = 0; k < cap.length; k++) s = Math.max(s, x[k] / cap[k]);
  return s;
}

/** Weighted max-min (water-filling) of one resource, by the textbook sort-and-fill. */
export function waterFill(cap: number, demands: number[], weights: number[]): number[] {
  const n = demands.length;
  const order = [...Array(n).keys()].filter((i) => demands[i] > 0).sort((a, b) => demands[a] / weights[a] - demands[b] / weights[b]);
  const out = new Array<number>(n).fill(0);
  let left = cap;
  let wLeft = order.reduce((s, i) => s + weights[i], 0);
  for (const i of order) {
    const fair = (left * weights[i]) / wLeft;
    const give = Math.min(demands[i], fair);
    out[i] = give;
    left -= give;
    wLeft -= weights[i];
  }
  return out;
}

const pos = fc.double({ min: 0.1, max: 100, noNaN: true, noDefaultInfinity: true });
const dem = fc.oneof(
  { weight: 1, arbitrary: fc.constant(0) },
  { weight: 4, arbitrary: fc.double({ min: 0.01, max: 60, noNaN: true, noDefaultInfinity: true }) },
);

/** Random instance: K in 1..6, N in 1..maxN, zero demands included, optional weights. */
export function instanceArb(opts: { maxN?: number; minK?: number; maxK?: number; weighted?: boolean; allPositive?: boolean } = {}): fc.Arbitrary<Instance> {
  const { maxN = 50, minK = 1, maxK = 6, weighted = true, allPositive = false } = opts;
  const d = allPositive ? fc.double({ min: 0.01, max: 60, noNaN: true, noDefaultInfinity: true }) : dem;
  return fc.integer({ min: minK, max: maxK }).chain((k) =>
    fc.integer({ min: 1, max: maxN }).chain((n) =>
      fc.record({
        capacity: fc.array(pos, { minLength: k, maxLength: k }),
        demands: fc.array(fc.array(d, { minLength: k, maxLength: k }), { minLength: n, maxLength: n }),
        weights: weighted
          ? fc.option(fc.array(fc.double({ min: 0.05, max: 20, noNaN: true, noDefaultInfinity: true }), { minLength: n, maxLength: n }), { nil: undefined })
          : fc.constant(undefined),
      }),
    ),
  ).map((r) => (r.weights === undefined ? { capacity: r.capacity, demands: r.demands } : r));
}
