// M-BVT with preemption and periodic ticks (issue 21, finding 2): two TQs that each need the
// whole memory took turns preempting each other ~6,000 times (virtual times cross on clock
// time alone), and neither job finished. M-BVT now never takes resources back from running
// tasks at a point reached by time alone (a tick or a wake-up): its leader changes only take
// effect on free resources there, and preempt only at events (arrivals, task ends, bursts).
import { describe, expect, it } from "vitest";
import type { Workload } from "../../src/policy/model.js";
import { simulate } from "../../src/sim/simulator.js";
import { backends } from "../helpers/engines.js";

const duel = (): Workload => ({
  name: "duel", resources: ["cpu", "mem"], capacity: [3, 10], params: {}, seed: 1,
  queues: [{ name: "a", kind: "TQ" }, { name: "b", kind: "TQ" }],
  jobs: [
    { id: "a", queue: "a", arrival: 0, stages: [{ tasks: 2, demand: [1.5, 5], duration: 60 }] },
    { id: "b", queue: "b", arrival: 0, stages: [{ tasks: 1, demand: [2, 10], duration: 47 }] },
  ],
});

describe.each(backends)("M-BVT with preemption (%s)", (_name, make) => {
  const engine = make();

  it.each([1, 5, 10, 23, 46])("the issue's reproducer finishes with updateInterval %s, with at most one preemption per event", (updateInterval) => {
    const r = simulate(duel(), { policy: "mbvt", engine, preemption: true, updateInterval });
    for (const j of r.jobs) expect(j.outcome.status).toBe("finished");
    // 2 arrivals and 3 task ends: preemption only follows events, never a tick
    expect(r.stats.preemptions).toBeLessThanOrEqual(5);
    const makespan = Math.max(...r.jobs.map((j) => (j.outcome.status === "finished" ? j.outcome.finish : Infinity)));
    expect(makespan).toBeLessThanOrEqual(60 + 47 + 60);
  });

  it("an LQ burst still preempts TQs at its arrival (the warp works)", () => {
    const w: Workload = {
      name: "burst", resources: ["cpu"], capacity: [4], params: {}, seed: 1,
      queues: [{ name: "lq", kind: "LQ", bursts: [{ start: 10, window: 30, volume: [40] }] }, { name: "tq", kind: "TQ" }],
      jobs: [
        { id: "t", queue: "tq", arrival: 0, stages: [{ tasks: 4, demand: [1], duration: 100 }] },
        { id: "l", queue: "lq", arrival: 10, burst: 0, deadline: 30, stages: [{ tasks: 4, demand: [1], duration: 10 }] },
      ],
    };
    const r = simulate(w, { policy: "mbvt", engine, preemption: true, updateInterval: 1 });
    expect(r.stats.preemptions).toBeGreaterThan(0);
    const l = r.jobs.find((j) => j.id === "l")!;
    expect(l.outcome.status).toBe("finished");
    expect(l.completionTime).toBeLessThanOrEqual(30);
  });
});
