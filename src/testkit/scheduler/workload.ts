// The workloads the whole-scheduler fuzzer plays: tenants with weights, min shares and one task
// shape each, jobs of several tasks arriving over time (bursts: many tasks at one instant),
// tenants that come and go. fast-check generates and shrinks them; the driver turns one into ops.
import fc from "fast-check";
import type { Scenario, ScenarioJob, ScenarioQueue } from "./types.js";

export interface ScenarioOptions {
  /** Most tenants (default 4). */
  maxQueues?: number;
  /** Most resources (default 2). */
  maxResources?: number;
  /** Most jobs (default 10). */
  maxJobs?: number;
}

const queueArb = (k: number, capacity: number[]): fc.Arbitrary<ScenarioQueue> =>
  fc.record({
    weight: fc.constantFrom(1, 1, 2, 3, 4),
    minShare: fc.constantFrom(0, 0, 0, 0.1, 0.2),
    // at most a quarter of each resource per task, at least one unit of the first
    demand: fc.tuple(...Array.from({ length: k }, (_, r) => fc.integer({ min: r === 0 ? 1 : 0, max: Math.max(1, Math.floor(capacity[r] / 4)) }))),
    churn: fc.boolean(),
  });

const jobArb = (n: number): fc.Arbitrary<ScenarioJob> =>
  fc.record({
    queue: fc.integer({ min: 0, max: n - 1 }),
    at: fc.integer({ min: 0, max: 30 }),
    tasks: fc.integer({ min: 1, max: 40 }),
    duration: fc.integer({ min: 1, max: 6 }),
  });

/** Scenarios: 1..maxResources resources of 8..16 units, 2..maxQueues tenants, 1..maxJobs jobs. */
export function scenarioArb(options: ScenarioOptions = {}): fc.Arbitrary<Scenario> {
  const maxQ = Math.max(2, options.maxQueues ?? 4);
  const maxK = Math.max(1, options.maxResources ?? 2);
  const maxJobs = Math.max(1, options.maxJobs ?? 10);
  return fc.integer({ min: 1, max: maxK }).chain((k) =>
    fc.tuple(...Array.from({ length: k }, () => fc.integer({ min: 8, max: 16 }))).chain((capacity) =>
      fc.integer({ min: 2, max: maxQ }).chain((n) =>
        fc.record({
          capacity: fc.constant(capacity),
          queues: fc.array(queueArb(k, capacity), { minLength: n, maxLength: n }),
          jobs: fc.array(jobArb(n), { minLength: 1, maxLength: maxJobs }),
          split: fc.integer({ min: 2, max: 3 }),
        }),
      ),
    ),
  ).map(normalise);
}

/** Min shares that fit together (at most half the cluster in all), so every guarantee can be met. */
function normalise(s: Scenario): Scenario {
  const total = s.queues.reduce((a, q) => a + q.minShare, 0);
  if (total <= 0.5) return s;
  let left = 0.5;
  return { ...s, queues: s.queues.map((q) => { const m = Math.min(q.minShare, left); left -= m; return { ...q, minShare: m }; }) };
}

/** Longest task duration of the scenario. */
export const longestTask = (s: Scenario): number => s.jobs.reduce((m, j) => Math.max(m, j.duration), 0);
