// The BoPF decision of one round (docs/policies/bopf.md, admission and allocation) over columns in linear memory, two calls:
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
// by admission (row j = id - id0, admitted rows only): rate (K), tol, bind (-1: none; these three not with flag bit 0),
// clsById (the class) and kindById (1 LQ, 2 TQ); the guaranteed (hard or soft) ones
// tolerances and ids in admission order (gkey, gid), with the id of the new smallest
// tolerance (strictly below the incoming one; first in row order) in state[6], else -1.
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
// Worked example (src/bopf/allocate-steps.ts' header): C = <10, 10>; H want <8, 4>, rate <6, 3> (live);
// TQ want <1, 1>: step 1 gives H <6, 3>, left <4, 7>; the TQ's <1, 1> (sum3) clearly fits:
// it gets it whole; H's unmet <2, 1> (the TQ has none: sum4 <2, 1>) clearly fits in what
// step 3 leaves, about <3, 6> -> H <6, 3> + <2, 1> = <8, 4>, TQ <1, 1>. Edge values: N = 0 returns OK at once; a bad cell returns its status (the
// caller names it: validateRow's order, class, want, weight, rate, remaining).
//
// bopfAdmit's flags: bit 0 "no summary rows" (rate, tol, bind are not written: the
// admission object derives them from the specs it keeps when they are read), bit 1 "and
// the round right after admission" (decideRound: each row's allocation as soon as its
// class is known, in the same pass, with bopfAllocate's flag-bit-1 operations; its status
// in state[7]). With bit 0 and K <= 8 the rows run K-specialised (bopf/fast.ts: every
// per-resource value in registers, TQ runs in bulk); else the generic loop below.
//
// Each is one pass over the rows, two resources per f64x2 lane pair, no allocation, raw
// loads and stores; the JS twin src/kernels/bopf/twin.ts does the same operations per
// resource in the same order (the divisions included), so the backends agree bit for bit.
// Costs and the variants measured and not kept: docs/notes/kernels.md.
import { ldf, stf, ldb, stb, align8, isFiniteF64 } from "./util/mem";
import { OK, E_WEIGHT, E_DEMAND, E_RATE, E_VOLUME, E_BOPF_CLASS, BOPF_GENERAL } from "./util/status";
import {
  HARD, SOFT, ELASTIC, REJECTED, R_SAFETY, R_FAIRNESS, R_RESOURCE, R_ALL_HELD, TWO_M48F, MIN_D, EXHAUSTED, W_MIN, W_MAX, MAXF, TWO_M48,
  laneCount, toleranceByLane, setBind, bindOf, badRow, roundStatus, clearlyFits,
} from "./bopf/common";
import { admitFast } from "./bopf/fast";

/**
 * Scratch: error index (8 bytes), live flags (N bytes, rounded to 8), 7 x K f64 (need,
 * then bopfAdmit's sums, left, thr, sum3, sum4, rate row; bopfAllocate's left, thr, sum3, sum4).
 */
export function bopfScratchBytes(n: i32, k: i32): f64 {
  return 8 + <f64>align8(<usize>n) + 56 * <f64>k;
}

/**
 * min over r of toleratedCount(v[r], C[r] * period) and the first r attaining it (in
 * lastBind), as bursts.ts periodicSummary. Usually every count is fast (fastCount): then
 * the counts are the floors of the first divisions, two resources per lane pair, and the
 * minimum is kept per lane (strictly smaller replaces, so each lane keeps its first r),
 * then the two lanes are merged (smaller count, on a tie the smaller r): the same minimum
 * and the same first r as the scan in resource order. Resources with v = 0 tolerate any
 * count (+Infinity) and never bind. Otherwise toleranceByLane.
 */
@inline function tolerance(k: i32, kp: i32, cap: usize, vol: usize, period: f64): f64 {
  const pv = f64x2.splat(period);
  const zero = f64x2.splat(0), one = f64x2.splat(1), inf = f64x2.splat(Infinity);
  const dmin = f64x2.splat(MIN_D), rel = f64x2.splat(TWO_M48F);
  let best = inf;
  let bestR = i64x2.splat(-1);
  let rv = i64x2(0, 1);
  const two = i64x2.splat(2);
  for (let r = 0; r < kp; r += 2) {
    const o = <usize>r << 3;
    const v = v128.load(vol + o);
    const q = f64x2.div(f64x2.mul(v128.load(cap + o), pv), v);
    const m = f64x2.floor(q);
    const m1 = f64x2.add(m, one);
    const fast = v128.and(v128.and(f64x2.ge(v, dmin), f64x2.gt(q, m)), f64x2.ge(f64x2.sub(m1, q), f64x2.mul(m1, rel)));
    const pos = f64x2.gt(v, zero);
    if (v128.any_true(v128.andnot(pos, fast))) return toleranceByLane(k, kp, cap, vol, period);
    const mm = v128.bitselect(m, inf, pos);
    const lt = f64x2.lt(mm, best);
    best = v128.bitselect(mm, best, lt);
    bestR = v128.bitselect(rv, bestR, lt);
    rv = i64x2.add(rv, two);
  }
  let tol = f64x2.extract_lane(best, 0);
  let bind = <i32>i64x2.extract_lane(bestR, 0);
  const t1 = f64x2.extract_lane(best, 1);
  const b1 = <i32>i64x2.extract_lane(bestR, 1);
  if (t1 < tol || (t1 == tol && b1 < bind)) { tol = t1; bind = b1; }
  if (kp < k) {
    const v = ldf(vol, kp);
    if (v > 0) {
      const f = ldf(cap, kp) * period;
      const m = laneCount(v, f, f / v);
      if (m < tol) { tol = m; bind = kp; }
    }
  }
  setBind(bind);
  return tol;
}

/**
 * Admission of rows 0..n-1 (header). state (f64): in [0] M, [1] smallest guaranteed
 * tolerance (+Infinity: none), [2] variant (0 BoPF, 1 N-BoPF), [3] id0; out [0] M,
 * [1] the smallest guaranteed tolerance, [4] rows admitted, [5] guaranteed rows (gkey,
 * gid), [6] the id of the new smallest tolerance or -1, [7] (flag bit 1) the round's
 * status: OK or BOPF_GENERAL. `hard` (K) is updated in place only on OK. Returns OK or a
 * status with the index in the first i32 of scratch. Two resources per f64x2 lane pair
 * (an odd K's last one alone): the validation, the rates volume / window, the
 * tolerance's first divisions and the resource condition; each lane does the scalar
 * operation, so the twin's scalar loops give the same bits.
 *
 * Flags: bit 0 "no summary rows": rate, tol and bind by admission row are not written
 * (the admission object derives them from the kept specs when read, by the same
 * divisions), the rate row lives in scratch; bit 1 "and the round right after admission"
 * (decideRound): each row's allocation is computed as soon as its class is known, in the
 * same pass (fusedRow: bopfAllocate's operations with flag bit 1, in the same order, the
 * rate straight from the row just computed), the end checks as bopfAllocate's; state[7]
 * says whether it stands (OK) or the general path must run (a live soft LQ, a binding
 * round, a bad `want` cell or an infinite rate, which the general path names). Worked
 * example: the header's, with want <1, 1> per row and C = <10, 10>: TQ elastic gets <1, 1>
 * (step 3), LQ-0 hard gets min(rate 1, want 1, left 10) = <1, 1> (step 1), LQ-1 is a live
 * soft LQ: state[7] = GENERAL. Edge values: rows rejected get <0, ..>; N = 0 gives OK.
 */
export function bopfAdmit(
  n: i32, k: i32, flags: i32, cap: usize, bound: usize, hard: usize, state: usize,
  kind: usize, start: usize, period: usize, window: usize, count: usize, volume: usize, want: usize,
  cls: usize, reason: usize, id: usize, rate: usize, tol: usize, bind: usize, clsById: usize, kindById: usize, gkey: usize, gid: usize,
  alloc: usize, scratch: usize,
): i32 {
  store<i32>(scratch, -1);
  const round = (flags & 2) != 0;
  if ((flags & 1) != 0 && k >= 1 && k <= 8) {
    return admitFast(n, k, round, cap, bound, hard, state, kind, start, period, window, count, volume, want, cls, reason, id, clsById, kindById, gkey, gid, alloc, scratch);
  }
  const rowBytes = <usize>k << 3;
  const need = scratch + 8 + align8(<usize>n);
  // the running hard sums live in scratch until the call succeeds (K f64 after need)
  const sums = need + rowBytes;
  // the round's accumulators (as bopfAllocate's) and the rate row when none is written
  const left = sums + rowBytes, thr = left + rowBytes, sum3 = thr + rowBytes, sum4 = sum3 + rowBytes, rbuf = sum4 + rowBytes;
  const rows = (flags & 1) == 0;
  for (let r = 0; r < k; r++) {
    stf(sums, r, ldf(hard, r));
    const c = ldf(cap, r);
    stf(left, r, c);
    stf(thr, r, c * EXHAUSTED);
    stf(sum3, r, 0);
    stf(sum4, r, 0);
  }
  let m: f64 = ldf(state, 0);
  let minTol = ldf(state, 1);
  const nbopf = ldf(state, 2) != 0;
  const id0 = <i32>ldf(state, 3);
  const kp = k & ~1;
  const zero = f64x2.splat(0), maxv = f64x2.splat(MAXF), ones = i64x2.splat(-1);
  let j = 0; // admission row of the next admitted queue
  let g = 0, minId = -1; // guaranteed queues admitted; the id of the new smallest tolerance
  let okAcc = ones; // the round's cells (want, the guarantees' rates) all fine
  let anyG = false, general = false;
  for (let i = 0; i < n; i++) {
    const kd = ldb(kind, i);
    const row = rows ? rate + <usize>j * rowBytes : rbuf;
    let t: f64 = Infinity;
    let b = -1;
    const isLQ = kd == 1;
    let pos = false; // some volume > 0: a guarantee with something left (the round's "live")
    let rateOk = true;
    const vol = volume + <usize>i * rowBytes;
    if (isLQ) {
      const st = ldf(start, i), pe = ldf(period, i), w = ldf(window, i), c = ldf(count, i);
      let okv = zero; // lanes that fail
      let pv = zero;
      for (let r = 0; r < kp; r += 2) {
        const v = v128.load(vol + (<usize>r << 3));
        okv = v128.or(okv, v128.not(v128.and(f64x2.ge(v, zero), f64x2.le(v, maxv))));
        pv = v128.or(pv, f64x2.gt(v, zero));
      }
      pos = v128.any_true(pv);
      let ok = isFiniteF64(st) && pe > 0 && isFiniteF64(pe) && w > 0 && isFiniteF64(w) && c >= 0 && Math.floor(c) == c && isFiniteF64(c) && !v128.any_true(okv);
      if (kp < k) {
        const v = ldf(vol, kp);
        if (!(v >= 0 && isFiniteF64(v))) ok = false;
        if (v > 0) pos = true;
      }
      if (!ok) return badRow(i, k, kind, start, period, window, count, volume, scratch);
      if (c > 0) {
        const wv = f64x2.splat(w);
        let big = zero;
        for (let r = 0; r < kp; r += 2) {
          const o = <usize>r << 3;
          const x = f64x2.div(v128.load(vol + o), wv);
          v128.store(row + o, x);
          big = v128.or(big, f64x2.gt(x, maxv));
        }
        rateOk = !v128.any_true(big);
        if (kp < k) {
          const x = ldf(vol, kp) / w;
          stf(row, kp, x);
          if (x > MAXF) rateOk = false;
        }
        t = tolerance(k, kp, cap, vol, c == 1 ? w : pe); // a single burst's gap is its window (src/bopf/bursts.ts)
        b = bindOf();
      } else {
        for (let r = 0; r < kp; r += 2) v128.store(row + (<usize>r << 3), zero);
        if (kp < k) stf(row, kp, 0);
      }
    } else if (kd == 0) {
      // a TQ's rate row: zeros (read only as a written summary row: never by the round)
      if (rows) {
        for (let r = 0; r < kp; r += 2) v128.store(row + (<usize>r << 3), zero);
        if (kp < k) stf(row, kp, 0);
      }
    } else {
      return badRow(i, k, kind, start, period, window, count, volume, scratch);
    }
    // (1) safety
    const m1 = m + 1;
    let c: u8 = REJECTED;
    if (minTol < m1) {
      stb(cls, i, REJECTED);
      stb(reason, i, R_SAFETY);
      store<i32>(id + (<usize>i << 2), -1);
    } else {
      c = ELASTIC;
      let why: u8 = R_ALL_HELD;
      if (isLQ) {
        if (!(t >= m1)) {
          why = R_FAIRNESS; // (2)
        } else {
          // (3) hard[r] + rate[r] <= bound[r] for every r: the new hard sums, kept only if so
          let over = zero;
          for (let r = 0; r < kp; r += 2) {
            const o = <usize>r << 3;
            const x = f64x2.add(v128.load(sums + o), v128.load(row + o));
            v128.store(need + o, x);
            over = v128.or(over, f64x2.gt(x, v128.load(bound + o)));
          }
          let fits = !v128.any_true(over);
          if (kp < k) {
            const x = ldf(sums, kp) + ldf(row, kp);
            stf(need, kp, x);
            if (x > ldf(bound, kp)) fits = false;
          }
          if (fits) {
            c = HARD;
            // copied as they were stored (lane pairs): the next row's pair loads forward from these stores
            for (let r = 0; r < kp; r += 2) v128.store(sums + (<usize>r << 3), v128.load(need + (<usize>r << 3)));
            if (kp < k) stf(sums, kp, ldf(need, kp));
          } else {
            c = nbopf ? ELASTIC : SOFT;
            why = R_RESOURCE;
          }
        }
      }
      stb(cls, i, c);
      stb(reason, i, why);
      store<i32>(id + (<usize>i << 2), id0 + j);
      if (rows) {
        stf(tol, j, t);
        store<i32>(bind + (<usize>j << 2), b);
      }
      stb(clsById, j, c);
      stb(kindById, j, isLQ ? 1 : 2);
      if (c <= SOFT) {
        stf(gkey, g, t);
        store<i32>(gid + (<usize>g << 2), id0 + j);
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
      // bopfAllocate's row with flag bit 1: a guarantee when admitted hard or soft as an LQ,
      // its rate the row just computed, its remaining volume its burst volume
      const hasG = c <= SOFT && isLQ;
      if (hasG && !rateOk) okAcc = zero;
      const live = hasG && pos;
      if (live) {
        anyG = true;
        if (c == SOFT) general = true; // SRPT (step 2): the general path
      }
      const rowOff = <usize>i * rowBytes;
      okAcc = v128.and(okAcc, roundRow(want + rowOff, alloc + rowOff, row, live && c == HARD, c != REJECTED && !live, c != REJECTED, k, kp, thr, left, sum3, sum4, zero, ones, maxv));
    }
  }
  for (let r = 0; r < k; r++) stf(hard, r, ldf(sums, r));
  stf(state, 0, m);
  stf(state, 1, minTol);
  stf(state, 4, <f64>j);
  stf(state, 5, <f64>g);
  stf(state, 6, <f64>minId);
  if (round) stf(state, 7, <f64>roundStatus(n, k, general || !i64x2.all_true(okAcc), anyG, cap, left, sum3, sum4));
  return OK;
}

/** Row i's first bad cell in validateRow's order (class, want, weight, rate/remaining); index in the error slot, or OK. */
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
  return OK;
}

/**
 * The first bad row's status (cold: the pass only accumulates whether every cell is
 * fine, and looks for the culprit once something is not).
 */
function firstBad(
  n: i32, k: i32, after: bool, id0: i32, cls: usize, hasGuarantee: usize, kind: usize, id: usize,
  want: usize, rate: usize, rem: usize, weight: usize, scratch: usize,
): i32 {
  for (let i = 0; i < n; i++) {
    const c = ldb(cls, i);
    let hasG: bool;
    let rrow = i * k;
    if (after) {
      hasG = c <= SOFT && ldb(kind, i) == 1;
      if (hasG) rrow = (load<i32>(id + (<usize>i << 2)) - id0) * k;
    } else {
      hasG = ldb(hasGuarantee, i) != 0;
    }
    const code = badCell(i, k, c, hasG, rrow, want, weight, rate, rem, scratch);
    if (code != OK) return code;
  }
  store<i32>(scratch, -1);
  return OK;
}

/**
 * The allocation-only pass (header): OK with the allocation in `alloc`, BOPF_GENERAL when
 * the round needs the general path, or a status with the index in the error slot.
 * `kind`, `id` and `state` (id0 in [3]) are read only with flag bit 1.
 *
 * One pass over the rows (allocate-steps.ts runs firstPass, then wholeElasticPass; fused here):
 * per cell, with a = the hard LQ's constant rate (step 1), e = the elastic demand above
 * the residue threshold (step 3 whole), u = w - a - e and sp = u above the threshold
 * (step 4 whole), alloc = a + e + sp, sum3 += e, sum4 += sp. wholeElasticPass counts sp
 * only when some guarantee is live; without one every row has a = 0, so u = w - e is 0
 * (e = w) or at most the threshold (e = 0) and sp = 0 anyway: the same numbers. Adding a
 * +0 where the TS pass adds nothing changes no sum (they start at +0 and only grow). Two
 * resources per f64x2 lane pair (an odd K's last one alone); each lane does the scalar
 * operations, so the twin's scalar loop gives the same bits. Validation is accumulated
 * (one mask) and the first bad row looked up only when the mask says so.
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
  const kp = k & ~1; // resources in lane pairs; an odd K's last one alone
  const rowBytes = <usize>k << 3;
  const zero = f64x2.splat(0), maxv = f64x2.splat(MAXF), ones = i64x2.splat(-1);
  let okAcc = ones;
  let anyG = false, wild = false;
  for (let i = 0; i < n; i++) {
    const c = ldb(cls, i);
    if (c > REJECTED) return firstBad(n, k, after, id0, cls, hasGuarantee, kind, id, want, rate, rem, useW, scratch);
    const rowOff = <usize>i * rowBytes;
    let hasG: bool;
    let rateRow = rate + rowOff;
    if (after) {
      hasG = c <= SOFT && ldb(kind, i) == 1;
      if (hasG) rateRow = rate + <usize>(load<i32>(id + (<usize>i << 2)) - id0) * rowBytes;
    } else {
      hasG = ldb(hasGuarantee, i) != 0;
    }
    let g = false;
    if (hasG) {
      const remRow = rem + rowOff;
      let pos = zero;
      for (let r = 0; r < kp; r += 2) {
        const o = <usize>r << 3;
        const x = v128.load(rateRow + o), y = v128.load(remRow + o);
        okAcc = v128.and(okAcc, v128.and(v128.and(f64x2.ge(x, zero), f64x2.le(x, maxv)), v128.and(f64x2.ge(y, zero), f64x2.le(y, maxv))));
        pos = v128.or(pos, f64x2.gt(y, zero));
      }
      if (kp < k) {
        const x = ldf(rateRow, kp), y = ldf(remRow, kp);
        if (!(x >= 0 && x <= MAXF && y >= 0 && y <= MAXF)) okAcc = zero;
        if (y > 0) pos = ones;
      }
      g = c <= SOFT && v128.any_true(pos);
    }
    stb(live, i, g ? 1 : 0);
    if (g) {
      anyG = true;
      // a live soft LQ: SRPT (step 2) is the general path's (which also validates)
      if (c == SOFT) return BOPF_GENERAL;
    }
    okAcc = v128.and(okAcc, roundRow(want + rowOff, alloc + rowOff, rateRow, g && c == HARD, c != REJECTED && !g, c != REJECTED, k, kp, thr, left, sum3, sum4, zero, ones, maxv));
    if (useW != 0) {
      const wt = ldf(useW, i);
      if (!(wt > 0 && isFiniteF64(wt))) okAcc = zero;
      if (!(wt >= W_MIN && wt <= W_MAX)) wild = true;
    }
  }
  if (!i64x2.all_true(okAcc)) {
    const code = firstBad(n, k, after, id0, cls, hasGuarantee, kind, id, want, rate, rem, useW, scratch);
    if (code != OK) return code;
  }
  if (wild || !clearlyFits(sum3, left, cap, k, n)) return BOPF_GENERAL;
  if (anyG) {
    // leftBound (the twin's roundStatus): a lower bound of what step 3 leaves, then clearlyFits on it
    const mm = <f64>(n + 16) * TWO_M48;
    for (let r = 0; r < k; r++) stf(left, r, ldf(left, r) * (1 - mm) - ldf(sum3, r) * (1 + mm));
    if (!clearlyFits(sum4, left, cap, k, n)) return BOPF_GENERAL;
  }
  return OK;
}

/**
 * One row of the allocation-only round (allocateInstantFlat's steps 1, 3 and 4 for this row,
 * both callers: the fused pass of bopfAdmit and bopfAllocate): a live hard guarantee takes
 * min(rate, want, left) from `left` (step 1); an elastic or expired row's want above the
 * residue threshold `thr` adds to sum3 (step 3); what is then unmet above `thr` adds to sum4
 * (step 4); the allocation is their sum. Returns all-ones lanes when every want is a valid
 * demand (0 <= w <= MAXF), else zero (the caller ands it into its error mask).
 */
@inline function roundRow(
  wantRow: usize, allocRow: usize, rateRow: usize, hardLive: bool, step3: bool, step4: bool,
  k: i32, kp: i32, thr: usize, left: usize, sum3: usize, sum4: usize, zero: v128, ones: v128, maxv: v128,
): v128 {
  let ok = ones;
  const eM = step3 ? ones : zero;
  const nM = step4 ? ones : zero;
  for (let r = 0; r < kp; r += 2) {
    const o = <usize>r << 3;
    const w = v128.load(wantRow + o), th = v128.load(thr + o);
    ok = v128.and(ok, v128.and(f64x2.ge(w, zero), f64x2.le(w, maxv)));
    let a = zero;
    if (hardLive) {
      const l = v128.load(left + o);
      a = f64x2.min(f64x2.min(v128.load(rateRow + o), w), l);
      v128.store(left + o, f64x2.sub(l, a));
    }
    const e = v128.and(w, v128.and(eM, f64x2.gt(w, th)));
    v128.store(sum3 + o, f64x2.add(v128.load(sum3 + o), e));
    const u = f64x2.sub(f64x2.sub(w, a), e);
    const sp = v128.and(u, v128.and(nM, f64x2.gt(u, th)));
    v128.store(sum4 + o, f64x2.add(v128.load(sum4 + o), sp));
    // never above want: a + e + (want - a - e) can round one ulp above it
    const tot = f64x2.add(f64x2.add(a, e), sp);
    v128.store(allocRow + o, v128.bitselect(w, tot, f64x2.gt(tot, w)));
  }
  if (kp < k) {
    const w = ldf(wantRow, kp), th = ldf(thr, kp);
    if (!(w >= 0 && w <= MAXF)) ok = zero;
    let a: f64 = 0;
    if (hardLive) {
      const l = ldf(left, kp);
      a = min(min(ldf(rateRow, kp), w), l);
      stf(left, kp, l - a);
    }
    const e: f64 = step3 && w > th ? w : 0;
    stf(sum3, kp, ldf(sum3, kp) + e);
    const u = w - a - e;
    const sp: f64 = step4 && u > th ? u : 0;
    stf(sum4, kp, ldf(sum4, kp) + sp);
    const tot = a + e + sp;
    stf(allocRow, kp, tot > w ? w : tot);
  }
  return ok;
}
