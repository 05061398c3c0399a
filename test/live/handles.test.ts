// The live scheduler's handle API (docs/live-scheduler.md, "Handles"): submitHandle /
// finishHandle / cancelHandle / scheduleHandles are the string-id API without the strings.
//
// Property, all nine policies: a random call history (submits with and without jobs, LQ
// bursts, schedules, finishes, cancels, time passing, wake-ups) run through the string API on
// one scheduler and the handle API on another, the second snapshotted and restored (through
// JSON) at a random point, gives the same started tasks in the same order, the same cancel
// answers, nextWakeup() and shares() after every call, and at the end the same snapshot once
// each handle is replaced by the id of the task it names. (A task submitted without a job is its
// own job, named by its id or its handle: LTRF's policy state names jobs, so the policy states
// are compared only for the histories, half of them, where every task names its job.)
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createScheduler, restoreScheduler, type Scheduler, type SchedulerSnapshot } from "../../src/live/scheduler.js";
import { POLICIES, advanceToWakeup, engine, make, opArb, type Op } from "../helpers/live-ops.js";
import { inputErrorOf } from "../helpers/input-error.js";

interface Twin {
  a: Scheduler;
  b: Scheduler;
  seq: number;
  bursts: number;
  /** A's running ids, in start order. */
  running: string[];
  handleOf: Map<string, number>;
  idOf: Map<number, string>;
  queueOf: Map<string, string>;
  /** Some task was its own job (named differently by the two APIs). */
  ownJobs: boolean;
  /** Every task names its job. */
  named: boolean;
}

function forget(tw: Twin, id: string): number {
  const h = tw.handleOf.get(id)!;
  tw.handleOf.delete(id);
  tw.idOf.delete(h);
  return h;
}

function step(tw: Twin, op: Op, clock: { t: number }): void {
  const { a, b } = tw;
  switch (op.k) {
    case "submit": {
      const q = `q${op.q}`;
      const id = `t${tw.seq++}`;
      const burst = op.q === 3 && op.burst ? Math.min(1, tw.bursts++ >> 1) : undefined;
      const job = tw.named || op.job < 2 ? `${q}j${op.job % 2}` : undefined; // else the task is its own job
      if (job === undefined) tw.ownJobs = true;
      a.submit(q, { id, demand: [op.x, op.y], job, burst });
      const h = b.submitHandle(q, [op.x, op.y], { job, burst });
      expect(tw.idOf.has(h)).toBe(false); // a handle names one task at a time
      tw.handleOf.set(id, h);
      tw.idOf.set(h, id);
      tw.queueOf.set(id, q);
      return;
    }
    case "wake":
    case "schedule": {
      if (op.k === "wake") advanceToWakeup(a, clock);
      const sa = a.schedule();
      const n = b.scheduleHandles();
      const sb = Array.from(b.startedHandles.subarray(0, n), (h) => tw.idOf.get(h)!);
      expect(sb).toEqual(sa.map((x) => x.id));
      expect(sa.map((x) => x.queue)).toEqual(sa.map((x) => tw.queueOf.get(x.id)));
      tw.running.push(...sb);
      return;
    }
    case "finish": {
      if (tw.running.length === 0) return;
      const [id] = tw.running.splice(op.pick % tw.running.length, 1);
      a.finish(id);
      b.finishHandle(forget(tw, id));
      return;
    }
    case "cancel": {
      // the newest live task at or below a random recent submission, waiting or running
      for (let j = tw.seq - 1 - (op.pick % 4); j >= 0; j--) {
        const id = `t${j}`;
        if (!tw.handleOf.has(id)) continue;
        const ra = a.cancel(id);
        const rb = b.cancelHandle(forget(tw, id));
        expect(rb).toEqual({ queue: ra.queue, wasRunning: ra.wasRunning });
        if (ra.wasRunning) tw.running.splice(tw.running.indexOf(id), 1);
        return;
      }
      return;
    }
    case "advance":
      clock.t += op.dt;
  }
}

/** B's snapshot with every handle replaced by the id of the task it names. */
function asIds(s: SchedulerSnapshot, idOf: Map<number, string>): SchedulerSnapshot {
  const out = JSON.parse(JSON.stringify(s)) as SchedulerSnapshot;
  expect(out.handles).toBe(idOf.size > 0 ? true : undefined);
  delete out.handles;
  for (const q of out.queues) for (const t of [...q.waiting, ...q.running]) t.id = idOf.get(Number(t.id))!;
  return out;
}

describe("live scheduler, handle API", () => {
  it.each(POLICIES)("makes the string API's decisions, through a snapshot/restore too (%s)", (policy) => {
    fc.assert(fc.property(fc.array(opArb, { minLength: 1, maxLength: 70 }), fc.nat(69), fc.boolean(), (ops, cutAt, named) => {
      const clock = { t: 0 };
      const tw: Twin = { a: make(policy, () => clock.t), b: make(policy, () => clock.t), seq: 0, bursts: 0, running: [], handleOf: new Map(), idOf: new Map(), queueOf: new Map(), ownJobs: false, named };
      ops.forEach((op, i) => {
        if (i === cutAt % ops.length) tw.b = restoreScheduler(JSON.parse(JSON.stringify(tw.b.snapshot())), { engine, clock: () => clock.t });
        step(tw, op, clock);
        expect(tw.b.nextWakeup()).toEqual(tw.a.nextWakeup());
        expect(tw.b.shares()).toEqual(tw.a.shares());
      });
      const sa = JSON.parse(JSON.stringify(tw.a.snapshot())) as SchedulerSnapshot;
      const sb = asIds(tw.b.snapshot(), tw.idOf);
      if (tw.ownJobs) { delete sa.policyState; delete sb.policyState; }
      expect(sb).toEqual(sa);
    }), { numRuns: 40 });
  });

  it("bad handles and mixed APIs are InputErrors naming the field, and change nothing", () => {
    const s = createScheduler({ policy: "drf", capacity: [4, 4], engine, clock: () => 0 });
    s.addQueue("A");
    const h0 = s.submitHandle("A", [1, 1]);
    const h1 = s.submitHandle("A", Float64Array.of(2, 1), { estimate: 3 });
    expect(s.scheduleHandles()).toBe(2);
    expect(Array.from(s.startedHandles.subarray(0, 2))).toEqual([h0, h1]);
    const h2 = s.submitHandle("A", [1, 1]);
    const before = JSON.stringify(s.snapshot());
    expect(inputErrorOf(() => s.finishHandle(h2)).field).toBe("handle"); // waiting, not running
    expect(inputErrorOf(() => s.finishHandle(99)).field).toBe("handle");
    expect(inputErrorOf(() => s.finishHandle(-1)).field).toBe("handle");
    expect(inputErrorOf(() => s.finishHandle(0.5)).field).toBe("handle");
    expect(inputErrorOf(() => s.cancelHandle("0" as never)).field).toBe("handle");
    expect(inputErrorOf(() => s.submitHandle("A", [1])).field).toBe("demand");
    expect(inputErrorOf(() => s.submitHandle("A", [5, 1])).field).toBe("demand[0]");
    expect(inputErrorOf(() => s.submitHandle("A", [1, 1], { estimate: -1 })).field).toBe("options.estimate");
    expect(inputErrorOf(() => s.submitHandle("A", [1, 1], { burst: 0 })).field).toBe("options.burst");
    expect(inputErrorOf(() => s.submitHandle("A", [1, 1], { id: "x" } as never)).field).toBe("options.id");
    expect(inputErrorOf(() => s.submitHandle("B", [1, 1])).field).toBe("queue");
    // one API at a time: string ids are refused while handle tasks are held
    expect(inputErrorOf(() => s.submit("A", { id: "x", demand: [1, 1] })).field).toBe("task.id");
    expect(inputErrorOf(() => s.finish("0")).field).toBe("id");
    expect(JSON.stringify(s.snapshot())).toBe(before);
    // schedule() answers for handle tasks with the handle in decimal
    s.finishHandle(h0);
    expect(s.schedule()).toEqual([{ id: String(h2), queue: "A" }]);
    s.finishHandle(h1);
    s.cancelHandle(h2);
    // none held: either API may start
    s.submit("A", { id: "x", demand: [1, 1] });
    expect(inputErrorOf(() => s.submitHandle("A", [1, 1])).field).toBe("handle");
    expect(inputErrorOf(() => s.scheduleHandles()).field).toBe("scheduleHandles");
    expect(s.schedule()).toEqual([{ id: "x", queue: "A" }]);
  });

  it("a snapshot of handles keeps them: the restored scheduler finishes the same handles", () => {
    const s = createScheduler({ policy: "drf", capacity: [2], engine, clock: () => 0 });
    s.addQueue("A");
    const hs = [0, 1, 2, 3].map(() => s.submitHandle("A", [1]));
    s.cancelHandle(hs[0]); // a gap: the restore keeps handles 1..3 where they were
    expect(Array.from(s.startedHandles.subarray(0, s.scheduleHandles()))).toEqual([hs[1], hs[2]]);
    const snap = JSON.parse(JSON.stringify(s.snapshot()));
    expect(snap.handles).toBe(true);
    const r = restoreScheduler(snap, { engine, clock: () => 0 });
    r.finishHandle(hs[2]);
    expect(Array.from(r.startedHandles.subarray(0, r.scheduleHandles()))).toEqual([hs[3]]);
    expect(inputErrorOf(() => r.finishHandle(hs[0])).field).toBe("handle");
    const bad = structuredClone(snap);
    bad.queues[0].waiting[0].id = "x1";
    expect(inputErrorOf(() => restoreScheduler(bad, { engine })).field).toBe("snapshot.queues[0].waiting[0].id");
    expect(inputErrorOf(() => restoreScheduler({ ...snap, handles: 1 }, { engine })).field).toBe("snapshot.handles");
    const huge = structuredClone(snap);
    huge.queues[0].waiting[0].id = String(2 ** 24); // a restore would take 16M slots
    expect(inputErrorOf(() => restoreScheduler(huge, { engine })).field).toBe("snapshot.queues[0].waiting[0].id");
    const v2 = structuredClone(snap);
    v2.version = 2;
    delete v2.policyState; delete v2.rng; delete v2.wakeups;
    expect(inputErrorOf(() => restoreScheduler(v2, { engine })).field).toBe("snapshot.version");
  });
});
