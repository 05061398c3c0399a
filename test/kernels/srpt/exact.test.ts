// The SRPT kernels (assembly/srpt.ts, src/kernels/srpt/twin.ts) skip queues blocked by an
// exhausted resource, split lambda's min into a precomputed rate cap and the left terms and
// work in lane pairs. All of that must give exactly what the plain formula gives: this file
// compares both backends bit for bit (signed zeros included) with the plain one-loop
// version, on inputs made to hit the shortcuts — exhausted resources, -0 in every field,
// tied keys, odd K, K past the 30 resources a mask tracks, N past a gather block (256).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { backends } from "../../helpers/engines.js";

interface Flat {
  capacity: number[]; available: number[];
  demands: Float64Array; rates: Float64Array; remaining: Float64Array;
}

/** The plain kernel: keys, a stable sort by (key, index), one greedy loop over all K. */
function plain(n: number, k: number, x: Flat): { lam: Float64Array; alloc: Float64Array } {
  const key = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    let m = 0;
    for (let r = 0; r < k; r++) m = Math.max(m, x.remaining[i * k + r] / x.capacity[r]);
    key[i] = m;
  }
  const order = Array.from({ length: n }, (_, i) => i).sort((a, b) => {
    // total order on the keys' bits (keys are >= +0, so no -0 among them) then by index
    const d = key[a] - key[b];
    return d !== 0 ? d : a - b;
  });
  const left = Float64Array.from(x.available);
  const lam = new Float64Array(n), alloc = new Float64Array(n * k);
  for (const i of order) {
    let l = 1;
    let any = false;
    for (let r = 0; r < k; r++) {
      const w = x.demands[i * k + r];
      if (!(w > 0)) continue;
      any = true;
      l = Math.min(l, Math.min(x.rates[i * k + r] / w, left[r] / w));
    }
    if (!any) l = 0;
    lam[i] = l;
    for (let r = 0; r < k; r++) {
      const a = l * x.demands[i * k + r];
      alloc[i * k + r] = a;
      left[r] = Math.max(0, left[r] - a);
    }
  }
  return { lam, alloc };
}

/** Bit patterns, so +0 and -0 differ. */
const bits = (a: Float64Array) => Array.from(new BigUint64Array(a.buffer, a.byteOffset, a.length));

// few distinct values so keys tie and resources run out; -0 everywhere zero is allowed
const entry = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(0, -0, 1, 2, 3, 0.5) },
  { weight: 2, arbitrary: fc.double({ min: 0, max: 10, noNaN: true, noDefaultInfinity: true }) },
);
const instance = (shape: fc.Arbitrary<{ k: number; n: number }>) => shape.chain(({ k, n }) => fc.record({
  k: fc.constant(k),
  n: fc.constant(n),
  capacity: fc.array(fc.constantFrom(1, 2, 5, 10, 7.5), { minLength: k, maxLength: k }),
  // small enough that a few queues use a resource up
  available: fc.array(fc.oneof(fc.constantFrom(0, -0, -0, 1, 4), fc.double({ min: 0, max: 50, noNaN: true, noDefaultInfinity: true })), { minLength: k, maxLength: k }),
  demands: fc.array(entry, { minLength: n * k, maxLength: n * k }),
  rates: fc.array(entry, { minLength: n * k, maxLength: n * k }),
  remaining: fc.array(entry, { minLength: n * k, maxLength: n * k }),
}));

// small N (every path at each queue), N past a block (256) and the radix sort's insertion
// sort, K past the 30 resources a mask tracks
const shapes: ReadonlyArray<readonly [string, fc.Arbitrary<{ k: number; n: number }>, number]> = [
  ["small", fc.record({ k: fc.integer({ min: 1, max: 7 }), n: fc.integer({ min: 0, max: 40 }) }), 300],
  ["N > 256", fc.record({ k: fc.integer({ min: 1, max: 7 }), n: fc.integer({ min: 250, max: 600 }) }), 25],
  ["K > 30", fc.record({ k: fc.integer({ min: 29, max: 34 }), n: fc.integer({ min: 0, max: 60 }) }), 40],
];

describe("SRPT kernels equal the plain formula bit for bit", () => {
  for (const [name, make] of backends) for (const [what, shape, numRuns] of shapes) {
    it(`${name}, ${what}: random instances with exhaustion, signed zeros, ties, odd K`, () => {
      const e = make();
      fc.assert(fc.property(instance(shape), (g) => {
        const x: Flat = {
          capacity: g.capacity, available: g.available,
          demands: Float64Array.from(g.demands), rates: Float64Array.from(g.rates), remaining: Float64Array.from(g.remaining),
        };
        const want = plain(g.n, g.k, x);
        const got = e.srpt(x);
        expect(bits(got.fraction)).toEqual(bits(want.lam));
        expect(bits(got.allocation)).toEqual(bits(want.alloc));
      }), { numRuns });
    });
  }

  it("a -0 in available, want, rate: the signed zeros come out as the formula says", () => {
    // queue 0 (key 0.1) wants the -0 resource: lambda min(1, -0/1) = -0; after it left is +0.
    // queue 1 has a -0 rate on a wanted resource: lambda -0 although resource 1 is exhausted.
    // queue 2 has a -0 want next to an exhausted resource: its row is <+0, -0>.
    const x: Flat = {
      capacity: [1, 1], available: [-0, 0],
      demands: Float64Array.from([1, 0, 1, 1, 1, -0]),
      rates: Float64Array.from([1, 1, 1, -0, 1, 1]),
      remaining: Float64Array.from([0.1, 0, 0.2, 0, 0.3, 0]),
    };
    const want = plain(3, 2, x);
    expect(Object.is(want.lam[0], -0) && Object.is(want.lam[1], -0) && Object.is(want.alloc[5], -0)).toBe(true);
    for (const [, make] of backends) {
      const got = make().srpt(x);
      expect(bits(got.fraction)).toEqual(bits(want.lam));
      expect(bits(got.allocation)).toEqual(bits(want.alloc));
    }
  });

  it("keys that overflow to +inf (remaining near f64.MAX over a small capacity) sort last, by index", () => {
    const n = 300, k = 3;
    let seed = 11;
    const rnd = () => ((seed = (seed * 1664525 + 1013904223) >>> 0) / 2 ** 32);
    const x: Flat = {
      capacity: [0.5, 2, 1], available: [40, 60, 30],
      demands: Float64Array.from({ length: n * k }, () => (rnd() < 0.2 ? 0 : rnd())),
      rates: Float64Array.from({ length: n * k }, () => rnd()),
      remaining: Float64Array.from({ length: n * k }, () => (rnd() < 0.3 ? 1e308 : rnd() * 10)),
    };
    const want = plain(n, k, x);
    for (const [, make] of backends) {
      const got = make().srpt(x);
      expect(bits(got.fraction)).toEqual(bits(want.lam));
      expect(bits(got.allocation)).toEqual(bits(want.alloc));
    }
  });

  it("buckets whose kept queues outnumber the insertion sort (byte radix on key pairs), resources running out inside one", () => {
    // 3,000 queues whose keys cluster at 12 values on a wide range, each cluster differing only
    // in the low 32 bits (one high word, so one bucket): hundreds kept at once (ample
    // availability until the resources run out, within a cluster), so each bucket's sort is
    // the radix, and it has to reorder them
    const n = 3000, k = 3;
    let seed = 5;
    const rnd = () => ((seed = (seed * 1664525 + 1013904223) >>> 0) / 2 ** 32);
    const x: Flat = {
      capacity: [10, 10, 10], available: [150, 200, 120],
      demands: Float64Array.from({ length: n * k }, () => (rnd() < 0.1 ? 0 : 0.05 + rnd())),
      rates: Float64Array.from({ length: n * k }, () => rnd()),
      remaining: Float64Array.from({ length: n * k }, (_, j) => (j % k === 0 ? 2 ** (Math.floor(rnd() * 12) - 6) * (1 + Math.floor(rnd() * 2 ** 20) * 2 ** -52) : 0)),
    };
    const want = plain(n, k, x);
    for (const [, make] of backends) {
      const got = make().srpt(x);
      expect(bits(got.fraction)).toEqual(bits(want.lam));
      expect(bits(got.allocation)).toEqual(bits(want.alloc));
    }
  });

  it("a -0 in available that the first queue does not want becomes +0 for the next", () => {
    // queue 0 fits without touching resource 1 (left stays max(0, -0 - 0) = +0); queue 1
    // wants resource 1, so its lambda is min(1, ..., +0 / 1) = +0, not -0
    const x: Flat = {
      capacity: [1, 1], available: [1, -0],
      demands: Float64Array.from([0.5, 0, 0.1, 1]),
      rates: Float64Array.from([1, 1, 1, 1]),
      remaining: Float64Array.from([0.1, 0.1, 0.2, 0.2]),
    };
    const want = plain(2, 2, x);
    expect(Object.is(want.lam[1], 0)).toBe(true);
    for (const [, make] of backends) {
      const got = make().srpt(x);
      expect(bits(got.fraction)).toEqual(bits(want.lam));
      expect(bits(got.allocation)).toEqual(bits(want.alloc));
    }
  });
});
