// The deadline-mode event loop and the four allocators: examples and fast-check invariants.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { InputError } from "../../src/errors.js";
import { waterFill } from "../../src/justice/allocators/fairshare.js";
import type { DeadlineJob, RuntimeModel } from "../../src/justice/model.js";
import { minCpusWithin, runtimeWith } from "../../src/justice/model.js";
import { createAllocator } from "../../src/justice/registry.js";
import { runDeadlineSim, type DeadlineRun } from "../../src/justice/sim.js";
import { computeMetrics, jainIndex } from "../../src/justice/metrics.js";

const ALLOCATORS = ["justice", "baseline-fs", "reactive-fs", "oracle"];
const RUNTIMES: RuntimeModel[] = ["waves", "fluid"];

function run(jobs: DeadlineJob[], allocator: string, capacity: number, runtime: RuntimeModel = "waves", params?: Record<string, unknown>): DeadlineRun {
  return runDeadlineSim(jobs, createAllocator(allocator, { capacity, runtime, params }), { capacity, runtime });
}

const jobArb = fc.record({
  arrival: fc.integer({ min: 0, max: 400 }),
  requestedTasks: fc.oneof(fc.constant(1), fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 300 })),
  taskDur: fc.integer({ min: 1, max: 60 }),
  x: fc.oneof(fc.constant(1), fc.constant(2), fc.double({ min: 0.3, max: 4, noNaN: true })),
});
const streamArb = fc.array(jobArb, { minLength: 1, maxLength: 40 }).map((js) =>
  js.map((j, i): DeadlineJob => ({ id: `j${i}`, arrival: j.arrival, requestedTasks: j.requestedTasks, compTime: j.requestedTasks * j.taskDur, deadline: j.x * j.taskDur })));

/** Max over time of the CPUs held by all jobs (releases before acquisitions at equal times). */
function peakHeld(r: DeadlineRun): number {
  const ev: Array<[number, number]> = [];
  for (const u of r.usage) for (let k = 0; k < u.t.length; k++) ev.push([u.t[k], u.held[k] - (k > 0 ? u.held[k - 1] : 0)]);
  ev.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  let cur = 0, peak = 0;
  for (const [, d] of ev) { cur += d; peak = Math.max(peak, cur); }
  return peak;
}

describe("runtime model", () => {
  it("waves and fluid runtimes and the Oracle's minimum CPUs (documented examples)", () => {
    const j = { compTime: 200, requestedTasks: 10 };
    expect([runtimeWith(j, 10), runtimeWith(j, 4), runtimeWith(j, 5)]).toEqual([20, 60, 40]);
    expect([runtimeWith(j, 4, "fluid"), runtimeWith(j, 10, "fluid")]).toEqual([50, 20]);
    expect(minCpusWithin(j, 45, 100)).toBe(5);
    expect(minCpusWithin(j, 19, 100)).toBeNull();
    expect(minCpusWithin(j, 45, 100, "fluid")).toBe(5);
    expect(minCpusWithin(j, 40, 4)).toBeNull(); // needs 5 > capacity 4
    expect(minCpusWithin(j, 20, 100)).toBe(10); // exact fit
  });
});

describe("fair share", () => {
  it("water-filling examples", () => {
    expect(waterFill(10, [2, 7, 7])).toEqual([2, 4, 4]);
    expect(waterFill(10, [1, 5, 5, 5])).toEqual([1, 3, 3, 3]);
    expect(waterFill(10, [7, 7, 7])).toEqual([4, 3, 3]);
    expect(waterFill(3, [1, 1, 1, 1, 1])).toEqual([1, 1, 1, 0, 0]);
    expect(waterFill(100, [3, 4])).toEqual([3, 4]);
  });
  it("property: water-filling is capped, conserves min(C, sum caps), and max-min fair", () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 200 }), fc.array(fc.integer({ min: 1, max: 300 }), { maxLength: 50 }), (C, caps) => {
      const s = waterFill(C, caps);
      const sum = s.reduce((a, b) => a + b, 0);
      expect(sum).toBe(Math.min(C, caps.reduce((a, b) => a + b, 0)));
      s.forEach((x, i) => { expect(x).toBeGreaterThanOrEqual(0); expect(x).toBeLessThanOrEqual(caps[i]); });
      // a job below its cap has at least every other job's share minus 1 (integer rounding)
      s.forEach((x, i) => { if (x < caps[i]) for (const y of s) expect(x).toBeGreaterThanOrEqual(y - 1); });
    }));
  });
  it("non-preemptive waves: a newcomer waits for running tasks to end", () => {
    const jobs = [
      { id: "a", arrival: 0, requestedTasks: 10, compTime: 100, deadline: 100 },
      { id: "b", arrival: 1, requestedTasks: 1, compTime: 10, deadline: 100 },
    ];
    const r = run(jobs, "baseline-fs", 4);
    expect(r.outcomes[1]).toMatchObject({ start: 10, end: 20, fate: "met" });
    const f = run(jobs, "baseline-fs", 4, "fluid");
    expect(f.outcomes[1]).toMatchObject({ start: 1, end: 11 });
  });
});

describe("allocators on small examples", () => {
  it("Justice admits all-or-nothing by reqCpus/TTD and drops infeasible jobs with a reason", () => {
    // bootstrap: each job asks min(tasks, capacity)
    const jobs: DeadlineJob[] = [
      { id: "big", arrival: 0, requestedTasks: 8, compTime: 80, deadline: 10 },
      { id: "small", arrival: 0, requestedTasks: 2, compTime: 20, deadline: 40 },
      { id: "late", arrival: 0, requestedTasks: 4, compTime: 40, deadline: 5 }, // T = 10 > 5 with any CPUs
    ];
    const r = run(jobs, "justice", 8);
    // priorities: small 2/40, late 4/5, big 8/10: small first (2 CPUs), late (4 CPUs) next, big (8) does not fit
    expect(r.outcomes[1]).toMatchObject({ fate: "met", start: 0, cpus: 2 });
    expect(r.outcomes[2]).toMatchObject({ fate: "missed", cpus: 4 }); // bootstrap admits it; 4 tasks <= threshold: finishes late
    expect(r.outcomes[0]).toMatchObject({ fate: "dropped", dropKind: "infeasible-in-queue" });
    expect(r.outcomes[0].reason).toMatch(/no time left|needs/);
    const o = run(jobs, "oracle", 8);
    expect(o.outcomes[2]).toMatchObject({ fate: "dropped", dropKind: "infeasible-at-submission" });
    expect(o.outcomes[2].reason).toMatch(/cannot fit/);
    // small needs only 1 CPU (4 waves fit in 40 s), goes first; big's 8 no longer fit in the 7 left
    expect(o.outcomes[1]).toMatchObject({ fate: "met", cpus: 1, end: 20 });
    expect(o.outcomes[0]).toMatchObject({ fate: "dropped", dropKind: "infeasible-in-queue" });
  });

  it("Justice kills late jobs above dropThreshold, lets smaller ones finish", () => {
    const jobs: DeadlineJob[] = [{ id: "a", arrival: 0, requestedTasks: 4, compTime: 40, deadline: 5 }];
    const k = run(jobs, "justice", 8, "waves", { dropThreshold: 3 }).outcomes[0];
    expect(k).toMatchObject({ fate: "dropped", dropKind: "killed-past-deadline" });
    expect(k.end).toBeCloseTo(5, 6); // the deadline check sits 1e-9 (relative) after the deadline
    expect(k.cpuSeconds).toBeCloseTo(20, 6);
    expect(run(jobs, "justice", 8, "waves", { dropThreshold: 4 }).outcomes[0]).toMatchObject({ fate: "missed", end: 10 });
    expect(run(jobs, "reactive-fs", 8).outcomes[0]).toMatchObject({ fate: "dropped", dropKind: "killed-past-deadline" });
    expect(run(jobs, "baseline-fs", 8).outcomes[0]).toMatchObject({ fate: "missed" });
  });

  it("a job ending exactly at its deadline meets it (completions before deadline checks)", () => {
    const jobs: DeadlineJob[] = [{ id: "a", arrival: 0.1, requestedTasks: 3, compTime: 0.9, deadline: 0.30000000000000004 }];
    for (const a of ALLOCATORS) expect(run(jobs, a, 3).outcomes[0].fate).toBe("met");
  });
});

describe("invariants over random job streams (fast-check)", () => {
  for (const runtime of RUNTIMES) {
    it(`${runtime}: capacity and request bounds, fixed CPUs, reasons, accounting, Oracle never misses, determinism`, () => {
      fc.assert(fc.property(streamArb, fc.integer({ min: 1, max: 64 }), (jobs, C) => {
        for (const a of ALLOCATORS) {
          const r = run(jobs, a, C, runtime);
          // no job above its request or the capacity, never over capacity in total
          r.usage.forEach((u, i) => { for (const h of u.held) expect(h).toBeLessThanOrEqual(Math.min(jobs[i].requestedTasks, C)); });
          expect(peakHeld(r)).toBeLessThanOrEqual(C);
          for (const o of r.outcomes) {
            if (o.fate === "dropped") { expect(o.reason && o.reason.length > 0).toBe(true); expect(o.dropKind).toBeDefined(); }
            if (o.fate === "met") expect(o.end).toBeLessThanOrEqual(o.arrival + jobs[o.index].deadline + 1e-6);
            if (o.fate !== "dropped") expect(o.cpuSeconds).toBeCloseTo(jobs[o.index].compTime, 6);
          }
          if (a === "justice" || a === "oracle") {
            // a running job's CPUs never change
            r.usage.forEach((u) => {
              const held = u.held.slice(0, -1);
              if (held.length > 0) expect(new Set(held).size).toBe(1);
            });
          }
          if (a === "oracle") for (const o of r.outcomes) expect(o.fate).not.toBe("missed");
          if (a === "baseline-fs") for (const o of r.outcomes) expect(o.fate).not.toBe("dropped");
          if (a === "reactive-fs") for (const o of r.outcomes) expect(o.fate).not.toBe("missed");
          const m = computeMetrics(jobs, r, 60);
          expect(m.met + m.missed + m.dropped).toBe(jobs.length);
          expect(m.sdr + m.missRatio + m.dropRatio).toBeCloseTo(1, 12);
          expect(m.ptr + m.wtr).toBeLessThanOrEqual(1 + 1e-9);
          for (const v of [m.jain, m.equality]) if (v !== null) { expect(v).toBeGreaterThan(0); expect(v).toBeLessThanOrEqual(1 + 1e-12); }
          expect(m.utilization).toBeLessThanOrEqual(1 + 1e-9);
          // determinism
          expect(run(jobs, a, C, runtime)).toEqual(r);
        }
      }), { numRuns: 60 });
    });
  }
});

describe("metrics", () => {
  it("Jain's index and a hand-computed run", () => {
    expect(jainIndex([1, 1, 1])).toBe(1);
    expect(jainIndex([1, 0])).toBe(0.5);
    expect(jainIndex([0, 0])).toBe(1);
    expect(jainIndex([])).toBeNull();
    // one job, 2 tasks of 30 s on 2 CPUs: busy 60 of 60 s, met
    const jobs: DeadlineJob[] = [{ id: "a", arrival: 0, requestedTasks: 2, compTime: 60, deadline: 30 }];
    const m = computeMetrics(jobs, run(jobs, "oracle", 2), 10);
    expect(m).toMatchObject({ sdr: 1, ptr: 1, wtr: 0, jain: 1, equality: 1, utilization: 1, intervals: 3 });
  });
});

describe("bad input", () => {
  const good: DeadlineJob = { id: "a", arrival: 0, requestedTasks: 1, compTime: 1, deadline: 1 };
  const cases: Array<[string, unknown, RegExp]> = [
    ["negative deadline", [good, { ...good, id: "b", deadline: -1 }], /^jobs\[1\]\.deadline: must be a finite number > 0 \(got -1\)/],
    ["NaN compTime", [{ ...good, compTime: NaN }], /^jobs\[0\]\.compTime:/],
    ["fractional tasks", [{ ...good, requestedTasks: 2.5 }], /^jobs\[0\]\.requestedTasks: must be an integer >= 1/],
    ["negative arrival", [{ ...good, arrival: -3 }], /^jobs\[0\]\.arrival:/],
    ["duplicate id", [good, good], /^jobs\[1\]\.id: duplicates jobs\[0\]\.id/],
    ["not an array", 5, /^jobs: expected an array/],
  ];
  for (const [what, jobs, re] of cases) {
    it(what, () => {
      expect(() => runDeadlineSim(jobs as never, createAllocator("justice", { capacity: 4 }), { capacity: 4 })).toThrow(re);
    });
  }
  it("capacity, runtime, allocator name, allocator params", () => {
    expect(() => runDeadlineSim([good], createAllocator("oracle", { capacity: 4 }), { capacity: 0 })).toThrow(/^capacity:/);
    expect(() => runDeadlineSim([good], createAllocator("oracle", { capacity: 4 }), { capacity: 4, runtime: "quantum" as never })).toThrow(/^runtime:/);
    expect(() => createAllocator("edf", { capacity: 4 })).toThrow(InputError);
    expect(() => createAllocator("justice", { capacity: 4, params: { dropThreshold: -1 } })).toThrow(/^params\.dropThreshold:/);
    expect(() => createAllocator("justice", { capacity: 4, params: { treshold: 1 } })).toThrow(/^params\.treshold: unknown parameter/);
  });
});
