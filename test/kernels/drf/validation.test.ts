// Bad input: a clear InputError naming field and index, never a crash, hang, wrong answer
// or corrupted engine state.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { InputError, loadEngine, loadEngineSync } from "../../../src/index.js";
import { backends } from "../../helpers/engines.js";

const good = { capacity: [9, 18], demands: [[9, 36], [27, 9]] };
const goodAlloc = [3, 12, 6, 2];

for (const [name, make] of backends) {
  describe(`DRF input validation (${name})`, () => {
    const engine = make();
    const cases: Array<[string, unknown, RegExp]> = [
      ["NaN demand", { capacity: [1, 1], demands: [[1, 1], [1, NaN]] }, /^demands\[1\]\[1\]: must be a finite number >= 0 \(got NaN\)/],
      ["Infinity demand", { capacity: [1, 1], demands: [[Infinity, 1]] }, /^demands\[0\]\[0\]: .*Infinity/],
      ["negative demand", { capacity: [1, 1], demands: [[1, -2]] }, /^demands\[0\]\[1\]: .*-2/],
      ["zero capacity", { capacity: [1, 0], demands: [[1, 1]] }, /^capacity\[1\]: must be a finite number > 0/],
      ["negative capacity", { capacity: [-1], demands: [[1]] }, /^capacity\[0\]/],
      ["NaN capacity", { capacity: [NaN], demands: [[1]] }, /^capacity\[0\]/],
      ["zero weight", { capacity: [1], demands: [[1], [1]], weights: [1, 0] }, /^weights\[1\]: must be a finite number > 0/],
      ["negative weight", { capacity: [1], demands: [[1]], weights: [-1] }, /^weights\[0\]/],
      ["negative offset", { capacity: [1], demands: [[1]], offsets: [-1] }, /^offsets\[0\]/],
      ["short row", { capacity: [1, 1], demands: [[1, 1], [1]] }, /^demands\[1\]: has length 1, expected K=2/],
      ["flat length", { capacity: [1, 1], demands: new Float64Array(3) }, /^demands: flat length 3 is not a multiple of K=2/],
      ["weights length", { capacity: [1], demands: [[1], [1]], weights: [1] }, /^weights: has length 1, expected N=2/],
      ["offsets length", { capacity: [1], demands: [[1]], offsets: [1, 2] }, /^offsets: has length 2, expected N=1/],
      ["empty capacity", { capacity: [], demands: [] }, /^capacity: must list at least one resource/],
      ["capacity not array", { capacity: 5, demands: [] }, /^capacity: expected an array/],
      ["row not array", { capacity: [1], demands: [[1], "x"] }, /^demands\[1\]: expected an array/],
      ["string element", { capacity: [1], demands: [[1], ["2"]] }, /^demands\[1\]\[0\]: must be a number, got "2"/],
      ["null input", null, /^input: expected an object/],
      ["subnormal demand", { capacity: [1], demands: [[5e-324]] }, /^demands\[0\]: .*beyond f64 precision/],
    ];
    for (const [what, input, re] of cases) {
      it(`${what} -> InputError, and the engine still answers correctly`, () => {
        let err: unknown;
        try {
          engine.drf(input as never);
        } catch (e) {
          err = e;
        }
        expect(err).toBeInstanceOf(InputError);
        expect((err as Error).message).toMatch(re);
        expect(Array.from(engine.drf(good).allocation)).toEqual(goodAlloc);
      });
    }

    it("too large for memory -> InputError, engine still fine", () => {
      // a flat number[] that claims 2^31 elements without allocating them
      const huge = new Proxy([] as number[], { get: (t, p) => (p === "length" ? 2 ** 31 : typeof p === "string" && /^\d+$/.test(p) ? 1 : Reflect.get(t, p)) });
      expect(() => engine.drf({ capacity: [1, 1, 1, 1], demands: huge })).toThrow(InputError);
      expect(() => engine.drf({ capacity: [1, 1, 1, 1], demands: huge })).toThrow(/too large for memory/);
      expect(Array.from(engine.drf(good).allocation)).toEqual(goodAlloc);
    });

    it("garbage fuzz: never crashes or hangs; errors are InputErrors; later results stay correct", () => {
      const anyNum = fc.oneof(fc.double(), fc.integer(), fc.constantFrom(NaN, Infinity, -Infinity, -0, 0, 5e-324, 1e308));
      const anyVal = fc.oneof(anyNum, fc.string(), fc.constant(null), fc.constant(undefined), fc.array(anyNum, { maxLength: 4 }));
      const garbage = fc.record({
        capacity: fc.oneof(fc.array(anyNum, { maxLength: 5 }), anyVal),
        demands: fc.oneof(fc.array(fc.array(anyNum, { maxLength: 5 }), { maxLength: 8 }), fc.array(anyVal, { maxLength: 8 }), anyVal),
        weights: fc.option(fc.oneof(fc.array(anyNum, { maxLength: 8 }), anyVal), { nil: undefined }),
        offsets: fc.option(fc.oneof(fc.array(anyNum, { maxLength: 8 }), anyVal), { nil: undefined }),
      });
      fc.assert(fc.property(garbage, (g) => {
        try {
          const r = engine.drf(g as never);
          for (const l of r.fraction) expect(l >= 0 && l <= 1).toBe(true);
        } catch (e) {
          expect(e).toBeInstanceOf(InputError);
        }
        expect(Array.from(engine.drf(good).allocation)).toEqual(goodAlloc);
      }), { numRuns: 1000 });
    });
  });
}

describe("loading", () => {
  it("loadEngine and loadEngineSync pick the backend", async () => {
    expect((await loadEngine()).backend).toBe("wasm");
    expect((await loadEngine({ backend: "js" })).backend).toBe("js");
    expect(loadEngineSync().backend).toBe("wasm");
    expect(() => loadEngineSync({ backend: "gpu" as never })).toThrow(/options.backend: must be 'wasm' or 'js'/);
  });
  it("loads from bytes with no file system", async () => {
    const { readFileSync } = await import("node:fs");
    const bytes = readFileSync(new URL("../../../build/fairsched.wasm", import.meta.url));
    const e = await loadEngine({ wasm: bytes });
    expect(Array.from(e.drf(good).allocation)).toEqual(goodAlloc);
    const e2 = loadEngineSync({ wasm: new WebAssembly.Module(bytes) });
    expect(Array.from(e2.drf(good).allocation)).toEqual(goodAlloc);
  });
  it("memory growth re-derives views (small, then huge, then small)", () => {
    const e = loadEngineSync();
    expect(Array.from(e.drf(good).allocation)).toEqual(goodAlloc);
    const n = 200_000;
    const big = e.drf({ capacity: [1, 1], demands: new Float64Array(n * 2).fill(1) });
    expect(big.fraction[n - 1]).toBeCloseTo(1 / n, 12);
    expect(Array.from(e.drf(good).allocation)).toEqual(goodAlloc);
  });
});
