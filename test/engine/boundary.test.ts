// The API boundary (issue 8): results into caller arrays, prepared zero-copy problems, views
// that follow memory growth, and misuse reported as InputError without corrupting state.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { InputError, loadEngineSync, type DrfInput, type Engine } from "../../src/index.js";
import { WasmArena } from "../../src/engine/arena.js";
import { DRF_ARGS } from "../../src/kernels/drf/contract.js";
import { backends } from "../helpers/engines.js";
import { caught } from "../helpers/caught.js";
import { instanceArb, type Instance } from "../helpers/drf-model.js";

const good = { capacity: [9, 18], demands: [[9, 36], [27, 9]] };
const goodAlloc = [3, 12, 6, 2];

/** An instance with optional offsets, as engine.drf input. */
const inputArb = instanceArb({ maxN: 40, maxK: 6 }).chain((x: Instance) =>
  fc.record({
    x: fc.constant(x),
    offsets: fc.option(fc.array(fc.double({ min: 0, max: 3, noNaN: true, noDefaultInfinity: true }), { minLength: x.demands.length, maxLength: x.demands.length }), { nil: undefined }),
  }).map(({ x, offsets }): DrfInput => (offsets ? { ...x, offsets } : x)),
);

const bits = (a: ArrayLike<number>) => Array.from(a, (v) => (Object.is(v, -0) ? "-0" : v));

function expectSame(a: object, b: object, fields: string[]): void {
  const x = a as Record<string, ArrayLike<number>>, y = b as Record<string, ArrayLike<number>>;
  for (const f of fields) expect(bits(x[f]), f).toEqual(bits(y[f]));
}

const DRF_FIELDS = ["fraction", "allocation", "dominantShare"];

function drfInto(n: number, k: number, fill = NaN) {
  return { fraction: new Float64Array(n).fill(fill), allocation: new Float64Array(n * k).fill(fill), dominantShare: new Float64Array(n).fill(fill) };
}


for (const [name, make] of backends) {
  describe(`results into caller arrays (${name})`, () => {
    const engine = make();

    it("equal fresh results bit for bit (property); a full `into` is returned itself", () => {
      fc.assert(fc.property(inputArb, fc.integer({ min: 0, max: 7 }), (input, mask) => {
        const fresh = engine.drf(input);
        const n = fresh.fraction.length, k = input.capacity.length;
        const all = drfInto(n, k);
        const full = engine.drf(input, { into: all });
        expect(full).toBe(all);
        expectSame(full, fresh, DRF_FIELDS);
        // any subset: given arrays are filled, the others are fresh
        const some = drfInto(n, k);
        const into: Partial<typeof some> = {};
        DRF_FIELDS.forEach((f, i) => {
          if (mask & (1 << i)) (into as Record<string, Float64Array>)[f] = some[f as keyof typeof some];
        });
        const r = engine.drf(input, { into });
        expectSame(r, fresh, DRF_FIELDS);
        for (const f of DRF_FIELDS) {
          const given = (into as Record<string, Float64Array>)[f];
          if (given) expect(r[f as keyof typeof r]).toBe(given);
          else expect(r[f as keyof typeof r]).not.toBe(fresh[f as keyof typeof fresh]);
        }
      }), { numRuns: 200 });
    });

    it("srpt, ltrf and crvReorder write into caller arrays too", () => {
      const s = { capacity: [10, 10], available: [8, 6], demands: [[4, 2], [6, 6], [1, 0]], rates: [[2, 2], [3, 1], [1, 1]], remaining: [[9, 9], [2, 2], [5, 5]] };
      const sf = engine.srpt(s);
      const si = { fraction: new Float64Array(3), allocation: new Float64Array(6) };
      expect(engine.srpt(s, { into: si })).toBe(si);
      expectSame(si, sf, ["fraction", "allocation"]);

      const l = { free: [5, 5], tasks: [[1, 2], [2, 1], [1, 1]], pending: [3, 2, 4], usage: [1, 0, 2] };
      const lf = engine.ltrf(l);
      const li = { count: new Float64Array(3), usage: new Float64Array(3), free: new Float64Array(2) };
      expect(engine.ltrf(l, { into: li })).toBe(li);
      expectSame(li, lf, ["count", "usage", "free"]);

      const c = { queueOffsets: [0, 3, 5], crv: [0.5, 2, 1, 0, 3], runtime: [5, 1, 3, 2, 1], slack: [0, 0, 1, 0, 0], mode: ["crv", "srpt"] as const };
      const cf = engine.crvReorder({ ...c, mode: [...c.mode] });
      const ci = { order: new Uint32Array(5), slack: new Int32Array(5) };
      const cr = engine.crvReorder({ ...c, mode: [...c.mode] }, { into: ci });
      expect(cr.order).toBe(ci.order);
      expect(cr.slack).toBe(ci.slack);
      expect(cr.reordered).toBe(cf.reordered);
      expectSame(cr, cf, ["order", "slack"]);
    });

    it("a bad `into` is an InputError naming the field, thrown before anything is written", () => {
      // each case also gives one valid array: it must stay untouched
      const cases: Array<[(keep: Float64Array) => object, RegExp]> = [
        [(keep) => ({ fraction: keep, allocation: new Float64Array(3) }), /^into\.allocation: has length 3, expected N\*K=4/],
        [(keep) => ({ dominantShare: keep, fraction: new Float64Array(3) }), /^into\.fraction: has length 3, expected N=2/],
        [(keep) => ({ dominantShare: keep, fraction: [0, 0] }), /^into\.fraction: must be a Float64Array \(got an array of length 2\)/],
        [(keep) => ({ fraction: keep, dominantShare: new Float32Array(2) }), /^into\.dominantShare: must be a Float64Array \(got Float32Array\)/],
        [(keep) => ({ fraction: keep, alloc: new Float64Array(4) }), /^into\.alloc: is not a result field \(expected fraction, allocation, dominantShare\)/],
      ];
      for (const [make, re] of cases) {
        const keep = new Float64Array(2).fill(7);
        const err = caught(() => engine.drf(good, { into: make(keep) as never }));
        expect(err).toBeInstanceOf(InputError);
        expect(err.message).toMatch(re);
        expect(Array.from(keep)).toEqual([7, 7]);
        expect(Array.from(engine.drf(good).allocation)).toEqual(goodAlloc);
      }
      expect(caught(() => engine.drf(good, { into: 5 as never })).message).toMatch(/^into: expected an object/);
      const ci = { order: new Int32Array(1) };
      expect(caught(() => engine.crvReorder({ queueOffsets: [0, 1], crv: [1], runtime: [1], slack: [0], mode: ["srpt"] }, { into: ci as never })).message)
        .toMatch(/^into\.order: must be a Uint32Array/);
    });
  });

  describe(`prepared problems (${name})`, () => {
    it("equal engine.drf bit for bit, written through the views or loaded (property)", () => {
      const engine = make();
      fc.assert(fc.property(inputArb, (input) => {
        const expected = engine.drf(input);
        const n = expected.fraction.length, k = input.capacity.length;
        const weights = input.weights !== undefined, offsets = input.offsets !== undefined;
        const p = engine.prepareDrf(n, k, { weights, offsets });
        p.capacity.set(input.capacity);
        p.demands.set((input.demands as number[][]).flat());
        if (weights) p.weights.set(input.weights as number[]);
        if (offsets) p.offsets.set(input.offsets as number[]);
        expectSame(p.solve(), expected, DRF_FIELDS);
        expectSame(p.results, expected, DRF_FIELDS);
        expectSame(p.copyResults(), expected, DRF_FIELDS);
        const into = drfInto(n, k);
        expect(p.copyResults(into)).toBe(into);
        expectSame(into, expected, DRF_FIELDS);
        const q = engine.prepareDrf(n, k, { weights, offsets }).load(input);
        expectSame(q.solve(), expected, DRF_FIELDS);
        p.dispose();
        q.dispose();
      }), { numRuns: 150 });
    });

    it("solve() reuses its result views while memory does not grow", () => {
      const p = make().prepareDrf(2, 2).load(good);
      const r = p.solve();
      expect(p.solve()).toBe(r);
      expect(r.allocation).toBe(p.solve().allocation);
      expect(Array.from(r.allocation)).toEqual(goodAlloc);
    });

    it("SRPT: prepared equals engine.srpt", () => {
      const engine = make();
      const s = { capacity: [10, 10], available: [8, 6], demands: [[4, 2], [6, 6], [1, 0]], rates: [[2, 2], [3, 1], [1, 1]], remaining: [[9, 9], [2, 2], [5, 5]] };
      const expected = engine.srpt(s);
      const p = engine.prepareSrpt(3, 2);
      p.capacity.set(s.capacity);
      p.available.set(s.available);
      p.demands.set(s.demands.flat());
      p.rates.set(s.rates.flat());
      p.remaining.set(s.remaining.flat());
      expectSame(p.solve(), expected, ["fraction", "allocation"]);
      expectSame(engine.prepareSrpt(3, 2).load(s).solve(), expected, ["fraction", "allocation"]);
      expect(caught(() => engine.prepareSrpt(2, 2).load(s)).message).toMatch(/^demands: has 3 rows, expected N=2 \(the prepared size\)/);
    });

    it("LTRF: prepared equals engine.ltrf, round after round with usage carried over", () => {
      const engine = make();
      for (const [weighted, blocking] of [[false, false], [true, true]] as const) {
        const base = { free: [6, 4], tasks: [[1, 2], [2, 1], [1, 1]], pending: [3, 2, 4], increments: [0.5, 1, 0.25], blocking };
        const weights = weighted ? { weights: [1, 2, 0.5] } : {};
        const p = engine.prepareLtrf(3, 2, { weights: weighted, blocking });
        let usage = [0, 0, 0];
        for (let round = 0; round < 3; round++) {
          const input = { ...base, ...weights, usage };
          const expected = engine.ltrf(input);
          if (round === 0) p.load(input);
          const r = p.solve();
          expectSame(r, expected, ["count", "usage", "free"]);
          usage = Array.from(expected.usage);
          p.usage.set(r.usage); // carry the usage over in place
        }
        expect(caught(() => p.load({ ...base, blocking: !blocking })).message).toMatch(/^blocking: is (true|false), but the problem was prepared with blocking/);
      }
      expect(caught(() => engine.prepareLtrf(2, 2).weights).message).toMatch(/^weights: this problem was prepared without weights/);
      const bad = engine.prepareLtrf(1, 1).load({ free: [1], tasks: [[1]], pending: [1.5] });
      expect(caught(() => bad.solve()).message).toMatch(/^pending\[0\]: must be a whole number/);
    });

    it("other calls on the engine never overwrite a prepared problem", () => {
      const engine = make();
      const p = engine.prepareDrf(2, 2).load(good);
      p.solve();
      const first = p.copyResults();
      const other = engine.prepareDrf(2, 2).load({ capacity: [1, 1], demands: [[1, 0], [0, 1]] });
      engine.drf({ capacity: [5, 5], demands: [[1, 2], [3, 4]] });
      engine.srpt({ capacity: [1, 1], available: [1, 1], demands: [[1, 1], [2, 2]], rates: [[1, 1], [1, 1]], remaining: [[1, 1], [1, 1]] });
      other.solve();
      expectSame(p.solve(), first, DRF_FIELDS);
      expect(Array.from(p.demands)).toEqual([9, 36, 27, 9]);
    });

    it("misuse is an InputError, and the problem and engine keep answering correctly", () => {
      const engine = make();
      const p = engine.prepareDrf(2, 2);
      expect(caught(() => p.results).message).toMatch(/^results: no results: call solve\(\) first/);
      expect(caught(() => p.weights).message).toMatch(/^weights: this problem was prepared without weights/);
      expect(caught(() => p.offsets).message).toMatch(/^offsets: this problem was prepared without offsets/);
      expect(caught(() => p.load({ ...good, weights: [1, 2] })).message).toMatch(/^weights: this problem was prepared without weights/);
      expect(caught(() => p.load({ capacity: [1, 2], demands: [[1, 2]] })).message).toMatch(/^demands: has 1 rows, expected N=2 \(the prepared size\)/);
      expect(caught(() => p.load({ capacity: [1, 2, 3], demands: [[1, 2, 3], [4, 5, 6]] })).message).toMatch(/^capacity: has length 3, expected K=2 \(the prepared size\)/);
      // capacity left at 0 by prepare: the kernel names it
      expect(caught(() => p.solve()).message).toMatch(/^capacity\[0\]: must be a finite number > 0 \(got 0\)/);
      p.load(good);
      p.demands[3] = NaN;
      const err = caught(() => p.solve());
      expect(err).toBeInstanceOf(InputError);
      expect(err.message).toMatch(/^demands\[1\]\[1\]: must be a finite number >= 0 \(got NaN\)/);
      expect(caught(() => p.results).message).toMatch(/^results: no results/);
      p.demands[3] = 9;
      expect(Array.from(p.solve().allocation)).toEqual(goodAlloc);
      expect(Array.from(engine.drf(good).allocation)).toEqual(goodAlloc);
      expect(caught(() => p.copyResults({ allocation: new Float64Array(5) })).message).toMatch(/^into\.allocation: has length 5, expected N\*K=4/);
      // a load that fails part way (row 1 is bad, row 0 was written) blocks solve() until a load succeeds
      expect(caught(() => p.load({ capacity: [1, 1], demands: [[5, 5], [1, "x" as never]] })).message).toMatch(/^demands\[1\]\[1\]: must be a number, got "x"/);
      expect(caught(() => p.solve()).message).toMatch(/^input: the last load\(\) failed part way/);
      expect(Array.from(p.results.allocation)).toEqual(goodAlloc); // the last good results stay readable
      expect(Array.from(p.load(good).solve().allocation)).toEqual(goodAlloc);

      p.dispose();
      p.dispose(); // idempotent
      expect(p.disposed).toBe(true);
      for (const use of [() => p.solve(), () => p.demands, () => p.capacity, () => p.results, () => p.copyResults(), () => p.load(good)]) {
        const e = caught(use);
        expect(e).toBeInstanceOf(InputError);
        expect(e.message).toMatch(/^prepared: this prepared drf problem was disposed/);
      }
      expect(Array.from(engine.prepareDrf(2, 2).load(good).solve().allocation)).toEqual(goodAlloc);
    });

    it("bad sizes are InputErrors; a problem beyond memory too, and the engine still works", () => {
      const engine = make();
      const cases: Array<[number, number, RegExp]> = [
        [-1, 2, /^n: must be a whole number >= 0 \(got -1\)/],
        [1.5, 2, /^n: must be a whole number >= 0 \(got 1.5\)/],
        [NaN, 2, /^n: must be a whole number >= 0 \(got NaN\)/],
        [2, 0, /^k: must be a whole number >= 1 \(got 0\)/],
        [2 ** 30, 6, /^demands: problem too large for memory/],
      ];
      for (const [n, k, re] of cases) {
        const e = caught(() => engine.prepareDrf(n, k));
        expect(e).toBeInstanceOf(InputError);
        expect(e.message).toMatch(re);
      }
      expect(caught(() => engine.prepareDrf(2, 2, 5 as never)).message).toMatch(/^options: expected an object/);
      expect(engine.prepareDrf(0, 3).load({ capacity: [1, 1, 1], demands: [] }).solve().fraction.length).toBe(0);
      expect(Array.from(engine.drf(good).allocation)).toEqual(goodAlloc);
    });

    it("stage/run at the kernel level: a prepare in between never runs over the prepared block", () => {
      const engine = make();
      const staged = engine.kernels.stage("drf", 2, 2);
      const s = staged.views();
      s.capacity.set([9, 18]);
      s.demands.set([9, 36, 27, 9]);
      const p = engine.prepareDrf(50, 2);
      if (name === "wasm") {
        // the staging area moved above the new block: running the old stage would hit it
        expect(staged.valid()).toBe(false);
        expect(() => staged.run(DRF_ARGS.plain)).toThrow(/running a released or moved block/);
      } else {
        // JS arrays never move: the staged problem is still there
        expect(staged.run(DRF_ARGS.plain)).toBe(0);
        expect(Array.from(s.allocation)).toEqual(goodAlloc);
      }
      expect(Array.from(p.demands)).toEqual(new Array(100).fill(0));
      const staged2 = engine.kernels.stage("drf", 2, 2);
      const s2 = staged2.views();
      s2.capacity.set([9, 18]);
      s2.demands.set([9, 36, 27, 9]);
      expect(staged2.run(DRF_ARGS.plain)).toBe(0);
      expect(Array.from(s2.allocation)).toEqual(goodAlloc);
    });
  });
}

describe("prepared problems across WASM memory growth", () => {
  const bigN = 300_000;
  const big = { capacity: [1, 1], demands: new Float64Array(bigN * 2).fill(1) };

  function grows(engine: Engine, f: () => void): void {
    const wasm = engine.kernels as unknown as { memory: WebAssembly.Memory };
    const before = wasm.memory.buffer;
    f();
    expect(wasm.memory.buffer).not.toBe(before); // the premise: memory did grow
  }

  it("a held input view is detached by growth: solve() refuses; re-read views hold the data and solve again", () => {
    const engine = loadEngineSync();
    const p = engine.prepareDrf(2, 2);
    const cap = p.capacity, dem = p.demands;
    cap.set([9, 18]);
    dem.set([9, 36, 27, 9]);
    const r = p.solve();
    expect(Array.from(r.allocation)).toEqual(goodAlloc);
    grows(engine, () => engine.drf(big));
    expect(dem.length).toBe(0); // detached: writes through it would be lost
    expect(r.allocation.length).toBe(0);
    const err = caught(() => p.solve());
    expect(err).toBeInstanceOf(InputError);
    expect(err.message).toMatch(/^capacity: the view you read from this prepared problem was detached/);
    // the results are still there, through fresh views
    expect(Array.from(p.results.allocation)).toEqual(goodAlloc);
    expect(Array.from(p.capacity)).toEqual([9, 18]);
    expect(caught(() => p.solve()).message).toMatch(/^demands: the view/); // demands not re-read yet
    expect(Array.from(p.demands)).toEqual([9, 36, 27, 9]);
    expect(Array.from(p.solve().allocation)).toEqual(goodAlloc);
  });

  it("small, then a huge prepared problem, then the small one again: both correct", () => {
    const engine = loadEngineSync();
    const small = engine.prepareDrf(2, 2).load(good);
    expect(Array.from(small.solve().allocation)).toEqual(goodAlloc);
    let huge = null as ReturnType<Engine["prepareDrf"]> | null;
    grows(engine, () => {
      huge = engine.prepareDrf(bigN, 2).load(big);
    });
    expect(Array.from(small.solve().allocation)).toEqual(goodAlloc); // never read views: nothing lost
    expect(huge!.solve().fraction[bigN - 1]).toBeCloseTo(1 / bigN, 12);
    expect(Array.from(small.results.allocation)).toEqual(goodAlloc);
    huge!.dispose();
    // the huge block's memory is reused by the next prepare, which starts from zeros
    const again = engine.prepareDrf(bigN, 2);
    expect(again.demands.every((v) => v === 0)).toBe(true);
    expect(Array.from(engine.drf(good).allocation)).toEqual(goodAlloc);
  });
});

describe("WasmArena", () => {
  it("allocates first fit, keeps the transient area above every block, reuses released gaps", () => {
    const memory = new WebAssembly.Memory({ initial: 1 });
    const a = new WasmArena(memory, 1000);
    expect(a.base).toBe(1008);
    expect(a.top).toBe(1008);
    const x = a.allocate(100, "f", "x");
    const y = a.allocate(50, "f", "y");
    expect([x, y, a.top]).toEqual([1008, 1120, 1184]);
    a.release(x);
    expect(a.top).toBe(1184);
    expect(a.allocate(200, "f", "z")).toBe(1184); // does not fit the 112-byte gap
    expect(a.allocate(64, "f", "w")).toBe(1008); // fits it
    expect(a.top).toBe(1392);
    a.release(1184);
    expect(a.top).toBe(1184);
    const before = memory.buffer;
    expect(a.reserveTransient(200_000, "f", "t")).toBe(1184);
    expect(memory.buffer).not.toBe(before);
    expect(memory.buffer.byteLength).toBeGreaterThanOrEqual(1184 + 200_000);
    expect(() => a.allocate(2 ** 32, "demands", "N=1")).toThrow(/^demands: problem too large for memory/);
    expect(() => a.release(12345)).toThrow(/no arena block/);
  });
});
