// Random DRF instances for the engine tests (the reference math lives in the test kit).
import fc from "fast-check";

export interface Instance {
  capacity: number[];
  demands: number[][];
  weights?: number[];
}

// The Leontief reference math has one home, the public test kit (src/testkit/model.ts).
export { dominantShare, utility, waterFill } from "../../src/testkit/model.js";

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
