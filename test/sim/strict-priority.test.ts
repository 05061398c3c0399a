// Strict Priority (src/policies/sp.ts, docs/policies/bopf.md "Strict Priority"): LQs before TQs
// in the dispatch's online DRF (its `tier`s), DRF among the LQs task by task by dominant share
// (the default, the authors' simulator), or from DRF targets first (`lqDrf: 'targets'`).
// Driven through the live scheduler, which runs the simulator's dispatch.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { InputError, createScheduler } from "../../src/index.js";
import { loadEngineSync } from "../../src/engine/load.js";
import { simulate } from "../../src/sim/simulator.js";
import { bopfWorkload } from "../../src/workloads/bopf.js";
import { unjustifiedWaits } from "../helpers/guard-check.js";

const engine = loadEngineSync();

describe("Strict Priority", () => {
  it("DRF among LQs task by task: the LQ of smallest dominant share starts next, ties by queue order", () => {
    const s = createScheduler({ policy: "sp", capacity: [10], engine, clock: () => 0 });
    s.addQueue("a", { kind: "LQ" });
    s.addQueue("b", { kind: "LQ" });
    s.addQueue("t");
    for (let i = 0; i < 3; i++) s.submit("a", { id: `r${i}`, demand: [1] });
    expect(s.schedule()).toHaveLength(3); // a holds 3
    for (let i = 0; i < 5; i++) {
      s.submit("a", { id: `a${i}`, demand: [1] });
      s.submit("b", { id: `b${i}`, demand: [1] });
      s.submit("t", { id: `t${i}`, demand: [1] });
    }
    // b catches up to a's 3, then they alternate (a first on a tie); the TQ gets nothing
    expect(s.schedule().map((x) => x.queue).join("")).toBe("bbbabab");
  });

  // With the dispatch's starvation guard (default) an LQ's next task may be left fitting when it
  // would take room the head LQ's task (smallest dominant share, not fitting) needs; without the
  // guard no LQ's next task fits after a point (test/helpers/guard-check.ts checks both rules).
  it("property (both lqDrf modes, with and without the starvation guard): within a scheduling point no TQ task starts before an LQ task, and after it no LQ's next task fits beyond the guard's room", () => {
    const op = fc.tuple(fc.nat(3), fc.integer({ min: 1, max: 4 }), fc.integer({ min: 1, max: 4 }), fc.boolean());
    fc.assert(fc.property(fc.constantFrom("online", "targets"), fc.boolean(), fc.array(op, { minLength: 1, maxLength: 50 }), (lqDrf, guard, ops) => {
      const s = createScheduler({ policy: "sp", capacity: [10, 10], engine, clock: () => 0, policyOptions: { lqDrf }, starvationGuard: guard });
      const kinds = ["LQ", "TQ", "LQ", "TQ"] as const;
      kinds.forEach((kind, i) => s.addQueue(`q${i}`, { kind }));
      const waiting: number[][][] = [[], [], [], []];
      const running = new Map<string, { q: number; d: number[] }>();
      ops.forEach(([q, x, y, fin], i) => {
        s.submit(`q${q}`, { id: `t${i}`, demand: [x, y] });
        waiting[q].push([x, y]);
        const started = s.schedule();
        const firstTq = started.findIndex((t) => t.queue === "q1" || t.queue === "q3");
        if (firstTq >= 0) expect(started.slice(firstTq).every((t) => t.queue === "q1" || t.queue === "q3")).toBe(true);
        for (const t of started) { const sq = Number(t.queue.slice(1)); running.set(t.id, { q: sq, d: waiting[sq].shift()! }); }
        // the LQs (tier 0, served first): every one that waits with a task that fits is held for the head LQ
        const used = [0, 0];
        const usage = kinds.map(() => [0, 0]);
        for (const { q: rq, d } of running.values()) d.forEach((v, r) => { used[r] += v; usage[rq][r] += v; });
        const lqs = [0, 2].map((lq) => ({ usage: usage[lq], weight: 1, head: waiting[lq][0] ?? null }));
        expect(unjustifiedWaits([10, 10], used, lqs, guard)).toEqual([]);
        if (!guard) for (const lq of ["q0", "q2"]) expect(s.explain(lq).nextTaskFits).not.toBe(true);
        if (fin && started.length) { s.finish(started[0].id); running.delete(started[0].id); }
      });
    }), { numRuns: 200 });
  });

  it("lqDrf: 'targets' is the same priority with per-LQ DRF targets served first; with preemption SP still serves its LQs (seed 7)", () => {
    const w = bopfWorkload({ tqs: 4, tqJobs: 3, bursts: 2 }, 7);
    const online = simulate(w, { policy: "sp", engine });
    const targets = simulate(w, { policy: "sp", engine, policyOptions: { lqDrf: "targets" } });
    // one LQ here: its DRF share among the LQs is all it wants, so both modes start the same tasks
    expect(targets.jobs).toEqual(online.jobs);
    const pre = simulate(w, { policy: "sp", engine, preemption: true });
    expect(pre.stats.preemptions).toBeGreaterThan(0);
    expect(pre.jobs.every((j) => j.outcome.status === "finished")).toBe(true);
  });

  it("a bad lqDrf is an InputError naming the option", () => {
    for (const bad of ["drf", 1, ""]) {
      let err: unknown = null;
      try { simulate(bopfWorkload({ tqs: 1, tqJobs: 1, bursts: 1 }, 1), { policy: "sp", engine, policyOptions: { lqDrf: bad } }); } catch (e) { err = e; }
      expect(err).toBeInstanceOf(InputError);
      expect((err as InputError).field).toBe("options.lqDrf");
    }
  });
});
