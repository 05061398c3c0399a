// Differential: the WASM backend equals the pure-TS reference (same algorithm, same float
// operations in the same order, so equality is exact; docs/policies/model.md asks for 1e-9 relative).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { loadEngineSync } from "../../../src/index.js";
import { instanceArb } from "../../helpers/drf-model.js";

describe("DRF: WASM == JS reference", () => {
  const wasm = loadEngineSync({ backend: "wasm" });
  const js = loadEngineSync({ backend: "js" });

  it("on random instances with weights and offsets", () => {
    const arb = instanceArb({ maxN: 120, maxK: 8 }).chain((x) =>
      fc.record({
        x: fc.constant(x),
        offsets: fc.option(fc.array(fc.double({ min: 0, max: 5, noNaN: true, noDefaultInfinity: true }), { minLength: x.demands.length, maxLength: x.demands.length }), { nil: undefined }),
      }),
    );
    fc.assert(fc.property(arb, ({ x, offsets }) => {
      const input = offsets ? { ...x, offsets } : x;
      const a = wasm.drf(input);
      const b = js.drf(input);
      expect(Array.from(a.fraction)).toEqual(Array.from(b.fraction));
      expect(Array.from(a.allocation)).toEqual(Array.from(b.allocation));
      expect(Array.from(a.dominantShare)).toEqual(Array.from(b.dominantShare));
    }), { numRuns: 1500, endOnFailure: true }); // shrinking 100s of doubles takes minutes; report the raw case
  });

  it("on large instances (radix sort path, N up to 20,000)", () => {
    let seed = 7;
    const rnd = () => ((seed = (seed * 1664525 + 1013904223) >>> 0) / 2 ** 32);
    for (const [n, k] of [[1000, 2], [5000, 6], [20000, 3]] as const) {
      const capacity = Array.from({ length: k }, () => 1 + rnd() * 100);
      const demands = new Float64Array(n * k).map(() => (rnd() < 0.1 ? 0 : rnd() * 5));
      const weights = new Float64Array(n).map(() => 0.1 + rnd() * 10);
      const offsets = new Float64Array(n).map(() => (rnd() < 0.5 ? 0 : rnd()));
      const a = wasm.drf({ capacity, demands, weights, offsets });
      const b = js.drf({ capacity, demands, weights, offsets });
      expect(Array.from(a.fraction)).toEqual(Array.from(b.fraction));
    }
  });
});
