// Random call histories for the live scheduler's properties (test/live/policy-state.test.ts,
// test/live/handles.test.ts): the nine policies, four queues (q3 an LQ with bursts, q2 with a max
// share, q1 with a min share, two H-LTRF groups) and the calls a host makes.
import fc from "fast-check";
import { createScheduler, type Scheduler } from "../../src/live/scheduler.js";
import { loadEngineSync } from "../../src/engine/load.js";

export const engine = loadEngineSync();
export const POLICIES = ["drf", "sp", "fifo", "bopf", "nbopf", "mbvt", "ltrf", "mlrf", "h-ltrf"];
export const QUEUES = ["q0", "q1", "q2", "q3"];

export type Op =
  | { k: "submit"; q: number; x: number; y: number; job: number; burst: boolean; shared?: boolean }
  | { k: "minShare"; q: number; min: number }
  | { k: "schedule" }
  | { k: "finish"; pick: number }
  | { k: "cancel"; pick: number }
  | { k: "advance"; dt: number }
  | { k: "wake" };

export const opArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 6, arbitrary: fc.record({ k: fc.constant("submit" as const), q: fc.nat(3), x: fc.integer({ min: 1, max: 5 }), y: fc.integer({ min: 0, max: 5 }), job: fc.nat(2), burst: fc.boolean() }) },
  { weight: 3, arbitrary: fc.constant({ k: "schedule" as const }) },
  { weight: 2, arbitrary: fc.record({ k: fc.constant("finish" as const), pick: fc.nat(20) }) },
  { weight: 1, arbitrary: fc.record({ k: fc.constant("cancel" as const), pick: fc.nat(20) }) },
  { weight: 2, arbitrary: fc.record({ k: fc.constant("advance" as const), dt: fc.integer({ min: 0, max: 12 }).map((x) => x / 2) }) },
  { weight: 1, arbitrary: fc.constant({ k: "wake" as const }) },
);

/**
 * opArb with what a restore must carry over besides: job names shared by queues (shared: true),
 * min shares changed by updateQueue (ties between queues at equal ratios; the changed queue moves
 * in the scheduler's lists), and more burst jobs (each reopens its burst).
 */
export const restoreOpArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 8, arbitrary: opArb },
  { weight: 3, arbitrary: fc.record({ k: fc.constant("submit" as const), q: fc.nat(3), x: fc.integer({ min: 1, max: 5 }), y: fc.integer({ min: 0, max: 5 }), job: fc.nat(1), burst: fc.boolean(), shared: fc.constant(true) }) },
  { weight: 1, arbitrary: fc.record({ k: fc.constant("minShare" as const), q: fc.nat(1), min: fc.constantFrom(0, 0.1, 0.2, 0.3) }) },
);

export function optionsFor(policy: string): Record<string, unknown> | undefined {
  if (policy === "ltrf" || policy === "mlrf") return { window: 100, quantum: 2 };
  if (policy === "h-ltrf") return { window: 30, quantum: 2, tWait: 3, tieBreak: "random" };
  if (policy === "mbvt") return { lag: 4 };
  return undefined;
}

/** A scheduler with queues q0..q3 (q3 an LQ with bursts; groups for H-LTRF) on a manual clock. */
export function make(policy: string, clock: () => number): Scheduler {
  const s = createScheduler({ policy, capacity: [10, 10], engine, clock, policyOptions: optionsFor(policy), seed: 7 });
  for (const n of QUEUES) addOne(s, n);
  return s;
}

export function addOne(s: Scheduler, n: string): void {
  const i = Number(n.slice(1));
  s.addQueue(n, {
    weight: 1 + (i % 2), kind: i === 3 ? "LQ" : "TQ", path: [`G${i % 2}`],
    bursts: i === 3 ? [{ start: 0, window: 4, volume: [8, 4] }, { start: 20, window: 4, volume: [8, 4] }] : undefined,
    maxShare: i === 2 ? 0.6 : undefined, minShare: i === 1 ? 0.2 : undefined,
  });
}

/** A "wake" op: the host's clock moves on to the scheduler's next wake-up, if that is later. */
export function advanceToWakeup(s: Scheduler, clock: { t: number }): void {
  const w = s.nextWakeup();
  if (w !== null && w > clock.t) clock.t = w;
}
