// Queue specs for BoPF admission properties, shared by the batch and kernel tests: TQs, and LQs
// with periodic bursts. Small integer volumes and periods hit the tolerance and resource
// boundaries exactly (ties, equal tolerances in the heap, hard rates summing to C); the doubles
// cover the rest.
import fc from "fast-check";
import type { PeriodicBursts } from "../../src/bopf/bursts.js";

export type Spec = { kind: "TQ" } | { kind: "LQ"; bursts: PeriodicBursts };

/** Specs over k resources. */
export function specArb(k: number): fc.Arbitrary<Spec> {
  const volume = fc.oneof(fc.integer({ min: 0, max: 60 }), fc.double({ min: 0, max: 200, noNaN: true }));
  return fc.oneof(
    fc.constant({ kind: "TQ" as const }),
    fc.record({
      kind: fc.constant("LQ" as const),
      bursts: fc.record({
        start: fc.integer({ min: -50, max: 100 }),
        period: fc.oneof(fc.integer({ min: 10, max: 400 }), fc.double({ min: 1, max: 1000, noNaN: true })),
        window: fc.oneof(fc.integer({ min: 1, max: 60 }), fc.double({ min: 0.5, max: 100, noNaN: true })),
        volume: fc.array(volume, { minLength: k, maxLength: k }),
        count: fc.integer({ min: 0, max: 500 }),
      }),
    }),
  );
}
