// The policies' history in the live scheduler (docs/live-scheduler.md, "Policy state"):
// Policy.exportState / importState carried across snapshots and queue-set rebuilds.
//
// 1. Snapshot/restore, all nine policies: at a random point of a random call history
//    (submits with jobs and LQ bursts, schedules, finishes, cancels, time passing, wake-ups),
//    snapshot -> JSON.stringify/parse -> restoreScheduler; the same further calls on both give
//    identical schedule() answers, nextWakeup() and shares().
// 2. An unrelated queue that comes and goes: let H be a random call history over queues S, and
//    H' the same history with addQueue(X) inserted before one call and removeQueue(X) before the
//    same or a later one, X a TQ with no group and never given a task. Then every schedule() answer and shares()
//    of the queues in S under H' equal those under H. (An idle queue takes no share, has no
//    ledger and no virtual-time progress, so while it is present it changes nothing, and after
//    it is gone the survivors' history is theirs.) BoPF and N-BoPF admit the whole queue set
//    again at every change, and an admitted queue is counted in the LQs' fairness condition, so
//    X's presence may change an LQ's class while it is there: for them X is added and removed at
//    the same instant, with no call between, and the property is about the decisions after.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { InputError, createScheduler, restoreScheduler } from "../../src/index.js";
import type { Scheduler } from "../../src/live/scheduler.js";
import { POLICIES, addOne, advanceToWakeup, engine, make, opArb, restoreOpArb, type Op } from "../helpers/live-ops.js";

/** Runs one op on s (its running ids in `running`, its task counter in `seq`); returns what the op answered. */
function apply(s: Scheduler, op: Op, st: { running: string[]; seq: number; bursts: number }, clock: { t: number }): unknown {
  switch (op.k) {
    case "submit": {
      const q = `q${op.q}`;
      const id = `t${st.seq++}`;
      const burst = op.q === 3 && op.burst ? Math.min(1, st.bursts++ >> 1) : undefined;
      s.submit(q, { id, demand: [op.x, op.y], job: op.shared ? `shared${op.job}` : `${q}j${op.job}`, burst });
      return id;
    }
    case "minShare":
      return s.updateQueue(`q${op.q}`, { minShare: op.min });
    case "schedule": {
      const started = s.schedule();
      st.running.push(...started.map((t) => t.id));
      return started;
    }
    case "finish": {
      if (st.running.length === 0) return null;
      const [id] = st.running.splice(op.pick % st.running.length, 1);
      s.finish(id);
      return id;
    }
    case "cancel": {
      // a waiting task (the newest submitted that is not running), or nothing
      for (let j = st.seq - 1 - (op.pick % 4); j >= 0; j--) {
        const id = `t${j}`;
        if (st.running.includes(id)) continue;
        try { return s.cancel(id); } catch (e) { if (!(e instanceof InputError)) throw e; }
        return null;
      }
      return null;
    }
    case "advance":
      clock.t += op.dt;
      return clock.t;
    case "wake": {
      advanceToWakeup(s, clock);
      const started = s.schedule();
      st.running.push(...started.map((t) => t.id));
      return started;
    }
  }
}

describe("live policy state", () => {
  it.each(POLICIES)("snapshot/restore (%s): after JSON, the restored scheduler makes the same decisions from then on", (policy) => {
    fc.assert(fc.property(fc.array(restoreOpArb, { minLength: 1, maxLength: 70 }), fc.nat(69), (ops, cutAt) => {
      const cut = cutAt % ops.length;
      const clock = { t: 0 };
      const a = make(policy, () => clock.t);
      const sa = { running: [] as string[], seq: 0, bursts: 0 };
      ops.slice(0, cut).forEach((op) => apply(a, op, sa, clock));
      const snap = JSON.parse(JSON.stringify(a.snapshot()));
      expect(snap.version).toBe(3);
      const b = restoreScheduler(snap, { engine, clock: () => clock.t });
      const sb = { running: [...sa.running], seq: sa.seq, bursts: sa.bursts };
      for (const op of ops.slice(cut)) {
        const t0 = clock.t;
        const outA = apply(a, op, sa, clock);
        clock.t = t0;
        const outB = apply(b, op, sb, clock);
        expect(outB).toEqual(outA);
        expect(b.nextWakeup()).toEqual(a.nextWakeup());
      }
      expect(b.shares()).toEqual(a.shares());
      // and a snapshot of the restored one is the original's (nothing lost on the way)
      expect(JSON.parse(JSON.stringify(b.snapshot()))).toEqual(JSON.parse(JSON.stringify(a.snapshot())));
    }), { numRuns: 60 });
  });

  it.each(POLICIES)("an unrelated queue added then removed (%s): the others decide as if it never existed", (policy) => {
    const sameInstant = policy === "bopf" || policy === "nbopf";
    fc.assert(fc.property(fc.array(opArb, { minLength: 1, maxLength: 80 }), fc.nat(79), fc.nat(79), (ops, i1, i2) => {
      // X comes in the first half and stays a few calls, so most of the history is after it left
      const addAt = i1 % Math.ceil(ops.length / 2);
      const removeAt = sameInstant ? addAt : Math.min(ops.length - 1, addAt + (i2 % 6));
      const ca = { t: 0 }, cb = { t: 0 };
      const a = make(policy, () => ca.t); // with X
      const b = make(policy, () => cb.t); // never had it
      const sa = { running: [] as string[], seq: 0, bursts: 0 }, sb = { running: [] as string[], seq: 0, bursts: 0 };
      const survivors = (s: Scheduler) => s.shares().filter((x) => x.queue !== "X");
      ops.forEach((op, i) => {
        if (i === addAt) a.addQueue("X", { weight: 3 });
        if (i === removeAt) expect(a.removeQueue("X")).toEqual([]);
        const outA = apply(a, op, sa, ca);
        const outB = apply(b, op, sb, cb);
        expect(outA).toEqual(outB);
        if (op.k === "schedule" || op.k === "wake") expect(survivors(a)).toEqual(survivors(b));
      });
      expect(survivors(a)).toEqual(survivors(b));
    }), { numRuns: 100 });
  });

  it("a snapshot's policy state is checked: a bad field is an InputError naming it", () => {
    const clock = { t: 0 };
    const a = make("ltrf", () => clock.t);
    a.submit("q0", { id: "x", demand: [1, 1] });
    a.schedule();
    clock.t = 1;
    a.submit("q0", { id: "y", demand: [1, 1] });
    a.schedule();
    clock.t = 5;
    a.finish("x");
    const good = JSON.parse(JSON.stringify(a.snapshot()));
    expect(good.policyState.queues.q0.usage).toBeGreaterThan(0);
    const bad = (edit: (s: any) => void) => { const s = structuredClone(good); edit(s); return s; };
    const field = (s: unknown) => { try { restoreScheduler(s as never, { engine }); return null; } catch (e) { expect(e).toBeInstanceOf(InputError); return (e as InputError).field; } };
    expect(field(bad((s) => (s.policyState.queues.q0.usage = -1)))).toBe("snapshot.policyState.queues.q0.usage");
    expect(field(bad((s) => (s.policyState.round = 3)))).toBe("snapshot.policyState.round");
    expect(field(bad((s) => (s.policyState.quantum.nodes[1].key = ["x:q0"])))).toBe("snapshot.policyState.quantum.nodes[1].key[0]");
    expect(field(bad((s) => (s.policyState.queues.q0.running[0].node = ["q:nope"])))).toBe("snapshot.policyState.queues.q0.running[0].node");
    expect(field(bad((s) => (s.rng.words = [0, 0, 0, 0])))).toBe("snapshot.rng.words");
    expect(field(bad((s) => (s.wakeups = [NaN])))).toBe("snapshot.wakeups[0]");
    expect(field(bad((s) => (s.version = 2)))).toBe("snapshot.version");
    const m = createScheduler({ policy: "mbvt", capacity: [10, 10], engine, clock: () => 0 });
    m.addQueue("A");
    m.submit("A", { id: "a", demand: [1, 1] });
    m.schedule();
    const ms = JSON.parse(JSON.stringify(m.snapshot()));
    ms.policyState.queues.A.bump = "x";
    expect(field(ms)).toBe("snapshot.policyState.queues.A.bump");
    const d = JSON.parse(JSON.stringify(createScheduler({ policy: "drf", capacity: [1], engine, clock: () => 0 }).snapshot()));
    d.policyState = {};
    expect(field(d)).toBe("snapshot.policyState");
  });

  it("version 2 snapshots are still read (the policy is rebuilt without its history)", () => {
    const a = make("ltrf", () => 0);
    a.submit("q0", { id: "x", demand: [1, 1] });
    const s = JSON.parse(JSON.stringify(a.snapshot()));
    s.version = 2;
    delete s.policyState; delete s.rng; delete s.wakeups;
    const b = restoreScheduler(s, { engine, clock: () => 0 });
    expect(b.schedule()).toEqual([{ id: "x", queue: "q0" }]);
  });

  it("LTRF remembers long-term usage when a tenant joins (issue 18: history no longer starts over)", () => {
    let t = 0;
    const s = createScheduler({ policy: "ltrf", capacity: [10], engine, clock: () => t, policyOptions: { quantum: 1 } });
    s.addQueue("A");
    s.addQueue("B");
    for (let i = 0; i < 10; i++) s.submit("A", { id: `a${i}`, demand: [1] });
    expect(s.schedule()).toHaveLength(10); // A alone uses everything for 10 s
    t = 10;
    for (let i = 0; i < 10; i++) s.finish(`a${i}`);
    s.addQueue("C"); // a newcomer: the rebuild keeps A's usage
    for (let i = 0; i < 10; i++) { s.submit("A", { id: `a2${i}`, demand: [1] }); s.submit("B", { id: `b${i}`, demand: [1] }); }
    const started = s.schedule();
    // B (no usage) gets the whole cluster; with the history forgotten A and B would split it
    expect(started.every((x) => x.queue === "B")).toBe(true);
    expect(started).toHaveLength(10);
  });
});
