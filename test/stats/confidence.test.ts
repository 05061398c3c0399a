// meanCi95, signTest and tQuantile975 (src/stats/confidence.ts): the worked examples of its header,
// invariants by property, and bad input as an InputError naming the field.
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { meanCi95, signTest, tQuantile975 } from "../../src/stats/confidence.js";
import { InputError } from "../../src/errors.js";

describe("meanCi95", () => {
  it("1, 2, 3: mean 2, half-width t(2) * 1 / sqrt(3) = 2.484", () => {
    const c = meanCi95([1, 2, 3]);
    expect(c.mean).toBe(2);
    expect(c.half).toBeCloseTo(4.303 / Math.sqrt(3), 9);
    expect(c.lo).toBeCloseTo(2 - 2.4843, 3);
  });
  it("one value has no interval", () => {
    expect(meanCi95([5])).toEqual({ n: 1, mean: 5, half: null, lo: null, hi: null });
  });
  it("the interval contains the mean and is 0 wide for equal values", () => {
    fc.assert(fc.property(fc.array(fc.double({ min: -1e6, max: 1e6, noNaN: true }), { minLength: 2, maxLength: 40 }), (xs) => {
      const c = meanCi95(xs);
      expect(c.lo as number).toBeLessThanOrEqual(c.mean);
      expect(c.hi as number).toBeGreaterThanOrEqual(c.mean);
    }));
    expect(meanCi95([0.3, 0.3, 0.3]).half).toBe(0);
  });
  it("bad input is an InputError naming the field", () => {
    expect(() => meanCi95([])).toThrow(InputError);
    expect(() => meanCi95([1, Number.NaN])).toThrow(/xs\[1\]/);
  });
});

describe("signTest", () => {
  it("10 of 10 positive: p = 2 / 2^10; ties are dropped", () => {
    const s = signTest([...Array(10).fill(0.1), 0, 0]);
    expect(s).toMatchObject({ positive: 10, negative: 0, ties: 2 });
    expect(s.p).toBeCloseTo(2 / 1024, 12);
  });
  it("9 of 10: p = 2 * 11 / 1024; 8 of 10: p = 2 * 56 / 1024 (not below 0.05)", () => {
    expect(signTest([...Array(9).fill(1), -1]).p).toBeCloseTo(22 / 1024, 12);
    expect(signTest([...Array(8).fill(1), -1, -1]).p).toBeCloseTo(112 / 1024, 12);
  });
  it("p is symmetric in the sign and at most 1; all ties give 1", () => {
    fc.assert(fc.property(fc.array(fc.integer({ min: -3, max: 3 }), { minLength: 1, maxLength: 60 }), (xs) => {
      const a = signTest(xs), b = signTest(xs.map((x) => -x));
      expect(a.p).toBeCloseTo(b.p, 12);
      expect(a.p).toBeLessThanOrEqual(1);
    }));
    expect(signTest([0, 0]).p).toBe(1);
  });
});

describe("tQuantile975", () => {
  it("table values, large df near 1.96, bad df an InputError", () => {
    expect(tQuantile975(9)).toBe(2.262);
    expect(tQuantile975(1000)).toBeCloseTo(1.962, 3);
    expect(() => tQuantile975(0)).toThrow(InputError);
  });
});
