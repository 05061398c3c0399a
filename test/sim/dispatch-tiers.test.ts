// The dispatch's priority tiers (src/dispatch/dispatcher.ts, Policy.tier; docs/policies/simulator.md
// "The scheduling point"), on the Dispatcher itself with a small cluster model: every start is
// online DRF within the lowest tier that can start anything (smallest weighted dominant share
// whose next task fits, ties by queue index), and the point ends with no next task that fits.
// With the starvation guard (the default) the first queue met in that order whose task does not
// fit is the head: its task is reserved, and a later start must leave room for it on every
// resource both need (src/dispatch/head-reservation.ts); the point ends with no next task that
// fits beside it.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { Dispatcher } from "../../src/dispatch/dispatcher.js";
import type { ClusterState, Policy, QueueState } from "../../src/policy/policy.js";

const K = 2;
const CAP = 10;

interface Q { tier: number; weight: number; usage: number[]; waiting: number[][] }

/** A mutable cluster the dispatcher reads through the ClusterState interface. */
function cluster(qs: Q[]) {
  const used = new Float64Array(K);
  const views = qs.map((q, index) => {
    const usage = Float64Array.from(q.usage);
    for (let r = 0; r < K; r++) used[r] += usage[r];
    const view = {
      index, spec: { name: `q${index}`, kind: "TQ" as const, weight: q.weight }, usage,
      get nextTask() { return q.waiting.length ? Float64Array.from(q.waiting[0]) : null; },
      get runnableTasks() { return q.waiting.length; },
      get pending() { const p = new Float64Array(K); for (const t of q.waiting) for (let r = 0; r < K; r++) p[r] += t[r]; return p; },
      get demand() { const p = this.pending; for (let r = 0; r < K; r++) p[r] += usage[r]; return p; },
      nextArrival: 0, runningTasks: 0, activeJobs: 1, openBurst: null, rejected: false,
    };
    return view as unknown as QueueState;
  });
  const state: ClusterState = { time: 0, capacity: new Float64Array(K).fill(CAP), resources: ["a", "b"], used, queues: views, demands: new Float64Array(qs.length * K), usages: new Float64Array(qs.length * K) };
  return { state, used };
}

const fitsNow = (used: Float64Array, t: ArrayLike<number>) => Array.from(t).every((d, r) => used[r] + d <= CAP * (1 + 1e-12));
const key = (qs: Q[], q: number) => Math.max(...qs[q].usage.map((u) => u / CAP)) / qs[q].weight;

const queueArb = fc.record({
  tier: fc.nat(2),
  weight: fc.integer({ min: 1, max: 3 }),
  usage: fc.tuple(fc.integer({ min: 0, max: 3 }), fc.integer({ min: 0, max: 3 })).map((u) => [...u]),
  waiting: fc.array(fc.tuple(fc.integer({ min: 0, max: 3 }), fc.integer({ min: 1, max: 3 })).map((t) => [...t]), { maxLength: 8 }),
});

describe("dispatch tiers", () => {
  it("property (with and without the starvation guard): each start is the online-DRF choice of the lowest tier that can start; nothing that fits is left (beside the guard's reservation)", () => {
    fc.assert(fc.property(fc.array(queueArb, { minLength: 1, maxLength: 4 }), fc.boolean(), fc.boolean(), (qs, withTiers, guard) => {
      const { state, used } = cluster(qs);
      const d = new Dispatcher(K, { starvationGuard: guard });
      d.reset(qs.length);
      for (let q = 0; q < qs.length; q++) d.touch(state, q);
      const tierOf = (q: number) => (withTiers ? qs[q].tier : 0);
      const policy: Policy = { name: "tiers", elasticOnly: true, shares: () => {}, ...(withTiers ? { tier: (_s: ClusterState, out: Uint8Array) => qs.forEach((q, i) => (out[i] = q.tier)) } : {}) };
      // the guard's reserved task: the first one met in (tier, share, index) order that does not fit
      let held: number[] | null = null;
      const beside = (t: number[]) => held === null || t.every((x, r) => !(x > 0 && held![r] > 0 && used[r] + x + held![r] > CAP * (1 + 1e-12)));
      d.apply(state, policy, (q) => {
        const order = qs.map((_, i) => i).filter((i) => qs[i].waiting.length > 0).sort((a, b) => tierOf(a) - tierOf(b) || key(qs, a) - key(qs, b) || a - b);
        let best = -1;
        for (const i of order) {
          const t = qs[i].waiting[0];
          if (!fitsNow(used, t)) { if (guard && held === null) held = t; continue; }
          if (beside(t)) { best = i; break; }
        }
        expect(q).toBe(best);
        const t = qs[q].waiting.shift()!;
        for (let r = 0; r < K; r++) { qs[q].usage[r] += t[r]; state.queues[q].usage[r] += t[r]; used[r] += t[r]; }
        d.touch(state, q);
      });
      // after the last start the phase goes on down the order: the first task met that does not fit is reserved
      const rest = qs.map((_, i) => i).filter((i) => qs[i].waiting.length > 0).sort((a, b) => tierOf(a) - tierOf(b) || key(qs, a) - key(qs, b) || a - b);
      if (guard && held === null) held = rest.map((i) => qs[i].waiting[0]).find((t) => !fitsNow(used, t)) ?? null;
      for (const q of qs) if (q.waiting.length) expect(fitsNow(used, q.waiting[0]) && beside(q.waiting[0])).toBe(false);
    }), { numRuns: 300 });
  });
});
