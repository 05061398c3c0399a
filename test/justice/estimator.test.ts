// Justice's estimator (Algorithms 1-3, ESTIMATE_REQ) on hand-computed sequences.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { InputError } from "../../src/errors.js";
import { JusticeEstimator } from "../../src/justice/estimator.js";
import { SmoothedAverage } from "../../src/justice/smoothing.js";

const A = { compTime: 400, requestedTasks: 10, deadline: 80, cpusAllocated: 10, metDeadline: true };
const B = { compTime: 300, requestedTasks: 4, deadline: 100, cpusAllocated: 4, metDeadline: true };
const M = { compTime: 1800, requestedTasks: 20, deadline: 100, cpusAllocated: 10, metDeadline: false };

describe("JusticeEstimator", () => {
  it("bootstrap: until two jobs completed, asks min(requestedTasks, capacity)", () => {
    const e = new JusticeEstimator({ capacity: 16 });
    expect(e.estimateCpus({ requestedTasks: 5, deadline: 10, timeInQueue: 0 })).toMatchObject({ cpus: 5, feasible: true, bootstrap: true });
    expect(e.estimateCpus({ requestedTasks: 50, deadline: 10, timeInQueue: 3 })).toMatchObject({ cpus: 16, feasible: true, bootstrap: true });
    e.trackJob(A);
    expect(e.estimateCpus({ requestedTasks: 50, deadline: 10, timeInQueue: 0 }).cpus).toBe(16);
    e.trackJob(B);
    expect(e.estimateCpus({ requestedTasks: 50, deadline: 10, timeInQueue: 0 }).bootstrap).toBe(false);
    // no time left is infeasible even in bootstrap
    expect(new JusticeEstimator({ capacity: 4 }).estimateCpus({ requestedTasks: 2, deadline: 10, timeInQueue: 10 }))
      .toMatchObject({ feasible: false, cpus: null });
  });

  it("met deadlines: Algorithm 1 state and the fraction moving toward MinCPUFrac", () => {
    const e = new JusticeEstimator({ capacity: 100 });
    e.trackJob(A);
    let s = e.state();
    expect(s.minReqRateList).toEqual([0.5]);
    expect([s.MinCPUFrac, s.MaxCPUFrac, s.LastCPUFrac, s.LastSuccess]).toEqual([0.5, 0.5, 1, true]);
    expect(s.fractionErrorList).toEqual([-0.5]);
    e.trackJob(B);
    s = e.state();
    expect(s.minReqRateList).toEqual([0.5, 0.75]);
    expect([s.MinCPUFrac, s.MaxCPUFrac, s.LastCPUFrac]).toEqual([0.5, 0.75, 1]);
    expect(s.fractionErrorList).toEqual([-0.5, -0.25]);
    // Alg. 2: (1 + 0.5)/2 = 0.75; smoothed error -0.375 -> 0.375, clamped up to MinCPUFrac 0.5
    const est = e.estimateCpus({ requestedTasks: 20, deadline: 50, timeInQueue: 0 });
    expect(est.base).toBeCloseTo(0.75, 12);
    expect(est.correction).toBeCloseTo(-0.375, 12);
    expect(est.corrected).toBe(0.5);
    expect(est.cpus).toBe(10);
  });

  it("mixed sequence (the documented worked example), exponential and equal weights", () => {
    const e = new JusticeEstimator({ capacity: 100 });
    for (const j of [A, B, M]) e.trackJob(j);
    const s = e.state();
    expect([s.MinCPUFrac, s.MaxCPUFrac, s.LastCPUFrac, s.LastSuccess]).toEqual([0.5, 0.9, 0.5, false]);
    expect(s.fractionErrorList[2]).toBeCloseTo(0.4, 12);
    const est = e.estimateCpus({ requestedTasks: 20, deadline: 50, timeInQueue: 0 });
    expect(est.base).toBeCloseTo(0.7, 12); // missed: (LastCPUFrac + MaxCPUFrac) / 2
    expect(est.correction).toBeCloseTo(0.0125, 12);
    expect(est.cpus).toBe(15);
    const eq = new JusticeEstimator({ capacity: 100, errorWeighting: "equal" });
    for (const j of [A, B, M]) eq.trackJob(j);
    const e2 = eq.estimateCpus({ requestedTasks: 20, deadline: 50, timeInQueue: 0 });
    expect(e2.correction).toBeCloseTo(-0.35 / 3, 12);
    expect(e2.cpus).toBe(12);
    // smoothing factor 1: only the last error counts: 0.7 + 0.4 = 1.1 -> clamped to 1
    const last = new JusticeEstimator({ capacity: 100, smoothing: 1 });
    for (const j of [A, B, M]) last.trackJob(j);
    expect(last.estimateCpus({ requestedTasks: 20, deadline: 50, timeInQueue: 0 })).toMatchObject({ corrected: 1, cpus: 20, feasible: true });
  });

  it("missed deadlines only: fraction follows MaxCPUFrac", () => {
    const e = new JusticeEstimator({ capacity: 8 });
    e.trackJob({ compTime: 60, requestedTasks: 4, deadline: 30, cpusAllocated: 1, metDeadline: false }); // rate 0.5, last 0.25, err 0.25
    e.trackJob({ compTime: 90, requestedTasks: 4, deadline: 30, cpusAllocated: 2, metDeadline: false }); // rate 0.75, last 0.5, err 0.25
    const est = e.estimateCpus({ requestedTasks: 8, deadline: 10, timeInQueue: 0 });
    expect(est.base).toBeCloseTo((0.5 + 0.75) / 2, 12);
    expect(est.correction).toBeCloseTo(0.25, 12);
    expect(est.corrected).toBeCloseTo(0.875, 12);
    expect(est.cpus).toBe(7);
  });

  it("clamps into [MinCPUFrac, 1]; a MinCPUFrac above 1 is capped at 1", () => {
    const e = new JusticeEstimator({ capacity: 10 });
    e.trackJob({ compTime: 10, requestedTasks: 10, deadline: 10, cpusAllocated: 10, metDeadline: true }); // rate 0.1, err -0.9
    e.trackJob({ compTime: 10, requestedTasks: 10, deadline: 10, cpusAllocated: 10, metDeadline: true });
    const lo = e.estimateCpus({ requestedTasks: 10, deadline: 10, timeInQueue: 0 });
    expect(lo.corrected).toBe(0.1); // 0.55 - 0.9 < 0.1
    expect(lo.cpus).toBe(1);
    expect(e.validateFraction(-3)).toBe(0.1);
    expect(e.validateFraction(7)).toBe(1);
    const hi = new JusticeEstimator({ capacity: 2 });
    hi.trackJob({ compTime: 100, requestedTasks: 10, deadline: 10, cpusAllocated: 2, metDeadline: false }); // rate 5
    hi.trackJob({ compTime: 100, requestedTasks: 10, deadline: 10, cpusAllocated: 2, metDeadline: false });
    expect(hi.state().MinCPUFrac).toBe(5);
    expect(hi.estimateCpus({ requestedTasks: 10, deadline: 10, timeInQueue: 0 })).toMatchObject({ corrected: 1, cpus: 2, feasible: true });
  });

  it("queue-time correction: fraction *= deadline / (deadline - timeInQueue); infeasible when it cannot fit", () => {
    const e = new JusticeEstimator({ capacity: 100 });
    for (const j of [A, B, M]) e.trackJob(j);
    const q10 = e.estimateCpus({ requestedTasks: 20, deadline: 50, timeInQueue: 10 });
    expect(q10.fraction).toBeCloseTo(0.7125 * 50 / 40, 12);
    expect(q10.cpus).toBe(18);
    const q30 = e.estimateCpus({ requestedTasks: 20, deadline: 50, timeInQueue: 30 });
    expect(q30.feasible).toBe(false);
    expect(q30.cpus).toBe(36);
    expect(q30.reason).toMatch(/needs 36 CPUs/);
    expect(e.estimateCpus({ requestedTasks: 20, deadline: 50, timeInQueue: 50 })).toMatchObject({ feasible: false, cpus: null });
  });

  it("an exact fraction is not rounded up by float error", () => {
    const e = new JusticeEstimator({ capacity: 100 });
    // rate 0.3 and last 0.3 for both: fraction 0.3 + 0 correction; 0.3 * 10 = 3.0000000000000004 in floats
    e.trackJob({ compTime: 3, requestedTasks: 10, deadline: 1, cpusAllocated: 3, metDeadline: true });
    e.trackJob({ compTime: 3, requestedTasks: 10, deadline: 1, cpusAllocated: 3, metDeadline: true });
    expect(e.estimateCpus({ requestedTasks: 10, deadline: 5, timeInQueue: 0 }).cpus).toBe(3);
  });

  it("property: estimates are deterministic, >= 1, and feasible ones fit min(tasks, capacity)", () => {
    const job = fc.record({
      compTime: fc.double({ min: 0.01, max: 1e6, noNaN: true }),
      requestedTasks: fc.integer({ min: 1, max: 5000 }),
      deadline: fc.double({ min: 0.01, max: 1e5, noNaN: true }),
      cpuFrac: fc.double({ min: 0, max: 1, noNaN: true }),
      metDeadline: fc.boolean(),
    });
    fc.assert(fc.property(fc.integer({ min: 1, max: 500 }), fc.array(job, { maxLength: 30 }),
      fc.integer({ min: 1, max: 5000 }), fc.double({ min: 0.1, max: 100, noNaN: true }), fc.double({ min: 0, max: 1, noNaN: true }),
      (cap, hist, tasks, deadline, qf) => {
        const mk = () => {
          const e = new JusticeEstimator({ capacity: cap });
          for (const h of hist) {
            const m = Math.min(h.requestedTasks, cap);
            e.trackJob({ ...h, cpusAllocated: Math.max(1, Math.round(h.cpuFrac * m)) });
          }
          return e;
        };
        const q = { requestedTasks: tasks, deadline, timeInQueue: qf * deadline * 0.999 };
        const a = mk().estimateCpus(q), b = mk().estimateCpus(q);
        expect(a).toEqual(b);
        const s = mk().state();
        if (s.MinCPUFrac !== null) expect(s.MinCPUFrac).toBeLessThanOrEqual(s.MaxCPUFrac as number);
        if (a.corrected !== null) {
          expect(a.corrected).toBeLessThanOrEqual(1);
          expect(a.corrected).toBeGreaterThanOrEqual(Math.min(1, s.MinCPUFrac as number));
        }
        if (a.feasible) {
          expect(a.cpus).toBeGreaterThanOrEqual(1);
          expect(a.cpus).toBeLessThanOrEqual(Math.min(tasks, cap));
        }
      }), { numRuns: 200 });
  });

  it("bad input -> InputError naming the field", () => {
    expect(() => new JusticeEstimator({ capacity: 0 })).toThrow(/^capacity: must be an integer >= 1/);
    expect(() => new JusticeEstimator({ capacity: 4, smoothing: 0 })).toThrow(/^smoothing: must be a number in \(0, 1\]/);
    expect(() => new JusticeEstimator({ capacity: 4, errorWeighting: "median" as never })).toThrow(/^errorWeighting:/);
    const e = new JusticeEstimator({ capacity: 4 });
    expect(() => e.trackJob({ ...A, compTime: NaN })).toThrow(/^compTime: must be a finite number > 0 \(got NaN\)/);
    expect(() => e.trackJob({ ...A, deadline: -1 })).toThrow(/^deadline:/);
    expect(() => e.trackJob({ ...A, requestedTasks: 1.5 })).toThrow(/^requestedTasks:/);
    expect(() => e.trackJob({ ...A, cpusAllocated: 5 })).toThrow(/^cpusAllocated: must be <= min\(requestedTasks, capacity\) = 4/);
    expect(() => e.trackJob({ ...A, cpusAllocated: 4, metDeadline: 1 as never })).toThrow(/^metDeadline:/);
    expect(() => e.estimateCpus({ requestedTasks: 2, deadline: 1, timeInQueue: -1 })).toThrow(InputError);
    expect(e.completedJobs).toBe(0); // failed calls changed nothing
  });

  it("SmoothedAverage: exponential and equal weights", () => {
    const x = new SmoothedAverage("exponential", 0.5), y = new SmoothedAverage("equal");
    expect(x.average).toBe(0);
    for (const v of [-0.5, -0.25, 0.4]) { x.add(v); y.add(v); }
    expect(x.average).toBeCloseTo(0.0125, 12);
    expect(y.average).toBeCloseTo(-0.35 / 3, 12);
  });
});
