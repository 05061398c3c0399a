// Issue 32, defect 2 (the LTRF part): live LTRF, MLRF and H-LTRF hold what is live plus a bounded
// window (docs/policies/ltrf.md, "Live use"). Before the fix every finished job stayed in the quantum
// tree and the fairness series grew every sampleInterval: 100,000 finished tasks made a 10.6 MB
// snapshot, and hourly schedule() calls were refused from day 121 on (policyOptions.sampleInterval).
import { describe, expect, it } from "vitest";
import { createScheduler, type Scheduler } from "../../src/live/scheduler.js";
import { loadEngineSync } from "../../src/engine/load.js";

const engine = loadEngineSync();
const POLICIES = ["ltrf", "mlrf", "h-ltrf"];

/** Entries the policy's exported state holds: quantum nodes and kept folded apps, active jobs, running tasks. */
function retainedEntries(s: Scheduler): { entries: number; bytes: number } {
  const ps = s.snapshot().policyState as { quantum: { nodes: Array<{ past?: { kept: unknown[] } }> }; queues: Record<string, { jobs: unknown[]; running: unknown[] }> };
  let entries = 0;
  for (const n of ps.quantum.nodes) entries += 1 + (n.past?.kept.length ?? 0);
  for (const q of Object.values(ps.queues)) entries += q.jobs.length + q.running.length;
  return { entries, bytes: JSON.stringify(ps).length };
}

/** Fairness samples the policy object holds (the scheduler's policy is private: read through a cast). */
function samples(s: Scheduler): number {
  return (s as unknown as { core: { binding: { policy: { retained(): { samples: number } } } } }).core.binding.policy.retained().samples;
}

function make(policy: string, clock: () => number): Scheduler {
  const s = createScheduler({ policy, capacity: [4, 4], engine, clock, policyOptions: { quantum: 2, window: 3600 } });
  s.addQueue("a", { path: ["g"] });
  s.addQueue("b", { path: ["g"] });
  s.addQueue("c");
  return s;
}

describe("live LTRF state stays bounded (issue 32, defect 2)", () => {
  for (const policy of POLICIES) {
    it(`${policy}: 100,000 finished tasks (each its own job, some in shared jobs) leave the state as after 1,000`, () => {
      const clock = { t: 0 };
      const s = make(policy, () => clock.t);
      const queues = ["a", "b", "c"];
      let id = 0;
      let at1000: { entries: number; bytes: number } | null = null;
      while (id < 100_000) {
        // two tasks of one job and one task alone per queue, then all of them finish
        for (const q of queues) {
          s.submit(q, { id: `t${id++}`, demand: [1, 1], job: `${q}-j${id >> 4}` });
          s.submit(q, { id: `t${id++}`, demand: [1, 0] });
        }
        const started = s.schedule();
        clock.t += 1 + (id % 7) / 4;
        for (const t of started) s.finish(t.id);
        // what was not started (the cluster holds 4) runs next round
        for (;;) {
          const more = s.schedule();
          if (more.length === 0) break;
          clock.t += 0.5;
          for (const t of more) s.finish(t.id);
        }
        if (at1000 === null && id >= 1000) at1000 = retainedEntries(s);
      }
      const end = retainedEntries(s);
      // nothing active at either point: the queues and groups, the root, and folded totals
      expect(end.entries).toBe(at1000!.entries);
      expect(end.entries).toBeLessThanOrEqual(8);
      expect(end.bytes).toBeLessThan(2 * at1000!.bytes);
      expect(end.bytes).toBeLessThan(4000);
      expect(samples(s)).toBe(0);
      // it keeps answering
      s.submit("a", { id: "last", demand: [1, 1] });
      expect(s.schedule()).toEqual([{ id: "last", queue: "a" }]);
    });

    it(`${policy}: a simulated year of hourly schedule() calls on a manual clock keeps answering with a bounded state`, () => {
      const clock = { t: 0 };
      const s = make(policy, () => clock.t);
      let id = 0;
      let running: string[] = [];
      const sizes: number[] = [];
      for (let hour = 0; hour < 365 * 24; hour++) {
        clock.t = hour * 3600;
        for (const t of running) s.finish(t);
        s.submit(["a", "b", "c"][hour % 3], { id: `t${id++}`, demand: [1, 1], job: `j${hour % 5}` });
        s.submit("c", { id: `t${id++}`, demand: [2, 1] });
        running = s.schedule().map((t) => t.id);
        if (hour % (30 * 24) === 0) sizes.push(retainedEntries(s).entries);
      }
      expect(running.length).toBeGreaterThan(0);
      expect(Math.max(...sizes)).toBeLessThanOrEqual(20);
      expect(samples(s)).toBe(0);
    });
  }
});
