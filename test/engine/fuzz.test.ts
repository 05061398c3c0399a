// Adversarial audit of the engine's kernels (drf, srpt, ltrf, crvReorder, their prepared
// problems) on both backends: hostile numbers and containers give a result or an InputError
// naming the field and index, never a TypeError/RangeError/WASM trap; a refused call leaves
// the engine answering a valid problem bit for bit like a fresh engine; results on
// extreme-but-valid values keep the documented invariants.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { backends } from "../helpers/engines.js";
import { FUZZ, hostileArray, hostileNumber, hostileValue, nonArray, outcome, sameBits } from "../helpers/hostile.js";
import { loadEngine, loadEngineSync, type Engine } from "../../src/index.js";

const VALID = {
  drf: { capacity: [9, 18], demands: [[9, 36], [27, 9]] },
  srpt: { capacity: [10, 10], available: [6, 4], demands: [[4, 4], [3, 1]], rates: [[2, 2], [1, 1]], remaining: [[8, 8], [2, 1]] },
  ltrf: { free: [10, 6], tasks: [[1, 2], [2, 1]], pending: [5, 3], usage: [0, 1] },
  crv: { queueOffsets: [0, 3, 5], crv: [0, 0.5, 0.5, 0, 0], runtime: [3, 2, 1, 5, 4], slack: [0, 0, 0, 0, 0], mode: ["crv", "srpt"] as const },
};

/** A valid answer of every kernel, compared across engines bit for bit. */
function validAnswers(e: Engine): unknown[] {
  return [e.drf(VALID.drf), e.srpt(VALID.srpt), e.ltrf(VALID.ltrf), e.crvReorder({ ...VALID.crv, mode: [...VALID.crv.mode] })];
}

const FIELD = /^(input|into|capacity|demands|weights|offsets|available|rates|remaining|free|tasks|pending|usage|increments|blocking|maxStarts|queueOffsets|crv|runtime|slack|mode|slackThreshold)(\.\w+)?(\[\d+\])*$/;

const hostileMatrix = (n: number, k: number): fc.Arbitrary<unknown> =>
  fc.oneof(
    { weight: 3, arbitrary: fc.array(hostileArray(k), { minLength: n, maxLength: n }) },
    { weight: 2, arbitrary: hostileArray(n * k) },
    { weight: 1, arbitrary: nonArray },
  );
const maybe = (a: fc.Arbitrary<unknown>) => fc.option(a, { nil: undefined, freq: 2 });
const dims = fc.record({ n: fc.integer({ min: 0, max: 4 }), k: fc.integer({ min: 1, max: 3 }) });

describe.each(backends)("fuzz engine kernels (%s)", (_name, make) => {
  const fresh = validAnswers(make());

  it("views that hold no numbers (BigInt64Array, BigUint64Array, DataView) are InputErrors naming the field, then the engine answers as fresh", () => {
    // before: TypedArray.set threw "TypeError: Cannot mix BigInt and other types" from marshal,
    // and a DataView's missing length read as `undefined` (NaN rows)
    const e = make();
    const big = BigInt64Array.from([1n, 1n]);
    const cases: Array<[() => unknown, string]> = [
      [() => e.drf({ capacity: big as never, demands: [[1, 1]] }), "capacity"],
      [() => e.drf({ capacity: [1, 1], demands: new BigUint64Array(4) as never }), "demands"],
      [() => e.drf({ capacity: [1, 1], demands: [[1, 1], big] as never }), "demands[1]"],
      [() => e.drf({ capacity: [1, 1], demands: [[1, 1]], weights: new BigInt64Array(1) as never }), "weights"],
      [() => e.drf({ capacity: new DataView(new ArrayBuffer(16)) as never, demands: [] }), "capacity"],
      [() => e.srpt({ ...VALID.srpt, available: big as never }), "available"],
      [() => e.ltrf({ ...VALID.ltrf, pending: big as never }), "pending"],
      [() => e.prepareDrf(1, 2).load({ capacity: big as never, demands: [[1, 1]] }), "capacity"],
    ];
    for (const [f, field] of cases) {
      const o = outcome(f);
      expect(o.kind).toBe("input");
      if (o.kind === "input") expect(o.error.field).toBe(field);
    }
    expect(sameBits(validAnswers(e), fresh)).toBe(true);
  });

  it("drf: hostile inputs -> result or InputError naming the field; state intact", () => {
    const e = make();
    fc.assert(
      fc.property(dims.chain(({ n, k }) => fc.record({
        capacity: fc.oneof({ weight: 5, arbitrary: hostileArray(k) }, { weight: 1, arbitrary: nonArray }),
        demands: hostileMatrix(n, k),
        weights: maybe(hostileArray(n)),
        offsets: maybe(hostileArray(n)),
      })), (input) => {
        const o = outcome(() => e.drf(input as never), FIELD);
        if (o.kind === "ok") checkDrf(o.value as never, input);
        expect(sameBits(e.drf(VALID.drf), fresh[0])).toBe(true);
      }),
      FUZZ,
    );
  });

  it("srpt: hostile inputs -> result or InputError; state intact", () => {
    const e = make();
    fc.assert(
      fc.property(dims.chain(({ n, k }) => fc.record({
        capacity: hostileArray(k), available: hostileArray(k),
        demands: hostileMatrix(n, k), rates: hostileMatrix(n, k), remaining: hostileMatrix(n, k),
      })), (input) => {
        const o = outcome(() => e.srpt(input as never), FIELD);
        if (o.kind === "ok") {
          const r = o.value as { fraction: Float64Array; allocation: Float64Array };
          for (const l of r.fraction) expect(l >= 0 && l <= 1).toBe(true);
          // no resource handed out beyond what is available
          const k = (input.capacity as ArrayLike<number>).length;
          const avail = Array.from(input.available as ArrayLike<number>);
          for (let res = 0; res < k; res++) {
            let used = 0;
            for (let i = res; i < r.allocation.length; i += k) used += r.allocation[i];
            expect(used).toBeLessThanOrEqual(avail[res] * (1 + 1e-12) + 1e-300);
          }
        }
        expect(sameBits(e.srpt(VALID.srpt), fresh[1])).toBe(true);
      }),
      FUZZ,
    );
  });

  it("ltrf: hostile inputs -> result or InputError; counts whole and within pending; state intact", () => {
    const e = make();
    fc.assert(
      fc.property(dims.chain(({ n, k }) => fc.record({
        free: hostileArray(k), tasks: hostileMatrix(n, k), pending: hostileArray(n),
        usage: maybe(hostileArray(n)), weights: maybe(hostileArray(n)), increments: maybe(hostileArray(n)),
        blocking: maybe(fc.constantFrom<unknown>(true, false, 1, "yes")),
        // small and invalid limits only: a large one (or Infinity) asks to wait for every start
        maxStarts: maybe(fc.oneof(fc.integer({ min: 0, max: 40 }), fc.constantFrom<unknown>(-1, 1.5, NaN, -Infinity, "3", null, 1n))),
      })), (input) => {
        const o = outcome(() => e.ltrf(input as never), FIELD);
        if (o.kind === "ok") {
          const r = o.value as { count: Float64Array; free: Float64Array };
          const pending = Array.from(input.pending as ArrayLike<number>);
          r.count.forEach((c, i) => {
            expect(Number.isInteger(c) && c >= 0 && c <= pending[i]).toBe(true);
          });
          for (const f of r.free) expect(f >= 0).toBe(true);
        }
        expect(sameBits(e.ltrf(VALID.ltrf), fresh[2])).toBe(true);
      }),
      FUZZ,
    );
  });

  it("crvReorder: hostile inputs -> result or InputError; a permutation within queues; state intact", () => {
    const e = make();
    fc.assert(
      fc.property(fc.record({ q: fc.integer({ min: 0, max: 3 }), t: fc.integer({ min: 0, max: 6 }) }).chain(({ q, t }) => fc.record({
        queueOffsets: fc.oneof(
          fc.integer({ min: 0, max: t }).map((m) => [0, ...Array.from({ length: q }, (_, j) => (j === q - 1 ? t : Math.min(t, m + j)))]),
          hostileArray(q + 1),
        ),
        crv: hostileArray(t), runtime: hostileArray(t),
        slack: fc.oneof(fc.array(fc.integer({ min: 0, max: 9 }), { minLength: t, maxLength: t }), hostileArray(t)),
        mode: hostileArray(q, fc.constantFrom<unknown>("fifo", "srpt", "crv", 0, 1, 2, 3, "toString", null, -1, 1.5)),
        slackThreshold: maybe(hostileValue),
      })), (input) => {
        const o = outcome(() => e.crvReorder(input as never), FIELD);
        if (o.kind === "ok") {
          const r = o.value as { order: Uint32Array; slack: Int32Array; reordered: number };
          const offs = Array.from(input.queueOffsets as ArrayLike<number>);
          for (let j = 0; j + 1 < offs.length; j++) {
            const got = Array.from(r.order.slice(offs[j], offs[j + 1])).sort((a, b) => a - b);
            expect(got).toEqual(Array.from({ length: offs[j + 1] - offs[j] }, (_, x) => offs[j] + x));
          }
          expect(Number.isInteger(r.reordered) && r.reordered >= 0).toBe(true);
        }
        expect(sameBits(e.crvReorder({ ...VALID.crv, mode: [...VALID.crv.mode] }), fresh[3])).toBe(true);
      }),
      FUZZ,
    );
  });

  it("prepared problems: hostile sizes and values written through the views -> InputError; state intact", () => {
    const e = make();
    fc.assert(
      fc.property(fc.constantFrom("drf", "srpt", "ltrf", "crv"), hostileValue, hostileValue, fc.array(hostileNumber, { maxLength: 8 }), (kind, a, b, vals) => {
        const o = outcome(() => {
          const p = kind === "drf" ? e.prepareDrf(a as number, b as number) : kind === "srpt" ? e.prepareSrpt(a as number, b as number)
            : kind === "ltrf" ? e.prepareLtrf(a as number, b as number) : e.prepareCrv(a as number, b as number);
          try {
            // scribble hostile numbers over every input view, then solve
            const views = p as unknown as Record<string, unknown>;
            for (const name of ["capacity", "demands", "weights", "offsets", "available", "rates", "remaining", "free", "tasks", "pending", "usage", "increments", "crv", "runtime"]) {
              let v: unknown;
              try { v = views[name]; } catch { continue; }
              if (v instanceof Float64Array) for (let i = 0; i < v.length; i++) v[i] = vals[i % Math.max(1, vals.length)] ?? 1;
            }
            return p.solve();
          } finally {
            p.dispose();
          }
        }, /^(prepared|n|k|q|t|slackThreshold|capacity|demands|weights|offsets|available|rates|remaining|free|tasks|pending|usage|increments|queueOffsets|crv|runtime|slack|mode)(\[\d+\])*$/);
        void o;
        expect(sameBits(validAnswers(e), fresh)).toBe(true);
      }),
      { ...FUZZ, numRuns: Math.ceil(FUZZ.numRuns / 2) },
    );
  });
});

/** DRF's documented invariants on a returned result: lambda in [0,1], A = lambda D, no capacity overflow. */
function checkDrf(r: { fraction: Float64Array; allocation: Float64Array }, input: { capacity: unknown; demands: unknown }): void {
  const cap = Array.from(input.capacity as ArrayLike<number>);
  const k = cap.length;
  for (const l of r.fraction) expect(l >= 0 && l <= 1).toBe(true);
  for (let res = 0; res < k; res++) {
    let used = 0;
    for (let i = res; i < r.allocation.length; i += k) used += r.allocation[i];
    expect(used).toBeLessThanOrEqual(cap[res] * (1 + 1e-9));
  }
}

describe("fuzz engine loading", () => {
  it("findings (failing before the fix): null options, a number, garbage bytes or a foreign module are InputErrors naming options(.wasm)", async () => {
    const field = (f: () => unknown) => {
      const o = outcome(f);
      return o.kind === "input" ? o.error.field : o.kind;
    };
    expect(field(() => loadEngineSync(null as never))).toBe("options");
    expect(field(() => loadEngineSync({ wasm: 3 as never }))).toBe("options.wasm");
    expect(field(() => loadEngineSync({ wasm: new Uint8Array([1, 2, 3]) }))).toBe("options.wasm");
    // a valid but empty module: no memory, no kernels (was "exports.heapBase is not a function")
    const empty = new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0]);
    expect(field(() => loadEngineSync({ wasm: empty }))).toBe("options.wasm");
    const err = await loadEngine({ wasm: empty }).then(() => null, (e: unknown) => e);
    expect((err as { field?: string }).field).toBe("options.wasm");
    // the default still loads
    expect(loadEngineSync().backend).toBe("wasm");
  });
});
