// Issue 32, defect 8: queue names and group names are separate namespaces. Before the fix a queue
// named like another queue's group (a root-level queue "G" beside the group "G" of queues a and b)
// shared that group's node of the quantum tree, so its jobs' quanta fed the group's average and the
// group's quantum became the queue's: the same workload under other names got other decisions.
// Property: renaming queues and groups (a bijection per namespace that makes a queue name equal to
// a group name) changes no decision, under ltrf and h-ltrf (and mlrf, which shares the machinery).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createScheduler, type Scheduler } from "../../src/live/scheduler.js";
import { loadEngineSync } from "../../src/engine/load.js";

const engine = loadEngineSync();

type Op =
  | { k: "submit"; q: number; x: number; job: number }
  | { k: "schedule" }
  | { k: "finish"; pick: number }
  | { k: "advance"; dt: number };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 5, arbitrary: fc.record({ k: fc.constant("submit" as const), q: fc.nat(2), x: fc.integer({ min: 1, max: 3 }), job: fc.nat(2) }) },
  { weight: 3, arbitrary: fc.constant({ k: "schedule" as const }) },
  { weight: 3, arbitrary: fc.record({ k: fc.constant("finish" as const), pick: fc.nat(20) }) },
  { weight: 3, arbitrary: fc.record({ k: fc.constant("advance" as const), dt: fc.integer({ min: 1, max: 16 }).map((x) => x / 4) }) },
);

/** Queue 0 and 1 in group `group`, queue 2 at the root; runs the ops and answers every schedule() with queue indices. */
function run(policy: string, names: string[], group: string, ops: Op[]): Array<Array<[string, number]>> {
  const clock = { t: 0 };
  const s: Scheduler = createScheduler({ policy, capacity: [6], engine, clock: () => clock.t, policyOptions: { quantum: 3, refreshInterval: 0, tWait: 2 } });
  s.addQueue(names[0], { path: [group] });
  s.addQueue(names[1], { path: [group] });
  s.addQueue(names[2]);
  const index = new Map(names.map((n, i) => [n, i]));
  const running: string[] = [];
  const out: Array<Array<[string, number]>> = [];
  let seq = 0;
  for (const op of ops) {
    if (op.k === "submit") s.submit(names[op.q], { id: `t${seq++}`, demand: [op.x], job: `j${op.q}-${op.job}` });
    else if (op.k === "advance") clock.t += op.dt;
    else if (op.k === "finish") {
      if (running.length > 0) s.finish(running.splice(op.pick % running.length, 1)[0]);
    } else {
      const started = s.schedule();
      running.push(...started.map((t) => t.id));
      out.push(started.map((t) => [t.id, index.get(t.queue)!]));
    }
  }
  return out;
}

describe("queue and group names are separate namespaces (issue 32, defect 8)", () => {
  for (const policy of ["ltrf", "h-ltrf", "mlrf"]) {
    it(`${policy}: naming the root-level queue like the other queues' group changes no decision`, () => {
      fc.assert(fc.property(fc.array(opArb, { minLength: 10, maxLength: 80 }), (ops) => {
        expect(run(policy, ["a", "b", "G"], "G", ops)).toEqual(run(policy, ["a", "b", "c"], "G", ops));
        // and the other way round: the group named like a queue
        expect(run(policy, ["a", "b", "c"], "c", ops)).toEqual(run(policy, ["a", "b", "c"], "G", ops));
      }), { numRuns: 120 });
    });
  }
});
