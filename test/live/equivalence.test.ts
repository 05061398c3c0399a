// Same decisions as the simulator: random workloads run through simulate() and, event by event,
// through the live scheduler (arrivals submit the job's tasks, task ends finish them, then one
// schedule() per instant, as the simulator's scheduling point). Every job must finish at the same
// time under every policy the live scheduler runs.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { loadEngineSync } from "../../src/engine/load.js";
import { LIVE_POLICIES, createScheduler } from "../../src/live/scheduler.js";
import type { Workload } from "../../src/policy/model.js";
import { simulate } from "../../src/sim/simulator.js";

const engine = loadEngineSync();

const workloadArb = fc.record({
  kinds: fc.array(fc.constantFrom<"LQ" | "TQ">("LQ", "TQ"), { minLength: 1, maxLength: 4 }),
  weights: fc.array(fc.integer({ min: 1, max: 3 }), { minLength: 4, maxLength: 4 }),
  jobs: fc.array(fc.record({
    queue: fc.nat(3), arrival: fc.integer({ min: 0, max: 20 }), tasks: fc.integer({ min: 1, max: 4 }),
    demand: fc.tuple(fc.integer({ min: 0, max: 4 }), fc.integer({ min: 0, max: 4 })), duration: fc.integer({ min: 1, max: 6 }),
  }), { minLength: 1, maxLength: 14 }),
}).map(({ kinds, weights, jobs }): Workload => ({
  name: "eq", resources: ["cpu", "mem"], capacity: [8, 8], params: {}, seed: 1,
  queues: kinds.map((kind, i) => ({ name: `q${i}`, kind, weight: weights[i] })),
  jobs: jobs.map((j, i) => ({ id: `j${i}`, queue: `q${j.queue % kinds.length}`, arrival: j.arrival, stages: [{ tasks: j.tasks, demand: [...j.demand], duration: j.duration }] })),
}));

/** Job finish times when the live scheduler is driven by the workload's events. */
function liveFinishes(w: Workload, policy: string): Map<string, number> {
  let now = 0;
  const s = createScheduler({ policy, capacity: w.capacity, resources: w.resources, engine, clock: () => now });
  for (const q of w.queues) s.addQueue(q.name, { kind: q.kind, weight: q.weight });
  const order = w.jobs.map((_, i) => i).sort((a, b) => w.jobs[a].arrival - w.jobs[b].arrival || a - b);
  const ends = new Map<number, string[]>(); // time -> task ids ending
  const left = new Map(w.jobs.map((j) => [j.id, j.stages[0].tasks]));
  const finish = new Map<string, number>();
  const duration = new Map(w.jobs.map((j) => [j.id, j.stages[0].duration as number]));
  let next = 0;
  while (next < order.length || ends.size > 0) {
    const tArr = next < order.length ? w.jobs[order[next]].arrival : Infinity;
    const tEnd = ends.size ? Math.min(...ends.keys()) : Infinity;
    now = Math.min(tArr, tEnd);
    for (const id of ends.get(now) ?? []) {
      s.finish(id);
      const job = id.split(":")[0];
      left.set(job, left.get(job)! - 1);
      if (left.get(job) === 0) finish.set(job, now);
    }
    ends.delete(now);
    while (next < order.length && w.jobs[order[next]].arrival === now) {
      const j = w.jobs[order[next++]];
      for (let t = 0; t < j.stages[0].tasks; t++) s.submit(j.queue, { id: `${j.id}:${t}`, demand: j.stages[0].demand });
    }
    for (const { id } of s.schedule()) {
      const at = now + duration.get(id.split(":")[0])!;
      ends.set(at, [...(ends.get(at) ?? []), id]);
    }
  }
  return finish;
}

describe("live scheduler = simulator", () => {
  for (const policy of Object.keys(LIVE_POLICIES)) {
    it(`${policy}: every job finishes at the same time`, () => {
      fc.assert(fc.property(workloadArb, (w) => {
        const sim = simulate(w, { policy, engine });
        const live = liveFinishes(w, policy);
        for (const j of sim.jobs) {
          expect(j.outcome.status).toBe("finished");
          expect(live.get(j.id)).toBe((j.outcome as { finish: number }).finish);
        }
      }), { numRuns: 150 });
    });
  }
});
