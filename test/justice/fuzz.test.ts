// Adversarial audit of the Justice namespace (runDeadlineSim with every allocator,
// JusticeEstimator, waterFill, jainIndex, computeMetrics, assignDeadlines): hostile numbers
// and objects give a result or an InputError naming the field, never a TypeError/RangeError
// or a hang; results keep their invariants (one outcome per job, shares within capacity,
// Jain's index in [1/n, 1]).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { justice, Rng } from "../../src/index.js";
import { FUZZ, hostileNumber, hostileValue, nonArray, outcome } from "../helpers/hostile.js";

const { runDeadlineSim, createAllocator, allocatorNames, JusticeEstimator, waterFill, jainIndex, computeMetrics, assignDeadlines } = justice;
const FIELD = /^(jobs|capacity|runtime|allocator|options|job|query|interval|caps|xs|type|params|compTime|requestedTasks|deadline|cpusAllocated|metDeadline|timeInQueue|fraction|\w+)(\.\w+|\[\d+\])*$/;

const num = (lo: number, hi: number) => fc.oneof({ weight: 6, arbitrary: fc.integer({ min: lo, max: hi }) }, { weight: 1, arbitrary: hostileValue });
const jobArb = fc.oneof(
  { weight: 10, arbitrary: fc.record({ id: fc.constantFrom("a", "b", "c", "d"), arrival: num(0, 50), requestedTasks: num(1, 20), compTime: num(1, 200), deadline: num(1, 300) }) },
  { weight: 1, arbitrary: fc.constantFrom<unknown>(null, 3, {}) },
);

describe("fuzz Justice", () => {
  it("runDeadlineSim under every allocator: hostile jobs and capacity -> outcomes or an InputError", () => {
    fc.assert(
      fc.property(fc.oneof({ weight: 8, arbitrary: fc.array(jobArb, { maxLength: 5 }) }, { weight: 1, arbitrary: nonArray }), num(1, 16), fc.constantFrom(...allocatorNames()), fc.constantFrom<unknown>("waves", "fluid", undefined, "x"), (jobs, capacity, name, runtime) => {
        const a = outcome(() => createAllocator(name, { capacity: capacity as number, runtime: runtime as never }), FIELD);
        if (a.kind !== "ok") return;
        const r = outcome(() => runDeadlineSim(jobs as never, a.value as never, { capacity: capacity as number, runtime: runtime as never }), FIELD);
        if (r.kind !== "ok") return;
        const run = r.value as { outcomes: unknown[] };
        expect(run.outcomes.length).toBe((jobs as unknown[]).length);
        const m = outcome(() => computeMetrics(jobs as never, run as never), FIELD);
        void m;
      }),
      { ...FUZZ, numRuns: Math.ceil(FUZZ.numRuns / 2) },
    );
  });

  it("JusticeEstimator: hostile options, tracked jobs and queries -> estimates or InputErrors; estimates whole and within capacity", () => {
    fc.assert(
      fc.property(num(1, 64), fc.array(fc.record({ compTime: num(1, 100), requestedTasks: num(1, 30), deadline: num(1, 200), cpusAllocated: num(1, 30), metDeadline: fc.constantFrom<unknown>(true, false, 1), timeInQueue: num(0, 10) }), { maxLength: 5 }), fc.record({ requestedTasks: num(1, 40), deadline: num(1, 300), timeInQueue: num(0, 50) }), (capacity, tracked, q) => {
        const e = outcome(() => new JusticeEstimator({ capacity } as never), FIELD);
        if (e.kind !== "ok") return;
        const est = e.value as InstanceType<typeof JusticeEstimator>;
        for (const t of tracked) outcome(() => est.trackJob(t as never), FIELD);
        const r = outcome(() => est.estimateCpus(q as never), FIELD);
        if (r.kind !== "ok") return;
        // cpus: null when no time is left, else a whole number >= 1 (above maxCpus when infeasible)
        const { cpus, fraction, feasible } = r.value as { cpus: number | null; fraction: number; feasible: boolean };
        expect(cpus === null || (Number.isInteger(cpus) && cpus >= 1)).toBe(true);
        expect(Number.isNaN(fraction)).toBe(false);
        if (feasible) expect(cpus! <= (capacity as number)).toBe(true);
      }),
      FUZZ,
    );
  });

  it("waterFill: hostile capacity and caps -> shares within caps summing to at most the capacity, or an InputError", () => {
    fc.assert(
      fc.property(fc.oneof(fc.integer({ min: 0, max: 50 }), hostileValue), fc.oneof(fc.array(fc.oneof(fc.integer({ min: 0, max: 20 }), hostileValue), { maxLength: 5 }), nonArray), (capacity, caps) => {
        const r = outcome(() => waterFill(capacity as never, caps as never), FIELD);
        if (r.kind !== "ok") return;
        const share = r.value as number[];
        let sum = 0;
        share.forEach((s, i) => {
          expect(Number.isInteger(s) && s >= 0 && s <= (caps as number[])[i]).toBe(true);
          sum += s;
        });
        expect(sum).toBeLessThanOrEqual(capacity as number);
      }),
      FUZZ,
    );
  });

  it("jainIndex: extreme values -> an index in [1/n, 1] (or null for none), or an InputError", () => {
    fc.assert(
      fc.property(fc.oneof(fc.array(fc.oneof(hostileNumber, fc.double({ min: 0, max: 1e308, noNaN: true })), { maxLength: 6 }), nonArray), (xs) => {
        const r = outcome(() => jainIndex(xs as never), FIELD);
        if (r.kind !== "ok") return;
        const j = r.value as number | null;
        const n = (xs as number[]).length;
        if (n === 0) expect(j).toBe(null);
        else expect(j! >= 1 / n - 1e-12 && j! <= 1 + 1e-12).toBe(true);
      }),
      FUZZ,
    );
  });

  it("findings, each failing before its fix", () => {
    // Jain's index of equal huge values is 1 (s * s overflowed: NaN), of <1e-200, 0> is 1/2 (s2 underflowed to 0: 1)
    expect(jainIndex([1e200, 1e200])).toBe(1);
    expect(jainIndex([1e-200, 0])).toBe(0.5);
    expect(jainIndex([3, 1])).toBe(16 / 20); // the usual values unchanged
    const field = (f: () => unknown) => {
      const o = outcome(f);
      return o.kind === "input" ? o.error.field : o.kind;
    };
    expect(field(() => jainIndex([NaN]))).toBe("xs[0]");
    // waterFill: an Infinity capacity gave NaN shares; a NaN cap was handed out
    expect(field(() => waterFill(Infinity, [1, 2]))).toBe("capacity");
    expect(field(() => waterFill(10, [1, NaN]))).toBe("caps[1]");
    // computeMetrics with a tiny interval allocated makespan / interval buckets (a RangeError)
    const jobs = [{ id: "a", arrival: 0, requestedTasks: 2, compTime: 20, deadline: 30 }];
    const run = runDeadlineSim(jobs, createAllocator("justice", { capacity: 4 }), { capacity: 4 });
    expect(field(() => computeMetrics(jobs, run, 1e-300))).toBe("interval");
    // the oracle offered 0 CPUs (an internal Error) to a job whose task duration is subnormal
    const tiny = [{ id: "a", arrival: 0, requestedTasks: 4, compTime: 2.2e-308, deadline: 1 }];
    expect(outcome(() => runDeadlineSim(tiny, createAllocator("oracle", { capacity: 1 }), { capacity: 1 })).kind).toBe("ok");
    // 2^31 tasks on 11 CPUs: one wave event each, memory exhausted (the test worker crashed)
    const many = [{ id: "c", arrival: 9, requestedTasks: 2 ** 31, compTime: 57, deadline: 3 }];
    expect(field(() => runDeadlineSim(many, createAllocator("reactive-fs", { capacity: 11 }), { capacity: 11 }))).toBe("jobs[0].requestedTasks");
    // assignDeadlines with a non-array
    expect(field(() => assignDeadlines(null as never, "Fixed1x", 4, new Rng(1)))).toBe("jobs");
  });
});
