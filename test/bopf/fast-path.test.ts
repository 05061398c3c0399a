// The uncontended fast paths of the BoPF allocation round against the DRF kernel, bit for
// bit: drfOver's (lambda = 1 when the demands clearly fit) and allocateInstantFlat's fused
// steps 3-4, on random instances whose demand sums sit just below, at and just above what
// is available, on both backends.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { drfOver } from "../../src/bopf/drf-over.js";
import { allocateInstantFlat, InstantWorkspace, type InstantBatch } from "../../src/bopf/allocate.js";
import { backends } from "../helpers/engines.js";

const K = 3;
const cell = fc.oneof(fc.double({ min: 0, max: 50, noNaN: true }), fc.constant(0), fc.integer({ min: 0, max: 50 }));
// scale: avail = scale * sum of the wants (per resource), so 1 - 1e-15 .. 1 + 1e-15 is at the boundary
const scaleArb = fc.constantFrom(0.5, 0.999999, 1 - 2 ** -40, 1 - 1e-15, 1, 1 + 1e-15, 1 + 2 ** -40, 1.000001, 2, 1e6);

function bits(a: Float64Array): string {
  return Array.from(a, (x) => (Object.is(x, -0) ? "-0" : String(x))).join(",");
}

describe.each(backends)("BoPF fast paths (%s)", (_name, make) => {
  const engine = make();

  it("drfOver: the fast path gives exactly what the kernel gives", () => {
    fc.assert(fc.property(
      fc.array(fc.array(cell, { minLength: K, maxLength: K }), { minLength: 1, maxLength: 40 }),
      fc.array(scaleArb, { minLength: K, maxLength: K }), fc.option(fc.double({ min: 0.25, max: 4, noNaN: true }), { nil: null }),
      (rows, scale, w) => {
        const n = rows.length;
        const wants = Float64Array.from(rows.flat());
        const sums = [0, 0, 0];
        for (const row of rows) row.forEach((x, r) => (sums[r] += x));
        const capacity = sums.map((s) => Math.max(s, 1) * 4);
        const avail = Float64Array.from(sums, (s, r) => (s > 0 ? s * scale[r] : capacity[r] / 2));
        const weights = w === null ? null : Float64Array.from(rows, (_, i) => w * (1 + (i % 3)));
        const fast = new Float64Array(n * K).fill(NaN), slow = new Float64Array(n * K).fill(NaN);
        drfOver(engine, capacity, avail.slice(), wants, weights, fast, n, true);
        drfOver(engine, capacity, avail.slice(), wants, weights, slow, n, false);
        expect(bits(fast)).toBe(bits(slow));
      },
    ), { numRuns: 400 });
  });

  it("allocateInstantFlat: the fused uncontended steps give exactly what the general path gives", () => {
    // the general path is forced by a weight outside the fast range on a zero-demand queue,
    // which changes no share (a queue without demand gets nothing whatever its weight)
    const rowArb = fc.record({
      cls: fc.integer({ min: 0, max: 3 }), want: fc.array(cell, { minLength: K, maxLength: K }), g: fc.boolean(),
      rate: fc.array(cell, { minLength: K, maxLength: K }), rem: fc.array(cell, { minLength: K, maxLength: K }),
    });
    fc.assert(fc.property(fc.array(rowArb, { minLength: 1, maxLength: 30 }), fc.array(scaleArb, { minLength: K, maxLength: K }), (rows, scale) => {
      const sums = [0, 0, 0];
      for (const q of rows) if (q.cls !== 3) q.want.forEach((x, r) => (sums[r] += x));
      const capacity = sums.map((s, r) => Math.max(s * scale[r], 1e-3));
      const make1 = (extraWeight: number | null): InstantBatch => {
        const all = extraWeight === null ? rows : [...rows, { cls: 2, want: [0, 0, 0], g: false, rate: [0, 0, 0], rem: [0, 0, 0] }];
        const n = all.length;
        return {
          n, cls: Uint8Array.from(all, (q) => q.cls), want: Float64Array.from(all.flatMap((q) => q.want)),
          weight: extraWeight === null ? null : Float64Array.from(all, (_, i) => (i === n - 1 ? extraWeight : 1)),
          hasGuarantee: Uint8Array.from(all, (q) => +q.g), rate: Float64Array.from(all.flatMap((q) => q.rate)),
          remaining: Float64Array.from(all.flatMap((q) => q.rem)),
        };
      };
      const a = allocateInstantFlat(engine, capacity, make1(1), new InstantWorkspace());
      const b = allocateInstantFlat(engine, capacity, make1(2 ** 1000), new InstantWorkspace());
      const cut = rows.length * K;
      expect(bits(a.allocation.subarray(0, cut))).toBe(bits(b.allocation.subarray(0, cut)));
      for (const s of ["hard", "soft", "elastic", "spare"] as const) expect(bits(a.steps[s].subarray(0, cut))).toBe(bits(b.steps[s].subarray(0, cut)));
    }), { numRuns: 400 });
  });
});
