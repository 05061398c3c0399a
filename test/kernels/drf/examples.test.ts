// Worked examples and edge cases, exact, on both backends.
import { describe, expect, it } from "vitest";
import { backends, close } from "../../helpers/engines.js";

for (const [name, make] of backends) {
  describe(`DRF examples (${name})`, () => {
    const engine = make();

    it("DRF paper: C = <9, 18>, A <1,4>, B <3,1> per task -> A 3 tasks, B 2 tasks", () => {
      const r = engine.drf({ capacity: [9, 18], demands: [[9, 36], [27, 9]] });
      expect(Array.from(r.allocation)).toEqual([3, 12, 6, 2]);
      expect(r.dominantShare[0]).toBeCloseTo(2 / 3, 15);
      expect(r.dominantShare[1]).toBeCloseTo(2 / 3, 15);
      expect(engine.backend).toBe(name);
    });

    it("single resource water-filling: 10 units, demands 2, 4, 8 -> 2, 4, 4", () => {
      const r = engine.drf({ capacity: [10], demands: [[2], [4], [8]] });
      expect(Array.from(r.allocation)).toEqual([2, 4, 4]);
      expect(Array.from(r.fraction)).toEqual([1, 1, 0.5]);
    });

    it("weighted single resource: weights 1, 3 split 12 units 3 : 9", () => {
      const r = engine.drf({ capacity: [12], demands: [[100], [100]], weights: [1, 3] });
      expect(close(r.allocation[0], 3)).toBe(true);
      expect(close(r.allocation[1], 9)).toBe(true);
    });

    it("offsets delay a queue: offset 0.25 on one resource of 1 -> shares 0.375 / 0.625", () => {
      // theta rises; B starts at 0.25; both ramp at rate 1 -> A = theta, B = theta - 0.25 = 1 - theta
      const r = engine.drf({ capacity: [1], demands: [[1], [1]], offsets: [0, 0.25] });
      expect(close(r.allocation[0], 0.625)).toBe(true);
      expect(close(r.allocation[1], 0.375)).toBe(true);
    });

    it("N = 0 gives empty results", () => {
      const r = engine.drf({ capacity: [1, 2], demands: [] });
      expect(r.fraction.length).toBe(0);
      expect(r.allocation.length).toBe(0);
    });

    it("K = 1, one queue: gets min(demand, capacity)", () => {
      expect(Array.from(engine.drf({ capacity: [5], demands: [[3]] }).allocation)).toEqual([3]);
      expect(Array.from(engine.drf({ capacity: [5], demands: [[30]] }).allocation)).toEqual([5]);
    });

    it("all-zero demands give nothing", () => {
      const r = engine.drf({ capacity: [1, 1], demands: [[0, 0], [0, 0]] });
      expect(Array.from(r.fraction)).toEqual([0, 0]);
      expect(Array.from(r.allocation)).toEqual([0, 0, 0, 0]);
    });

    it("weights spanning 1e-6..1e6 split one resource in proportion", () => {
      const weights = [1e-6, 1, 1e6];
      const r = engine.drf({ capacity: [1], demands: [[10], [10], [10]], weights });
      const W = weights.reduce((a, b) => a + b, 0);
      weights.forEach((w, i) => expect(close(r.allocation[i], w / W, 1e-9)).toBe(true));
    });

    it("accepts typed arrays and flat demands and returns caller-owned arrays", () => {
      const a = engine.drf({ capacity: new Float64Array([9, 18]), demands: new Float64Array([9, 36, 27, 9]) });
      const b = engine.drf({ capacity: [1], demands: [[0.5]] });
      expect(Array.from(a.allocation)).toEqual([3, 12, 6, 2]); // not overwritten by the next call
      expect(Array.from(b.allocation)).toEqual([0.5]);
      const c = engine.drf({ capacity: [9, 18], demands: [new Float64Array([9, 36]), new Float32Array([27, 9])] });
      expect(Array.from(c.allocation)).toEqual([3, 12, 6, 2]);
    });

    it("a queue whose demand is met leaves the rest to the others", () => {
      const r = engine.drf({ capacity: [10, 10], demands: [[1, 1], [20, 5], [5, 20]] });
      // q0 caps at theta = 0.1; q1, q2 ramp <10, 2.5> theta and <2.5, 10> theta: both resources fill at theta = 0.72
      expect(r.fraction[0]).toBe(1);
      expect(close(r.fraction[1], 0.36)).toBe(true);
      expect(close(r.allocation[0] + r.allocation[2] + r.allocation[4], 10)).toBe(true);
      expect(close(r.allocation[1] + r.allocation[3] + r.allocation[5], 10)).toBe(true);
    });
  });
}
