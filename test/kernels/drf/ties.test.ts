// DRF with many resources saturating at the same level (issue 21, finding 5): N = 1 with
// demand equal to capacity saturates all K resources at once. Each saturated resource used
// to re-sum every slope (O(K + live * K) each), so one tie of K resources cost O(K^2):
// K = 40,000 took ~1.3 s, K = 300,000 did not finish in 120 s. The event path's work
// counter (DrfScratch.work: elements visited by compactions and slope re-sums) proves it
// is now linear in N * K; the sizes finish on both backends with equal answers.
import { describe, expect, it } from "vitest";
import { loadEngineSync } from "../../../src/index.js";
import { DrfScratch } from "../../../src/kernels/drf/scratch.js";
import { drfKernel } from "../../../src/kernels/drf/twin.js";

function tied(n: number, k: number): { cap: Float64Array; dem: Float64Array } {
  const cap = new Float64Array(k);
  for (let r = 0; r < k; r++) cap[r] = 1 + (r % 7);
  const dem = new Float64Array(n * k);
  for (let i = 0; i < n; i++) for (let r = 0; r < k; r++) dem[i * k + r] = cap[r];
  return { cap, dem };
}

function work(n: number, k: number): number {
  const { cap, dem } = tied(n, k);
  const s = new DrfScratch();
  const lam = new Float64Array(n), alloc = new Float64Array(n * k), ds = new Float64Array(n);
  expect(drfKernel(n, k, cap, dem, null, null, lam, alloc, ds, s)).toBe(0);
  for (let i = 0; i < n; i++) expect(lam[i]).toBeCloseTo(1 / n, 12);
  return s.work;
}

describe("DRF with tied saturations", () => {
  it("work is linear in N * K when every resource saturates at one level", () => {
    for (const [n, k] of [[1, 1000], [1, 4000], [3, 2000], [20, 500]] as const) {
      const w = work(n, k);
      expect(w).toBeGreaterThan(0);
      expect(w).toBeLessThanOrEqual(4 * n * k + 4 * k);
    }
    // doubling K doubles the work (K^2 would quadruple it)
    expect(work(1, 8000)).toBeLessThanOrEqual(2 * work(1, 4000) + 8);
  });

  it.each([40_000, 300_000])("N = 1, demand = capacity, K = %s finishes on both backends with the same answer", (k) => {
    const { cap, dem } = tied(1, k);
    const input = { capacity: cap, demands: dem };
    const a = loadEngineSync({ backend: "wasm" }).drf(input);
    const b = loadEngineSync({ backend: "js" }).drf(input);
    expect(a.fraction[0]).toBe(1);
    expect(Array.from(a.fraction)).toEqual(Array.from(b.fraction));
    expect(a.dominantShare[0]).toBe(b.dominantShare[0]);
    expect(Buffer.from(a.allocation.buffer, a.allocation.byteOffset, a.allocation.byteLength).equals(Buffer.from(b.allocation.buffer, b.allocation.byteOffset, b.allocation.byteLength))).toBe(true);
  }, 120_000);
});
