// BoPF allocation at an instant (docs/policies/bopf.md#allocation-at-an-instant): worked example, feasibility, Pareto efficiency
// / work conservation, guarantees honoured, nothing beyond a queue's demand, bad input.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { InputError } from "../../src/index.js";
import { allocateInstant, type InstantQueue } from "../../src/bopf/allocate.js";
import { backends } from "../helpers/engines.js";

const engine = backends[0][1]();
const js = backends[1][1]();

describe("BoPF allocation at an instant", () => {
  it("the worked example of src/bopf/allocate.ts", () => {
    const r = allocateInstant(engine, [10, 10], [
      { class: "hard", want: [8, 4], guarantee: { rate: [6, 3], remaining: [100, 50] } },
      { class: "soft", want: [4, 4], guarantee: { rate: [4, 4], remaining: [20, 20] } },
      { class: "elastic", want: [10, 10] },
    ]);
    expect(Array.from(r.allocation)).toEqual([6, 3, 4, 4, 0, 0]);
  });

  it("without guarantees it is DRF; an expired (consumed) guarantee competes as elastic", () => {
    const queues: InstantQueue[] = [
      { class: "hard", want: [9, 36], guarantee: { rate: [9, 36], remaining: [0, 0] } },
      { class: "elastic", want: [27, 9] },
    ];
    const r = allocateInstant(engine, [9, 18], queues);
    const d = engine.drf({ capacity: [9, 18], demands: [[9, 36], [27, 9]] });
    expect(Array.from(r.allocation)).toEqual(Array.from(d.allocation));
  });

  const k = 3;
  const vec = (max: number) => fc.array(fc.oneof(fc.double({ min: 0, max, noNaN: true }), fc.constant(0)), { minLength: k, maxLength: k });
  const queueArb: fc.Arbitrary<InstantQueue> = fc.record({
    class: fc.constantFrom("hard" as const, "soft" as const, "elastic" as const, "rejected" as const),
    want: vec(8),
    weight: fc.double({ min: 0.5, max: 3, noNaN: true }),
    guarantee: fc.option(fc.record({ rate: vec(6), remaining: vec(50) }), { nil: null }),
  });
  const cap = [10, 10, 10];

  it("feasible, within demand, guarantees honoured, and Pareto efficient (work conserving) at every instant", () => {
    fc.assert(fc.property(fc.array(queueArb, { maxLength: 12 }), (queues) => {
      const { allocation: a, steps } = allocateInstant(engine, cap, queues);
      const used = [0, 0, 0];
      queues.forEach((q, i) => {
        for (let r = 0; r < k; r++) {
          const x = a[i * k + r];
          used[r] += x;
          expect(x).toBeGreaterThanOrEqual(0);
          expect(x).toBeLessThanOrEqual(q.want[r] * (1 + 1e-9) + 1e-12); // never more than it can use
          if (q.class === "rejected") expect(x).toBe(0);
          if (q.class !== "soft") expect(steps.soft[i * k + r]).toBe(0);
        }
      });
      for (let r = 0; r < k; r++) expect(used[r]).toBeLessThanOrEqual(cap[r] * (1 + 1e-9));
      // hard guarantees: min(rate, want) whenever the hard rates fit (admission's condition (3))
      const hardSum = [0, 0, 0];
      queues.forEach((q) => {
        if (q.class === "hard" && q.guarantee && Array.from(q.guarantee.remaining).some((v) => v > 0)) {
          for (let r = 0; r < k; r++) hardSum[r] += Math.min(q.guarantee.rate[r], q.want[r]);
        }
      });
      if (hardSum.every((s, r) => s <= cap[r])) {
        queues.forEach((q, i) => {
          if (q.class !== "hard" || !q.guarantee || !Array.from(q.guarantee.remaining).some((v) => v > 0)) return;
          for (let r = 0; r < k; r++) expect(a[i * k + r]).toBeGreaterThanOrEqual(Math.min(q.guarantee.rate[r], q.want[r]) * (1 - 1e-9));
        });
      }
      // Pareto (docs/policies/drf.md#properties): every admitted queue with unmet demand needs some resource that is
      // (numerically) full. "Needs" is every resource it wants any of: under Leontief utility a
      // queue wanting 5e-324 of a full resource can use nothing more, however tiny that want.
      queues.forEach((q, i) => {
        if (q.class === "rejected") return;
        const unmet = [0, 1, 2].filter((r) => q.want[r] - a[i * k + r] > 1e-9 * Math.max(1, q.want[r]));
        if (unmet.length === 0) return;
        const needs = [0, 1, 2].filter((r) => q.want[r] > 0);
        expect(needs.some((r) => used[r] >= cap[r] * (1 - 1e-9)), `queue ${i} unmet on ${unmet} with no full resource`).toBe(true);
      });
    }), { numRuns: 300 });
  });

  it("same result on the WASM and JS engines", () => {
    fc.assert(fc.property(fc.array(queueArb, { maxLength: 12 }), (queues) => {
      expect(Array.from(allocateInstant(engine, cap, queues).allocation)).toEqual(Array.from(allocateInstant(js, cap, queues).allocation));
    }), { numRuns: 150 });
  });

  it("an inflated rate never gives a hard LQ more than its real demand", () => {
    fc.assert(fc.property(vec(8), fc.double({ min: 1, max: 10, noNaN: true }), (want, f) => {
      const q = (s: number): InstantQueue => ({ class: "hard", want, guarantee: { rate: want.map((w) => w * s), remaining: [1, 1, 1] } });
      const a = allocateInstant(engine, cap, [q(f), { class: "elastic", want: [10, 10, 10] }]).allocation;
      for (let r = 0; r < k; r++) expect(a[r]).toBeLessThanOrEqual(want[r] + 1e-12);
    }));
  });

  it("bad input is an InputError naming queue and index", () => {
    const err = (qs: unknown, field: string) => {
      try {
        allocateInstant(engine, [1, 1], qs as InstantQueue[]);
        throw new Error("no error");
      } catch (e) {
        expect(e).toBeInstanceOf(InputError);
        expect((e as InputError).field).toBe(field);
      }
    };
    err([{ class: "elastic", want: [1, NaN] }], "queues[0].want[1]");
    err([{ class: "elastic", want: [1, 1] }, { class: "hard", want: [1], guarantee: null }], "queues[1].want");
    err([{ class: "soft", want: [1, 1], guarantee: { rate: [1, -1], remaining: [1, 1] } }], "queues[0].guarantee.rate[1]");
    err([{ class: "vip", want: [1, 1] }], "queues[0].class");
  });
});
