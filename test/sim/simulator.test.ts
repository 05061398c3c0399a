// The simulator: determinism, invariants (each caught from a deliberately broken policy),
// every job ending with an outcome, preemption, ticks, horizon, input validation.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { InputError, loadEngineSync } from "../../src/index.js";
import { SimulationError } from "../../src/errors.js";
import type { Workload } from "../../src/policy/model.js";
import type { ClusterState, Policy, PolicyActions, SimEvent } from "../../src/policy/policy.js";
import { simulate } from "../../src/sim/simulator.js";
import { bopfWorkload } from "../../src/workloads/bopf.js";
import { workloadArb } from "../helpers/workloads.js";

const engine = loadEngineSync();

const tiny: Workload = {
  name: "tiny", resources: ["cpu", "mem"], capacity: [4, 8], params: {}, seed: 1,
  queues: [{ name: "a", kind: "TQ" }, { name: "b", kind: "TQ" }],
  jobs: [
    { id: "a1", queue: "a", arrival: 0, stages: [{ tasks: 4, demand: [1, 1], duration: 10 }, { tasks: 2, demand: [2, 1], duration: 5, parents: [0] }] },
    { id: "b1", queue: "b", arrival: 2, stages: [{ tasks: 3, demand: [1, 3], duration: 4 }] },
  ],
};

describe("simulator", () => {
  it("same seed gives the same result, bit for bit", () => {
    const w = bopfWorkload({ tqs: 3, tqJobs: 3, bursts: 2 }, 42);
    for (const policy of ["drf", "sp", "fifo"]) {
      const a = JSON.stringify(simulate(w, { policy, engine, seed: 42 }));
      const b = JSON.stringify(simulate(bopfWorkload({ tqs: 3, tqJobs: 3, bursts: 2 }, 42), { policy, engine, seed: 42 }));
      expect(a).toBe(b);
    }
    const other = JSON.stringify(simulate(bopfWorkload({ tqs: 3, tqJobs: 3, bursts: 2 }, 43), { policy: "drf", engine, seed: 43 }));
    expect(other).not.toBe(JSON.stringify(simulate(w, { policy: "drf", engine, seed: 42 })));
  });

  it("a hand-checkable run: DAG stages, FIFO, completion times", () => {
    const r = simulate(tiny, { policy: "fifo", engine });
    // a1: 4 tasks of <1,1> fill the CPUs 0..10, then 2 tasks of <2,1> 10..15 -> 15
    // b1 arrives at 2 with no free CPU; at 10 FIFO serves a1's stage 2 first (all 4 CPUs until 15);
    // then b1's tasks of <1,3>: memory 8 fits two (15..19), the third runs 19..23 -> completion 21
    const a1 = r.jobs.find((j) => j.id === "a1")!;
    const b1 = r.jobs.find((j) => j.id === "b1")!;
    expect(a1.completionTime).toBe(15);
    expect(b1.completionTime).toBe(21);
    expect(r.metrics.makespan).toBe(23);
    // cpu busy: 4*10 + 4*5 + 3*4 = 72 cpu·s of 4*23
    expect(r.metrics.utilization[0]).toBeCloseTo(72 / 92, 12);
  });

  /** Every job ends finished, nothing is over-allocated and, without preemption, busy time equals the work. */
  const everyJobEnds = (preemption: boolean) => () => {
    fc.assert(fc.property(workloadArb(), fc.constantFrom("drf", "sp", "fifo"), (w, policy) => {
      const r = simulate(w, { policy, engine, preemption: preemption && policy !== "fifo" });
      expect(r.jobs.length).toBe(w.jobs.length);
      for (const j of r.jobs) expect(j.outcome.status).toBe("finished");
      for (const u of r.metrics.utilization) expect(u).toBeLessThanOrEqual(1 + 1e-9);
      // conservation: busy cpu·s equals the work of all tasks (preempted work is lost only with preemption)
      if (r.stats.preemptions === 0 && r.metrics.makespan > 0) {
        const work = w.jobs.reduce((a, j) => a + j.stages.reduce((b, s) => b + s.tasks * s.demand[0] * (s.duration as number), 0), 0);
        expect(r.metrics.utilization[0] * w.capacity[0] * r.metrics.makespan).toBeCloseTo(work, 6);
      }
    }), { numRuns: 300 });
  };

  it("every job ends (finished) and nothing is over-allocated, for random workloads under every policy, without preemption", everyJobEnds(false));
  it("every job ends (finished) and nothing is over-allocated, for random workloads under every policy, with preemption", everyJobEnds(true));

  it("catches a policy that over-allocates (time, queue and job named)", () => {
    const greedy: Policy = {
      name: "broken-greedy",
      pickNext: (s: ClusterState) => s.queues.findIndex((q) => q.runnableTasks > 0),
    };
    expect(() => simulate(tiny, { policy: greedy, engine })).toThrow(SimulationError);
    expect(() => simulate(tiny, { policy: greedy, engine })).toThrow(/at t=2, queue b, job b1: resource (cpu|mem) over-allocated/);
  });

  it("catches a policy that leaves jobs unfinished", () => {
    const lazy: Policy = { name: "broken-lazy", pickNext: () => -1 };
    expect(() => simulate(tiny, { policy: lazy, engine })).toThrow(/queue a, job a1: the job never ended/);
  });

  it("catches time going backwards", () => {
    const backwards: Policy = {
      name: "broken-clock",
      pickNext: () => -1,
      onEvent: (e: SimEvent, _s: ClusterState, act: PolicyActions) => { if (e.type === "arrival" && e.time > 0) act.wakeAt(e.time - 1); },
    };
    expect(() => simulate(tiny, { policy: backwards, engine })).toThrow(/time went backwards/);
  });

  it("catches a drop without a reason, and records drops with reasons", () => {
    const dropper = (reason: string): Policy => ({
      name: "dropper",
      pickNext: (s) => s.queues.findIndex((q) => q.runnableTasks > 0 && q.nextTask!.every((d, r) => s.used[r] + d <= s.capacity[r])),
      onEvent: (e, _s, act) => { if (e.type === "arrival" && e.job === "b1") act.dropJob("b1", reason); },
    });
    expect(() => simulate(tiny, { policy: dropper(""), engine })).toThrow(/job b1: a job was dropped without a reason/);
    const r = simulate(tiny, { policy: dropper("over budget"), engine });
    expect(r.jobs.find((j) => j.id === "b1")!.outcome).toEqual({ status: "dropped", time: 2, reason: "over budget" });
    expect(r.jobs.find((j) => j.id === "a1")!.outcome.status).toBe("finished");
  });

  it("horizon: jobs not done by then are dropped with reason 'horizon'", () => {
    const r = simulate(tiny, { policy: "drf", engine, horizon: 5 });
    expect(r.jobs.every((j) => j.outcome.status === "dropped" && j.outcome.reason === "horizon")).toBe(true);
    expect(r.metrics.makespan).toBe(5);
  });

  it("ticks consult the policy at a fixed interval and the run still ends", () => {
    let ticks = 0;
    const counting: Policy = { name: "ticker", pickNext: () => -1, onEvent: (e) => { if (e.type === "tick") ticks++; } };
    const drf = simulate(tiny, { policy: "drf", engine, updateInterval: 1 });
    expect(drf.jobs.every((j) => j.outcome.status === "finished")).toBe(true);
    expect(() => simulate(tiny, { policy: counting, engine, updateInterval: 1, horizon: 10 })).not.toThrow();
    expect(ticks).toBeGreaterThanOrEqual(10);
  });

  it("preemption lets an LQ burst take resources held by TQs under SP", () => {
    const w = bopfWorkload({ tqs: 4, tqJobs: 3, bursts: 2 }, 7);
    const plain = simulate(w, { policy: "sp", engine });
    const pre = simulate(w, { policy: "sp", engine, preemption: true });
    expect(pre.stats.preemptions).toBeGreaterThan(0);
    expect(pre.metrics.classes.LQ.avgCompletion!).toBeLessThan(plain.metrics.classes.LQ.avgCompletion!);
    expect(pre.jobs.every((j) => j.outcome.status === "finished")).toBe(true);
  });

  it("bad workloads are InputErrors naming the field", () => {
    const bad = (patch: (w: Workload) => void) => {
      const w = structuredClone(tiny);
      patch(w);
      return () => simulate(w, { policy: "drf", engine });
    };
    expect(bad((w) => { w.jobs[0].stages[0].demand = [1]; })).toThrow(/workload.jobs\[0\].stages\[0\].demand: must have 2 entries/);
    expect(bad((w) => { w.jobs[1].stages[0].demand[1] = 100; })).toThrow(/exceeds the capacity 8/);
    expect(bad((w) => { w.jobs[1].queue = "zz"; })).toThrow(/workload.jobs\[1\].queue: unknown queue "zz"/);
    expect(bad((w) => { w.jobs[0].stages[1].parents = [1]; })).toThrow(/parents\[0\]: must index an earlier stage/);
    expect(bad((w) => { w.capacity[0] = -1; })).toThrow(InputError);
    expect(() => simulate(tiny, { policy: "nope", engine })).toThrow(/unknown policy 'nope'/);
  });

  it("a multi-thousand-task run starts every task exactly once (scale smoke test; timing lives in the benchmark)", () => {
    const w = bopfWorkload({ tqs: 4, tqJobs: 4, bursts: 2 }, 3);
    const r = simulate(w, { policy: "drf", engine });
    const tasks = w.jobs.reduce((a, j) => a + j.stages.reduce((b, s) => b + s.tasks, 0), 0);
    expect(r.stats.tasksStarted).toBe(tasks);
  });
});
