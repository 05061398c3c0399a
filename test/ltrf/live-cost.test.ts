// Issue 32, defect 13: live LTRF's cost per call (docs/policies/ltrf.md, "Live use"). Counted, not
// timed: before the fix every event and every pickNext read every queue (O(N) each: one schedule()
// starting a task in each of N queues was O(N^2)), and every plan ranked every queue. Now a plan
// covers the queues with an active job only, and one schedule() is one plan however many it starts.
// Also: flat LTRF and MLRF take an added queue as their last one (appendQueue) exactly as a rebuild
// would, and refuse more than MAX_LTRF_QUEUES queues.
import { describe, expect, it } from "vitest";
import { createScheduler } from "../../src/live/scheduler.js";
import { loadEngineSync } from "../../src/engine/load.js";
import type { Engine } from "../../src/engine/engine.js";
import { InputError } from "../../src/errors.js";
import { MAX_LTRF_QUEUES, PlannedPolicy } from "../../src/ltrf/planned-policy.js";
import { ltrfPolicyFactory } from "../../src/policies/ltrf.js";

const real = loadEngineSync();

/** An engine whose ltrf() records the number of rows of each call. */
function countingEngine(rows: number[]): Engine {
  return new Proxy(real, {
    get(target, key, receiver) {
      if (key === "ltrf") return (call: { pending: ArrayLike<number> }) => { rows.push(call.pending.length); return target.ltrf(call as never); };
      return Reflect.get(target, key, receiver);
    },
  });
}

describe("live LTRF cost (issue 32, defect 13)", () => {
  for (const policy of ["ltrf", "mlrf"]) {
    it(`${policy}: a plan covers the queues with an active job, and one schedule() starting 2,000 tasks is one plan`, () => {
      const rows: number[] = [];
      let t = 0;
      const s = createScheduler({ policy, capacity: [1e4], engine: countingEngine(rows), clock: () => t });
      for (let q = 0; q < 5000; q++) s.addQueue(`q${q}`);
      for (let q = 0; q < 2000; q++) s.submit(`q${q}`, { id: `t${q}`, demand: [1] });
      t = 1;
      expect(s.schedule()).toHaveLength(2000);
      expect(rows).toEqual([2000]);
      // 3,000 idle queues never enter a plan; a finish and a submit in one queue: a plan of 2,000 rows
      rows.length = 0;
      s.finish("t7");
      s.submit("q4999", { id: "late", demand: [1] });
      expect(s.schedule()).toEqual([{ id: "late", queue: "q4999" }]);
      expect(rows).toEqual([2000]);
    });
  }

  it("an added queue (appendQueue) gives the decisions a rebuild gives", () => {
    const run = (append: boolean) => {
      let t = 0;
      const s = createScheduler({ policy: "ltrf", capacity: [4], engine: real, clock: () => t, policyOptions: { quantum: 2 } });
      s.addQueue("a");
      s.addQueue("b", { path: ["g"] });
      const out: unknown[] = [];
      for (let i = 0; i < 12; i++) {
        s.submit(i % 2 ? "a" : "b", { id: `t${i}`, demand: [1], job: `j${i % 3}` });
        if (i === 5) {
          // without appendQueue the scheduler marks its policy stale and rebuilds it at the next call
          // from the old policy's exported state (the private flag forces that path)
          if (!append) (s as unknown as { core: { binding: { stale: boolean } } }).core.binding.stale = true;
          s.addQueue("c", { path: ["g"], weight: 2 });
        }
        t += 1;
        const started = s.schedule();
        out.push(started);
        if (i % 3 === 2) for (const x of started) s.finish(x.id);
        if (i > 5) s.submit("c", { id: `c${i}`, demand: [1] });
      }
      return { out, shares: s.shares(), state: s.snapshot().policyState };
    };
    const appended = run(true);
    const rebuilt = run(false);
    expect(appended.out).toEqual(rebuilt.out);
    expect(appended.shares).toEqual(rebuilt.shares);
    expect(appended.state).toEqual(rebuilt.state);
  });

  it(`more than MAX_LTRF_QUEUES (${MAX_LTRF_QUEUES}) queues is an InputError naming queues at init, name at appendQueue`, () => {
    const p = ltrfPolicyFactory.create() as PlannedPolicy & { appendQueue(spec: unknown): void };
    const queues = Array.from({ length: MAX_LTRF_QUEUES + 1 }, (_, i) => ({ name: `q${i}`, kind: "TQ" as const }));
    const workload = { name: "w", resources: ["r"], capacity: [1], queues, jobs: [], params: {}, seed: 0 };
    let err: unknown = null;
    try { p.init({ workload, engine: real, random: () => 0 }); } catch (e) { err = e; }
    expect(err).toBeInstanceOf(InputError);
    expect((err as InputError).field).toBe("queues");
    const q = ltrfPolicyFactory.create() as PlannedPolicy & { appendQueue(spec: unknown): void };
    q.init({ workload: { ...workload, queues: queues.slice(0, MAX_LTRF_QUEUES) }, engine: real, random: () => 0 });
    err = null;
    try { q.appendQueue({ name: "one-more", kind: "TQ" }); } catch (e) { err = e; }
    expect(err).toBeInstanceOf(InputError);
    expect((err as InputError).field).toBe("name");
  });
});
