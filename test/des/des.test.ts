// The discrete-event core: the heap pops sorted order under any push/pop history, the indexed
// heap keeps sorted order under random insert/update/remove, the event queue pops by
// (time, priority, seq), the environment's instant loop and guards.
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { Heap } from "../../src/collections/heap.js";
import { IndexedHeap } from "../../src/collections/indexed-heap.js";
import { EventQueue, type Keyed } from "../../src/des/event-queue.js";
import { Environment } from "../../src/des/environment.js";
import { SimulationError } from "../../src/errors.js";
import { RunawayGuard } from "../../src/des/runaway-guard.js";
import { TimeIntegral } from "../../src/stats/time-integral.js";
import { BucketAverages } from "../../src/stats/bucket-averages.js";
import { percentileSorted } from "../../src/stats/summary.js";

type Item = { key: number; id: number };
const itemLess = (a: Item, b: Item) => a.key < b.key || (a.key === b.key && a.id < b.id);
const itemCmp = (a: Item, b: Item) => (itemLess(a, b) ? -1 : itemLess(b, a) ? 1 : 0);

describe("Heap", () => {
  it("pops exactly the sorted order of what is in it, under random pushes, unordered appends and pops", () => {
    fc.assert(fc.property(
      fc.array(fc.oneof(
        fc.record({ push: fc.integer({ min: -5, max: 5 }), unordered: fc.boolean() }),
        fc.constant({ pop: true }),
      ), { maxLength: 300 }),
      (ops) => {
        const h = new Heap<Item>(itemLess);
        const model: Item[] = [];
        let id = 0;
        for (const op of ops) {
          if ("push" in op) {
            const x = { key: op.push, id: id++ };
            if (op.unordered) h.appendUnordered(x); else h.push(x);
            model.push(x);
          } else {
            model.sort(itemCmp);
            expect(h.pop()).toBe(model.shift());
          }
          expect(h.size).toBe(model.length);
          model.sort(itemCmp);
          expect(h.peek()).toBe(model[0]);
        }
        const rest: Item[] = [];
        for (let x = h.pop(); x !== undefined; x = h.pop()) rest.push(x);
        expect(rest).toEqual(model);
      },
    ));
  });

  it("clear empties it", () => {
    const h = new Heap<number>((a, b) => a < b);
    h.push(2); h.push(1);
    h.clear();
    expect(h.size).toBe(0);
    expect(h.pop()).toBeUndefined();
  });
});

describe("IndexedHeap", () => {
  // 70 ids: heaps three and four levels deep (four children per node)
  it.each([12, 70])("top is always the smallest (key, tie, id) of the ids in it, under random insert/update/remove/clear (%i ids)", (n) => {
    // the deep case: inserts and updates over a wider key range, clears rare, so the heap fills up
    const deep = n > 12;
    const op = fc.oneof(
      { weight: deep ? 6 : 1, arbitrary: fc.record({ insert: fc.integer({ min: 0, max: n - 1 }) }) },
      { weight: 1, arbitrary: fc.record({ remove: fc.integer({ min: 0, max: n - 1 }) }) },
      { weight: deep ? 6 : 1, arbitrary: fc.record({ update: fc.integer({ min: 0, max: n - 1 }), key: fc.integer({ min: deep ? -30 : -3, max: deep ? 30 : 3 }), tie: fc.option(fc.integer({ min: 0, max: 2 }), { nil: undefined }) }) },
      { weight: 1, arbitrary: fc.constant({ clear: true }) },
    );
    fc.assert(fc.property(fc.array(op, { maxLength: 300, size: deep ? "max" : undefined }), (ops) => {
      const h = new IndexedHeap(n);
      const inHeap = new Set<number>();
      const key = new Float64Array(n), tie = new Float64Array(n);
      for (const o of ops) {
        if ("insert" in o) { h.insert(o.insert); inHeap.add(o.insert); }
        else if ("remove" in o) { h.remove(o.remove); inHeap.delete(o.remove); }
        else if ("update" in o) {
          h.update(o.update, o.key, o.tie);
          key[o.update] = o.key;
          if (o.tie !== undefined) tie[o.update] = o.tie;
        } else { h.clear(); inHeap.clear(); }
        // the smallest by a scan (expect() only on a mismatch: 300 ops x 70 ids stay fast)
        let min = -1;
        for (const i of inHeap) if (min < 0 || (key[i] - key[min] || tie[i] - tie[min] || i - min) < 0) min = i;
        if (h.size !== inHeap.size || h.top() !== min) expect([h.size, h.top()]).toEqual([inHeap.size, min]);
        for (let i = 0; i < n; i++) if (h.has(i) !== inHeap.has(i)) expect([i, h.has(i)]).toEqual([i, inHeap.has(i)]);
      }
      // draining by remove(top) gives the sorted order
      const sorted = [...inHeap].sort((a, b) => key[a] - key[b] || tie[a] - tie[b] || a - b);
      const out: number[] = [];
      while (h.size > 0) { const t = h.top(); out.push(t); h.remove(t); }
      expect(out).toEqual(sorted);
    }));
  });
});

type Ev = Keyed & { label: number };

describe("EventQueue", () => {
  it("pops by (time, priority, scheduling order), whatever the interleaving of pushes and pops", () => {
    const push = fc.record({ dt: fc.integer({ min: 0, max: 3 }), priority: fc.integer({ min: -1, max: 2 }) });
    fc.assert(fc.property(fc.array(fc.oneof(push, fc.constant(null)), { maxLength: 200 }), (ops) => {
      const q = new EventQueue<Ev>();
      const model: Ev[] = [];
      let label = 0;
      const popped: Ev[] = [];
      const expected: Ev[] = [];
      const order = (a: Ev, b: Ev) => a.time - b.time || a.priority - b.priority || a.seq - b.seq;
      for (const o of ops) {
        if (o) {
          const e = q.push(q.now + o.dt, { label: label++ }, o.priority);
          model.push(e);
        } else if (model.length > 0) {
          model.sort(order);
          expected.push(model.shift()!);
          popped.push(q.pop()!);
          expect(q.now).toBe(popped[popped.length - 1].time);
        }
      }
      model.sort(order);
      expected.push(...model);
      for (let e = q.pop(); e; e = q.pop()) popped.push(e);
      expect(popped.map((e) => e.label)).toEqual(expected.map((e) => e.label));
      // seq is the scheduling order
      expect([...popped].sort((a, b) => a.seq - b.seq).map((e) => e.label)).toEqual(popped.map((e) => e.label).sort((a, b) => a - b));
    }));
  });

  it("the header's example: push(5, A), push(3, B), push(5, C, -1), push(5, D) pops B, C, A, D", () => {
    const q = new EventQueue<Keyed & { name: string }>();
    q.push(5, { name: "A" }); q.push(3, { name: "B" }); q.push(5, { name: "C" }, -1); q.push(5, { name: "D" });
    const out: string[] = [];
    for (let e = q.pop(); e; e = q.pop()) out.push(e.name);
    expect(out).toEqual(["B", "C", "A", "D"]);
  });

  it("an event before now, or at NaN, is a SimulationError and leaves the queue as it was", () => {
    const q = new EventQueue<Ev>();
    q.push(2, { label: 0 });
    q.pop();
    expect(() => q.push(1, { label: 1 })).toThrow(SimulationError);
    expect(() => q.push(NaN, { label: 1 })).toThrow(/time went backwards/);
    expect(q.size).toBe(0);
    expect(q.now).toBe(2);
  });
});

describe("Environment", () => {
  it("runs instants: advance once per instant, every event of it applied, then one decision", () => {
    const env = new Environment<Ev>();
    const log: string[] = [];
    env.scheduleAt(1, { label: 1 });
    env.scheduleAt(1, { label: 2 }, -1);
    env.scheduleAt(3, { label: 3 });
    env.scheduleAt(9, { label: 9 });
    const stopped = env.runInstants({
      until: 5,
      advance: (t) => log.push(`advance ${t}`),
      apply: (e) => {
        log.push(`apply ${e.label}@${env.now}`);
        if (e.label === 2) env.schedule({ label: 20 }); // joins this instant
        if (e.label === 3) { env.schedule({ label: 4 }, 0, 1); return false; }
        return e.label !== 4 ? undefined : false;
      },
      decide: (t) => log.push(`decide ${t}`),
    });
    expect(stopped).toBe(true);
    expect(log).toEqual(["advance 1", "apply 2@1", "apply 1@1", "apply 20@1", "decide 1", "advance 3", "apply 3@3", "advance 4", "apply 4@4"]);
    expect(env.pending).toBe(1);
    expect(env.peekTime()).toBe(9);
    const seen: number[] = [];
    env.run((e) => seen.push(e.label));
    expect(seen).toEqual([9]);
    expect(env.now).toBe(9);
    expect(env.step()).toBeUndefined();
    expect(() => env.schedule({ label: 0 }, 0, -1)).toThrow(SimulationError);
  });
});

describe("samplers and guards", () => {
  it("TimeIntegral: the header's example", () => {
    let v = 2;
    const ti = new TimeIntegral(1, () => v);
    ti.advance(3); v = 5; ti.advance(4); ti.advance(2);
    expect(ti.totals[0]).toBe(11);
    expect(ti.time).toBe(4);
  });

  it("BucketAverages: the header's example", () => {
    let v = 1;
    const b = new BucketAverages(1, 2, () => v, 100, () => new Error("too many"));
    b.advance(1); v = 3; b.advance(4); b.finish(4);
    expect(b.t).toEqual([0, 2]);
    expect(b.values[0]).toEqual([2, 3]);
    const tiny = new BucketAverages(1, 1e-3, () => 0, 100, (to) => new Error(`too many up to ${to}`));
    expect(() => tiny.advance(1)).toThrow("too many up to 1");
  });

  it("RunawayGuard: a repetition that does not advance, or one too many, throws", () => {
    const g = new RunawayGuard(2, (t) => new Error(`runaway at ${t}`));
    expect(g.next(0, 1)).toBe(1);
    expect(() => g.next(1e300, 1)).toThrow("runaway at 1e+300");
    const h = new RunawayGuard(2, (t) => new Error(`runaway at ${t}`));
    h.next(0, 1); h.next(1, 1);
    expect(() => h.next(2, 1)).toThrow("runaway at 2");
  });

  it("percentileSorted is nearest rank: p90 of 1..10 = 9, p50 of [1, 2] = 1, empty -> null", () => {
    expect(percentileSorted([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 90)).toBe(9);
    expect(percentileSorted([1, 2], 50)).toBe(1);
    expect(percentileSorted([], 50)).toBeNull();
  });
});
