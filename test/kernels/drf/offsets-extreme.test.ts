// The DRF event path (offsets) on extreme but valid inputs: capacities from subnormal to
// 1e300, shares of 1e-280..1e280 side by side, weights 1e-20..1e20, offsets 0..1e200.
// (1) An exact reference (progressive filling in BigInt rationals, at the end of this file)
//     on small instances: every answer is within 1e-9 of the exact lambdas (scaled by the
//     queue's dominant share, capped at 1: the share of a resource it misplaces);
// (2) the docs/policies/drf.md#properties axioms that hold with offsets (feasibility, lambda * D, Pareto efficiency,
//     later starts get no more) on larger instances, in shares (subnormal allocations round);
// (3) all offsets 0: the event path answers whatever the level path answers, and exactly.
//     (Its lambdas are not compared with the level path's: on these magnitudes the level path
//     is itself off the exact answer at times; see the session report.)
// Refusals (E_SHARE_OVERFLOW) are allowed only where the header of assembly/drf.ts says the
// answer is beyond f64; the tests require most instances answered and name the refused
// examples. The examples first: each wrong answer the event path gave before, and each refusal.
// WASM and JS agree bit for bit on every instance.
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { loadEngineSync } from "../../../src/index.js";
import { assertAnswered, both, checkAxioms, checkExact, instance, offsetFew } from "../../helpers/drf-exact.js";

describe("DRF event path (offsets): the extreme cases that were wrong, and the ones refused", () => {
  const engines = [["wasm", loadEngineSync({ backend: "wasm" })], ["js", loadEngineSync({ backend: "js" })]] as const;
  for (const [name, engine] of engines) {
    it(`${name}: a weight 1e110 next to a capacity 1e300 no longer freezes every queue at 0 (rate * D overflowed)`, () => {
      const r = engine.drf({ capacity: [1e300], demands: [[1e250], [9.677590974905278e274], [1.1986219338305555]], weights: [0.18, 1.689881680638665e110, 1.34], offsets: [0, 0, 0] });
      expect(Array.from(r.fraction)).toEqual([1, 1, 1]);
    });
    it(`${name}: a subnormal capacity saturates (rate * D underflowed to 0 and the queue took 1e276 times C)`, () => {
      for (const offsets of [[0], [3]]) {
        const r = engine.drf({ capacity: [5e-324], demands: [[1e-300]], weights: [4.7e-266], offsets });
        expect(r.fraction[0]).toBeCloseTo(5e-324 / 1e-300, 30);
        expect(r.allocation[0]).toBe(5e-324);
      }
    });
    it(`${name}: a queue 1e300 times faster capping leaves the slow queue's slope intact (was summed away: over-allocation)`, () => {
      // fast queue: share 0.5, weight 1e300 (caps at once); slow: share 2 -> gets the other half: 0.25
      const r = engine.drf({ capacity: [1, 1], demands: [[0.5, 0], [2, 1e-3]], weights: [1e300, 1], offsets: [0, 0] });
      expect(Array.from(r.fraction)).toEqual([1, 0.25]);
    });
    it(`${name}: a ramp narrower than ulp(offset) whose queue fits is answered (was refused: e == s)`, () => {
      const r = engine.drf({ capacity: [1], demands: [[1e-10], [0.5]], weights: [1, 1], offsets: [1e200, 0] });
      expect(Array.from(r.fraction)).toEqual([1, 1]);
    });
    it(`${name}: refused, naming the queue: a late start whose saturation f64 cannot place, slopes past f64`, () => {
      // the second queue starts at theta = 1e200 and would stop at 1e200 + 0.5: not an f64 apart from 1e200
      expect(() => engine.drf({ capacity: [1], demands: [[0.5], [1]], weights: [1, 1], offsets: [0, 1e200] })).toThrow(/^demands\[1\]: .*beyond f64 precision/);
      // the same start 1e10 is fine: lambda 0.5
      expect(engine.drf({ capacity: [1], demands: [[0.5], [1]], weights: [1, 1], offsets: [0, 1e10] }).fraction[1]).toBeCloseTo(0.5, 5);
      // two weights of 1e308 ramping together: the slope (shares per unit of theta) is beyond f64
      expect(() => engine.drf({ capacity: [1], demands: [[1], [1]], weights: [1e308, 1e308], offsets: [0, 0] })).toThrow(/^demands\[0\]: .*beyond f64 precision/);
    });
  }
});

describe("DRF event path (offsets) on extreme magnitudes", () => {
  it("matches exact progressive filling (BigInt rationals) on small instances, both backends bit for bit", () => {
    assertAnswered(instance(5, 3, false, offsetFew), true, 800, 0.5, (x, o) => {
      checkExact(x, o);
      checkAxioms(x, o);
    });
  });

  it("satisfies feasibility, caps, Pareto efficiency and offsets on larger instances", () => {
    assertAnswered(instance(40, 6, false, offsetFew), true, 400, 0.5, checkAxioms);
  });

  it("with all offsets 0 it solves what the level path solves, and matches the exact answer", () => {
    let solved = 0, runs = 0;
    fc.assert(fc.property(instance(5, 3, true), (x) => {
      runs++;
      const ev = both(x, true);
      const lv = both(x, false);
      if (lv.code === 0) expect(ev.code).toBe(0);
      if (ev.code !== 0) return;
      solved++;
      checkExact(x, ev);
      checkAxioms(x, ev);
    }), { numRuns: 600 });
    expect(solved).toBeGreaterThan(runs * 0.5);
  });
});
