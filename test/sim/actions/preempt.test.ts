// Preemption churn is bounded (issue 21, finding 2): a policy whose shares swing between
// queues on time alone, with preemption on, made the simulator kill and restart the same
// tasks forever (or until a horizon). The simulator now reports such a policy: a task
// preempted a second time with no progress in between (no task ended, no job arrived or
// ended, no burst closed) is a SimulationError naming the policy and the queues that take
// turns, after a bounded number of preemptions.
import { describe, expect, it } from "vitest";
import { loadEngineSync } from "../../../src/index.js";
import { SimulationError } from "../../../src/errors.js";
import type { Workload } from "../../../src/policy/model.js";
import type { ClusterState, Policy } from "../../../src/policy/policy.js";
import { resolvePolicy, simulate } from "../../../src/sim/simulator.js";
import { policyNames } from "../../../src/sim/registry.js";
import { bopfWorkload } from "../../../src/workloads/bopf.js";
import fc from "fast-check";
import { workloadArb } from "../../helpers/workloads.js";

const engine = loadEngineSync();

/** Two TQs that each need the whole memory: only one runs at a time. */
const duel = (): Workload => ({
  name: "duel", resources: ["cpu", "mem"], capacity: [3, 10], params: {}, seed: 1,
  queues: [{ name: "a", kind: "TQ" }, { name: "b", kind: "TQ" }],
  jobs: [
    { id: "ja", queue: "a", arrival: 0, stages: [{ tasks: 2, demand: [1.5, 5], duration: 60 }] },
    { id: "jb", queue: "b", arrival: 0, stages: [{ tasks: 1, demand: [2, 10], duration: 47 }] },
  ],
});

/** Gives everything to queue a, then b, then a, ... switching every `period` seconds of clock time. */
class Flipper implements Policy {
  readonly name = "flipper";
  constructor(private readonly period: number) {}
  shares(state: ClusterState, out: Float64Array): void {
    const k = state.capacity.length;
    const q = Math.floor(state.time / this.period) % 2;
    for (let r = 0; r < k; r++) out[q * k + r] = state.capacity[r];
  }
}

describe("preemption cycles", () => {
  it("a policy that preempts in a cycle is a SimulationError naming it and the cycle, after a bounded number of preemptions", () => {
    let err: unknown;
    try {
      simulate(duel(), { policy: new Flipper(10), engine, preemption: true, updateInterval: 1 });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(SimulationError);
    const e = err as SimulationError;
    expect(e.message).toMatch(/policy 'flipper' preempts in a cycle/);
    expect(e.message).toMatch(/queue a/);
    expect(e.message).toMatch(/queue b/);
    expect(e.message).not.toMatch(/updateInterval/);
    // a's task is killed at t = 10 (b leads), restarted at 20 (a leads), killed again at 30
    expect(e.time).toBe(30);
  });

  it("with a horizon the cycle is still reported (not dropped jobs after thousands of kills)", () => {
    expect(() => simulate(duel(), { policy: new Flipper(5), engine, preemption: true, updateInterval: 1, horizon: 5000 })).toThrow(/preempts in a cycle/);
  });

  it("the same policy without preemption finishes (tasks run to their end; no cycle to report)", () => {
    const r = simulate(duel(), { policy: new Flipper(10), engine, updateInterval: 1 });
    for (const j of r.jobs) expect(j.outcome.status).toBe("finished");
    expect(r.stats.preemptions).toBe(0);
  });

  it("preemption that makes progress between kills is not a cycle (drf with an arriving queue)", () => {
    const w = duel();
    w.jobs[1].arrival = 30;
    const r = simulate(w, { policy: "drf", engine, preemption: true, updateInterval: 1 });
    for (const j of r.jobs) expect(j.outcome.status).toBe("finished");
  });

  it("preempting a task whose room the waiting queue cannot use kills nothing (the duel: b's task needs all the memory, a keeps its share)", () => {
    const w = duel();
    w.jobs[1].arrival = 30;
    const r = simulate(w, { policy: "drf", engine, preemption: true, updateInterval: 1 });
    // a's two tasks hold the memory; killing one frees half of it, which b's <2, 10> cannot use,
    // and killing both would put a below its DRF share: b waits for a's tasks to end at 60
    expect(r.stats.preemptions).toBe(0);
    expect(r.preempted).toEqual([]);
    expect(r.jobs.find((j) => j.id === "jb")!.completionTime).toBe(60 + 47 - 30);
  });
});

describe("preemption for an LQ burst", () => {
  // Each burst job is two stages of 15 s and 12 s tasks (27 s on an empty cluster). SP's TQ
  // targets during a burst are the DRF kernel's positive floor (~1e-12 of the capacity): such a
  // share counts as 0, or a TQ's last task could never be preempted and the burst would take 54 s.
  it.each(["sp", "bopf", "nbopf"])("%s: every LQ burst finishes in 27 s, as on an empty cluster (seeds 1-10)", (policy) => {
    for (let seed = 1; seed <= 10; seed++) {
      const r = simulate(bopfWorkload({ tqs: 4, tqJobs: 3, bursts: 2 }, seed), { policy, engine, preemption: true });
      const lq = r.jobs.filter((j) => j.kind === "LQ");
      expect(lq).toHaveLength(2);
      for (const j of lq) expect(j.completionTime, `seed ${seed}, ${j.id}`).toBeCloseTo(27, 9);
      expect(r.stats.preemptions).toBeGreaterThan(0);
    }
  });
});

/** Small BoPF-shaped workloads (an LQ with bursts and deadlines, TQs with Pareto tasks). */
const bopfArb = fc.record({
  seed: fc.integer({ min: 1, max: 1_000_000 }),
  tqs: fc.integer({ min: 1, max: 4 }),
  tqJobs: fc.integer({ min: 1, max: 2 }),
  bursts: fc.integer({ min: 1, max: 3 }),
  lqTasks: fc.integer({ min: 5, max: 40 }),
}).map(({ seed, ...p }) => bopfWorkload({ ...p, period: 300, tqMaxTask: 200 }, seed));

describe("preemption under the shared dispatch", () => {
  it("for random workloads under every policy: every job ends, kills are bounded by tasks x queues, and no preempted task restarts in the instant it was killed", () => {
    fc.assert(fc.property(fc.oneof(workloadArb(), bopfArb), fc.constantFrom(...policyNames()), (w, name) => {
      const policy = resolvePolicy(name);
      // every run of every task: the runs that ended (taskEnd) and the runs that were preempted
      const starts = new Map<string, number[]>();
      const runStarted = (job: string, stage: number, task: number, at: number) => {
        const key = `${job}/${stage}/${task}`;
        starts.set(key, [...(starts.get(key) ?? []), at]);
      };
      const onEvent = policy.onEvent?.bind(policy);
      policy.onEvent = (e, s, a) => {
        if (e.type === "taskEnd") runStarted(e.job, e.stage, e.task, e.started);
        onEvent?.(e, s, a);
      };
      const r = simulate(w, { policy, engine, preemption: true });
      for (const j of r.jobs) expect(j.outcome.status).toBe("finished");
      const tasks = w.jobs.reduce((a, j) => a + j.stages.reduce((b, st) => b + st.tasks, 0), 0);
      expect(r.stats.preemptions).toBeLessThanOrEqual(tasks * w.queues.length);
      expect(r.preempted!.length).toBe(r.stats.preemptions);
      for (const p of r.preempted!) {
        expect(p.for).not.toBe(p.queue);
        runStarted(p.job, p.stage, p.task, p.started);
      }
      // With zero-length tasks several scheduling points share one time, and a task killed at one
      // may rightly restart at a later point of that time (the task it made room for has already
      // ended); the instant is a point in time only when every task takes time.
      const takesTime = w.jobs.every((j) => j.stages.every((st) => (typeof st.duration === "number" ? [st.duration] : st.duration).every((d) => d > 0)));
      if (takesTime) {
        for (const p of r.preempted!) {
          // no run of the killed task started in the instant of the kill (neither the killed run nor a restart)
          expect(starts.get(`${p.job}/${p.stage}/${p.task}`)!.filter((t) => t === p.time)).toEqual([]);
        }
      }
    }), { numRuns: 200 });
  });
});
