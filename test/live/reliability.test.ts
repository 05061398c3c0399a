// Regression tests of the live scheduler's reliability defects (issue 32; docs/reliability.md,
// "Live scheduler"): each fails on the code before its fix.
import { describe, expect, it } from "vitest";
import { loadEngineSync } from "../../src/engine/load.js";
import { InputError } from "../../src/errors.js";
import { ServeSession } from "../../src/live/protocol.js";
import { createScheduler, restoreScheduler, type Scheduler } from "../../src/live/scheduler.js";
import type { PolicyFactory } from "../../src/policy/policy.js";
import { getPolicy, registerPolicy } from "../../src/sim/registry.js";
import { POLICIES, make, optionsFor } from "../helpers/live-ops.js";
import { expectRefusedUnchanged } from "../helpers/stateful.js";

const engine = loadEngineSync();
const IGNORE = new Set(["engine", "clock", "queue"]);

/** A short session: two queues, tasks of two jobs, a schedule, a finish, a snapshot and its restore. */
function session(s: Scheduler): void {
  s.addQueue("a", { path: ["g"], kind: "LQ", bursts: [{ start: 0, window: 5, volume: [2, 2] }] });
  s.addQueue("b", { path: ["h"] });
  s.submit("a", { id: "a1", demand: [1, 1], job: "ja", burst: 0 });
  s.submit("b", { id: "b1", demand: [1, 2], job: "jb" });
  s.submit("b", { id: "b2", demand: [1, 2], job: "jb" });
  const started = s.schedule().map((t) => t.id);
  expect(started.length).toBeGreaterThan(0);
  s.finish(started[0]);
  s.shares();
  const r = restoreScheduler(JSON.parse(JSON.stringify(s.snapshot())), { engine });
  r.schedule();
  s.schedule();
}

describe("defect 1: every policy runs live under the default (wall) clock", () => {
  it.each(POLICIES)("%s: a session under the wall clock is answered", (policy) => {
    const s = createScheduler({ policy, capacity: [4, 4], engine, policyOptions: optionsFor(policy) });
    session(s);
    // the policy's time starts where the scheduler started: near 0, not at 1970
    expect(s.snapshot().time).toBeLessThan(60);
    const w = s.nextWakeup();
    if (w !== null) expect(Math.abs(w - Date.now() / 1000)).toBeLessThan(3600);
  });

  it.each(POLICIES)("%s: over serve with the wall clock", (policy) => {
    const serve = new ServeSession(engine);
    const ask = (req: object) => JSON.parse(serve.handle(JSON.stringify(req))) as Record<string, unknown>;
    expect(ask({ op: "init", policy, capacity: [4, 4] })).not.toHaveProperty("error");
    expect(ask({ op: "addQueue", queue: "a", path: ["g"] })).not.toHaveProperty("error");
    expect(ask({ op: "submit", queue: "a", task: { id: "t1", demand: [1, 1] } })).toEqual({ ok: true });
    expect(ask({ op: "schedule" })).toEqual({ started: [{ id: "t1", queue: "a" }] });
    expect(ask({ op: "finish", id: "t1" })).toEqual({ ok: true });
  });
});

describe("defect 2: a refused call changes nothing", () => {
  it("ltrf: live, the fairness series is not kept, so 2^21 s of uptime at sampleInterval 1 refuses no call (a report run still refuses it)", () => {
    const clock = { t: 0 };
    const s = createScheduler({ policy: "ltrf", capacity: [4], engine, clock: () => clock.t, policyOptions: { sampleInterval: 1 } });
    s.addQueue("a");
    s.submit("a", { id: "a1", demand: [1] });
    expect(s.schedule()).toEqual([{ id: "a1", queue: "a" }]);
    clock.t = 2 ** 21; // more than 2^20 samples of 1 s
    s.finish("a1");
    s.submit("a", { id: "a2", demand: [1] });
    expect(s.schedule()).toEqual([{ id: "a2", queue: "a" }]);
    expect(s.explain("a")).toMatchObject({ running: 1, waiting: 0 });
  });

  it("a policy that refuses a time (Policy.checkTime) refuses every call at it, each changing nothing", () => {
    const drf = getPolicy("drf")!;
    const until100: PolicyFactory = {
      name: "test-until-100", description: "DRF that refuses times after 100 s (a test plugin)",
      create: (o) => Object.assign(drf.create(o), { checkTime(t: number) { if (t > 100) throw new InputError("policyOptions.until", `t = ${t} is after 100`); } }),
    };
    registerPolicy(until100);
    const clock = { t: 0 };
    const s = createScheduler({ policy: until100.name, capacity: [4], engine, clock: () => clock.t });
    s.addQueue("a");
    s.submit("a", { id: "a1", demand: [1] });
    s.submit("a", { id: "a2", demand: [4] });
    s.schedule();
    clock.t = 101;
    const field = /^policyOptions\.until$/;
    expectRefusedUnchanged(() => s.finish("a1"), s, { field, ignore: IGNORE });
    expectRefusedUnchanged(() => s.cancel("a2"), s, { field, ignore: IGNORE });
    expectRefusedUnchanged(() => s.submit("a", { id: "a3", demand: [1] }), s, { field, ignore: IGNORE });
    expectRefusedUnchanged(() => s.addQueue("b"), s, { field, ignore: IGNORE });
    expectRefusedUnchanged(() => s.schedule(), s, { field, ignore: IGNORE });
  });
});

describe("defect 12: one clock rule for a scheduler and its restored copy", () => {
  it.each(POLICIES)("%s: a clock stepping back after a snapshot gives the same accumulated usage to both", (policy) => {
    const clock = { t: 0 };
    const s = createScheduler({ policy, capacity: [4, 4], engine, clock: () => clock.t, policyOptions: optionsFor(policy) });
    s.addQueue("a", { path: ["g"] });
    s.submit("a", { id: "a1", demand: [2, 1] });
    clock.t = 1;
    s.schedule();
    clock.t = 3;
    const snap = JSON.parse(JSON.stringify(s.snapshot()));
    const r = restoreScheduler(snap, { engine, clock: () => clock.t });
    clock.t = 2; // the clock steps back
    expect(r.shares()).toEqual(s.shares());
    expect(s.shares()[0].accumulated).toBeCloseTo(0.5, 12); // share 0.5 from t = 1 to 2
  });
});

describe("defect 5: weights are refused outside [2^-20, 2^20]", () => {
  it.each([1e300, 5e-324, 1.7e308, 2 ** 20 * 1.01, 2 ** -21])("weight %s: addQueue, updateQueue and groupWeights refuse it, changing nothing", (weight) => {
    const s = createScheduler({ policy: "drf", capacity: [4], engine, clock: () => 0 });
    s.addQueue("a");
    expectRefusedUnchanged(() => s.addQueue("b", { weight }), s, { field: /^options\.weight$/, ignore: IGNORE });
    expectRefusedUnchanged(() => s.updateQueue("a", { weight }), s, { field: /^options\.weight$/, ignore: IGNORE });
    expect(() => createScheduler({ policy: "h-ltrf", capacity: [4], engine, policyOptions: { groupWeights: { g: weight } } })).toThrow(expect.objectContaining({ field: "policyOptions.groupWeights.g" }));
  });

  it.each(POLICIES)("%s: the extreme accepted weights with min shares schedule without an error", (policy) => {
    let now = 0;
    const s = createScheduler({ policy, capacity: [10, 10], engine, clock: () => now, policyOptions: optionsFor(policy) });
    s.addQueue("heavy", { weight: 2 ** 20, minShare: 0.3, path: ["g"] });
    s.addQueue("light", { weight: 2 ** -20, minShare: 0.2, path: ["h"] });
    s.addQueue("plain", { path: ["g"] });
    for (let i = 0; i < 6; i++) for (const q of ["heavy", "light", "plain"]) s.submit(q, { id: `${q}${i}`, demand: [1, 2], job: `${q}j` });
    const started = s.schedule();
    expect(started.length).toBe(5); // 10 of the second resource, 2 per task
    now = 1;
    s.finish(started[0].id);
    expect(s.schedule().length).toBe(1);
  });
});

describe("defect 6: a snapshot is checked by the rules of the calls that made it", () => {
  function base(): ReturnType<Scheduler["snapshot"]> {
    const clock = { t: 0 };
    const s = createScheduler({ policy: "fifo", capacity: [4, 4], engine, clock: () => clock.t });
    s.addQueue("a");
    s.submit("a", { id: "r1", demand: [2, 2], estimate: 3, job: "j" });
    s.submit("a", { id: "w1", demand: [1, 1] });
    clock.t = 1;
    s.schedule();
    s.submit("a", { id: "w2", demand: [4, 4] });
    clock.t = 2;
    s.shares();
    return JSON.parse(JSON.stringify(s.snapshot()));
  }
  type Snap = ReturnType<typeof base>;
  const cases: Array<[string, (s: Snap) => void, RegExp]> = [
    ["running tasks above the capacity", (s) => { s.queues[0].running.push({ ...s.queues[0].running[0], id: "r2", demand: [3, 1] }); }, /^snapshot\.queues\[0\]\.running\[\d\]\.demand\[0\]$/],
    ["a waiting task larger than the capacity", (s) => { s.queues[0].waiting[0].demand = [5, 1]; }, /^snapshot\.queues\[0\]\.waiting\[0\]\.demand\[0\]$/],
    ["since after the snapshot's time", (s) => { s.queues[0].since = s.time + 1; }, /^snapshot\.queues\[0\]\.since$/],
    ["job ''", (s) => { s.queues[0].running[0].job = ""; }, /^snapshot\.queues\[0\]\.running\[0\]\.job$/],
    ["estimate -5", (s) => { s.queues[0].running[0].estimate = -5; }, /^snapshot\.queues\[0\]\.running\[0\]\.estimate$/],
    ["started 1e300", (s) => { s.queues[0].running[0].started = 1e300; }, /^snapshot\.queues\[0\]\.running\[0\]\.started$/],
    ["started before submitted", (s) => { s.queues[0].running[0].started = -1; }, /^snapshot\.queues\[0\]\.running\[0\]\.started$/],
    ["submitted after the snapshot's time", (s) => { s.queues[0].waiting[0].submitted = 1e9; }, /^snapshot\.queues\[0\]\.waiting\[0\]\.submitted$/],
    ["a burst on a TQ", (s) => { s.queues[0].waiting[0].burst = 0; }, /^snapshot\.queues\[0\]\.waiting\[0\]\.burst$/],
    ["accumulated -1", (s) => { s.queues[0].accumulated = -1; }, /^snapshot\.queues\[0\]\.accumulated$/],
    ["a weight of 1e300", (s) => { s.queues[0].spec.weight = 1e300; }, /^snapshot\.queues\[0\]\.spec\.weight$/],
    ["a hole in the waiting list", (s) => { (s.queues[0].waiting as unknown[]) = [s.queues[0].waiting[0], , s.queues[0].waiting[1]]; }, /^snapshot\.queues\[0\]\.waiting\[1\]$/],
  ];
  it("the untampered snapshot restores", () => {
    expect(restoreScheduler(base(), { engine, clock: () => 2 }).explain("a")).toMatchObject({ running: 2, waiting: 1 });
  });
  it.each(cases)("%s is an InputError naming the field", (_, tamper, field) => {
    const s = base();
    tamper(s);
    let err: unknown = null;
    try { restoreScheduler(s, { engine, clock: () => 2 }); } catch (e) { err = e; }
    expect(err).toBeInstanceOf(InputError);
    expect((err as InputError).field).toMatch(field);
  });
});

describe("defect 9: validation gaps", () => {
  it("a burst index the LQ does not report is refused at submit, changing nothing", () => {
    const s = createScheduler({ policy: "bopf", capacity: [4], engine, clock: () => 0 });
    s.addQueue("lq", { kind: "LQ", bursts: [{ start: 0, window: 5, volume: [2] }] });
    expectRefusedUnchanged(() => s.submit("lq", { id: "t", demand: [1], burst: 99 }), s, { field: /^task\.burst$/, ignore: IGNORE });
    expectRefusedUnchanged(() => s.submitHandle("lq", [1], { burst: 1 }), s, { field: /^options\.burst$/, ignore: IGNORE });
    s.submit("lq", { id: "t", demand: [1], burst: 0 });
    expect(s.nextWakeup()).toBe(5); // the burst's window ends
    // the tasks held keep their burst: the spec must go on reporting it
    expectRefusedUnchanged(() => s.updateQueue("lq", { bursts: [] }), s, { field: /^options\.bursts$/, ignore: IGNORE });
  });

  it("an array with a hole is refused, naming the hole", () => {
    // eslint-disable-next-line no-sparse-arrays
    expect(() => createScheduler({ policy: "drf", capacity: [1, , 1] as number[] })).toThrow(expect.objectContaining({ field: "capacity[1]" }));
    // eslint-disable-next-line no-sparse-arrays
    expect(() => createScheduler({ policy: "drf", capacity: [1, 1], resources: ["a", , ] as string[] })).toThrow(expect.objectContaining({ field: "resources" }));
    const s = createScheduler({ policy: "drf", capacity: [1, 1], engine });
    // eslint-disable-next-line no-sparse-arrays
    expect(() => s.submit("x", { id: "t", demand: [1, , ] as number[] })).toThrow(InputError);
    s.addQueue("q");
    // eslint-disable-next-line no-sparse-arrays
    expect(() => s.submit("q", { id: "t", demand: [1, , ] as number[] })).toThrow(expect.objectContaining({ field: "task.demand[1]" }));
  });

  it("policyOptions with a BigInt, a cycle or deep nesting are InputErrors naming the field", () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    let deep: Record<string, unknown> = {};
    for (let i = 0; i < 20_000; i++) deep = { d: deep };
    const field = (policyOptions: Record<string, unknown>): string => {
      try { createScheduler({ policy: "ltrf", capacity: [1], engine, policyOptions }); } catch (e) { expect(e).toBeInstanceOf(InputError); return (e as InputError).field; }
      return "accepted";
    };
    expect(field({ window: 10n })).toBe("policyOptions.window");
    expect(field({ x: cyclic })).toMatch(/^policyOptions\.x(\.self)+$/);
    expect(field({ deep })).toMatch(/^policyOptions\.deep(\.d)+$/);
    const serve = new ServeSession(engine);
    let line = '"x"';
    for (let i = 0; i < 20_000; i++) line = `{"d":${line}}`;
    const out = JSON.parse(serve.handle(`{"op":"init","policy":"ltrf","capacity":[1],"policyOptions":${line}}`)) as { error: string; field?: string };
    expect(out.field).toMatch(/^(policyOptions(\.d)+|request)$/);
  });
});

describe("defect 7: snapshot, JSON, restore keeps later decisions", () => {
  it.each(["drf", "sp", "fifo", "bopf", "nbopf", "mbvt"])("%s: min-share ties go to the first queue in queue order, after updateQueue as after a restore", (policy) => {
    const s = createScheduler({ policy, capacity: [1], engine, clock: () => 0 });
    s.addQueue("A", { minShare: 0.5 });
    s.addQueue("B", { minShare: 0.5 });
    s.updateQueue("A", { minShare: 0.5 }); // a change that used to move A behind B in the min-share list
    s.submit("A", { id: "a", demand: [1] });
    s.submit("B", { id: "b", demand: [1] });
    const r = restoreScheduler(JSON.parse(JSON.stringify(s.snapshot())), { engine, clock: () => 0 });
    expect(s.schedule()).toEqual([{ id: "a", queue: "A" }]);
    expect(r.schedule()).toEqual([{ id: "a", queue: "A" }]);
  });

  it.each(["ltrf", "mlrf", "h-ltrf"])("%s: a job named like another queue's job: the restored copy decides as the original (jobs keyed per queue)", (policy) => {
    // found by the restore property with shared job names (test/live/policy-state.test.ts)
    const clock = { t: 0 };
    const s = make(policy, () => clock.t);
    s.submit("q1", { id: "t0", demand: [1, 0], job: "shared" });
    s.submit("q0", { id: "t1", demand: [1, 0], job: "shared" });
    const r = restoreScheduler(JSON.parse(JSON.stringify(s.snapshot())), { engine, clock: () => clock.t });
    expect(r.schedule()).toEqual(s.schedule());
    expect(r.shares()).toEqual(s.shares());
    // each running task's quantum is charged to its own queue's job (the policy state says where)
    expect(JSON.parse(JSON.stringify(r.snapshot()))).toEqual(JSON.parse(JSON.stringify(s.snapshot())));
  });

  it.each(["bopf", "mbvt", "ltrf", "mlrf", "h-ltrf"])("%s: every burst end is kept, so nextWakeup() is the original's after a restore", (policy) => {
    const clock = { t: 0 };
    const s = createScheduler({ policy, capacity: [4], engine, clock: () => clock.t });
    s.addQueue("lq", { kind: "LQ", bursts: [{ start: 0, window: 4, volume: [2] }] });
    s.submit("lq", { id: "a", demand: [1], job: "j1", burst: 0 });
    clock.t = 1;
    s.submit("lq", { id: "b", demand: [1], job: "j2", burst: 0 }); // reopens the burst until 5
    const r = restoreScheduler(JSON.parse(JSON.stringify(s.snapshot())), { engine, clock: () => clock.t });
    expect(s.nextWakeup()).toBe(4);
    expect(r.nextWakeup()).toBe(4);
    for (const t of [4, 5]) {
      clock.t = t;
      expect(r.schedule()).toEqual(s.schedule());
      expect(r.nextWakeup()).toEqual(s.nextWakeup());
      expect(r.explain("lq")).toEqual(s.explain("lq"));
    }
  });
});

describe("defect 5: pathological demands", () => {
  it.each(POLICIES)("%s: a positive demand below capacity x 2^-900 is refused at submit, and shares() answers after the refusal", (policy) => {
    // found by the attack harness (test/live/stateful.test.ts): mbvt's DRF step refused shares()
    // naming queues[0] / demands[0] after a submit of [5e-324, 0] had been accepted
    const s = make(policy, () => 0);
    expectRefusedUnchanged(() => s.submit("q0", { id: "t", demand: [5e-324, 0] }), s, { field: /^task\.demand\[0\]$/, ignore: IGNORE });
    expectRefusedUnchanged(() => s.submit("q0", { id: "t", demand: [1e-300, 10] }), s, { field: /^task\.demand\[0\]$/, ignore: IGNORE });
    s.submit("q0", { id: "u", demand: [10 * 2 ** -900, 0] });
    s.submit("q3", { id: "v", demand: [1, 0], burst: 0, job: "b" });
    expect(s.shares().length).toBe(4);
    expect(s.schedule().map((t) => t.id).sort()).toEqual(["u", "v"]);
  });
});
