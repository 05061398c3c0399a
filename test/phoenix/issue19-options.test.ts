// Issue 19 model options: long-job CRV demand released when a central task starts, and Hawk-C
// stealing by any idle worker (as Hawk's simulator), each against the former behaviour. Both are
// the defaults since issue 19 (the paper's reading; docs/reproduction-phoenix.md).
import { describe, expect, it } from "vitest";
import { InputError, loadEngineSync } from "../../src/index.js";
import type { Constraint, Machines } from "../../src/phoenix/constraints.js";
import { simulateNodes } from "../../src/phoenix/node-sim.js";
import { getNodePolicy } from "../../src/phoenix/policies.js";

const engine = loadEngineSync();
const uniform = (n: number): Machines => ({ count: n, attrs: Float64Array.from({ length: n * 8 }, (_, i) => [0, 16, 64, 4, 404, 2, 2.6, 10][i % 8]) });
const job = (arrival: number, durations: number[], estimate: number, constraints: Constraint[] = []) =>
  ({ arrival, durations: Float64Array.from(durations), estimate, constraints });

describe("releaseLongDemand", () => {
  // 4 workers, all with > 1 core. A long job of 10 x 100 s at t = 0 (CRV demand 10 on 4 workers);
  // a short 1 x 5 s job with the same constraint at t = 150, when 8 long tasks have started.
  // Released: demand 2 + 1 on 4 workers (CRV 0.75, not congested); not released: 11 / 4.
  const cores: Constraint = { attr: "cores", op: ">", value: 1, hard: true };
  const jobs = [job(0, Array(10).fill(100), 100, [cores]), job(150, [5], 5, [cores])];
  const run = (releaseLongDemand?: boolean) =>
    simulateNodes(jobs, { engine, policy: "phoenix", workers: 4, seed: 1, cutoff: 90, machines: uniform(4), tableIIThresholds: false, crvThreshold: 1, releaseLongDemand });

  it("a started long task leaves the CRV demand: no congestion once most long tasks run (the default)", () => {
    const before = run(false);
    const after = run(true);
    expect(run().hotHeartbeats).toBe(after.hotHeartbeats);
    expect(before.hotHeartbeats).toBeGreaterThan(0);
    expect(after.hotHeartbeats).toBe(0);
    // the option changes the monitor's view only: the same completions here
    expect(after.jobs.map((j) => j.end)).toEqual(before.jobs.map((j) => j.end));
  });

  it("a non-boolean value is an InputError naming it", () => {
    expect(() => run("yes" as unknown as boolean)).toThrow(InputError);
    expect(() => run("yes" as unknown as boolean)).toThrow(/releaseLongDemand/);
  });
});

describe("stealers", () => {
  // 10 workers, 1 short-only. A long job (8 x 1000 s) fills workers 1-8 at t = 0; a short job
  // of 6 x 20 s at t = 1 probes 12 random workers, most behind the long tasks. With "any", the
  // worker the long job left idle steals too.
  const jobs = [job(0, Array(8).fill(1000), 1000), job(1, Array(6).fill(20), 20)];
  const run = (seed: number, stealers?: "short-only" | "any") =>
    simulateNodes(jobs, { engine, policy: "hawk-c", workers: 10, seed, cutoff: 90, shortOnlyFraction: 1 / 10, machines: uniform(10), stealers });

  it('"any" (the default): the short job is never slower and faster on at least 15 of 20 seeds (sign test, p < 0.025)', () => {
    let stolenAny = 0, stolenShortOnly = 0, faster = 0;
    for (let seed = 1; seed <= 20; seed++) {
      const a = run(seed, "any"), s = run(seed, "short-only");
      expect(run(seed).jobs[1].response).toBe(a.jobs[1].response);
      stolenAny += a.stolenProbes;
      stolenShortOnly += s.stolenProbes;
      expect(a.jobs[1].response).toBeLessThanOrEqual(s.jobs[1].response);
      if (a.jobs[1].response < s.jobs[1].response) faster++;
    }
    expect(stolenAny).toBeGreaterThanOrEqual(stolenShortOnly);
    expect(faster).toBeGreaterThanOrEqual(15);
  });

  it("a bad value is an InputError naming it", () => {
    expect(() => run(1, "all" as "any")).toThrow(/stealers/);
  });
});

/** Machines from one attribute vector per worker. */
const fleetOf = (rows: number[][]): Machines => ({ count: rows.length, attrs: Float64Array.from(rows.flat()) });
const BASE = [0, 16, 64, 4, 404, 2, 2.6, 10];
const withAttr = (i: number, v: number) => BASE.map((x, k) => (k === i ? v : x));

describe("sssRefresh (stale succinct-state bit vector)", () => {
  // 6 workers, no partition. A short job at t = 0 makes the schedulers take the bit vector
  // (all long-free); a long job of 4 x 1000 s at t = 1 fills workers 0-3 (central, ties by
  // id); a short job of 3 x 1 s at t = 2 sends 6 probes, one per worker: workers 0-3 reject
  // theirs. Current bit vector: re-sent to the long-free 4 and 5, none behind long work. A
  // vector 100 s old shows 0-3 long-free: the re-sent probes queue behind the long tasks.
  const jobs = [job(0, [1], 1), job(1, Array(4).fill(1000), 1000), job(2, [1, 1, 1], 1)];
  const run = (sssRefresh?: number) =>
    simulateNodes(jobs, { engine, policy: "eagle-c", workers: 6, seed: 1, cutoff: 90, shortOnlyFraction: 0, machines: uniform(6), sssRefresh });

  it("a stale vector sends re-sent probes behind long work; the current one (default) never", () => {
    const exact = run(), stale = run(100);
    expect(run(0)).toEqual(exact);
    expect(exact.resentProbes).toBe(4);
    expect(exact.probesBehindLong).toBe(0);
    expect(stale.resentProbes).toBe(4);
    expect(stale.probesBehindLong).toBe(4);
    // the short job still finishes on the long-free workers (its probes there bind its tasks)
    expect(stale.jobs[2].response).toBeLessThan(10);
  });

  it("a negative or non-numeric period is an InputError naming it", () => {
    expect(() => run(-1)).toThrow(/sssRefresh/);
    expect(() => run(Number.NaN)).toThrow(/sssRefresh/);
  });
});

describe("waitAwareAllEligible (probes to the eligible workers of least estimated wait)", () => {
  // 6 workers: 0-1 (cores 8) run a long job (estimate 1000), 2-4 (cores 24) a short job of
  // 3 x 50 s; worker 5 (cores 32) is idle. At t = 1 an unconstrained 1 x 5 s job sends 2
  // probes. By estimated wait, one goes to worker 5 (wait 0): the task starts one and a half
  // round trips after arrival, on every seed. Succinct state (the default) samples among all 6
  // and re-sends only the probes rejected by long work, so on some seeds both probes queue
  // behind the 50 s tasks.
  const machines = fleetOf([8, 8, 24, 24, 24, 32].map((c) => withAttr(1, c)));
  const cores = (value: number): Constraint => ({ attr: "cores", op: "=", value, hard: true });
  const jobs = [job(0, [1000, 1000], 1000, [cores(8)]), job(0, [50, 50, 50], 50, [cores(24)]), job(1, [5], 5)];
  const run = (seed: number, waitAwareAllEligible: boolean) =>
    simulateNodes(jobs, { engine, policy: getNodePolicy("phoenix", { waitAwareAllEligible }), workers: 6, seed, cutoff: 90, shortOnlyFraction: 0, machines });

  it("the job starts at once on the idle worker on every seed; succinct state queues it on some", () => {
    let slower = 0;
    for (let seed = 1; seed <= 20; seed++) {
      expect(run(seed, true).jobs[2].response).toBeCloseTo(5 + 1.5 * 0.0005, 9);
      if (run(seed, false).jobs[2].response > 10) slower++;
    }
    expect(slower).toBeGreaterThan(0);
  });
});

describe("negotiateSoft (soft constraints dropped when no eligible worker has capacity)", () => {
  // 6 workers: 0-1 at 3.4 GHz, 2-5 at 2.0 GHz. Job A (2 x 80 s, clock > 3.0 soft) takes 0-1 at
  // t = 0. Job B (1 x 5 s, clock > 3.0 soft) at t = 1: no fast worker has capacity, the idle
  // slow ones do -> the clock constraint is dropped (1 negotiated relaxation) and B's probes go
  // to 2 of the 6 workers. Without negotiation B waits for A's tasks (~80 s).
  const machines = fleetOf([3.4, 3.4, 2.0, 2.0, 2.0, 2.0].map((g) => withAttr(6, g)));
  const clock: Constraint = { attr: "clockGhz", op: ">", value: 3.0, hard: false };
  const jobs = [job(0, [80, 80], 80, [clock]), job(1, [5], 5, [clock])];
  const run = (seed: number, negotiateSoft?: boolean, js = jobs) =>
    simulateNodes(js, { engine, policy: getNodePolicy("phoenix", { negotiateSoft }), workers: 6, seed, cutoff: 90, shortOnlyFraction: 0, machines });

  it("is on by default; relaxes, counts and reports the relaxation; B is faster on most seeds and never slower", () => {
    let faster = 0;
    for (let seed = 1; seed <= 20; seed++) {
      const on = run(seed), off = run(seed, false);
      expect(run(seed, true)).toEqual(on);
      expect(on.relaxations).toEqual({ unsatisfiable: 0, congested: 0, negotiated: 1 });
      expect(on.jobs.map((j) => j.relaxedSoft)).toEqual([0, 1]);
      expect(off.relaxations.negotiated).toBe(0);
      expect(off.jobs[1].response).toBeGreaterThan(79);
      expect(on.jobs[1].response).toBeLessThanOrEqual(off.jobs[1].response);
      if (on.jobs[1].response < 10) faster++;
    }
    expect(faster).toBeGreaterThanOrEqual(15);
  });

  it("relaxes nothing when the relaxed job would find no capacity either, and never a hard constraint", () => {
    const busy = [job(0, Array(6).fill(80), 80), job(1, [5], 5, [clock])];
    expect(run(1, true, busy).relaxations.negotiated).toBe(0);
    const hard = [job(0, [80, 80], 80, [clock]), job(1, [5], 5, [{ ...clock, hard: true }])];
    const r = run(1, true, hard);
    expect(r.relaxations.negotiated).toBe(0);
    expect(r.jobs[1].response).toBeGreaterThan(79);
  });
});
