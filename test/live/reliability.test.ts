// Regression tests of the live scheduler's reliability defects (issue 32; docs/reliability.md,
// "Live scheduler"): each fails on the code before its fix.
import { describe, expect, it } from "vitest";
import { loadEngineSync } from "../../src/engine/load.js";
import { InputError } from "../../src/errors.js";
import { ServeSession } from "../../src/live/protocol.js";
import { createScheduler, restoreScheduler, type Scheduler } from "../../src/live/scheduler.js";
import type { PolicyFactory } from "../../src/policy/policy.js";
import { getPolicy, registerPolicy } from "../../src/sim/registry.js";
import { POLICIES, optionsFor } from "../helpers/live-ops.js";
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
  it("ltrf: a finish and a submit refused for the fairness series' bound leave the task running and nothing queued", () => {
    const clock = { t: 0 };
    const s = createScheduler({ policy: "ltrf", capacity: [4], engine, clock: () => clock.t, policyOptions: { sampleInterval: 1 } });
    s.addQueue("a");
    s.submit("a", { id: "a1", demand: [1] });
    expect(s.schedule()).toEqual([{ id: "a1", queue: "a" }]);
    clock.t = 2 ** 21; // more than 2^20 samples of 1 s
    const e = expectRefusedUnchanged(() => s.finish("a1"), s, { field: /^policyOptions\.sampleInterval$/, ignore: IGNORE });
    expect(e).toBeInstanceOf(InputError);
    expectRefusedUnchanged(() => s.submit("a", { id: "a2", demand: [1] }), s, { field: /^policyOptions\.sampleInterval$/, ignore: IGNORE });
    expectRefusedUnchanged(() => s.schedule(), s, { field: /^policyOptions\.sampleInterval$/, ignore: IGNORE });
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
