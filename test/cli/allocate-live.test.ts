// Property: `fairsched allocate`'s tasks to start are the live scheduler's. A random history of
// calls (queues added, tasks submitted, scheduled and finished as the clock moves) brings a live
// scheduler to some state; its snapshot, written as allocate input (running tasks, waiting tasks
// with their submission times, `time`), must make allocate answer exactly what
// a live scheduler in that state starts next — for every policy the live scheduler runs
// (LIVE_POLICIES: new ones are checked as they come). "In that state" is the scheduler restored
// from the snapshot without the policy's history (allocate's input has none: its snapshot minus
// `policyState`); for the memoryless policies, whose decision is a function of the current state
// alone, it is also the scheduler that lived through the history. The dispatch's starvation
// guard keeps one queue's reservation from point to point: that is part of the state
// (`reservedFor`, in the snapshot and in allocate's input). Since snapshots carry the
// policy's history (version 3), the scheduler restored from the whole snapshot decides as the
// one that lived through it for every policy — checked here too; for M-BVT's virtual times and
// LTRF's ledger allocate cannot, as its input holds no history.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { allocate } from "../../src/cli/allocate.js";
import { loadEngineSync } from "../../src/engine/load.js";
import { LIVE_POLICIES, createScheduler, restoreScheduler, type SchedulerSnapshot } from "../../src/live/scheduler.js";

const engine = loadEngineSync();
/** Policies that decide from the current state alone (docs/policies/): DRF, Strict Priority, FIFO. */
const MEMORYLESS = new Set(["drf", "sp", "fifo"]);

/** A snapshot as a user would write the same state for allocate (docs/cli.md). */
function asInput(s: SchedulerSnapshot): unknown {
  return {
    time: s.time,
    capacity: s.capacity,
    resources: s.resources,
    ...(s.reservedFor !== undefined ? { reservedFor: s.reservedFor } : {}),
    queues: s.queues.map((q) => {
      const { name, ...spec } = q.spec;
      return {
        name, ...spec,
        running: q.running.map((t) => ({ id: t.id, demand: t.demand })),
        tasks: q.waiting.map((t) => ({ id: t.id, demand: t.demand, submitted: t.submitted })),
      };
    }),
  };
}

const opArb = fc.oneof(
  fc.record({ op: fc.constant("submit" as const), queue: fc.nat(3), demand: fc.tuple(fc.integer({ min: 0, max: 5 }), fc.integer({ min: 0, max: 5 })), count: fc.integer({ min: 1, max: 4 }) }),
  fc.record({ op: fc.constant("schedule" as const) }),
  fc.record({ op: fc.constant("finish" as const), pick: fc.nat() }),
  fc.record({ op: fc.constant("tick" as const), dt: fc.integer({ min: 1, max: 5 }) }),
);
const historyArb = fc.record({
  queues: fc.array(fc.record({ kind: fc.constantFrom<"LQ" | "TQ">("LQ", "TQ"), weight: fc.integer({ min: 1, max: 3 }) }), { minLength: 1, maxLength: 4 }),
  ops: fc.array(opArb, { minLength: 1, maxLength: 30 }),
});

describe("allocate's tasks to start = the live scheduler's schedule()", () => {
  const policies = Object.keys(LIVE_POLICIES);
  it("the live scheduler runs the memoryless policies", () => expect(policies).toEqual(expect.arrayContaining([...MEMORYLESS])));
  it.each(policies)("%s: same tasks in the same order after any history", (policy) => {
    fc.assert(fc.property(historyArb, ({ queues, ops }) => {
      let now = 0;
      const s = createScheduler({ policy, capacity: [8, 8], resources: ["cpu", "mem"], engine, clock: () => now });
      queues.forEach((q, i) => s.addQueue(`q${i}`, q));
      const running: string[] = [];
      let seq = 0;
      for (const o of ops) {
        if (o.op === "submit") for (let c = 0; c < o.count; c++) s.submit(`q${o.queue % queues.length}`, { id: `t${seq++}`, demand: [...o.demand] });
        else if (o.op === "schedule") running.push(...s.schedule().map((t) => t.id));
        else if (o.op === "finish" && running.length) s.finish(running.splice(o.pick % running.length, 1)[0]);
        else if (o.op === "tick") now += o.dt;
      }
      const snapshot = s.snapshot();
      const input = asInput(snapshot);
      const before = JSON.stringify(input);
      const answer = allocate(policy, input, engine) as { start: unknown[] };
      expect(JSON.stringify(input)).toBe(before);
      const { policyState: _history, ...stateOnly } = snapshot;
      expect(answer.start).toEqual(restoreScheduler(stateOnly, { engine, clock: () => now }).schedule());
      const lived = s.schedule();
      expect(restoreScheduler(snapshot, { engine, clock: () => now }).schedule()).toEqual(lived);
      if (MEMORYLESS.has(policy)) expect(answer.start).toEqual(lived);
    }), { numRuns: 150 });
  });

  it("a queue that gives only its usage holds it as the live scheduler's running tasks would", () => {
    // q0 runs <3,1> and <3,1> (given as usage <6,2>), q1 nothing: q1's tasks go first under DRF
    const input = { capacity: [9, 18], queues: [{ name: "q0", usage: [6, 2], tasks: [{ id: "a", demand: [1, 1] }] }, { name: "q1", tasks: [{ id: "b", demand: [1, 4] }, { id: "c", demand: [1, 4] }] }] };
    const s = createScheduler({ policy: "drf", capacity: [9, 18], engine, clock: () => 0 });
    s.addQueue("q0"); s.addQueue("q1");
    s.submit("q0", { id: "r0", demand: [3, 1] }); s.submit("q0", { id: "r1", demand: [3, 1] });
    s.schedule();
    s.submit("q0", { id: "a", demand: [1, 1] });
    s.submit("q1", { id: "b", demand: [1, 4] }); s.submit("q1", { id: "c", demand: [1, 4] });
    expect((allocate("drf", input, engine) as { start: unknown[] }).start).toEqual(s.schedule());
  });
});
