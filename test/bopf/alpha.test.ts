// Normal and empirical quantiles and the alpha-strategy (docs/policies/bopf.md#the-alpha-strategy-uncertain-demand).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { InputError } from "../../src/index.js";
import { alphaRequest } from "../../src/bopf/alpha.js";
import { empiricalQuantile, normalQuantile } from "../../src/bopf/quantile.js";

/** Normal CDF for x >= 0 from the all-positive series erf(x) = 2/sqrt(pi) e^{-x^2} sum 2^n x^{2n+1} / (2n+1)!!. */
function phi(x: number): number {
  const ax = Math.abs(x);
  const t = ax / Math.SQRT2;
  let term = t, sum = t;
  for (let n = 1; n < 400; n++) {
    term *= (2 * t * t) / (2 * n + 1);
    sum += term;
    if (term < 1e-17 * sum) break;
  }
  const erf = (2 / Math.sqrt(Math.PI)) * Math.exp(-t * t) * sum;
  return x >= 0 ? 0.5 + 0.5 * erf : 0.5 - 0.5 * erf;
}

describe("normal quantile (Acklam)", () => {
  it("known values", () => {
    const known: Array<[number, number]> = [
      [0.5, 0], [0.95, 1.6448536269514722], [0.975, 1.959963984540054], [0.99, 2.3263478740408408],
      [0.999, 3.090232306167813], [0.01, -2.3263478740408408], [1e-10, -6.361340902404056], [0.8413447460685429, 1],
    ];
    for (const [p, z] of known) expect(Math.abs(normalQuantile(p) - z)).toBeLessThanOrEqual(1.2e-9 * Math.max(1, Math.abs(z)));
  });
  it("edges: 0 and 1 are infinite; outside [0, 1] is an InputError", () => {
    expect(normalQuantile(0)).toBe(-Infinity);
    expect(normalQuantile(1)).toBe(Infinity);
    expect(() => normalQuantile(1.5)).toThrow(InputError);
    expect(() => normalQuantile(NaN)).toThrow(InputError);
  });
  it("odd symmetry, monotone, and inverts the CDF", () => {
    fc.assert(fc.property(fc.double({ min: 1e-6, max: 1 - 1e-6, noNaN: true }), fc.double({ min: 1e-6, max: 1 - 1e-6, noNaN: true }), (p, q) => {
      expect(normalQuantile(1 - p)).toBeCloseTo(-normalQuantile(p), 7);
      if (p < q) expect(normalQuantile(p)).toBeLessThanOrEqual(normalQuantile(q));
      if (p > 1e-3 && p < 1 - 1e-3) expect(Math.abs(phi(normalQuantile(p)) - p)).toBeLessThan(1e-9);
    }));
  });
});

describe("empirical quantile", () => {
  it("is inf{x : F_n(x) >= p}", () => {
    expect(empiricalQuantile([3, 1, 2, 4], 0.5)).toBe(2);
    expect(empiricalQuantile([3, 1, 2, 4], 0.95)).toBe(4);
    expect(empiricalQuantile([3, 1, 2, 4], 0)).toBe(1);
    fc.assert(fc.property(fc.array(fc.integer({ min: -50, max: 50 }), { minLength: 1, maxLength: 40 }), fc.double({ min: 0, max: 1, noNaN: true }), (xs, p) => {
      const q = empiricalQuantile(xs, p);
      expect(xs.filter((x) => x <= q).length / xs.length).toBeGreaterThanOrEqual(p - 1e-12);
      expect(xs.filter((x) => x < q).length / xs.length).toBeLessThan(p + 1e-12 || 1e-12);
    }));
  });
  it("bad samples are an InputError naming the index", () => {
    expect(() => empiricalQuantile([], 0.5)).toThrow(InputError);
    try {
      empiricalQuantile([1, NaN], 0.5);
    } catch (e) {
      expect((e as InputError).field).toBe("samples[1]");
    }
  });
});

describe("alpha-strategy", () => {
  const n = { kind: "normal" as const, mean: 100, std: 40 };
  it("the worked example: correlated 165.8, independent 184.8 with K = 3, alpha = 0.95", () => {
    expect(alphaRequest([n, n, n], 0.95, "correlated")[0]).toBeCloseTo(165.794, 2);
    expect(alphaRequest([n, n, n], 0.95, "independent")[0]).toBeCloseTo(184.848, 2);
  });
  it("covers the whole vector with probability alpha (Monte Carlo, independent and correlated)", () => {
    let s = 11;
    const u = () => ((s = (s * 1664525 + 1013904223) >>> 0) + 0.5) / 2 ** 32;
    const z = () => normalQuantile(u());
    const N = 40000;
    const ind = alphaRequest([n, n, n], 0.9, "independent");
    const cor = alphaRequest([n, n, n], 0.9, "correlated");
    let hitI = 0, hitC = 0;
    for (let i = 0; i < N; i++) {
      if ([z(), z(), z()].every((x, k) => 100 + 40 * x <= ind[k])) hitI++;
      const c = z();
      if ([0, 1, 2].every((k) => 100 + 40 * c <= cor[k])) hitC++;
    }
    expect(Math.abs(hitI / N - 0.9)).toBeLessThan(0.01);
    expect(Math.abs(hitC / N - 0.9)).toBeLessThan(0.01);
  });
  it("empirical samples and edge values", () => {
    const samples = Array.from({ length: 100 }, (_, i) => i + 1);
    expect(alphaRequest([{ kind: "empirical", samples }], 0.95, "correlated")).toEqual([95]);
    expect(alphaRequest([{ kind: "normal", mean: 5, std: 0 }], 0.99)).toEqual([5]);
    expect(alphaRequest([{ kind: "normal", mean: 1, std: 10 }], 0.01)).toEqual([0]); // clamped at 0
    expect(() => alphaRequest([n], 1)).toThrow(InputError);
    try {
      alphaRequest([n, { kind: "normal", mean: 1, std: -1 }], 0.9);
    } catch (e) {
      expect((e as InputError).field).toBe("distributions[1].std");
    }
  });
});
