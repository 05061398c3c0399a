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
import { simulate } from "../../../src/sim/simulator.js";

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

  // KNOWN FAILURE: preemption under the shared dispatch (src/dispatch/) can cycle: room freed for a blocked queue is taken back by the elastic phase, and the cycle detector (src/sim/actions/preempt.ts) stops the run. Open in issue 19/21.
  it.fails("preemption that makes progress between kills is not a cycle (drf with an arriving queue)", () => {
    const w = duel();
    w.jobs[1].arrival = 30;
    const r = simulate(w, { policy: "drf", engine, preemption: true, updateInterval: 1 });
    for (const j of r.jobs) expect(j.outcome.status).toBe("finished");
  });
});
