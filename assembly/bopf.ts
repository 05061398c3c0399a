// The BoPF decision of one round (SPEC §4.2-4.3) over columns in linear memory, two calls:
//
// bopfAdmit: admission control of N new queues in row order (what BopfAdmissionControl
// .admitBatch decides: src/bopf/admission.ts has the conditions and their worked example).
// Row i is a TQ (kind 0) or an LQ (kind 1) with a periodic burst spec: start, period,
// window, count and K volumes. Per LQ: validation, the K rates volume / window, the
// tolerance (the largest total queue count its bursts stand, min over r of
// toleratedCount(volume[r], C[r] * period), with the binding resource), then
//   (1) safety    the smallest tolerance among the guaranteed queues (H ∪ S) >= M + 1, else rejected
//   (2) fairness  its own tolerance >= M + 1, else elastic
//   (3) resource  hard[r] + rate[r] <= C[r] (1 + eps) for every r: hard, else soft (N-BoPF: elastic)
// A TQ is elastic when (1) holds, else rejected. The admission state comes in `state`
// (M, the smallest guaranteed tolerance, the variant, the first id) and `hard` (the hard
// rates' sums, updated in place); no queue leaves during a batch, so the heap of
// guaranteed tolerances the object API keeps reduces here to a running minimum.
// Outputs by row: cls (0 hard, 1 soft, 2 elastic, 3 rejected), reason (0 safety,
// 1 fairness, 2 resource, 3 all held), id (id0 + number admitted before it, -1 rejected);
// by admission (row j = id - id0, admitted rows only): rate (K), tol, bind (-1: none).
//
// Worked example (K = 2, C = <1, 1>, eps = 1e-9, empty state: M = 0, no guaranteed queue):
// a TQ, then LQs with volume <25, 25>, window 25 (rate <1, 1>) and periods 150, 110, 60.
//   TQ:   M+1 = 1, no guaranteed queue          -> elastic, all held, id 0
//   LQ-0: M+1 = 2, tolerance floor(150/25) = 6  -> hard (hard <1, 1>), id 1
//   LQ-1: M+1 = 3, min tolerance 6, own 4 >= 3, 1 + 1 > 1 (1 + 1e-9) -> soft, resource, id 2
//   LQ-2: M+1 = 4, min(6, 4) >= 4, own 2 < 4    -> elastic, fairness, id 3
// state out: M = 4, admitted 4; hard <1, 1>.
// Edge values: count 0 or an all-zero volume is an LQ of rate 0 and tolerance +Infinity
// (always hard); a volume above C * period tolerates 0 queues (elastic even alone); the
// first bad cell (in the order kind, start, period, window, count, volume[0..K-1]) stops
// the call with its status and index (volume: i*K + r) and nothing is admitted (the
// caller commits the outputs only on OK).
//
// bopfAllocate: the allocation round's allocation-only pass (allocateInstantFlat with
// { steps: false } in src/bopf/allocate.ts, which documents the steps and their worked
// example) for the usual uncontended round: the hard LQs' constant rates (step 1), then,
// when no soft LQ holds a live guarantee and the elastic demands clearly fit in what the
// hard LQs left, every queue's whole demand (step 3) and, with a guarantee live, its unmet
// demand (step 4), added in place. Any other round (soft LQs to order by SRPT, a binding
// DRF, a weight outside the fast range) returns GENERAL: the caller runs the general path.
// Flags: bit 0 weights, bit 1 "the round right after admission": a row has a guarantee
// when it is an LQ admitted hard or soft (cls and kind of bopfAdmit), its rate row is its
// admission row (id - id0) and its remaining volume its burst volume (rem = volume).
// Worked example (allocate.ts' header): C = <10, 10>; H want <8, 4>, rate <6, 3> (live);
// TQ want <1, 1>: step 1 gives H <6, 3>, left <4, 7>; sum3 <1, 1> clearly fits; H's unmet
// <2, 1> and the TQ's <1, 1> sum to <3, 2>, clearly within the bound of left -> H <8, 4>,
// TQ <1, 1>. Edge values: N = 0 returns OK at once; a bad cell returns its status (the
// caller names it: validateRow's order, class, want, weight, rate, remaining).
//
// Both are one pass over the rows (admission) and two (allocation), no allocation, raw
// loads and stores; the JS twin src/kernels/js/bopf.ts does the same operations in the
// same order (the divisions included), so the backends agree bit for bit.
import { ldf, stf, ldb, stb, align8, isFiniteF64 } from "./util/mem";
import {
  OK, E_WEIGHT, E_DEMAND, E_RATE, E_VOLUME,
  E_BOPF_KIND, E_BOPF_START, E_BOPF_PERIOD, E_BOPF_WINDOW, E_BOPF_COUNT, E_BOPF_VOLUME, E_BOPF_CLASS, BOPF_GENERAL,
} from "./util/status";

const HARD: u8 = 0, SOFT: u8 = 1, ELASTIC: u8 = 2, REJECTED: u8 = 3;
const R_SAFETY: u8 = 0, R_FAIRNESS: u8 = 1, R_RESOURCE: u8 = 2, R_ALL_HELD: u8 = 3;
// batchTolerance's bounds (admission.ts): products of normal numbers round within 2^-53
const NORMAL: f64 = 9.332636185032189e-302; // 2^-1000
const SLACK: f64 = 1 - 4.440892098500626e-16; // 1 - 2^-51
const TWO50: f64 = 1125899906842624; // 2^50
// drf-over.ts: a remainder below C * EXHAUSTED is float residue; the fast path's weights
const EXHAUSTED: f64 = 1e-12;
const W_MIN: f64 = 1.1870372719225597e-271; // 2^-900
const W_MAX: f64 = 8.424983333484575e+270; // 2^900
const MAXF: f64 = 1.7976931348623157e308;
const TWO_M48: f64 = 3.552713678800501e-15; // 2^-48

/** Scratch: error index (8 bytes), live flags (N bytes, rounded to 8), 5 x K f64 (need, left, thr, sum3, sum4). */
export function bopfScratchBytes(n: i32, k: i32): f64 {
  return 8 + <f64>align8(<usize>n) + 40 * <f64>k;
}

/**
 * The largest m >= 0 with d <= fair / m (bursts.ts toleratedCount, the same divisions):
 * +Infinity for d = 0; m as computed when it is 2^50 or more.
 */
function toleratedCount(d: f64, fair: f64): f64 {
  if (!(d > 0)) return Infinity;
  let m = Math.floor(fair / d);
  if (!(m < TWO50)) return m;
  while (m >= 1 && !(d <= fair / m)) m -= 1;
  while (d <= fair / (m + 1)) m += 1;
  return m;
}

// the binding resource of the last tolerance() call
let lastBind: i32 = -1;

/**
 * min over r of toleratedCount(v[r], C[r] * period) and the first r attaining it (in
 * lastBind): admission.ts batchTolerance, step for step (a candidate by cross-multiplied
 * comparison, its exact count, then the others counted only when they might bind).
 */
function tolerance(k: i32, cap: usize, vol: usize, period: f64): f64 {
  let best = -1;
  let bv: f64 = 0, bf: f64 = 0;
  for (let r = 0; r < k; r++) {
    const v = ldf(vol, r);
    if (!(v > 0)) continue;
    const f = ldf(cap, r) * period;
    if (best < 0 || f * bv < bf * v) {
      best = r; bv = v; bf = f;
    }
  }
  let tol: f64 = Infinity;
  let bind = -1;
  if (best >= 0) {
    const mStar = toleratedCount(bv, bf);
    const filter = mStar < TWO50;
    const next = mStar + 1;
    for (let r = 0; r < k; r++) {
      const v = ldf(vol, r);
      if (!(v > 0)) continue;
      const f = ldf(cap, r) * period;
      if (filter && r != best && v >= NORMAL && f >= NORMAL && v * next <= f * SLACK) continue;
      const m = r == best ? mStar : toleratedCount(v, f);
      if (m < tol) {
        tol = m;
        bind = r;
      }
    }
  }
  lastBind = bind;
  return tol;
}

/** Row i's first bad cell (kind, start, period, window, count, volume) as a status; index in the error slot. */
function badRow(i: i32, k: i32, kind: usize, start: usize, period: usize, window: usize, count: usize, volume: usize, scratch: usize): i32 {
  store<i32>(scratch, i);
  if (ldb(kind, i) != 1) return E_BOPF_KIND;
  const s = ldf(start, i), p = ldf(period, i), w = ldf(window, i), c = ldf(count, i);
  if (!isFiniteF64(s)) return E_BOPF_START;
  if (!(p > 0 && isFiniteF64(p))) return E_BOPF_PERIOD;
  if (!(w > 0 && isFiniteF64(w))) return E_BOPF_WINDOW;
  if (!(c >= 0 && Math.floor(c) == c && isFiniteF64(c))) return E_BOPF_COUNT;
  for (let r = 0; r < k; r++) {
    const v = ldf(volume, i * k + r);
    if (!(v >= 0 && isFiniteF64(v))) {
      store<i32>(scratch, i * k + r);
      return E_BOPF_VOLUME;
    }
  }
  return OK; // not reached: the caller found a bad cell
}

/**
 * Admission of rows 0..n-1 (header). state (f64): in [0] M, [1] smallest guaranteed
 * tolerance (+Infinity: none), [2] variant (0 BoPF, 1 N-BoPF), [3] id0; out [0] M,
 * [1] the smallest guaranteed tolerance, [4] rows admitted. `hard` (K) is updated in place
 * only on OK. Returns OK or a status with the index in the first i32 of scratch.
 */
export function bopfAdmit(
  n: i32, k: i32, cap: usize, bound: usize, hard: usize, state: usize,
  kind: usize, start: usize, period: usize, window: usize, count: usize, volume: usize,
  cls: usize, reason: usize, id: usize, rate: usize, tol: usize, bind: usize, scratch: usize,
): i32 {
  store<i32>(scratch, -1);
  const need = scratch + 8 + align8(<usize>n);
  // the running hard sums live in scratch until the call succeeds (K f64 after need)
  const sums = need + (<usize>k << 3);
  for (let r = 0; r < k; r++) stf(sums, r, ldf(hard, r));
  let m: f64 = ldf(state, 0);
  let minTol = ldf(state, 1);
  const nbopf = ldf(state, 2) != 0;
  const id0 = <i32>ldf(state, 3);
  let j = 0; // admission row of the next admitted queue
  for (let i = 0; i < n; i++) {
    const kd = ldb(kind, i);
    const row = rate + (<usize>(j * k) << 3);
    let t: f64 = Infinity;
    let b = -1;
    const isLQ = kd == 1;
    if (isLQ) {
      const st = ldf(start, i), pe = ldf(period, i), w = ldf(window, i), c = ldf(count, i);
      const vol = volume + (<usize>(i * k) << 3);
      let ok = isFiniteF64(st) && pe > 0 && isFiniteF64(pe) && w > 0 && isFiniteF64(w) && c >= 0 && Math.floor(c) == c && isFiniteF64(c);
      for (let r = 0; r < k; r++) {
        const v = ldf(vol, r);
        if (!(v >= 0 && isFiniteF64(v))) ok = false;
      }
      if (!ok) return badRow(i, k, kind, start, period, window, count, volume, scratch);
      if (c > 0) {
        for (let r = 0; r < k; r++) stf(row, r, ldf(vol, r) / w);
        t = tolerance(k, cap, vol, pe);
        b = lastBind;
      } else {
        for (let r = 0; r < k; r++) stf(row, r, 0);
      }
    } else if (kd == 0) {
      for (let r = 0; r < k; r++) stf(row, r, 0);
    } else {
      return badRow(i, k, kind, start, period, window, count, volume, scratch);
    }
    // (1) safety
    const m1 = m + 1;
    if (minTol < m1) {
      stb(cls, i, REJECTED);
      stb(reason, i, R_SAFETY);
      store<i32>(id + (<usize>i << 2), -1);
      continue;
    }
    let c: u8 = ELASTIC, why: u8 = R_ALL_HELD;
    if (isLQ) {
      if (!(t >= m1)) {
        why = R_FAIRNESS; // (2)
      } else {
        // (3) the new hard sums, kept only if every resource passes
        c = HARD;
        for (let r = 0; r < k; r++) {
          const x = ldf(sums, r) + ldf(row, r);
          stf(need, r, x);
          if (x > ldf(bound, r)) {
            c = nbopf ? ELASTIC : SOFT;
            why = R_RESOURCE;
            break;
          }
        }
        if (c == HARD) for (let r = 0; r < k; r++) stf(sums, r, ldf(need, r));
      }
    }
    stb(cls, i, c);
    stb(reason, i, why);
    store<i32>(id + (<usize>i << 2), id0 + j);
    stf(tol, j, t);
    store<i32>(bind + (<usize>j << 2), b);
    if (c <= SOFT && t < minTol) minTol = t;
    m += 1;
    j++;
  }
  for (let r = 0; r < k; r++) stf(hard, r, ldf(sums, r));
  stf(state, 0, m);
  stf(state, 1, minTol);
  stf(state, 4, <f64>j);
  return OK;
}

/** clearlyFits (drf-over.ts): every resource live and sum * (1 + (N + 16) 2^-48) < avail. */
@inline function clearlyFits(sum: usize, avail: usize, cap: usize, k: i32, n: i32): bool {
  const margin = 1 + <f64>(n + 16) * TWO_M48;
  for (let r = 0; r < k; r++) {
    const a = ldf(avail, r);
    if (!(a > ldf(cap, r) * EXHAUSTED) || !(ldf(sum, r) * margin < a)) return false;
  }
  return true;
}

/** Row i's first bad cell in validateRow's order (class, want, weight, rate/remaining); index in the error slot. */
function badCell(
  i: i32, k: i32, c: u8, hasG: bool, rrow: i32, want: usize, weight: usize, rate: usize, rem: usize, scratch: usize,
): i32 {
  store<i32>(scratch, i);
  if (c > REJECTED) return E_BOPF_CLASS;
  for (let r = 0; r < k; r++) {
    const x = ldf(want, i * k + r);
    if (!(x >= 0 && isFiniteF64(x))) {
      store<i32>(scratch, i * k + r);
      return E_DEMAND;
    }
  }
  if (weight != 0) {
    const w = ldf(weight, i);
    if (!(w > 0 && isFiniteF64(w))) return E_WEIGHT;
  }
  if (hasG) {
    for (let r = 0; r < k; r++) {
      const x = ldf(rate, rrow + r), y = ldf(rem, i * k + r);
      store<i32>(scratch, i * k + r);
      if (!(x >= 0 && isFiniteF64(x))) return E_RATE;
      if (!(y >= 0 && isFiniteF64(y))) return E_VOLUME;
    }
  }
  return OK; // not reached
}

/**
 * The allocation-only pass (header): OK with the allocation in `alloc`, BOPF_GENERAL when
 * the round needs the general path, or a status with the index in the error slot.
 * `kind`, `id` and `state` (id0 in [3]) are read only with flag bit 1.
 */
export function bopfAllocate(
  n: i32, k: i32, flags: i32, cap: usize, cls: usize, hasGuarantee: usize, kind: usize, id: usize, state: usize,
  want: usize, rate: usize, rem: usize, weight: usize, alloc: usize, scratch: usize,
): i32 {
  store<i32>(scratch, -1);
  if (n == 0) return OK;
  const live = scratch + 8;
  const left = live + align8(<usize>n) + (<usize>k << 3);
  const thr = left + (<usize>k << 3), sum3 = thr + (<usize>k << 3), sum4 = sum3 + (<usize>k << 3);
  const useW = (flags & 1) != 0 ? weight : 0;
  const after = (flags & 2) != 0;
  const id0 = after ? <i32>ldf(state, 3) : 0;
  for (let r = 0; r < k; r++) {
    const c = ldf(cap, r);
    stf(left, r, c);
    stf(thr, r, c * EXHAUSTED);
    stf(sum3, r, 0);
    stf(sum4, r, 0);
  }
  // pass 1 (allocate.ts firstPass): validation, live guarantees, step 1, step 3's demand sums
  let anyG = false, wild = false;
  for (let i = 0; i < n; i++) {
    const c = ldb(cls, i);
    const base = i * k;
    let hasG: bool;
    let rrow = base;
    if (after) {
      hasG = c <= SOFT && ldb(kind, i) == 1;
      if (hasG) rrow = (load<i32>(id + (<usize>i << 2)) - id0) * k;
    } else {
      hasG = ldb(hasGuarantee, i) != 0;
    }
    if (c > REJECTED) return badCell(i, k, c, hasG, rrow, want, useW, rate, rem, scratch);
    let ok = true, g = false;
    if (hasG) {
      const guaranteed = c <= SOFT;
      for (let r = 0; r < k; r++) {
        const x = ldf(rate, rrow + r), y = ldf(rem, base + r);
        if (!(x >= 0 && x <= MAXF && y >= 0 && y <= MAXF)) ok = false;
        if (guaranteed && y > 0) g = true;
      }
    }
    stb(live, i, g ? 1 : 0);
    if (g) {
      anyG = true;
      // a live soft LQ: SRPT (step 2) is the general path's
      if (c == SOFT && ok) return BOPF_GENERAL;
    }
    const hardLive = g && c == HARD;
    const elastic = c != REJECTED && !g;
    for (let r = 0; r < k; r++) {
      const x = base + r, w = ldf(want, x);
      if (!(w >= 0 && w <= MAXF)) ok = false;
      let a: f64 = 0;
      if (hardLive) {
        const l = ldf(left, r);
        a = min(min(ldf(rate, rrow + r), w), l);
        stf(left, r, l - a);
      }
      stf(alloc, x, a);
      if (elastic && w > ldf(thr, r)) stf(sum3, r, ldf(sum3, r) + w);
    }
    if (useW != 0) {
      const wt = ldf(useW, i);
      if (!(wt > 0 && isFiniteF64(wt))) ok = false;
      if (!(wt >= W_MIN && wt <= W_MAX)) wild = true;
    }
    if (!ok) return badCell(i, k, c, hasG, rrow, want, useW, rate, rem, scratch);
  }
  if (wild || !clearlyFits(sum3, left, cap, k, n)) return BOPF_GENERAL;
  // pass 2 (wholeElasticBase): steps 3 and 4 whole, added to the allocation
  for (let i = 0; i < n; i++) {
    const c = ldb(cls, i);
    const base = i * k;
    const eligible = c != REJECTED && ldb(live, i) == 0;
    const spare = anyG && c != REJECTED;
    for (let r = 0; r < k; r++) {
      const x = base + r;
      const w = ldf(want, x), a = ldf(alloc, x), th = ldf(thr, r);
      const e = eligible && w > th ? w : 0;
      let sp: f64 = 0;
      if (spare) {
        const u = w - a - e;
        if (u > th) {
          stf(sum4, r, ldf(sum4, r) + u);
          sp = u;
        }
      }
      stf(alloc, x, a + e + sp);
    }
  }
  if (anyG) {
    // leftBound (allocate.ts): a lower bound of what step 3 leaves, then clearlyFits on it
    const mm = <f64>(n + 16) * TWO_M48;
    for (let r = 0; r < k; r++) stf(left, r, ldf(left, r) * (1 - mm) - ldf(sum3, r) * (1 + mm));
    if (!clearlyFits(sum4, left, cap, k, n)) return BOPF_GENERAL;
  }
  return OK;
}
