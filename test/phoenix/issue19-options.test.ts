// Issue 19 model options: long-job CRV demand released when a central task starts, and Hawk-C
// stealing by any idle worker (as Hawk's simulator), each against the former behaviour.
import { describe, expect, it } from "vitest";
import { InputError, loadEngineSync } from "../../src/index.js";
import type { Constraint, Machines } from "../../src/phoenix/constraints.js";
import { simulateNodes } from "../../src/phoenix/node-sim.js";

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

  it("a started long task leaves the CRV demand: no congestion once most long tasks run", () => {
    const before = run();
    const after = run(true);
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

  it('"any": the short job is never slower and faster on at least 15 of 20 seeds (sign test, p < 0.025)', () => {
    let stolenAny = 0, stolenShortOnly = 0, faster = 0;
    for (let seed = 1; seed <= 20; seed++) {
      const a = run(seed, "any"), s = run(seed);
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
