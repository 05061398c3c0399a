// Shared by the DRF extreme-magnitude tests (drf.offsets-extreme, drf.levels-extreme): both
// backends run bit for bit, the docs/policies/drf.md#properties axioms in shares, a generator of extreme but valid
// instances, and an exact reference (progressive filling in BigInt rationals, exactDrf).
import fc from "fast-check";
import { expect } from "vitest";
import { loadEngineSync } from "../../src/index.js";
import { drfArgs } from "../../src/kernels/drf/contract.js";

const wasm = loadEngineSync({ backend: "wasm" }).kernels;
const js = loadEngineSync({ backend: "js" }).kernels;

export interface X { n: number; k: number; capacity: number[]; demands: number[]; weights: number[]; offsets: number[] }
export interface Out { code: number; index: number; lambda: Float64Array; allocation: Float64Array }

export function run(kernels: typeof wasm, x: X, useOffsets = true): Out {
  const block = kernels.stage("drf", x.n, x.k);
  const s = block.views();
  s.capacity.set(x.capacity); s.demands.set(x.demands); s.weights.set(x.weights); s.offsets.set(x.offsets);
  const code = block.run(drfArgs(true, useOffsets));
  return { code, index: code === 0 ? -1 : block.errorIndex(), lambda: Float64Array.from(s.lambda), allocation: Float64Array.from(s.allocation) };
}

export const bits = (a: Float64Array) => Array.from(new BigUint64Array(a.buffer, a.byteOffset, a.length), (b) => b.toString(16));

/** Both backends, bit for bit; returns the WASM result. */
export function both(x: X, useOffsets = true): Out {
  const a = run(wasm, x, useOffsets);
  const b = run(js, x, useOffsets);
  expect({ code: a.code, index: a.index }).toEqual({ code: b.code, index: b.index });
  if (a.code === 0) {
    expect(bits(a.lambda)).toEqual(bits(b.lambda));
    expect(bits(a.allocation)).toEqual(bits(b.allocation));
  }
  return a;
}

export const TOL = 1e-9;
export const share = (x: X, i: number, r: number) => x.demands[i * x.k + r] / x.capacity[r];

/** A positive demand whose share underflows to 0 is treated as no demand by both paths (see the report); kept out. */
export const shareUnderflows = (x: X) => x.demands.some((d, j) => d > 0 && d / x.capacity[j % x.k] === 0);

/** docs/policies/drf.md#properties with offsets, in shares of each resource (allocations in subnormal units round). */
export function checkAxioms(x: X, o: Out): void {
  const { n, k } = x;
  const used = new Array<number>(k).fill(0);
  for (let i = 0; i < n; i++) {
    const l = o.lambda[i];
    expect(l >= 0 && l <= 1, `lambda[${i}] = ${l}`).toBe(true);
    for (let r = 0; r < k; r++) used[r] += l * share(x, i, r);
    // allocation = lambda * D (the demand cap)
    for (let r = 0; r < k; r++) expect(o.allocation[i * k + r]).toBe(l * x.demands[i * k + r]);
  }
  for (let r = 0; r < k; r++) expect(used[r], `resource ${r} over capacity`).toBeLessThanOrEqual(1 + TOL);
  // Pareto: every unsatisfied queue with demand uses a saturated resource
  for (let i = 0; i < n; i++) {
    if (o.lambda[i] >= 1 - TOL) continue;
    let any = false, blocked = false;
    for (let r = 0; r < k; r++) if (x.demands[i * k + r] > 0) { any = true; if (used[r] >= 1 - TOL) blocked = true; }
    if (any) expect(blocked, `queue ${i} (lambda ${o.lambda[i]}) is not blocked`).toBe(true);
  }
  // offsets respected: of two queues with the same row and weight, the one starting later gets no more
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      if (i === j || x.weights[i] !== x.weights[j] || x.offsets[i] > x.offsets[j]) continue;
      let same = true;
      for (let r = 0; r < k; r++) if (x.demands[i * k + r] !== x.demands[j * k + r]) same = false;
      if (same) expect(o.lambda[i], `queue ${i} starts no later than ${j}`).toBeGreaterThanOrEqual(o.lambda[j] - TOL);
    }
  }
}

// Magnitudes: capacities from subnormal to 1e300; each demand is a share of its capacity
// (0, moderate, 1e-280..1e-200, 1e200..1e280 or anything between) so that rows of shares 1e250
// sit next to rows of 1e-250 while D / C stays a finite nonzero f64 (beyond that delta itself
// is not an f64 and pass 1 refuses the row, tested in drf.validation).
export const mod = fc.double({ min: 1e-3, max: 1e3, noNaN: true });
export const capacity = fc.oneof(
  { weight: 3, arbitrary: mod },
  { weight: 1, arbitrary: fc.double({ min: 1e-300, max: 1e-250, noNaN: true }) },
  { weight: 1, arbitrary: fc.double({ min: 1e250, max: 1e300, noNaN: true }) },
  { weight: 1, arbitrary: fc.double({ min: 1e-300, max: 1e300, noNaN: true }) },
  { weight: 1, arbitrary: fc.constantFrom(5e-324, 1e-310) },
);
export const shareArb = fc.oneof(
  { weight: 2, arbitrary: fc.constant(0) },
  { weight: 4, arbitrary: mod },
  { weight: 2, arbitrary: fc.double({ min: 1e-280, max: 1e-200, noNaN: true }) },
  { weight: 2, arbitrary: fc.double({ min: 1e200, max: 1e280, noNaN: true }) },
  { weight: 2, arbitrary: fc.double({ min: 1e-280, max: 1e280, noNaN: true }) },
);
export const weight = fc.oneof({ weight: 6, arbitrary: fc.double({ min: 0.05, max: 20, noNaN: true }) }, { weight: 1, arbitrary: fc.double({ min: 1e-20, max: 1e20, noNaN: true }) });
export const offset = fc.oneof(
  { weight: 3, arbitrary: fc.constant(0) },
  { weight: 4, arbitrary: fc.double({ min: 0, max: 10, noNaN: true }) },
  { weight: 1, arbitrary: fc.double({ min: 0, max: 1e-200, noNaN: true }) },
);

/** Rarely huge offsets on larger instances: one late start whose ramp is narrower than ulp(offset) refuses the whole call. */
export const offsetFew = fc.oneof({ weight: 30, arbitrary: offset }, { weight: 1, arbitrary: fc.double({ min: 0, max: 1e200, noNaN: true }) });

export const instance = (maxN: number, maxK: number, zeroOffsets = false, off = offset, keepUnderflow = false) =>
  fc.record({ k: fc.integer({ min: 1, max: maxK }), n: fc.integer({ min: 1, max: maxN }) }).chain(({ k, n }) => fc.record({
    n: fc.constant(n), k: fc.constant(k),
    capacity: fc.array(capacity, { minLength: k, maxLength: k }),
    shares: fc.array(shareArb, { minLength: n * k, maxLength: n * k }),
    weights: fc.array(weight, { minLength: n, maxLength: n }),
    offsets: zeroOffsets ? fc.constant(new Array<number>(n).fill(0)) : fc.array(off, { minLength: n, maxLength: n }),
    twin: fc.boolean(),
  })).map(({ n, k, capacity, shares, weights, offsets, twin }): X => {
    const demands = shares.map((sh, j) => {
      const d = sh * capacity[j % k];
      return Number.isFinite(d) && (d > 0 || sh === 0) ? d : sh === 0 ? 0 : 1;
    });
    // a twin of queue 0 (same row and weight, its own offset) tests the order of starts
    if (twin && n > 1) {
      for (let r = 0; r < k; r++) demands[(n - 1) * k + r] = demands[r];
      weights[n - 1] = weights[0];
    }
    return { n, k, capacity, demands, weights, offsets };
  }).filter((x) => keepUnderflow || !shareUnderflows(x));

/**
 * Exact answers compared in shares: |lambda - exact| * share <= 1e-9 for every resource a queue
 * uses — or, on an ill-conditioned instance, backward stability. Near ties (README, "Known limit,
 * near ties"; assembly/drf.ts) are instances whose exact answer hinges on a term below one ulp:
 * moving one input (a capacity, a weight or a demand) by a few ulps moves the exact answer by more
 * than 1e-9, and f64 may answer for such a neighbouring input. An answer off the exact one
 * therefore passes only when the WHOLE answer (every queue, 1e-9 in shares) is the exact answer
 * for one input moved by -NEAR_ULPS or +NEAR_ULPS ulps; on a well-conditioned instance every
 * neighbour's answer is the exact one, so a wrong answer fails.
 */
export function checkExact(x: X, o: Out): void {
  const weight = Array.from({ length: x.n }, (_, i) => {
    let delta = 0;
    for (let r = 0; r < x.k; r++) delta = Math.max(delta, share(x, i, r));
    return Math.min(1, delta);
  });
  const matches = (want: number[]) => want.every((v, i) => Math.abs(o.lambda[i] - v) * weight[i] <= TOL);
  const want = exactDrf(x.n, x.k, x.capacity, x.demands, x.weights, x.offsets).map(toNumber);
  if (matches(want)) return;
  for (const other of neighbours(x)) if (matches(other)) return;
  for (let i = 0; i < x.n; i++) {
    expect(Math.abs(o.lambda[i] - want[i]) * weight[i], `queue ${i}: lambda ${o.lambda[i]}, exact ${want[i]} (and no input within ${NEAR_ULPS} ulps gives this answer)`).toBeLessThanOrEqual(TOL);
  }
}

/** How far (in ulps) one input may move for an answer to count as backward-stable. */
export const NEAR_ULPS = 4;

/** `d` ulp steps of a positive finite f64 (d < 0: down). */
function ulpStep(v: number, d: number): number {
  const b = new Float64Array([v]);
  const u = new BigInt64Array(b.buffer);
  u[0] += BigInt(d);
  return b[0];
}

/** Exact answers for the inputs moved one at a time by +-NEAR_ULPS ulps (every capacity, weight and positive demand), lazily. */
function* neighbours(x: X): Generator<number[]> {
  const moved = (a: number[], j: number, s: number): number[] | null => {
    const b = a.slice();
    b[j] = ulpStep(a[j], s);
    return b[j] > 0 && Number.isFinite(b[j]) ? b : null;
  };
  const solve = (c: number[], d: number[], w: number[]) => exactDrf(x.n, x.k, c, d, w, x.offsets).map(toNumber);
  for (const s of [-NEAR_ULPS, NEAR_ULPS]) {
    for (let r = 0; r < x.k; r++) { const c = moved(x.capacity, r, s); if (c) yield solve(c, x.demands, x.weights); }
    for (let i = 0; i < x.n; i++) { const w = moved(x.weights, i, s); if (w) yield solve(x.capacity, x.demands, w); }
    for (let j = 0; j < x.demands.length; j++) {
      if (!(x.demands[j] > 0)) continue;
      const d = moved(x.demands, j, s);
      if (d) yield solve(x.capacity, d, x.weights);
    }
  }
}

/** A rational n / d with d > 0, kept reduced. */
interface Q { n: bigint; d: bigint }

const gcd = (a: bigint, b: bigint): bigint => {
  if (a < 0n) a = -a;
  while (b) [a, b] = [b, a % b];
  return a;
};
const q = (n: bigint, d: bigint): Q => {
  if (d < 0n) { n = -n; d = -d; }
  const g = gcd(n, d) || 1n;
  return { n: n / g, d: d / g };
};
const ZERO: Q = { n: 0n, d: 1n };
const ONE: Q = { n: 1n, d: 1n };
const add = (a: Q, b: Q) => q(a.n * b.d + b.n * a.d, a.d * b.d);
const sub = (a: Q, b: Q) => q(a.n * b.d - b.n * a.d, a.d * b.d);
const mul = (a: Q, b: Q) => q(a.n * b.n, a.d * b.d);
const div = (a: Q, b: Q) => q(a.n * b.d, a.d * b.n);
const cmp = (a: Q, b: Q) => { const x = a.n * b.d - b.n * a.d; return x < 0n ? -1 : x > 0n ? 1 : 0; };
const minQ = (a: Q, b: Q) => (cmp(a, b) <= 0 ? a : b);

/** The exact value of a finite f64. */
export function exact(x: number): Q {
  if (!Number.isFinite(x)) throw new Error(`not finite: ${x}`);
  if (x === 0) return ZERO;
  const v = new DataView(new ArrayBuffer(8));
  v.setFloat64(0, x);
  const bits = v.getBigUint64(0);
  const neg = bits >> 63n === 1n;
  const e = Number((bits >> 52n) & 0x7ffn);
  let m = bits & ((1n << 52n) - 1n);
  let p: number;
  if (e === 0) p = -1074;
  else { m |= 1n << 52n; p = e - 1075; }
  const num = neg ? -m : m;
  return p >= 0 ? q(num << BigInt(p), 1n) : q(num, 1n << BigInt(-p));
}

/** Nearest-ish f64 of a rational in [0, 1] (enough for comparisons at 1e-12). */
export function toNumber(a: Q): number {
  if (a.n === 0n) return 0;
  const scale = 1n << 80n;
  return Number((a.n * scale) / a.d) / 2 ** 80;
}

/**
 * Exact lambdas. capacity[K], demands[N*K] (row-major), weights[N], offsets[N]; all finite,
 * capacities > 0, demands and offsets >= 0, weights > 0.
 */
export function exactDrf(n: number, k: number, capacity: ArrayLike<number>, demands: ArrayLike<number>,
  weights: ArrayLike<number>, offsets: ArrayLike<number>): Q[] {
  const C = Array.from(capacity, exact);
  const share: Q[][] = [];
  const lam: Q[] = [];
  const start: Q[] = [];
  const width: Q[] = [];
  const state: number[] = []; // 0 waiting, 1 ramping, 2 frozen
  for (let i = 0; i < n; i++) {
    const row: Q[] = [];
    let delta = ZERO;
    for (let r = 0; r < k; r++) {
      const s = div(exact(demands[i * k + r]), C[r]);
      row.push(s);
      if (cmp(s, delta) > 0) delta = s;
    }
    share.push(row);
    lam.push(ZERO);
    start.push(exact(offsets[i]));
    width.push(div(delta, exact(weights[i])));
    state.push(delta.n === 0n ? 2 : 0);
  }
  const sat = new Array<boolean>(k).fill(false);
  const lamAt = (i: number, t: Q): Q => {
    if (state[i] === 2) return lam[i];
    const x = div(sub(t, start[i]), width[i]);
    return x.n <= 0n ? ZERO : cmp(x, ONE) >= 0 ? ONE : x;
  };
  let theta: Q | null = null;
  for (let i = 0; i < n; i++) if (state[i] !== 2) theta = theta === null ? start[i] : minQ(theta, start[i]);
  if (theta === null) return lam;
  for (let guard = 0; guard < 4 * n + 4 * k + 8; guard++) {
    for (let i = 0; i < n; i++) if (state[i] === 0 && cmp(start[i], theta) <= 0) state[i] = 1;
    if (state.every((s) => s === 2)) return lam;
    // next event: a start, a cap, or a saturation
    let t: Q | null = null;
    const consider = (x: Q) => { t = t === null ? x : minQ(t, x); };
    for (let i = 0; i < n; i++) {
      if (state[i] === 0) consider(start[i]);
      if (state[i] === 1) consider(add(start[i], width[i]));
    }
    for (let r = 0; r < k; r++) {
      if (sat[r]) continue;
      let use = ZERO, slope = ZERO;
      for (let i = 0; i < n; i++) {
        if (share[i][r].n === 0n) continue;
        use = add(use, mul(lamAt(i, theta), share[i][r]));
        if (state[i] === 1) slope = add(slope, div(share[i][r], width[i]));
      }
      if (slope.n > 0n) consider(add(theta, div(sub(ONE, use), slope)));
    }
    const tt: Q = t as unknown as Q;
    theta = tt;
    for (let i = 0; i < n; i++) if (state[i] === 1 && cmp(add(start[i], width[i]), tt) <= 0) { lam[i] = ONE; state[i] = 2; }
    const newlySat: number[] = [];
    for (let r = 0; r < k; r++) {
      if (sat[r]) continue;
      let use = ZERO;
      for (let i = 0; i < n; i++) if (share[i][r].n !== 0n) use = add(use, mul(lamAt(i, tt), share[i][r]));
      if (cmp(use, ONE) >= 0) newlySat.push(r);
    }
    const frozenNow: Array<[number, Q]> = [];
    for (const r of newlySat) {
      sat[r] = true;
      for (let i = 0; i < n; i++) if (state[i] !== 2 && share[i][r].n !== 0n) frozenNow.push([i, lamAt(i, tt)]);
    }
    for (const [i, l] of frozenNow) { lam[i] = l; state[i] = 2; }
  }
  throw new Error("exactDrf: no progress");
}

/**
 * The extreme-magnitude property shape: run both backends (bit for bit, see `both`); a call
 * is answered (0) or refused with E_SHARE_OVERFLOW (5); every answer passes `check`; more
 * than `minAnswered` of the runs are answered.
 */
export function assertAnswered(arb: fc.Arbitrary<X>, useOffsets: boolean, numRuns: number, minAnswered: number, check: (x: X, o: Out) => void): void {
  let solved = 0, runs = 0;
  fc.assert(fc.property(arb, (x) => {
    runs++;
    const o = both(x, useOffsets);
    expect([0, 5]).toContain(o.code);
    if (o.code !== 0) return;
    solved++;
    check(x, o);
  }), { numRuns });
  expect(solved).toBeGreaterThan(runs * minAnswered);
}
