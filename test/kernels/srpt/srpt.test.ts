// SRPT kernel (assembly/srpt.ts) and its JS twin: worked example, an independent reference
// model (order by remaining dominant share, rate caps, Leontief fit), WASM == JS exactly,
// and input errors naming field and index.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { InputError } from "../../../src/index.js";
import { backends } from "../../helpers/engines.js";

const wasm = backends[0][1]();
const js = backends[1][1]();

/** Textbook SRPT-with-Leontief-caps, written independently of the kernels. */
function reference(cap: number[], avail: number[], want: number[][], rate: number[][], rem: number[][]): number[] {
  const key = rem.map((row) => Math.max(0, ...row.map((v, r) => v / cap[r])));
  const order = want.map((_, i) => i).sort((a, b) => key[a] - key[b] || a - b);
  const left = [...avail];
  const lam = new Array<number>(want.length).fill(0);
  for (const i of order) {
    let l = 1;
    let any = false;
    want[i].forEach((w, r) => {
      if (w > 0) {
        any = true;
        l = Math.min(l, rate[i][r] / w, left[r] / w);
      }
    });
    lam[i] = any ? l : 0;
    want[i].forEach((w, r) => (left[r] = Math.max(0, left[r] - lam[i] * w)));
  }
  return lam;
}

const num = (max: number) => fc.double({ min: 0, max, noNaN: true, noDefaultInfinity: true });
const instance = fc.integer({ min: 1, max: 6 }).chain((k) =>
  fc.integer({ min: 0, max: 60 }).chain((n) => {
    const row = fc.array(fc.oneof(num(20), fc.constant(0)), { minLength: k, maxLength: k });
    return fc.record({
      capacity: fc.array(fc.double({ min: 0.5, max: 100, noNaN: true }), { minLength: k, maxLength: k }),
      available: fc.array(num(100), { minLength: k, maxLength: k }),
      demands: fc.array(row, { minLength: n, maxLength: n }),
      rates: fc.array(row, { minLength: n, maxLength: n }),
      remaining: fc.array(row, { minLength: n, maxLength: n }),
    });
  }));

describe("SRPT kernel", () => {
  it("reproduces the worked example of assembly/srpt.ts on both backends", () => {
    for (const [, make] of backends) {
      const r = make().srpt({
        capacity: [10, 10], available: [6, 8],
        demands: [[4, 2], [3, 6], [10, 10]], rates: [[2, 1], [3, 6], [5, 5]], remaining: [[4, 2], [1, 3], [8, 8]],
      });
      expect(Array.from(r.fraction)).toEqual([0.5, 1, 0.1]);
      expect(Array.from(r.allocation)).toEqual([2, 1, 3, 6, 1, 1]);
    }
  });

  it("edge values: no LQs, zero demand, exhausted resource", () => {
    expect(wasm.srpt({ capacity: [1], available: [1], demands: [], rates: [], remaining: [] }).fraction.length).toBe(0);
    const r = js.srpt({ capacity: [1, 1], available: [0, 1], demands: [[0, 0], [1, 1], [0, 1]], rates: [[1, 1], [1, 1], [1, 1]], remaining: [[1, 1], [1, 1], [1, 1]] });
    expect(Array.from(r.fraction)).toEqual([0, 0, 1]);
  });

  it("matches the reference model: SRPT order, rate caps, Leontief fit, never over what is available", () => {
    fc.assert(fc.property(instance, (x) => {
      const r = js.srpt(x);
      const ref = reference(x.capacity, x.available, x.demands, x.rates, x.remaining);
      const k = x.capacity.length;
      ref.forEach((l, i) => expect(r.fraction[i]).toBeCloseTo(l, 9));
      for (let c = 0; c < k; c++) {
        let used = 0;
        x.demands.forEach((d, i) => {
          const a = r.allocation[i * k + c];
          expect(a).toBeCloseTo(r.fraction[i] * d[c], 12); // Leontief: proportional to demand
          expect(a).toBeLessThanOrEqual(x.rates[i][c] * (1 + 1e-12) + 1e-12); // capped at the burst rate
          used += a;
        });
        expect(used).toBeLessThanOrEqual(x.available[c] * (1 + 1e-9) + 1e-9);
      }
    }), { numRuns: 150 });
  });

  it("serves the smallest remaining volume first when they compete", () => {
    const r = js.srpt({ capacity: [10], available: [10], demands: [[10], [10]], rates: [[10], [10]], remaining: [[50], [20]] });
    expect(Array.from(r.fraction)).toEqual([0, 1]);
  });

  it("WASM equals the JS twin exactly", () => {
    fc.assert(fc.property(instance, (x) => {
      const a = wasm.srpt(x), b = js.srpt(x);
      expect(Array.from(a.fraction)).toEqual(Array.from(b.fraction));
      expect(Array.from(a.allocation)).toEqual(Array.from(b.allocation));
    }), { numRuns: 800 });
    // large N (radix sort path)
    let s = 3;
    const rnd = () => ((s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32);
    const n = 5000, k = 6;
    const cap = Array.from({ length: k }, () => 50 + rnd() * 50);
    const mk = () => new Float64Array(n * k).map(() => (rnd() < 0.1 ? 0 : rnd() * 3));
    const x = { capacity: cap, available: cap.map((c) => c * rnd()), demands: mk(), rates: mk(), remaining: mk() };
    expect(Array.from(wasm.srpt(x).allocation)).toEqual(Array.from(js.srpt(x).allocation));
  });

  it("bad input is an InputError naming the field and index", () => {
    for (const [, make] of backends) {
      const e = make();
      const ok = { capacity: [1, 1], available: [1, 1], demands: [[1, 1]], rates: [[1, 1]], remaining: [[1, 1]] };
      const bad = (patch: object, field: string) => {
        try {
          e.srpt({ ...ok, ...patch });
          throw new Error("no error");
        } catch (err) {
          expect(err).toBeInstanceOf(InputError);
          expect((err as InputError).field).toBe(field);
        }
      };
      bad({ capacity: [1, 0] }, "capacity[1]");
      bad({ available: [-1, 1] }, "available[0]");
      bad({ demands: [[1, NaN]] }, "demands[0][1]");
      bad({ rates: [[-2, 1]] }, "rates[0][0]");
      bad({ remaining: [[1, Infinity]] }, "remaining[0][1]");
      bad({ available: [1] }, "available");
      bad({ rates: [[1, 1], [1, 1]] }, "rates");
    }
  });
});
