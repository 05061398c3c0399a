// Min and max shares in the live scheduler (docs/live-scheduler.md, "Min and max shares"), for the
// policies whose shares the live scheduler enforces (every policy but the LTRF family, which
// applies its own rule): over random submit / schedule / finish sequences,
//   - max share: no start takes a queue's dominant share above its maxShare;
//   - min share first: in every schedule(), the starts of queues below their minShare come
//     before every other start, and after it no queue is left below its minShare with a next
//     task that fits (and keeps it under its max share).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { loadEngineSync } from "../../src/engine/load.js";
import { createScheduler } from "../../src/live/scheduler.js";

const engine = loadEngineSync();
const CAP = [10, 10];
const dom = (u: number[]) => Math.max(...u.map((x, r) => x / CAP[r]));

const queueArb = fc.record({
  weight: fc.integer({ min: 1, max: 3 }),
  minShare: fc.option(fc.constantFrom(0.1, 0.3, 0.5), { nil: undefined }),
  maxShare: fc.option(fc.constantFrom(0.3, 0.5, 0.8), { nil: undefined }),
});
const opArb = fc.oneof(
  fc.record({ op: fc.constant("submit" as const), queue: fc.nat(3), demand: fc.tuple(fc.integer({ min: 0, max: 3 }), fc.integer({ min: 0, max: 3 })) }),
  fc.record({ op: fc.constant("schedule" as const) }),
  fc.record({ op: fc.constant("finish" as const), pick: fc.nat() }),
);

describe("live min and max shares", () => {
  for (const policy of ["drf", "sp", "fifo", "mbvt", "bopf"]) {
    it(`${policy}: max share never exceeded by a start; queues below their min share are served first`, () => {
      fc.assert(fc.property(fc.array(queueArb, { minLength: 2, maxLength: 4 }), fc.array(opArb, { maxLength: 80 }), (queues, ops) => {
        let now = 0;
        const s = createScheduler({ policy, capacity: CAP, engine, clock: () => now });
        const spec = queues.map((q) => ({ ...q, minShare: q.minShare !== undefined ? Math.min(q.minShare, q.maxShare ?? 1) : undefined }));
        spec.forEach((q, i) => s.addQueue(`q${i}`, { weight: q.weight, minShare: q.minShare, maxShare: q.maxShare }));
        const usage = spec.map(() => [0, 0]);
        const waiting: Array<Array<{ id: string; d: number[] }>> = spec.map(() => []);
        const running = new Map<string, { q: number; d: number[] }>();
        let id = 0;
        for (const o of ops) {
          now += 1;
          if (o.op === "submit") {
            const q = o.queue % spec.length;
            const t = { id: `t${id++}`, d: [...o.demand] };
            s.submit(`q${q}`, { id: t.id, demand: t.d });
            waiting[q].push(t);
          } else if (o.op === "finish") {
            const ids = [...running.keys()];
            if (!ids.length) continue;
            const tid = ids[o.pick % ids.length];
            const t = running.get(tid)!;
            s.finish(tid);
            running.delete(tid);
            t.d.forEach((x, r) => (usage[t.q][r] -= x));
          } else {
            const started = s.schedule();
            let elastic = false;
            for (const st of started) {
              const q = Number(st.queue.slice(1));
              const t = waiting[q].shift()!;
              expect(t.id).toBe(st.id); // FIFO within a queue
              const below = spec[q].minShare !== undefined && dom(usage[q]) < spec[q].minShare! - 1e-9;
              if (below) expect(elastic).toBe(false); // min-share starts come first
              else elastic = true;
              t.d.forEach((x, r) => (usage[q][r] += x));
              running.set(t.id, { q, d: t.d });
              if (spec[q].maxShare !== undefined) expect(dom(usage[q])).toBeLessThanOrEqual(spec[q].maxShare! + 1e-9);
            }
            const used = [0, 1].map((r) => usage.reduce((a, u) => a + u[r], 0));
            spec.forEach((q, i) => {
              const head = waiting[i][0];
              if (q.minShare === undefined || !head || dom(usage[i]) >= q.minShare - 1e-9) return;
              const fitsNow = head.d.every((x, r) => used[r] + x <= CAP[r] + 1e-9);
              const underMax = q.maxShare === undefined || dom(usage[i].map((u, r) => u + head.d[r])) <= q.maxShare + 1e-9;
              expect(fitsNow && underMax).toBe(false);
            });
          }
        }
      }), { numRuns: 150 });
    });
  }
});
