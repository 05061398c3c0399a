// The dispatch's starvation guard (src/dispatch/head-reservation.ts; docs/policies/simulator.md,
// "Dispatch"): a reservation for the head of the elastic phase's DRF order when its next task does
// not fit. Its claims, as properties over random seeds:
//  - long-term DRF: with any mix of task sizes, every backlogged queue's time-averaged dominant
//    share stays within a margin of its (weighted) DRF share;
//  - work conservation on what the reserved task does not need: after every scheduling point,
//    a queue whose next task fits waits only because that task would take room the head's needs
//    (and with the guard off, no queue's next task fits: plain online DRF).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { loadEngineSync } from "../../src/engine/load.js";
import { createScheduler } from "../../src/live/scheduler.js";
import type { JobSpec, QueueSpec, Workload } from "../../src/policy/model.js";
import { simulate } from "../../src/sim/simulator.js";
import { unjustifiedWaits } from "../helpers/guard-check.js";

const engine = loadEngineSync();
const CAP = [10, 10];

interface Backlogged { weight: number; demand: number[]; durations: number[] }

/**
 * Tasks from 0.1 to 5 units (half the cluster) on each resource, both resources needed; real
 * durations from 0.1 to 5 s, so tasks end at different instants (see the property's comment).
 */
const queueArb = fc.record({
  weight: fc.integer({ min: 1, max: 3 }),
  demand: fc.tuple(fc.integer({ min: 1, max: 50 }), fc.integer({ min: 1, max: 50 })).map(([a, b]) => [a / 10, b / 10]),
  durations: fc.array(fc.double({ min: 0.1, max: 5, noNaN: true }), { minLength: 10, maxLength: 10 }),
});

/**
 * Weighted DRF shares of queues that are all backlogged and all need every resource: equal
 * dominant share per unit of weight, up to the first resource the queues fill together.
 */
function drfShares(qs: readonly Backlogged[]): number[] {
  const dom = qs.map((q) => Math.max(...q.demand.map((d, r) => d / CAP[r])));
  let t = Infinity;
  for (let r = 0; r < CAP.length; r++) t = Math.min(t, 1 / qs.reduce((a, q, i) => a + (q.weight * q.demand[r]) / CAP[r] / dom[i], 0));
  return qs.map((q) => q.weight * t);
}

function backloggedWorkload(qs: readonly Backlogged[], horizon: number): Workload {
  const queues: QueueSpec[] = qs.map((q, i) => ({ name: `Q${i}`, kind: "TQ", weight: q.weight }));
  const jobs: JobSpec[] = [];
  qs.forEach((q, i) => {
    // enough work for the whole cluster for 1.5 horizons, 10 tasks a job
    const dom = Math.max(...q.demand.map((d, r) => d / CAP[r]));
    const perJob = q.durations.reduce((a, b) => a + b, 0) * dom;
    const n = Math.ceil((1.5 * horizon) / perJob);
    for (let j = 0; j < n; j++) jobs.push({ id: `Q${i}-j${j}`, queue: `Q${i}`, arrival: 0, stages: [{ tasks: 10, demand: q.demand, duration: q.durations }] });
  });
  return { name: "backlogged", resources: ["a", "b"], capacity: CAP, queues, jobs, params: {}, seed: 1 };
}

describe("the dispatch's starvation guard", () => {
  // Margin: one task of the largest size in the mix (a non-preemptive cluster cannot split
  // tasks) plus 0.02 for the time the head waits for room to free up. Without the guard a
  // queue of large tasks beside one of small tasks ends near 0 (test/bopf/bopf-policy.test.ts).
  it("long-term DRF: with any mix of task sizes and weights, every backlogged queue's average dominant share is within one largest task of its weighted DRF share", () => {
    const horizon = 300;
    fc.assert(fc.property(fc.array(queueArb, { minLength: 2, maxLength: 4 }), (qs) => {
      const r = simulate(backloggedWorkload(qs, horizon), { policy: "drf", engine, horizon });
      const fair = drfShares(qs);
      const largest = Math.max(...qs.map((q) => Math.max(...q.demand.map((d, k) => d / CAP[k]))));
      r.metrics.queues.forEach((m, i) => {
        expect(m.avgDominantShare, `queue ${i}: ${JSON.stringify(qs[i].demand)} weight ${qs[i].weight}, DRF share ${fair[i]}`).toBeGreaterThanOrEqual(fair[i] - largest - 0.02);
      });
    }), { numRuns: 60, endOnFailure: true, seed: Number(process.env.SEED ?? 1) });
  });
});
