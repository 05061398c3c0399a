// Phoenix node-level mode: PK formula, constraint matching, the constraint generator's floor, the
// .tr loader on samples of the real traces and on malformed lines, simulator determinism. The
// generator's statistics on the full Google trace and the full files' counts:
// constraint-gen.repro.test.ts.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { gzipSync } from "node:zlib";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { InputError, loadEngineSync } from "../../src/index.js";
import { pkWaitTime } from "../../src/phoenix/pk.js";
import { REFERENCE_FLEET } from "../../src/phoenix/constraint-gen.js";
import { satisfies, ConstraintIndex, validateConstraint, type Constraint, type Machines } from "../../src/phoenix/constraints.js";
import { generateMachines } from "../../src/phoenix/machines.js";
import { loadEagleTrace, parseEagleTrace, parseEagleLine, EAGLE_CUTOFFS, cutoffForTrace } from "../../src/traces/eagle.js";
import { attachConstraints, workersForUtilization } from "../../src/phoenix/workload.js";
import { simulateNodes } from "../../src/phoenix/node-sim.js";
import { getNodePolicy } from "../../src/phoenix/policies.js";
import { busyAtArrivals, saturatedSpan } from "../../src/phoenix/metrics.js";
import { Rng } from "../../src/random/rng.js";
import { fixturePath } from "../helpers/traces.js";

const TRACES = fixturePath("eagle-format");

describe("pkWaitTime", () => {
  it("matches hand-computed M/M/1 and M/D/1 values", () => {
    expect(pkWaitTime({ arrivalRate: 0.5, meanService: 1, secondMomentService: 2 })).toBeCloseTo(1, 12); // M/M/1: rho/(mu-lambda)
    expect(pkWaitTime({ arrivalRate: 0.5, meanService: 1, secondMomentService: 1 })).toBeCloseTo(0.5, 12); // M/D/1
    // lambda 0.1, service 2,4,6,8: E[S]=5, E[S^2]=30, rho=.5 -> 1 * 30/10 = 3
    expect(pkWaitTime({ arrivalRate: 0.1, meanService: 5, secondMomentService: 30 })).toBeCloseTo(3, 12);
    // rho = 0.9, exponential with mean 10: 9 * 200/20 = 90
    expect(pkWaitTime({ arrivalRate: 0.09, meanService: 10, secondMomentService: 200 })).toBeCloseTo(90, 9);
    expect(pkWaitTime({ arrivalRate: 0, meanService: 3, secondMomentService: 9 })).toBe(0);
  });
  it("is infinite when rho >= 1 and increasing in lambda below it", () => {
    expect(pkWaitTime({ arrivalRate: 1, meanService: 1, secondMomentService: 1 })).toBe(Infinity);
    expect(pkWaitTime({ arrivalRate: 2, meanService: 1, secondMomentService: 1 })).toBe(Infinity);
    fc.assert(fc.property(fc.double({ min: 0.01, max: 100, noNaN: true }), fc.double({ min: 1, max: 10, noNaN: true }), fc.double({ min: 0, max: 0.98, noNaN: true }), fc.double({ min: 0, max: 0.98, noNaN: true }),
      (es, cv, r1, r2) => {
        const es2 = es * es * cv;
        const [a, b] = r1 < r2 ? [r1, r2] : [r2, r1];
        expect(pkWaitTime({ arrivalRate: a / es, meanService: es, secondMomentService: es2 })).toBeLessThanOrEqual(pkWaitTime({ arrivalRate: b / es, meanService: es, secondMomentService: es2 }) * (1 + 1e-12));
      }));
  });
  it("rejects bad input with the field name", () => {
    const bad: Array<[object, string]> = [
      [{ arrivalRate: -1, meanService: 1, secondMomentService: 1 }, "arrivalRate"],
      [{ arrivalRate: NaN, meanService: 1, secondMomentService: 1 }, "arrivalRate"],
      [{ arrivalRate: 1, meanService: 0, secondMomentService: 1 }, "meanService"],
      [{ arrivalRate: 1, meanService: 2, secondMomentService: 3 }, "secondMomentService"], // < E[S]^2
      [{ arrivalRate: 1, meanService: 2, secondMomentService: Infinity }, "secondMomentService"],
    ];
    for (const [inp, field] of bad) {
      expect(() => pkWaitTime(inp as never)).toThrow(InputError);
      try { pkWaitTime(inp as never); } catch (e) { expect((e as InputError).field).toBe(field); }
    }
  });
});

describe("constraints", () => {
  // one worker: <x86_64, 16 cores, 64 GB, 4 disks, kernel 4.04, platform 2, 2.6 GHz, 10 Gbps>
  const m: Machines = { count: 1, attrs: Float64Array.from([0, 16, 64, 4, 404, 2, 2.6, 10]) };
  const c = (attr: Constraint["attr"], op: Constraint["op"], value: number): Constraint => ({ attr, op, value, hard: true });
  it("matches every operator on every side of the value", () => {
    expect(satisfies(m, 0, c("cores", ">", 8))).toBe(true);
    expect(satisfies(m, 0, c("cores", ">", 16))).toBe(false);
    expect(satisfies(m, 0, c("cores", "<", 32))).toBe(true);
    expect(satisfies(m, 0, c("cores", "<", 16))).toBe(false);
    expect(satisfies(m, 0, c("cores", "=", 16))).toBe(true);
    expect(satisfies(m, 0, c("cores", "=", 8))).toBe(false);
    expect(satisfies(m, 0, c("isa", "=", 0))).toBe(true);
    expect(satisfies(m, 0, c("isa", "=", 1))).toBe(false);
    expect(satisfies(m, 0, c("clockGhz", ">", 3.0))).toBe(false);
    expect(satisfies(m, 0, c("ethernetGbps", "=", 10))).toBe(true);
  });
  it("every operator agrees with its definition on random machines (property)", () => {
    const machines = generateMachines(200, new Rng(3));
    const idx = new ConstraintIndex(machines);
    fc.assert(fc.property(fc.integer({ min: 0, max: 199 }), fc.constantFrom("cores", "memoryGb", "disks", "kernel", "clockGhz") as fc.Arbitrary<Constraint["attr"]>, fc.constantFrom<Constraint["op"]>("<", ">", "="), fc.double({ min: 0, max: 600, noNaN: true }), (w, attr, op, v) => {
      const x = machines.attrs[w * 8 + ["isa", "cores", "memoryGb", "disks", "kernel", "platform", "clockGhz", "ethernetGbps"].indexOf(attr)];
      const want = op === "<" ? x < v : op === ">" ? x > v : x === v;
      expect(satisfies(machines, w, c(attr, op, v))).toBe(want);
      expect(idx.eligible([c(attr, op, v)]).includes(w)).toBe(want);
    }));
  });
  it("validateConstraint names the bad field", () => {
    expect(() => validateConstraint("jobs[2].constraints[0]", { attr: "gpu", op: "=", value: 1, hard: true })).toThrow("jobs[2].constraints[0].attr");
    expect(() => validateConstraint("c", { attr: "cores", op: ">=", value: 1, hard: true })).toThrow("c.op");
  });
});

describe("constraint generator (Google distribution, Table II / Fig. 6)", () => {
  it("property: every constrained job fits at least minSupply (default 5%) of the fleet it is calibrated on", () => {
    // the paper keeps every job at >= ~5% of workers (Fig. 6); the floor holds exactly on the
    // calibration fleet: the fixed reference fleet by default, or the machines given as `fleet`
    const trace = parseEagleTrace("0 1 1 1\n".repeat(200)).jobs;
    const reference = generateMachines(REFERENCE_FLEET.size, new Rng(REFERENCE_FLEET.seed));
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 31 - 1 }), fc.option(fc.integer({ min: 200, max: 3000 }), { nil: undefined }), fc.constantFrom(undefined, 0.05, 0.1), (seed, fleetSize, minSupply) => {
        const fleet = fleetSize === undefined ? undefined : generateMachines(fleetSize, new Rng(seed ^ 0x3c3c));
        const on = fleet ?? reference;
        const idx = new ConstraintIndex(on);
        for (const j of attachConstraints(trace, new Rng(seed), { fleet, minSupply })) {
          if (j.constraints.length === 0) continue;
          expect(idx.eligible(j.constraints).length).toBeGreaterThanOrEqual(Math.ceil((minSupply ?? 0.05) * on.count - 1e-9));
        }
      }),
      { numRuns: 25 },
    );
  });
  it("is deterministic for a seed", () => {
    const a = attachConstraints(parseEagleTrace("0 1 1 1\n".repeat(50)).jobs, new Rng(9)).map((j) => j.constraints);
    const b = attachConstraints(parseEagleTrace("0 1 1 1\n".repeat(50)).jobs, new Rng(9)).map((j) => j.constraints);
    expect(a).toEqual(b);
  });
});

describe("Hawk/Eagle .tr loader", () => {
  // The committed samples (test/fixtures/traces/README.md): the first 300 lines of YH2_sub.tr and
  // the first 100 of GOOG_subtrace.tr, gzipped; the first and last lines read with zcat | awk.
  it("loads the YH2_sub.tr sample: 300 jobs, first and last job", async () => {
    const r = await loadEagleTrace(join(TRACES, "YH2_sub-sample.tr.gz"));
    expect(r.jobs.length).toBe(300);
    expect(r.skipped).toBe(0);
    const first = r.jobs[0], last = r.jobs[r.jobs.length - 1];
    expect(first.arrival).toBe(65013.2);
    expect(first.durations.length).toBe(1651);
    expect(first.meanDuration).toBeCloseTo(15197.4537759, 6);
    expect(first.durations[0]).toBeCloseTo(15263.2808885, 6);
    expect(last.arrival).toBe(81813.6);
    expect(last.durations.length).toBe(22);
    expect(last.meanDuration).toBeCloseTo(11.2865284981, 9);
    expect(cutoffForTrace("YH2_sub-sample.tr.gz")).toBe(EAGLE_CUTOFFS.yahoo);
    // awk '$3 > 90.5811' (Eagle's cutoff): 44 long jobs of 300
    expect(r.jobs.filter((j) => j.meanDuration > EAGLE_CUTOFFS.yahoo).length).toBe(44);
  });
  it("loads the GOOG_subtrace.tr sample: 100 jobs, first and last job", async () => {
    const r = await loadEagleTrace(join(TRACES, "GOOG_subtrace-sample.tr.gz"));
    expect(r.jobs.length).toBe(100);
    expect(r.jobs[0].arrival).toBe(1406471);
    expect(r.jobs[0].durations.length).toBe(45);
    expect(r.jobs[0].meanDuration).toBeCloseTo(81384.12092488888, 6);
    const last = r.jobs[99];
    expect(last.arrival).toBe(1471363);
    expect(last.durations.length).toBe(1);
    expect(last.durations[0]).toBeCloseTo(6185.093854, 6);
  });
  it("reads gzip and stops at maxJobs", async () => {
    const dir = mkdtempSync(join(tmpdir(), "phx-"));
    const p = join(dir, "t.tr.gz");
    writeFileSync(p, gzipSync("1 2 3 2 4\n\n5 1 7 7\n9 1 1 1\n"));
    const r = await loadEagleTrace(p, { maxJobs: 2 });
    expect(r.jobs.map((j) => j.arrival)).toEqual([1, 5]);
    expect(Array.from(r.jobs[0].durations)).toEqual([2, 4]);
  });
  it("names file and line for malformed lines; lenient skips and counts them", async () => {
    const text = "1 2 3 2 4\n2 2 3 4\n3 x 1 1\n4 1 -1 1\n5 1 2 abc\n6 1 2 2\n";
    expect(() => parseEagleTrace(text, "bad.tr")).toThrow("bad.tr:2: number_of_tasks is 2 but the line lists 1 duration(s)");
    try { parseEagleTrace(text, "bad.tr"); } catch (e) { expect((e as InputError).field).toBe("bad.tr:2"); }
    const r = parseEagleTrace(text, "bad.tr", { lenient: true });
    expect(r.skipped).toBe(4);
    expect(r.jobs.map((j) => j.arrival)).toEqual([1, 6]);
    expect(r.skippedExamples[1]).toContain("bad.tr:3: number_of_tasks");
    expect(parseEagleLine("   ")).toBeNull();
    const dir = mkdtempSync(join(tmpdir(), "phx-"));
    writeFileSync(join(dir, "b.tr"), text);
    await expect(loadEagleTrace(join(dir, "b.tr"))).rejects.toThrow(/b\.tr:2:/);
    await expect(loadEagleTrace(join(dir, "missing.tr"))).rejects.toThrow(InputError);
  });
});

describe("node-level simulator", () => {
  const engine = loadEngineSync();
  it("is deterministic for a seed and finishes every job (every policy)", async () => {
    const tr = await loadEagleTrace(join(TRACES, "YH2_sub-sample.tr.gz"), { maxJobs: 300 });
    const jobs = attachConstraints(tr.jobs, new Rng(5));
    const W = workersForUtilization(jobs, 0.8);
    for (const policy of ["phoenix", "eagle-c", "hawk-c", "sparrow-c"]) {
      const a = simulateNodes(jobs, { engine, policy, workers: W, seed: 11, cutoff: EAGLE_CUTOFFS.yahoo });
      const b = simulateNodes(jobs, { engine: loadEngineSync({ backend: "js" }), policy, workers: W, seed: 11, cutoff: EAGLE_CUTOFFS.yahoo });
      expect(a.jobs.map((j) => j.end)).toEqual(b.jobs.map((j) => j.end));
      expect(a.reorderedTasks).toBe(b.reorderedTasks);
      for (const j of a.jobs) if (!j.rejected) expect(j.response).toBeGreaterThanOrEqual(0);
      expect(a.jobs.every((j) => j.rejected !== undefined || Number.isFinite(j.end))).toBe(true);
    }
  });
  it("rejects bad options with the field name", () => {
    expect(() => simulateNodes([], { engine, policy: "phoenix", workers: 0, seed: 1, cutoff: 90 })).toThrow(/^workers:/);
    expect(() => simulateNodes([], { engine, policy: "nope", workers: 2, seed: 1, cutoff: 90 })).toThrow(/^policy:/);
    expect(() => simulateNodes([], { engine, policy: "phoenix", workers: 2, seed: 1, cutoff: 90, probeRatio: 0 })).toThrow(/^probeRatio:/);
  });
  // Identical machines, so only the mechanism under test decides placement.
  const uniform = (n: number): Machines => ({ count: n, attrs: Float64Array.from({ length: n * 8 }, (_, i) => [0, 16, 64, 4, 404, 2, 2.6, 10][i % 8]) });
  const job = (arrival: number, durations: number[], estimate: number, constraints: Constraint[] = []) =>
    ({ arrival, durations: Float64Array.from(durations), estimate, constraints });

  it("sticky batch probing: the sticky probe competes again at each task end (Eagle-C, SRPT)", () => {
    // one worker. A (3 x 10 s, estimate 10) starts at 0; B (1 x 10 s, estimate 5) arrives at 1.
    // At A's first task end A's sticky probe re-enters the queue with key 10 x 2 left = 20 s,
    // B's key is 5 s: B runs 10..20, then A's probe takes the worker again (20..40).
    const r = simulateNodes([job(0, [10, 10, 10], 10), job(1, [10], 5)], { engine, policy: "eagle-c", workers: 1, seed: 1, cutoff: 90, machines: uniform(1) });
    expect(r.jobs[1].end).toBeGreaterThan(20);
    expect(r.jobs[1].end).toBeLessThan(20.01);
    expect(r.jobs[0].end).toBeGreaterThan(40);
    expect(r.jobs[0].end).toBeLessThan(40.01);
    // without competition the sticky probe keeps the worker: A's tasks back to back
    const alone = simulateNodes([job(0, [10, 10, 10], 10)], { engine, policy: "eagle-c", workers: 1, seed: 1, cutoff: 90, machines: uniform(1) });
    expect(alone.jobs[0].end).toBeLessThan(30.01);
  });

  it("succinct state sharing: short probes avoid workers holding long work, re-sent at once, not after a heartbeat", () => {
    // 8 workers, 1 short-only (shortOnlyFraction 1/8). A 1-s job at t = 0 starts the heartbeats;
    // a long job (5 x 1000 s) lands on 5 workers at t = 1, after that heartbeat, and a 2-task
    // short job arrives at t = 2, long before the next one (t = 9).
    const jobs = [job(0, [1], 1), job(1, [1000, 1000, 1000, 1000, 1000], 1000), job(2, [5, 5], 5)];
    for (const seed of [1, 2, 3, 4, 5]) {
      const e = simulateNodes(jobs, { engine, policy: "eagle-c", workers: 8, seed, cutoff: 90, shortOnlyFraction: 0.125, machines: uniform(8) });
      expect(e.probesBehindLong).toBe(0);
      expect(e.jobs[2].response).toBeLessThan(6);
    }
    // Hawk-C probes at random: over 5 seeds some of its 4 probes land behind the long tasks
    let behind = 0;
    for (const seed of [1, 2, 3, 4, 5]) behind += simulateNodes(jobs, { engine, policy: "hawk-c", workers: 8, seed, cutoff: 90, shortOnlyFraction: 0.125, machines: uniform(8) }).probesBehindLong;
    expect(behind).toBeGreaterThan(0);
    // rejected probes are counted as re-sent
    let resent = 0;
    for (const seed of [1, 2, 3, 4, 5]) resent += simulateNodes(jobs, { engine, policy: "eagle-c", workers: 8, seed, cutoff: 90, shortOnlyFraction: 0.125, machines: uniform(8) }).resentProbes;
    expect(resent).toBeGreaterThan(0);
  });

  it("succinct state sharing: a constrained job whose every worker holds long work queues behind it", () => {
    // 4 workers, worker 3 is the only arm64 one and runs a long task from t = 0
    const m = uniform(4);
    m.attrs[3 * 8] = 1;
    const arm: Constraint = { attr: "isa", op: "=", value: 1, hard: true };
    const jobs = [job(0, [500], 500, [arm]), job(1, [5], 5, [arm])];
    const r = simulateNodes(jobs, { engine, policy: "eagle-c", workers: 4, seed: 1, cutoff: 90, machines: m });
    expect(r.probesBehindLong).toBe(2);
    expect(r.jobs[1].end).toBeGreaterThan(505);
    expect(r.jobs[1].end).toBeLessThan(505.01);
  });

  it("newestProbeFirst ablation (Eagle simulator's order): the newest short probe is served first", () => {
    // one worker busy with X until 10; A, B, C (1 x 5 s each, equal SRPT keys) arrive at 1, 2, 3
    const jobs = [job(0, [10], 10), job(1, [5], 5), job(2, [5], 5), job(3, [5], 5)];
    const at = (o: object) => simulateNodes(jobs, { engine, policy: getNodePolicy("eagle-c", o), workers: 1, seed: 1, cutoff: 90, machines: uniform(1) }).jobs.map((j) => Math.round(j.end));
    expect(at({})).toEqual([10, 15, 20, 25]); // SRPT ties keep arrival order
    expect(at({ newestProbeFirst: true })).toEqual([10, 25, 20, 15]);
  });

  it("minProbes raises a small job's probe count (Eagle's simulator: at least 20)", () => {
    // 30 idle workers, one 1-task job: every probe but the one that gets the task is cancelled
    const r = (minProbes?: number) => simulateNodes([job(0, [5], 5)], { engine, policy: "eagle-c", workers: 30, seed: 1, cutoff: 90, machines: uniform(30), minProbes });
    expect(r().cancelledProbes).toBe(1);
    expect(r(20).cancelledProbes).toBe(19);
    expect(() => r(-1)).toThrow(/^minProbes:/);
  });

  it("measured load: busy fraction over the arrival span (arrivalUtilization) vs over the makespan (utilization)", () => {
    // 2 workers; a 1-task 50 s job at 0, a 1-task 10 s job at 100 (runs past the last arrival):
    // busy inside [0, 100] = 50 s of 2 x 100 -> 0.25; makespan 110 (+ round trips) -> 60 / 220
    const r = simulateNodes([job(0, [50], 50), job(100, [10], 10)], { engine, policy: "eagle-c", workers: 2, seed: 1, cutoff: 90, machines: uniform(2) });
    expect(r.arrivalUtilization).toBeCloseTo(0.25, 4);
    expect(r.utilization).toBeCloseTo(60 / 220, 3);
  });

  it("busy profile: busy fraction per window of busyWindow seconds from the first arrival", () => {
    // same two jobs, 40 s windows: [0, 40) 40 of 2 x 40 busy -> 0.5; [40, 80) the first job's
    // last 10 s -> 0.125; [80, 120) the second job's 10 s -> 0.125; the windows sum to the 60
    // busy task-seconds. Off by default (empty profile); a negative width is an input error.
    const at = (busyWindow?: number) => simulateNodes([job(0, [50], 50), job(100, [10], 10)], { engine, policy: "eagle-c", workers: 2, seed: 1, cutoff: 90, machines: uniform(2), busyWindow });
    const p = Array.from(at(40).busyProfile);
    expect(p.length).toBe(3);
    [0.5, 0.125, 0.125].forEach((x, k) => expect(p[k]).toBeCloseTo(x, 4));
    expect(p.reduce((a, x) => a + x, 0) * 2 * 40).toBeCloseTo(60, 6);
    expect(at().busyProfile.length).toBe(0);
    expect(() => at(-1)).toThrow(/^busyWindow:/);
  });

  it("a job no worker can run is rejected with a reason, not an exception", () => {
    const machines = generateMachines(10, new Rng(1));
    const job = { arrival: 0, durations: Float64Array.from([1]), estimate: 1, constraints: [{ attr: "cores" as const, op: ">" as const, value: 1e6, hard: true }] };
    const r = simulateNodes([job], { engine, policy: "eagle-c", workers: 10, seed: 1, cutoff: 90, machines });
    expect(r.jobs[0].rejected).toBe("no worker satisfies its hard constraints");
  });
});

describe("load measures over the busy profile", () => {
  it("busyAtArrivals: the busy fraction of each arrival's window, averaged (worked example, edges)", () => {
    expect(busyAtArrivals([0.2, 1.0], 100, 0, [10, 150, 160])).toBeCloseTo(2.2 / 3, 12);
    expect(busyAtArrivals([0.2, 1.0], 100, 0, [])).toBeNull();
    expect(busyAtArrivals([0.2, 1.0], 100, 0, [250])).toBe(0); // past the profile: idle
  });

  it("saturatedSpan: the longest run of windows at or above the level (worked example, edges)", () => {
    expect(saturatedSpan([0.5, 0.97, 0.99, 0.9, 0.96], 1000, 0.95)).toBe(2000);
    expect(saturatedSpan([], 1000, 0.95)).toBe(0);
    expect(saturatedSpan([0.95, 0.95], 10, 0.95)).toBe(20);
  });

  it("both stay within the profile's range (property)", () => {
    fc.assert(fc.property(
      fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 1, maxLength: 30 }),
      fc.array(fc.double({ min: 0, max: 2999, noNaN: true }), { minLength: 1, maxLength: 20 }),
      (profile, arrivals) => {
        const b = busyAtArrivals(profile, 100, 0, arrivals)!;
        expect(b).toBeGreaterThanOrEqual(0);
        expect(b).toBeLessThanOrEqual(Math.max(...profile) + 1e-12);
        const sat = saturatedSpan(profile, 100, 0.5);
        expect(sat).toBeLessThanOrEqual(100 * profile.filter((x) => x >= 0.5).length);
        expect(sat > 0).toBe(profile.some((x) => x >= 0.5));
      }), { numRuns: 200 });
  });
});
