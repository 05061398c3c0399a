// Issue 21 findings 4, 11, 12 (engine part) and 13: caller arrays that are views of the
// engine's memory, detached or resized buffers, `into` objects with prototype-named keys,
// aliasing between `into` fields, and the EngineAdmissionBatch guards. Each case failed
// before the fix (a TypeError/RangeError, a misleading `has length 0`, or a silent wrong
// answer on WASM only); now both backends give the same answer or the same InputError.
import { describe, expect, it } from "vitest";
import { InputError, loadEngineSync } from "../../src/index.js";
import { BopfAdmissionControl } from "../../src/bopf/admission.js";
import { emptyBatchOutcome } from "../../src/bopf/admission-batch.js";
import { EngineAdmissionBatch } from "../../src/bopf/index.js";
import { backends } from "../helpers/engines.js";
import { caught } from "../helpers/caught.js";

/** A DRF input large enough that staging it grows the engine's memory (a fresh engine). */
function bigDemands(n: number, k: number): Float64Array {
  return new Float64Array(n * k).fill(1);
}

const bits = (a: ArrayLike<number>) => Array.from(a, (v) => (Object.is(v, -0) ? "-0" : v));

/** A resizable ArrayBuffer (ES2024; Node 20 has it, the project's TS lib does not declare it). */
interface Resizable extends ArrayBuffer {
  resize(bytes: number): void;
}
const resizable = (bytes: number, max: number): Resizable =>
  new (ArrayBuffer as unknown as new (n: number, o: { maxByteLength: number }) => Resizable)(bytes, { maxByteLength: max });

function detached(len: number): Float64Array {
  const f = new Float64Array(len).fill(1);
  structuredClone(f.buffer, { transfer: [f.buffer] });
  return f;
}

function expectInputError(f: () => unknown, field: RegExp): InputError {
  const e = caught(f);
  expect(e, String(e)).toBeInstanceOf(InputError);
  expect((e as InputError).field).toMatch(field);
  return e as InputError;
}

describe("finding 4: views of a prepared problem into a one-shot call that grows memory", () => {
  const answers: Record<string, unknown> = {};
  for (const [name, make] of backends) {
    it(`${name}: p.capacity and p.demands passed to engine.drf with a bigger problem give the answer of copies`, () => {
      const engine = make();
      const p = engine.prepareDrf(2, 2);
      p.capacity.set([9, 18]);
      p.demands.set([9, 36, 27, 9]);
      // the one-shot call's rows: the prepared demands (viewed twice) and a big rest
      const n = 200_000, k = 2;
      const demands = bigDemands(n, k);
      demands.set([9, 36, 27, 9]);
      const r = engine.drf({ capacity: p.capacity, demands: [p.demands.subarray(0, 2), p.demands.subarray(2, 4), ...Array.from({ length: n - 2 }, () => [1, 1])] });
      const ref = make().drf({ capacity: [9, 18], demands: [[9, 36], [27, 9], ...Array.from({ length: n - 2 }, () => [1, 1])] });
      expect(bits(r.fraction)).toEqual(bits(ref.fraction));
      answers[name] = bits(r.fraction.subarray(0, 4));
      // the flat view itself too
      const q = engine.prepareDrf(1, 2);
      q.capacity.set([4, 4]);
      const r2 = engine.drf({ capacity: q.capacity, demands: bigDemands(400_000, 2) });
      expect(r2.fraction.length).toBe(400_000);
      // into: a prepared problem's view, written where JS would write it (the prepared memory)
      const target = engine.prepareDrf(3, 1);
      const K = 1_000_000;
      const r3 = engine.drf({ capacity: new Float64Array(K).fill(3), demands: new Float64Array(3 * K).fill(2) }, { into: { fraction: target.demands } });
      expect(Array.from(r3.fraction)).toEqual([0.5, 0.5, 0.5]);
      expect(Array.from(target.demands)).toEqual([0.5, 0.5, 0.5]);
    });
  }
  it("both backends agree bit for bit", () => {
    expect(answers.wasm).toEqual(answers.js);
  });

  for (const [name, make] of backends) {
    it(`${name}: srpt, ltrf and crvReorder read prepared views across growth too`, () => {
      const engine = make();
      const p = engine.prepareLtrf(1, 2);
      p.free.set([4, 4]);
      const n = 300_000;
      const r = engine.ltrf({ free: p.free, tasks: new Float64Array(n * 2).fill(1), pending: new Float64Array(n).fill(1), maxStarts: Infinity });
      expect(r.free[0]).toBe(0);
      expect(r.count.reduce((a, b) => a + b, 0)).toBe(4);
    });
  }
});

describe("finding 11: detached and out-of-bounds arrays are InputErrors naming the field", () => {
  for (const [name, make] of backends) {
    it(`${name}: detached inputs and into arrays`, () => {
      const engine = make();
      expectInputError(() => engine.drf({ capacity: [1, 1], demands: detached(0) }), /^demands$/);
      expectInputError(() => engine.drf({ capacity: detached(2), demands: [[1, 1]] }), /^capacity$/);
      expectInputError(() => engine.drf({ capacity: [1, 1], demands: [[1, 1], detached(2)] }), /^demands\[1\]$/);
      expectInputError(() => engine.drf({ capacity: [1, 1], demands: [] }, { into: { fraction: detached(0) } }), /^into\.fraction$/);
      expectInputError(() => engine.drf({ capacity: [1, 1], demands: [[1, 1]] }, { into: { allocation: detached(2) } }), /^into\.allocation$/);
      expectInputError(() => engine.ltrf({ free: [1], tasks: [[1]], pending: detached(1) }), /^pending$/);
      // and the engine still answers
      expect(Array.from(engine.drf({ capacity: [9, 18], demands: [[9, 36], [27, 9]] }).allocation)).toEqual([3, 12, 6, 2]);
    });

    it(`${name}: into keys named like Object.prototype properties (JSON.parse) are 'not a result field'`, () => {
      const engine = make();
      for (const key of ["constructor", "toString", "__proto__", "hasOwnProperty", "valueOf"]) {
        const into = JSON.parse(`{"${key}": [1]}`);
        const e = expectInputError(() => engine.drf({ capacity: [1], demands: [[1]] }, { into }), new RegExp(`^into\\.${key}$`));
        expect(e.message).toMatch(/not a result field/);
      }
      // inherited enumerable properties are not fields of the caller's object: ignored
      const inherited = Object.create({ bogus: 1 });
      expect(engine.drf({ capacity: [1], demands: [[1]] }, { into: inherited }).fraction[0]).toBe(1);
    });

    it(`${name}: a resizable buffer grown during the call (by an element getter of an earlier input) is an InputError, not a RangeError`, () => {
      const engine = make();
      const buf = resizable(2 * 8, 64 * 8);
      const demands = new Float64Array(buf); // length-tracking
      demands.set([1, 1]);
      const capacity = [1, 1];
      Object.defineProperty(capacity, 1, { get: () => (buf.resize(6 * 8), 1) });
      expectInputError(() => engine.drf({ capacity, demands }), /^demands$/);
    });
  }
});

describe("finding 12: no silent wrong answers from shrunk buffers or aliased outputs", () => {
  for (const [name, make] of backends) {
    it(`${name}: a resizable demands buffer shrunk during the call is re-checked (was: the previous call's staged rows)`, () => {
      const engine = make();
      engine.drf({ capacity: [1, 1], demands: [[5, 5], [7, 7]] }); // staged rows a shrunk copy would keep
      const buf = resizable(4 * 8, 64 * 8);
      const demands = new Float64Array(buf);
      demands.set([1, 1, 1, 1]);
      const capacity = [2, 2];
      Object.defineProperty(capacity, 1, { get: () => (buf.resize(2 * 8), 2) });
      expectInputError(() => engine.drf({ capacity, demands }), /^demands$/);
      // a fixed-length view pushed out of bounds by the shrink: also named
      const buf2 = resizable(4 * 8, 64 * 8);
      const fixed = new Float64Array(buf2, 0, 4);
      const cap2 = [2, 2];
      Object.defineProperty(cap2, 1, { get: () => (buf2.resize(8), 2) });
      expectInputError(() => engine.drf({ capacity: cap2, demands: fixed }), /^demands$/);
    });

    it(`${name}: into fields sharing memory are an InputError (was: a wrong fraction)`, () => {
      const engine = make();
      const f = new Float64Array(2);
      const e = expectInputError(() => engine.drf({ capacity: [9, 18], demands: [[9, 36], [27, 9]] }, { into: { fraction: f, dominantShare: f } }), /^into\.dominantShare$/);
      expect(e.message).toMatch(/shares memory with into\.fraction/);
      const g = new Float64Array(6);
      expectInputError(() => engine.drf({ capacity: [9, 18], demands: [[9, 36], [27, 9]] }, { into: { fraction: g.subarray(0, 2), allocation: g.subarray(1, 5) } }), /^into\.allocation$/);
      // disjoint parts of one buffer are fine
      const r = engine.drf({ capacity: [9, 18], demands: [[9, 36], [27, 9]] }, { into: { fraction: g.subarray(0, 2), dominantShare: g.subarray(2, 4) } });
      expect(Array.from(g.subarray(0, 4))).toEqual([...Array.from(r.fraction), ...Array.from(r.dominantShare)]);
      const same = engine.drf({ capacity: [9, 18], demands: [[9, 36], [27, 9]] });
      expect(bits(r.fraction)).toEqual(bits(same.fraction));
    });

    it(`${name}: into given as an input of the same call gives the answer of separate arrays`, () => {
      const engine = make();
      const w = new Float64Array([1, 2]);
      const ref = engine.drf({ capacity: [9, 18], demands: [[9, 36], [27, 9]], weights: [1, 2] });
      const r = engine.drf({ capacity: [9, 18], demands: [[9, 36], [27, 9]], weights: w }, { into: { fraction: w } });
      expect(bits(r.fraction)).toEqual(bits(ref.fraction));
    });
  }
});

describe("finding 13: EngineAdmissionBatch guards", () => {
  for (const [name, make] of backends) {
    it(`${name}: a spec written through a stale view is an InputError, not an LQ admitted as an elastic TQ`, () => {
      const engine = make();
      const ac = new BopfAdmissionControl([10, 10]);
      const b = new EngineAdmissionBatch(engine, 1, 2);
      const kind = b.kind, period = b.period, window = b.window, count = b.count, volume = b.volume;
      engine.drf({ capacity: [1], demands: bigDemands(2_000_000, 1) }); // grows memory on WASM
      kind[0] = 1;
      period[0] = 10;
      window[0] = 5;
      count[0] = 1;
      volume[0] = 5; // index writes: silently lost on a detached view (set() would throw)
      volume[1] = 5;
      const out = emptyBatchOutcome(1);
      if (name === "wasm") {
        expectInputError(() => ac.admitBatch(b, out, "batch", engine), /^batch\.(kind|period|window|count|volume)$/);
        expect(ac.admittedCount).toBe(0);
        // read again and refill: admitted hard
        b.kind[0] = 1; b.period[0] = 10; b.window[0] = 5; b.count[0] = 1; b.volume.set([5, 5]);
      }
      ac.admitBatch(b, out, "batch", engine);
      expect(out.cls[0]).toBe(0); // hard
      expect(ac.admittedCount).toBe(1);
    });

    it(`${name}: a new batch starts from zeros even where a released one's memory is reused (found by test/engine/stateful.test.ts)`, () => {
      const engine = make();
      const ac = new BopfAdmissionControl([10, 10]);
      const a = new EngineAdmissionBatch(engine, 2, 2);
      a.kind.fill(1); // LQ rows, spec left 0: would be refused as period 0
      a.release();
      const b = new EngineAdmissionBatch(engine, 2, 2);
      expect(Array.from(b.kind)).toEqual([0, 0]);
      const out = emptyBatchOutcome(2);
      ac.admitBatch(b, out, "batch", engine);
      expect(Array.from(out.cls)).toEqual([2, 2]); // two elastic TQs
    });

    it(`${name}: a released batch refuses use with an InputError`, () => {
      const engine = make();
      const ac = new BopfAdmissionControl([10, 10]);
      const b = new EngineAdmissionBatch(engine, 1, 2);
      b.release();
      expect(b.isReleased).toBe(true);
      expectInputError(() => b.kind, /^batch$/);
      expectInputError(() => ac.admitBatch(b, emptyBatchOutcome(1), "batch", engine), /^batch$/);
      expect(ac.admittedCount).toBe(0);
      b.release(); // idempotent
    });
  }
});

describe("finding 12: an into getter that calls the engine again", () => {
  for (const [name, make] of backends) {
    it(`${name}: is an InputError naming into, not another call's results`, () => {
      const engine = make();
      const into = {
        get fraction() {
          engine.drf({ capacity: [1, 1], demands: [[5, 5], [7, 7]] }); // same size: restages the same block
          return new Float64Array(2);
        },
      };
      expectInputError(() => engine.drf({ capacity: [9, 18], demands: [[9, 36], [27, 9]] }, { into: into as never }), /^into$/);
      expect(Array.from(engine.drf({ capacity: [9, 18], demands: [[9, 36], [27, 9]] }).allocation)).toEqual([3, 12, 6, 2]);
    });
  }
});
