// The samplers (TimeIntegral, BucketAverages) and the one percentile function, on the examples
// of their headers.
import { describe, expect, it } from "vitest";
import { TimeIntegral } from "../../src/stats/time-integral.js";
import { BucketAverages } from "../../src/stats/bucket-averages.js";
import { percentileSorted } from "../../src/stats/summary.js";

describe("samplers and percentiles", () => {
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

  it("percentileSorted is nearest rank: p90 of 1..10 = 9, p50 of [1, 2] = 1, empty -> null", () => {
    expect(percentileSorted([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 90)).toBe(9);
    expect(percentileSorted([1, 2], 50)).toBe(1);
    expect(percentileSorted([], 50)).toBeNull();
  });
});

