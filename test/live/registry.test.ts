// One policy registry: a policy a user adds with registerPolicy runs in the simulator and live
// (createScheduler, restoreScheduler, the sidecar), with the same decisions, and LIVE_POLICIES is
// a view of the same registry.
import { describe, expect, it } from "vitest";
import { loadEngineSync } from "../../src/engine/load.js";
import { LIVE_POLICIES, createScheduler, restoreScheduler } from "../../src/live/scheduler.js";
import { ServeSession } from "../../src/live/protocol.js";
import type { Workload } from "../../src/policy/model.js";
import type { ClusterState, PolicyFactory } from "../../src/policy/policy.js";
import { getPolicy, policyNames, registerPolicy } from "../../src/sim/registry.js";
import { simulate } from "../../src/sim/simulator.js";
import { liveRun } from "../helpers/live-run.js";

const engine = loadEngineSync();

/** A user's policy: strict priority by queue order (the first queue whose next task fits starts it). */
const queueOrder: PolicyFactory = {
  name: "test-queue-order",
  description: "strict priority by queue order (a test plugin)",
  create: () => ({
    name: "test-queue-order",
    pickNext(state: ClusterState): number {
      for (const q of state.queues) {
        const next = q.nextTask;
        if (!next || q.runnableTasks === 0) continue;
        let fits = true;
        for (let r = 0; r < next.length; r++) if (state.used[r] + next[r] > state.capacity[r]) fits = false;
        if (fits) return q.index;
      }
      return -1;
    },
  }),
};

const workload: Workload = {
  name: "plugin", resources: ["cpu", "mem"], capacity: [4, 4], params: {}, seed: 1,
  queues: [{ name: "low", kind: "TQ" }, { name: "high", kind: "TQ" }],
  jobs: [
    { id: "a", queue: "high", arrival: 0, stages: [{ tasks: 3, demand: [2, 1], duration: 2 }] },
    { id: "b", queue: "low", arrival: 0, stages: [{ tasks: 2, demand: [2, 2], duration: 3 }] },
    { id: "c", queue: "high", arrival: 1, stages: [{ tasks: 1, demand: [1, 1], duration: 1 }] },
  ],
};

describe("one policy registry", () => {
  it("a policy registered with registerPolicy runs live and in the simulator, with the same decisions", () => {
    expect(() => createScheduler({ policy: queueOrder.name, capacity: [1] })).toThrow(/unknown policy 'test-queue-order'/);
    registerPolicy(queueOrder);
    expect(policyNames()).toContain(queueOrder.name);
    expect(Object.keys(LIVE_POLICIES)).toContain(queueOrder.name);
    expect(LIVE_POLICIES[queueOrder.name]).toBe(queueOrder);
    const sim = simulate(workload, { policy: queueOrder.name, engine, seed: 1 });
    const live = liveRun(workload, queueOrder.name, undefined, true);
    const simEnds = Object.fromEntries(sim.jobs.map((j) => [j.id, j.outcome.status === "finished" ? j.outcome.finish : j.outcome.status]));
    const liveEnds = Object.fromEntries([...live].map(([id, o]) => [id, o.finish ?? o.status]));
    expect(liveEnds).toEqual(simEnds);
    // "low" is first in queue order: its two tasks take all the cpu until t = 3; then two of a's,
    // and at 5 a's last with c behind it in high's FIFO
    expect(simEnds).toEqual({ b: 3, a: 7, c: 6 });
  });

  it("a registered policy restores from a snapshot and answers over the sidecar protocol", () => {
    let now = 0;
    const s = createScheduler({ policy: queueOrder.name, capacity: [4], engine, clock: () => now });
    s.addQueue("x"); s.addQueue("y");
    s.submit("y", { id: "y0", demand: [3] });
    s.submit("x", { id: "x0", demand: [2] });
    s.submit("x", { id: "x1", demand: [2] });
    const r = restoreScheduler(JSON.parse(JSON.stringify(s.snapshot())), { engine, clock: () => now });
    expect(r.schedule()).toEqual(s.schedule());
    expect(r.policyName).toBe(queueOrder.name);
    const session = new ServeSession(engine);
    expect(JSON.parse(session.handle(JSON.stringify({ op: "init", policy: queueOrder.name, capacity: [4], clock: "manual" })))).not.toHaveProperty("error");
    session.handle(JSON.stringify({ op: "addQueue", queue: "x" }));
    session.handle(JSON.stringify({ op: "addQueue", queue: "y" }));
    session.handle(JSON.stringify({ op: "submit", queue: "y", task: { id: "y0", demand: [3] } }));
    session.handle(JSON.stringify({ op: "submit", queue: "x", task: { id: "x0", demand: [2] } }));
    expect(JSON.parse(session.handle(JSON.stringify({ op: "schedule" })))).toEqual({ started: [{ id: "x0", queue: "x" }] });
  });

  it("the scheduler asks the policy, never its name: renamed copies of fifo, sp, bopf and ltrf explain and apply shares as the originals", () => {
    const copy = (name: string): string => {
      const f = getPolicy(name)!;
      const renamed = `test-copy-of-${name}`;
      registerPolicy({ name: renamed, description: `${name} under another name`, create: (o) => f.create(o) });
      return renamed;
    };
    const bursts = [{ start: 0, window: 5, volume: [4, 4] }];
    for (const name of ["fifo", "sp", "bopf", "nbopf", "ltrf", "mlrf", "h-ltrf", "mbvt", "drf"]) {
      const run = (policy: string) => {
        let now = 0;
        const s = createScheduler({ policy, capacity: [8, 8], engine, clock: () => now });
        s.addQueue("lq", { kind: "LQ", bursts, minShare: 0.5, path: ["g"] });
        s.addQueue("tq", { maxShare: 0.5, path: ["g"] });
        for (let i = 0; i < 6; i++) s.submit("tq", { id: `t${i}`, demand: [2, 1], job: "tj" });
        now = 1;
        for (let i = 0; i < 4; i++) s.submit("lq", { id: `l${i}`, demand: [1, 2], job: "lj", burst: 0 });
        const first = s.schedule();
        now = 2;
        return { first, explain: [s.explain("lq").reason, s.explain("tq").reason], shares: s.shares() };
      };
      expect(run(copy(name)), name).toEqual(run(name));
    }
  });
});
