// The live scheduler (src/live/scheduler.ts): the DRF paper's example, snapshot/restore, the
// dispatch's order, schedule(free), and bad input as InputErrors that change nothing.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { InputError, createScheduler, restoreScheduler } from "../../src/index.js";
import { loadEngineSync } from "../../src/engine/load.js";
import type { Scheduler } from "../../src/live/scheduler.js";
import { inputErrorOf } from "../helpers/input-error.js";

const engine = loadEngineSync();
const clockAt = () => { let t = 0; return { clock: () => t, set: (x: number) => { t = x; } }; };

function drfExample(): Scheduler {
  const s = createScheduler({ policy: "drf", capacity: [9, 18], engine, clock: () => 0 });
  s.addQueue("A");
  s.addQueue("B");
  for (let i = 0; i < 20; i++) {
    s.submit("A", { id: `a${i}`, demand: [1, 4] });
    s.submit("B", { id: `b${i}`, demand: [3, 1] });
  }
  return s;
}

describe("live scheduler", () => {
  it("the DRF paper's example: capacity <9,18>, A <1,4>, B <3,1>: 3 of A's and 2 of B's", () => {
    const s = drfExample();
    const started = s.schedule();
    expect(started.filter((t) => t.queue === "A")).toHaveLength(3);
    expect(started.filter((t) => t.queue === "B")).toHaveLength(2);
    // A's dominant share (memory) 12/18 equals B's (CPU) 6/9
    const sh = s.shares();
    expect(sh[0].dominantShare).toBeCloseTo(2 / 3, 12);
    expect(sh[1].dominantShare).toBeCloseTo(2 / 3, 12);
    expect(s.schedule()).toEqual([]);
  });

  it("finish frees room for the queue with the smallest dominant share", () => {
    const s = drfExample();
    s.schedule();
    s.finish("b0"); // B drops to 1/3 and gets the room back
    expect(s.schedule()).toEqual([{ id: "b2", queue: "B" }]);
  });

  it("weights: a queue of weight 2 gets twice the dominant share", () => {
    const s = createScheduler({ policy: "drf", capacity: [10], engine, clock: () => 0 });
    s.addQueue("A", { weight: 2 });
    s.addQueue("B");
    for (let i = 0; i < 10; i++) { s.submit("A", { id: `a${i}`, demand: [1] }); s.submit("B", { id: `b${i}`, demand: [1] }); }
    const started = s.schedule();
    expect(started.filter((t) => t.queue === "A").length).toBeGreaterThanOrEqual(6);
    expect(started.filter((t) => t.queue === "B").length).toBeGreaterThanOrEqual(3);
    expect(started).toHaveLength(10);
  });

  it("schedule(free) starts only what fits in the given free resources", () => {
    const s = drfExample();
    const started = s.schedule([4, 5]);
    // A <1,4> first (share 4/18), then B <3,1> (share 3/9): <4,5> used, nothing else fits
    expect(started).toEqual([{ id: "a0", queue: "A" }, { id: "b0", queue: "B" }]);
    expect(s.schedule()).toHaveLength(3);
  });

  it("SP serves LQs first, up to their DRF share, then TQs by DRF", () => {
    const s = createScheduler({ policy: "sp", capacity: [4], engine, clock: () => 0 });
    s.addQueue("batch");
    s.addQueue("lq", { kind: "LQ" });
    for (let i = 0; i < 4; i++) s.submit("batch", { id: `t${i}`, demand: [1] });
    for (let i = 0; i < 3; i++) s.submit("lq", { id: `l${i}`, demand: [1] });
    const started = s.schedule();
    expect(started.slice(0, 3).every((t) => t.queue === "lq")).toBe(true);
    expect(started).toHaveLength(4);
  });

  it("FIFO: earliest submission first, head-of-line blocking", () => {
    const c = clockAt();
    const s = createScheduler({ policy: "fifo", capacity: [4], engine, clock: c.clock });
    s.addQueue("A"); s.addQueue("B");
    s.submit("B", { id: "b0", demand: [3] }); c.set(1);
    s.submit("A", { id: "a0", demand: [3] }); c.set(2);
    s.submit("B", { id: "b1", demand: [1] });
    expect(s.schedule()).toEqual([{ id: "b0", queue: "B" }]);
  });

  // all nine since the policies carry their history in the snapshot (policy-state.test.ts has the richer history)
  it.each(["drf", "sp", "fifo", "bopf", "nbopf", "mbvt", "ltrf", "mlrf", "h-ltrf"])("snapshot/restore (%s): the restored scheduler makes the same decisions", (policy) => {
    fc.assert(fc.property(fc.array(fc.tuple(fc.nat(3), fc.integer({ min: 1, max: 5 }), fc.integer({ min: 1, max: 5 }), fc.boolean()), { maxLength: 60 }), fc.nat(59), (ops, cut) => {
      const c = clockAt();
      const a = createScheduler({ policy, capacity: [10, 10], engine, clock: c.clock });
      for (const n of ["q0", "q1", "q2", "q3"]) a.addQueue(n, { weight: 1 + (n.charCodeAt(1) % 2), kind: n === "q3" ? "LQ" : "TQ", maxShare: n === "q2" ? 0.6 : undefined, minShare: n === "q1" ? 0.2 : undefined });
      let b: Scheduler | null = null;
      const run = (s: Scheduler, i: number, op: (typeof ops)[number]) => {
        const [q, x, y, fin] = op;
        s.submit(`q${q}`, { id: `t${i}`, demand: [x, y] });
        const started = s.schedule();
        if (fin && started.length) s.finish(started[0].id);
        return started;
      };
      const outA: unknown[] = [], outB: unknown[] = [];
      ops.forEach((op, i) => {
        c.set(i);
        if (i === cut) b = restoreScheduler(JSON.parse(JSON.stringify(a.snapshot())), { engine, clock: c.clock });
        outA.push(run(a, i, op));
        if (b) outB.push(run(b, i, op));
      });
      if (b) {
        expect(outB).toEqual(outA.slice(outA.length - outB.length));
        expect((b as Scheduler).shares()).toEqual(a.shares());
      }
    }), { numRuns: 100 });
  });

  it("every policy of `fairsched list` runs live (issue 18 made the refused ones live); unknown policies and keys are named", () => {
    for (const policy of ["drf", "sp", "fifo", "bopf", "nbopf", "mbvt", "ltrf", "mlrf", "h-ltrf"]) expect(createScheduler({ policy, capacity: [1], engine }).policyName).toBe(policy);
    expect(() => createScheduler({ policy: "nope", capacity: [1], engine })).toThrow(InputError);
    expect(() => createScheduler({ policy: "ltrf", capacity: [1], engine, policyOptions: { windw: 3 } })).toThrow(/policyOptions\.windw/);
    const s = createScheduler({ policy: "drf", capacity: [1], engine, clock: () => 0 });
    s.addQueue("A");
    try { s.submit("A", { id: "x", demnd: [1] } as never); expect.unreachable(); } catch (e) { expect((e as InputError).field).toBe("task.demnd"); }
  });

  it.each(["drf", "fifo"])("schedule(free) (%s) starts what schedule() starts when a queue that waits for nothing holds the rest", (policy) => {
    // B = A plus a queue Z running one task of (capacity - used - free): the same room is free, and
    // Z (no waiting task) competes for nothing, so the two must start the same tasks
    fc.assert(fc.property(fc.array(fc.tuple(fc.nat(2), fc.integer({ min: 1, max: 4 }), fc.integer({ min: 0, max: 4 }), fc.boolean()), { minLength: 1, maxLength: 40 }), fc.array(fc.tuple(fc.nat(12), fc.nat(12)), { minLength: 1, maxLength: 10 }), (subs, frees) => {
      const cap = [12, 12];
      const a = createScheduler({ policy, capacity: cap, engine, clock: () => 0 });
      for (const n of ["q0", "q1", "q2"]) a.addQueue(n);
      const running: string[] = [];
      subs.forEach(([q, x, y, fin], i) => {
        a.submit(`q${q}`, { id: `t${i}`, demand: [x, y] });
        if (fin && running.length) a.finish(running.shift()!);
        if (i % 5 === 4) running.push(...a.schedule().map((t) => t.id));
      });
      for (const [f0, f1] of frees) {
        const snap = JSON.parse(JSON.stringify(a.snapshot()));
        const used = a.shares().reduce((u, x) => u.map((v, r) => v + x.usage[r]), [0, 0]);
        const free = [f0, f1].map((f, r) => Math.min(f, cap[r] - used[r]));
        const hold = cap.map((c, r) => c - used[r] - free[r]);
        const z = { ...snap.queues[0], name: "Z", spec: { ...snap.queues[0].spec, name: "Z" }, accumulated: 0, waiting: [], running: [{ id: "z", demand: hold, submitted: 0, arrival: 0, started: 0 }] };
        const b = restoreScheduler({ ...snap, queues: [...snap.queues, z] }, { engine, clock: () => 0 });
        const started = a.schedule(free);
        expect(b.schedule()).toEqual(started);
        const took = started.reduce((u, t) => { const [, x, y] = subs[Number(t.id.slice(1))]; return [u[0] + x, u[1] + y]; }, [0, 0]);
        took.forEach((t, r) => expect(t).toBeLessThanOrEqual(free[r] + 1e-9));
        running.push(...started.map((t) => t.id));
      }
    }), { numRuns: 60 });
  });

  it("a duplicate id or a bad clock refuses the submit and changes nothing (the id map is the duplicate check)", () => {
    let t: number = 0;
    const s = createScheduler({ policy: "drf", capacity: [4], engine, clock: () => t });
    s.addQueue("A");
    s.submit("A", { id: "x", demand: [1] });
    s.submit("A", { id: "y", demand: [1] });
    s.schedule();
    s.submit("A", { id: "z", demand: [1] });
    const before = JSON.stringify(s.snapshot());
    expect(inputErrorOf(() => s.submit("A", { id: "y", demand: [2] })).field).toBe("task.id");
    expect(inputErrorOf(() => s.submit("A", { id: "z", demand: [1] })).field).toBe("task.id");
    t = NaN;
    expect(inputErrorOf(() => s.submit("A", { id: "w", demand: [1] })).field).toBe("clock");
    t = 0;
    expect(JSON.stringify(s.snapshot())).toBe(before);
    s.finish("y"); // still the running task it was
    expect(inputErrorOf(() => s.finish("w")).field).toBe("id");
    expect(s.schedule()).toEqual([{ id: "z", queue: "A" }]);
    s.submit("A", { id: "w", demand: [1] });
  });

  it("policy parameters: BoPF admission classes with reasons, H-LTRF group weights for groups still to come, bad ones named", () => {
    const b = createScheduler({ policy: "bopf", capacity: [10], engine, clock: () => 0 });
    expect(b.addQueue("batch").class).toBe("elastic");
    const hard = b.addQueue("lq", { kind: "LQ", bursts: [{ start: 0, window: 10, volume: [30] }] });
    expect(hard).toMatchObject({ class: "hard", reason: "all-held" });
    // a second LQ whose rate does not fit next to the first one's: not hard, and the reason says which condition failed
    const second = b.addQueue("lq2", { kind: "LQ", bursts: [{ start: 0, window: 1, volume: [9] }] });
    expect(second.class).not.toBe("hard");
    expect(second.reason).not.toBe("all-held");
    expect(b.explain("lq").reason).toMatch(/admitted hard, no burst open/);
    expect(() => b.addQueue("x", { kind: "LQ", bursts: [{ start: 5, window: 1, volume: [1] }, { start: 5, window: 1, volume: [1] }] })).toThrow(/options\.bursts\[1\]\.start/);
    expect(() => b.addQueue("y", { bursts: [{ start: 0, window: 1, volume: [1] }] })).toThrow(/options\.bursts: only an LQ/);
    const h = createScheduler({ policy: "h-ltrf", capacity: [10], engine, clock: () => 0, policyOptions: { groupWeights: { later: 2, G1: 3 }, tWait: 5 } });
    h.addQueue("a", { path: ["G1"] });
    h.submit("a", { id: "x", demand: [1] });
    expect(h.schedule()).toEqual([{ id: "x", queue: "a" }]);
    expect(() => createScheduler({ policy: "h-ltrf", capacity: [1], engine, policyOptions: { groupWeights: { G: 0 } } })).toThrow(/policyOptions\.groupWeights\.G/);
    expect(() => h.addQueue("b", { path: ["a/b"] })).toThrow(/options\.path/);
  });
});
