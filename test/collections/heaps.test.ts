// The heaps: Heap pops sorted order under any push/pop history; IndexedHeap keeps sorted order
// under random insert/update/remove.
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { Heap } from "../../src/collections/heap.js";
import { IndexedHeap } from "../../src/collections/indexed-heap.js";

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
