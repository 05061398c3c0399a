// Finding 8 of issue 21: one overflowing job must not poison Justice's estimator. A tracked
// job whose state update would leave f64 (a rate, an error or the error average) is an
// InputError that changes nothing; for finite accepted inputs every estimate is finite.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { InputError } from "../../src/errors.js";
import { inputErrorOf } from "../helpers/input-error.js";
import { JusticeEstimator } from "../../src/justice/estimator.js";
import { FUZZ } from "../helpers/hostile.js";

const OK = { compTime: 400, requestedTasks: 10, deadline: 80, cpusAllocated: 10, metDeadline: true };


describe("Justice estimator: overflowing inputs", () => {
  it("compTime: Number.MAX_VALUE over a small deadline is refused by name and the state is unchanged", () => {
    const e = new JusticeEstimator({ capacity: 100 });
    e.trackJob(OK);
    e.trackJob({ ...OK, metDeadline: false });
    const before = e.state();
    const err = inputErrorOf(() => e.trackJob({ ...OK, compTime: Number.MAX_VALUE, deadline: 0.5 }));
    expect(err.field).toBe("compTime");
    expect(e.state()).toEqual(before);
    const est = e.estimateCpus({ requestedTasks: 20, deadline: 50, timeInQueue: 0 });
    expect(Number.isFinite(est.cpus)).toBe(true);
    expect(Number.isFinite(est.fraction)).toBe(true);
  });

  it("errors whose equal-weight sum would overflow are refused (the average would be Infinity forever)", () => {
    const e = new JusticeEstimator({ capacity: 1, errorWeighting: "equal" });
    const huge = { compTime: Number.MAX_VALUE, requestedTasks: 1, deadline: 1, cpusAllocated: 1, metDeadline: false };
    e.trackJob(huge);
    const before = e.state();
    expect(inputErrorOf(() => e.trackJob(huge)).field).toBe("compTime");
    expect(e.state()).toEqual(before);
    const est = e.estimateCpus({ requestedTasks: 1, deadline: 10, timeInQueue: 0 });
    expect(est.fraction).toBe(1); // bootstrap: one completed job
  });

  it("property: any sequence of finite jobs leaves every estimate with time left finite", () => {
    const num = fc.oneof(
      fc.double({ min: 5e-324, max: Number.MAX_VALUE, noNaN: true }),
      fc.constantFrom(Number.MAX_VALUE, 1e308, 1e-308, 5e-324, 1, 2 ** 53),
    );
    const job = fc.record({
      compTime: num, deadline: num, requestedTasks: fc.integer({ min: 1, max: 2 ** 40 }),
      cpus: fc.double({ min: 0, max: 1, noNaN: true }), metDeadline: fc.boolean(),
    });
    const query = fc.record({ requestedTasks: fc.integer({ min: 1, max: 2 ** 40 }), deadline: num, wait: fc.double({ min: 0, max: 1, noNaN: true }) });
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 2 ** 30 }), fc.constantFrom("exponential", "equal") as fc.Arbitrary<"exponential" | "equal">, fc.array(job, { maxLength: 8 }), fc.array(query, { minLength: 1, maxLength: 4 }), (capacity, errorWeighting, jobs, queries) => {
        const e = new JusticeEstimator({ capacity, errorWeighting });
        for (const j of jobs) {
          const maxCpus = Math.min(j.requestedTasks, capacity);
          const cpusAllocated = Math.max(1, Math.ceil(j.cpus * maxCpus));
          const before = e.state();
          try {
            e.trackJob({ compTime: j.compTime, requestedTasks: j.requestedTasks, deadline: j.deadline, cpusAllocated, metDeadline: j.metDeadline });
          } catch (err) {
            expect(err).toBeInstanceOf(InputError);
            expect(e.state()).toEqual(before);
          }
          const s = e.state();
          for (const v of [...s.minReqRateList, ...s.fractionErrorList, s.smoothedError, s.MinCPUFrac ?? 0, s.MaxCPUFrac ?? 0, s.LastCPUFrac ?? 0]) {
            expect(Number.isFinite(v)).toBe(true);
          }
        }
        for (const q of queries) {
          const timeInQueue = q.deadline * q.wait;
          if (!(timeInQueue < q.deadline)) continue; // no time left: the documented cpus null
          const est = e.estimateCpus({ requestedTasks: q.requestedTasks, deadline: q.deadline, timeInQueue });
          for (const v of [est.cpus, est.fraction, est.maxCpus, est.base ?? 0, est.correction ?? 0, est.corrected ?? 0]) {
            expect(typeof v === "number" && Number.isFinite(v)).toBe(true);
          }
        }
      }),
      FUZZ,
    );
  });
});
