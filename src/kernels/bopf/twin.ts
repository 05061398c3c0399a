// Pure-TS twin of assembly/bopf.ts (the BoPF admission of a batch of queues over columns,
// and the allocation round's uncontended allocation-only pass; the algorithm, worked
// examples and edge values are documented there). The same operations in the same order
// as the generic WASM loop (the K divisions volume / window, toleratedCount's divisions,
// the same sums), so the two backends agree bit for bit; the WASM rows specialised by K
// (assembly/bopf/fast.ts: pmin for min, the tolerance as a lane minimum, TQ runs in bulk)
// argue there, shortcut by shortcut, that they give these same bits, and the differential
// tests compare them with this twin. BopfAdmissionControl.admitBatch without an engine
// calls bopfAdmitKernel directly over its own arrays.
import { Status } from "../status.js";
import { ELASTIC, HARD, REJECTED, SOFT } from "../guarantee-class.js";

const R_SAFETY = 0, R_FAIRNESS = 1, R_RESOURCE = 2, R_ALL_HELD = 3;
const TWO50 = 2 ** 50, TWO_M48F = 2 ** -48, MIN_D = 2 ** -1020;
const EXHAUSTED = 1e-12, W_MIN = 2 ** -900, W_MAX = 2 ** 900, MAXF = Number.MAX_VALUE, TWO_M48 = 2 ** -48;

/** The kernels' scratch (K-sized sums, N live flags) and the error index. */
export class BopfScratch {
  errIndex = -1;
  live = new Uint8Array(0);
  need = new Float64Array(0);
  sums = new Float64Array(0);
  left = new Float64Array(0);
  thr = new Float64Array(0);
  sum3 = new Float64Array(0);
  sum4 = new Float64Array(0);
  /** the rate row of bopfAdmitKernel when no summary rows are written */
  rbuf = new Float64Array(0);
  /** the binding resource of the last tolerance() call */
  bind = -1;
  ensure(n: number, k: number): void {
    if (this.live.length < n) this.live = new Uint8Array(Math.max(n, this.live.length * 2));
    if (this.need.length < k) {
      this.need = new Float64Array(k); this.sums = new Float64Array(k); this.left = new Float64Array(k);
      this.thr = new Float64Array(k); this.sum3 = new Float64Array(k); this.sum4 = new Float64Array(k); this.rbuf = new Float64Array(k);
    }
  }
}

/**
 * The largest integer m >= 0 with `d <= fair / m` evaluated exactly as the safety check
 * writes it (so admission and the property tests agree to the last bit); +Infinity for d = 0.
 * fl(fair / x) never increases with x, so "x = 0 or d <= fl(fair / x)" holds for 0..m and
 * fails after: from the estimate floor(fair / d), the answer is found by doubling steps
 * away from it, then bisection. Usually the estimate is the answer or one off (two more
 * divisions). Example: d = 25, fair = 150: estimate 6, 25 <= 150 / 6, 25 > 150 / 7: 6.
 * Edge values: a subnormal d makes fl(fair / x) round by up to half of d itself, so the
 * answer can be far from the estimate (d = 7.521349e-317, fair = 4.706132417670895e-308:
 * estimate 625703231, answer 625703251; with d = 16 * 2^-1074 it can be millions away) —
 * why the search doubles its steps instead of walking by one, which could take 2^40 steps;
 * estimates of 2^50 or more are returned as they are (beyond any real queue count).
 */
export function toleratedCount(d: number, fair: number): number {
  if (!(d > 0)) return Infinity;
  const m = Math.floor(fair / d);
  if (!(m < TWO50)) return m;
  // lo holds the predicate, hi does not
  let lo: number, hi: number;
  if (m < 1 || d <= fair / m) {
    lo = m;
    hi = m + 1;
    for (let step = 2; d <= fair / hi; step *= 2) {
      lo = hi;
      hi = m + step;
    }
  } else {
    hi = m;
    lo = m - 1;
    for (let step = 2; lo >= 1 && !(d <= fair / lo); step *= 2) {
      hi = lo;
      lo = Math.max(0, m - step);
    }
  }
  while (hi - lo > 1) {
    const mid = lo + Math.floor((hi - lo) / 2);
    if (d <= fair / mid) lo = mid;
    else hi = mid;
  }
  return lo;
}

/** assembly/bopf/common.ts fastCount: toleratedCount's fix-ups cannot move m = floor(q) (proof there). */
function fastCount(q: number, m: number, d: number): boolean {
  return d >= MIN_D && q > m && (m + 1) - q >= (m + 1) * TWO_M48F;
}

/** assembly/bopf.ts tolerance, one resource at a time: the binding resource is left in s.bind. */
function tolerance(k: number, cap: Float64Array, volume: Float64Array, src: number, period: number, s: BopfScratch): number {
  let tol = Infinity, bind = -1;
  for (let r = 0; r < k; r++) {
    const v = volume[src + r];
    if (!(v > 0)) continue;
    const f = cap[r] * period;
    const q = f / v;
    const mf = Math.floor(q);
    const m = fastCount(q, mf, v) ? mf : toleratedCount(v, f);
    if (m < tol) {
      tol = m;
      bind = r;
    }
  }
  s.bind = bind;
  return tol;
}

function fin(x: number): boolean {
  return x - x === 0;
}

function badRow(
  i: number, k: number, kind: Uint8Array, start: Float64Array, period: Float64Array, window: Float64Array, count: Float64Array, volume: Float64Array, s: BopfScratch,
): number {
  s.errIndex = i;
  if (kind[i] !== 1) return Status.BopfKind;
  const st = start[i], p = period[i], w = window[i], c = count[i];
  if (!fin(st)) return Status.BopfStart;
  if (!(p > 0 && fin(p))) return Status.BopfPeriod;
  if (!(w > 0 && fin(w))) return Status.BopfWindow;
  if (!(c >= 0 && Math.floor(c) === c && fin(c))) return Status.BopfCount;
  for (let r = 0; r < k; r++) {
    const v = volume[i * k + r];
    if (!(v >= 0 && fin(v))) {
      s.errIndex = i * k + r;
      return Status.BopfVolume;
    }
  }
  return Status.OK;
}

/**
 * BoPF's admission conditions for one new queue (docs/policies/bopf.md, admission), with
 * `m1` = M + 1 (the queue count with it) and `minTol` the smallest tolerance among the
 * guaranteed (hard and soft) queues:
 *   (1) safety    minTol >= m1, else rejected;
 *   a TQ is then elastic;
 *   (2) fairness  the LQ's own tolerance t >= m1, else elastic;
 *   (3) resource  hard[r] + rate[row + r] <= bound[r] (C (1 + tolerance)) on every r: hard;
 *                 else soft (N-BoPF: elastic).
 * Returns class | reason << 2 | (the resource that failed (3), else 0) << 4, with the
 * class and reason codes of the batch outcome; need[r] gets hard[r] + rate[row + r] for
 * every resource checked (all of them for a hard queue: its new hard sums). The one
 * classifier of the TS side: bopfAdmitKernel's rows and BopfAdmissionControl.admit() call
 * it; assembly/bopf.ts (and its K-specialised rows, assembly/bopf/fast.ts) make the same
 * comparisons in the same order.
 * Example: m1 = 3, minTol 6, an LQ tolerating 4 with rate <1> over hard sums <1> within
 * bound <1>: 2 > 1 on resource 0: soft, reason resource: 1 | 2 << 2 | 0 << 4 = 9.
 */
export function classifyQueue(
  m1: number, minTol: number, isLQ: boolean, t: number, k: number, hard: Float64Array, rate: Float64Array, row: number,
  bound: Float64Array, need: Float64Array, nbopf: boolean,
): number {
  if (minTol < m1) return REJECTED | (R_SAFETY << 2);
  if (!isLQ) return ELASTIC | (R_ALL_HELD << 2);
  if (!(t >= m1)) return ELASTIC | (R_FAIRNESS << 2);
  for (let r = 0; r < k; r++) {
    const x = hard[r] + rate[row + r];
    need[r] = x;
    if (x > bound[r]) return (nbopf ? ELASTIC : SOFT) | (R_RESOURCE << 2) | (r << 4);
  }
  return HARD | (R_ALL_HELD << 2);
}

/**
 * assembly/bopf.ts bopfAdmit over typed arrays (rate, tol, bind: admission rows from 0;
 * not touched with flag bit 0, and may then be empty; want and alloc read and written only
 * with flag bit 1, the fused round, whose status goes to state[7]).
 */
export function bopfAdmitKernel(
  n: number, k: number, flags: number, cap: Float64Array, bound: Float64Array, hard: Float64Array, state: Float64Array,
  kind: Uint8Array, start: Float64Array, period: Float64Array, window: Float64Array, count: Float64Array, volume: Float64Array, want: Float64Array,
  cls: Uint8Array, reason: Uint8Array, id: Int32Array, rate: Float64Array, tol: Float64Array, bind: Int32Array,
  clsById: Uint8Array, kindById: Uint8Array, gkey: Float64Array, gid: Int32Array, alloc: Float64Array, s: BopfScratch,
): number {
  s.errIndex = -1;
  s.ensure(n, k);
  const { need, sums, left, thr, sum3, sum4 } = s;
  const rows = (flags & 1) === 0;
  const round = (flags & 2) !== 0;
  // the rate row: the summary row when written, else the scratch row (from 0)
  const rr = rows ? rate : s.rbuf;
  for (let r = 0; r < k; r++) {
    sums[r] = hard[r];
    const c = cap[r];
    left[r] = c;
    thr[r] = c * EXHAUSTED;
    sum3[r] = 0;
    sum4[r] = 0;
  }
  let m = state[0];
  let minTol = state[1];
  const nbopf = state[2] !== 0;
  const id0 = state[3] | 0;
  let j = 0;
  let g = 0, minId = -1;
  let ok = true, anyG = false, general = false;
  for (let i = 0; i < n; i++) {
    const kd = kind[i];
    const row = rows ? j * k : 0;
    let t = Infinity, b = -1;
    const isLQ = kd === 1;
    let pos = false, rateOk = true;
    const vol = i * k;
    if (isLQ) {
      const st = start[i], pe = period[i], w = window[i], c = count[i];
      let okRow = st - st === 0 && pe > 0 && pe - pe === 0 && w > 0 && w - w === 0 && c >= 0 && Math.floor(c) === c && c - c === 0;
      for (let r = 0; r < k; r++) {
        const v = volume[vol + r];
        if (!(v >= 0 && v <= MAXF)) okRow = false;
        if (v > 0) pos = true;
      }
      if (!okRow) return badRow(i, k, kind, start, period, window, count, volume, s);
      if (c > 0) {
        for (let r = 0; r < k; r++) {
          const x = volume[vol + r] / w;
          rr[row + r] = x;
          if (x > MAXF) rateOk = false;
        }
        t = tolerance(k, cap, volume, vol, c === 1 ? w : pe, s); // a single burst's gap is its window (bursts.ts)
        b = s.bind;
      } else {
        for (let r = 0; r < k; r++) rr[row + r] = 0;
      }
    } else if (kd === 0) {
      if (rows) for (let r = 0; r < k; r++) rr[row + r] = 0;
    } else {
      return badRow(i, k, kind, start, period, window, count, volume, s);
    }
    const d = classifyQueue(m + 1, minTol, isLQ, t, k, sums, rr, row, bound, need, nbopf);
    const c = d & 3;
    if (c === REJECTED) {
      cls[i] = REJECTED;
      reason[i] = R_SAFETY;
      id[i] = -1;
    } else {
      const why = (d >> 2) & 3;
      if (c === HARD) for (let r = 0; r < k; r++) sums[r] = need[r];
      cls[i] = c;
      reason[i] = why;
      id[i] = id0 + j;
      if (rows) {
        tol[j] = t;
        bind[j] = b;
      }
      clsById[j] = c;
      kindById[j] = isLQ ? 1 : 2;
      if (c <= SOFT) {
        gkey[g] = t;
        gid[g] = id0 + j;
        g++;
        if (t < minTol) {
          minTol = t;
          minId = id0 + j;
        }
      }
      m += 1;
      j++;
    }
    if (round) {
      // bopfAllocateKernel's row with flag bit 1, the rate from the row just computed
      const hasG = c <= SOFT && isLQ;
      if (hasG && !rateOk) ok = false;
      const live = hasG && pos;
      if (live) {
        anyG = true;
        if (c === SOFT) general = true;
      }
      if (!roundRow(want, alloc, i * k, rr, row, live && c === HARD, c !== REJECTED && !live, c !== REJECTED, k, thr, left, sum3, sum4)) ok = false;
    }
  }
  for (let r = 0; r < k; r++) hard[r] = sums[r];
  state[0] = m;
  state[1] = minTol;
  state[4] = j;
  state[5] = g;
  state[6] = minId;
  if (round) state[7] = roundStatus(n, k, general || !ok, anyG, cap, left, sum3, sum4);
  return Status.OK;
}

/**
 * assembly/bopf.ts roundStatus: bopfAllocate's end checks (OK or BopfGeneral); `left` is
 * overwritten. With a live guarantee, step 4's demands must clearly fit a lower bound of
 * what step 3 leaves (leftBound: left[r] minus the elastic shares one by one, each clipped
 * at 0, without the N dependent subtractions): the shares are exactly the terms of sum3
 * (the same rows and cells, in the same order), so the N rounded subtractions lose at most
 * N 2^-53 left and sum3 is within N 2^-53 of the exact sum; with M = (N + 16) 2^-48 (32
 * times that, plus the rounding of this formula), left (1 - M) - sum3 (1 + M) is below the
 * steps' value, and clearlyFits on it (a stricter test) implies clearlyFits on the steps'
 * (src/bopf/allocate-steps.ts): the same allocation. Example: left 10, sum3 4, N = 2: the
 * bound is 6 - 1.4e-13 < 6; a bound <= C * EXHAUSTED fails clearlyFits (the general path).
 */
function roundStatus(n: number, k: number, general: boolean, anyG: boolean, cap: Float64Array, left: Float64Array, sum3: Float64Array, sum4: Float64Array): number {
  if (general || !clearlyFits(sum3, left, cap, k, n)) return Status.BopfGeneral;
  if (anyG) {
    const mm = (n + 16) * TWO_M48;
    for (let r = 0; r < k; r++) left[r] = left[r] * (1 - mm) - sum3[r] * (1 + mm);
    if (!clearlyFits(sum4, left, cap, k, n)) return Status.BopfGeneral;
  }
  return Status.OK;
}

function clearlyFits(sum: Float64Array, avail: Float64Array, cap: Float64Array, k: number, n: number): boolean {
  const margin = 1 + (n + 16) * TWO_M48;
  for (let r = 0; r < k; r++) {
    const a = avail[r];
    if (!(a > cap[r] * EXHAUSTED) || !(sum[r] * margin < a)) return false;
  }
  return true;
}

function badCell(
  i: number, k: number, c: number, hasG: boolean, rrow: number, want: Float64Array, weight: Float64Array | null, rate: Float64Array, rem: Float64Array, s: BopfScratch,
): number {
  s.errIndex = i;
  if (c > REJECTED) return Status.BopfClass;
  for (let r = 0; r < k; r++) {
    const x = want[i * k + r];
    if (!(x >= 0 && fin(x))) {
      s.errIndex = i * k + r;
      return Status.Demand;
    }
  }
  if (weight !== null) {
    const w = weight[i];
    if (!(w > 0 && fin(w))) return Status.Weight;
  }
  if (hasG) {
    for (let r = 0; r < k; r++) {
      const x = rate[rrow + r], y = rem[i * k + r];
      s.errIndex = i * k + r;
      if (!(x >= 0 && fin(x))) return Status.Rate;
      if (!(y >= 0 && fin(y))) return Status.Volume;
    }
  }
  return Status.OK;
}

/** assembly/bopf.ts firstBad: the first bad row's status (index in s.errIndex), or OK. */
function firstBad(
  n: number, k: number, after: boolean, id0: number, cls: Uint8Array, hasGuarantee: Uint8Array, kind: Uint8Array, id: Int32Array,
  want: Float64Array, rate: Float64Array, rem: Float64Array, weight: Float64Array | null, s: BopfScratch,
): number {
  for (let i = 0; i < n; i++) {
    const c = cls[i];
    let hasG: boolean;
    let rrow = i * k;
    if (after) {
      hasG = c <= SOFT && kind[i] === 1;
      if (hasG) rrow = (id[i] - id0) * k;
    } else {
      hasG = hasGuarantee[i] !== 0;
    }
    const code = badCell(i, k, c, hasG, rrow, want, weight, rate, rem, s);
    if (code !== Status.OK) return code;
  }
  s.errIndex = -1;
  return Status.OK;
}

/**
 * assembly/bopf.ts bopfAllocate over typed arrays (the fused single pass, one resource at a
 * time where the kernel takes two per lane pair: the same operations per cell): Status.OK
 * with the allocation in `alloc`, Status.BopfGeneral, or an error status (index in
 * s.errIndex). `kind`, `id` and `state` are read only with flag bit 1; `weight` only with bit 0.
 */
export function bopfAllocateKernel(
  n: number, k: number, flags: number, cap: Float64Array, cls: Uint8Array, hasGuarantee: Uint8Array, kind: Uint8Array, id: Int32Array, state: Float64Array,
  want: Float64Array, rate: Float64Array, rem: Float64Array, weight: Float64Array, alloc: Float64Array, s: BopfScratch,
): number {
  s.errIndex = -1;
  if (n === 0) return Status.OK;
  s.ensure(n, k);
  const { live, left, thr, sum3, sum4 } = s;
  const useW = (flags & 1) !== 0 ? weight : null;
  const after = (flags & 2) !== 0;
  const id0 = after ? state[3] | 0 : 0;
  for (let r = 0; r < k; r++) {
    const c = cap[r];
    left[r] = c;
    thr[r] = c * EXHAUSTED;
    sum3[r] = 0;
    sum4[r] = 0;
  }
  let ok = true, anyG = false, wild = false;
  for (let i = 0; i < n; i++) {
    const c = cls[i];
    if (c > REJECTED) return firstBad(n, k, after, id0, cls, hasGuarantee, kind, id, want, rate, rem, useW, s);
    const base = i * k;
    let hasG: boolean;
    let rrow = base;
    if (after) {
      hasG = c <= SOFT && kind[i] === 1;
      if (hasG) rrow = (id[i] - id0) * k;
    } else {
      hasG = hasGuarantee[i] !== 0;
    }
    let g = false;
    if (hasG) {
      let pos = false;
      for (let r = 0; r < k; r++) {
        const x = rate[rrow + r], y = rem[base + r];
        if (!(x >= 0 && x <= MAXF && y >= 0 && y <= MAXF)) ok = false;
        if (y > 0) pos = true;
      }
      g = c <= SOFT && pos;
    }
    live[i] = g ? 1 : 0;
    if (g) {
      anyG = true;
      if (c === SOFT) return Status.BopfGeneral;
    }
    if (!roundRow(want, alloc, base, rate, rrow, g && c === HARD, c !== REJECTED && !g, c !== REJECTED, k, thr, left, sum3, sum4)) ok = false;
    if (useW !== null) {
      const wt = useW[i];
      if (!(wt > 0 && fin(wt))) ok = false;
      if (!(wt >= W_MIN && wt <= W_MAX)) wild = true;
    }
  }
  if (!ok) {
    const code = firstBad(n, k, after, id0, cls, hasGuarantee, kind, id, want, rate, rem, useW, s);
    if (code !== Status.OK) return code;
  }
  if (wild || !clearlyFits(sum3, left, cap, k, n)) return Status.BopfGeneral;
  if (anyG) {
    const mm = (n + 16) * TWO_M48;
    for (let r = 0; r < k; r++) left[r] = left[r] * (1 - mm) - sum3[r] * (1 + mm);
    if (!clearlyFits(sum4, left, cap, k, n)) return Status.BopfGeneral;
  }
  return Status.OK;
}

/**
 * The summary row bopfAdmit writes for an admitted LQ without flag bit 0 (its rates into
 * rate[at..at+K-1], its tolerance returned, the binding resource in s.bind), by the same
 * divisions: BopfAdmissionControl derives the rows of a batch admitted with flag bit 0
 * from the specs it keeps, when first read. Example: volume <25, 25>, window 25, period
 * 150, C = <1, 1>, count 10: rates <1, 1>, tolerance 6, bind 0. Edge values: count 0
 * gives zero rates, +Infinity and bind -1; a zero volume never binds.
 */
export function summaryRow(
  k: number, cap: Float64Array, volume: Float64Array, vol: number, window: number, period: number, count: number, rate: Float64Array, at: number, s: BopfScratch,
): number {
  if (!(count > 0)) {
    for (let r = 0; r < k; r++) rate[at + r] = 0;
    s.bind = -1;
    return Infinity;
  }
  for (let r = 0; r < k; r++) rate[at + r] = volume[vol + r] / window;
  return tolerance(k, cap, volume, vol, count === 1 ? window : period, s); // a single burst's gap is its window (bursts.ts)
}

/**
 * One row of the allocation-only round (assembly/bopf.ts roundRow, the same operations per
 * resource): step 1 for a live hard guarantee (min(rate, want, left) taken from `left`),
 * step 3's elastic want above `thr` into sum3, step 4's unmet rest above `thr` into sum4,
 * the allocation their sum. False when a want is not a valid demand.
 */
function roundRow(
  want: Float64Array, alloc: Float64Array, base: number, rate: Float64Array, rateBase: number,
  hardLive: boolean, step3: boolean, step4: boolean, k: number,
  thr: Float64Array, left: Float64Array, sum3: Float64Array, sum4: Float64Array,
): boolean {
  let ok = true;
  for (let r = 0; r < k; r++) {
    const x = base + r;
    const w = want[x], th = thr[r];
    if (!(w >= 0 && w <= MAXF)) ok = false;
    let a = 0;
    if (hardLive) {
      const l = left[r];
      a = Math.min(Math.min(rate[rateBase + r], w), l);
      left[r] = l - a;
    }
    const e = step3 && w > th ? w : 0;
    sum3[r] = sum3[r] + e;
    const u = w - a - e;
    const sp = step4 && u > th ? u : 0;
    sum4[r] = sum4[r] + sp;
    // never above want: a + e + (want - a - e) can round one ulp above it
    const tot = a + e + sp;
    alloc[x] = tot > w ? w : tot;
  }
  return ok;
}
