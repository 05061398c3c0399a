// Issue 21 finding 15 (Justice part): finite inputs never give Infinity (null in JSON) in a
// run's outcomes or metrics: jobs whose times cannot all be held in f64 are refused by name.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { InputError } from "../../src/errors.js";
import { computeMetrics, createAllocator, runDeadlineSim, type DeadlineJob } from "../../src/justice/index.js";
import { FUZZ } from "../helpers/hostile.js";

function nonFinite(v: unknown, path = ""): string[] {
  if (typeof v === "number") return Number.isFinite(v) ? [] : [`${path}=${v}`];
  if (v === null || typeof v !== "object") return [];
  return Object.entries(v).flatMap(([k, x]) => nonFinite(x, `${path}.${k}`));
}

describe("Justice: finite inputs, finite outputs", () => {
  it("a job arriving at 1.7e308 (its end was Infinity, the makespan too) is an InputError naming it", () => {
    const jobs: DeadlineJob[] = [{ id: "a", arrival: 1.7e308, requestedTasks: 1, compTime: 1.7e308, deadline: 1.7e308 }];
    let e: unknown = null;
    try {
      runDeadlineSim(jobs, createAllocator("baseline-fs", {} as never), { capacity: 4 });
    } catch (x) {
      e = x;
    }
    expect(e).toBeInstanceOf(InputError);
    expect((e as InputError).field).toBe("jobs[0].compTime");
  });

  it("property: extreme finite jobs give an InputError or outcomes and metrics with no Infinity or NaN", () => {
    const mag = fc.oneof(fc.double({ min: 1e-3, max: 1e3, noNaN: true }), fc.constantFrom(1e300, 1e307, 8e307, 1.7e308, 1e-300, 5e-324));
    const jobArb = fc.record({ arrival: fc.oneof(fc.constant(0), mag), requestedTasks: fc.integer({ min: 1, max: 8 }), compTime: mag, deadline: mag });
    fc.assert(fc.property(fc.array(jobArb, { minLength: 1, maxLength: 4 }), fc.constantFrom("baseline-fs", "reactive-fs", "oracle"), (js, name) => {
      const jobs = js.map((j, i) => ({ id: `j${i}`, ...j }));
      let run;
      try {
        run = runDeadlineSim(jobs, createAllocator(name, {} as never), { capacity: 4 });
      } catch (e) {
        expect(e).toBeInstanceOf(InputError);
        return;
      }
      expect(nonFinite(run.outcomes.map((o) => ({ ...o, reason: undefined })))).toEqual([]);
      expect(Number.isFinite(run.makespan)).toBe(true);
      try {
        expect(nonFinite(computeMetrics(jobs, run, Math.max(60, run.makespan / 1000)))).toEqual([]);
      } catch (e) {
        if (!(e instanceof InputError)) throw e;
      }
    }), { ...FUZZ, numRuns: Math.max(1, Math.round(FUZZ.numRuns / 3)) });
  });
});
