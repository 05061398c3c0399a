// bopfAdmit's rows (assembly/bopf.ts) specialised for K = 1..8 resources, without summary
// rows (flag bit 0), with or without the fused round (flag bit 1): what decideRound and
// admitBatch run. The same operations per lane as the generic loop, so the same bits (the
// JS twin src/kernels/bopf/twin.ts is the reference for both), but with K a compile-time
// constant every per-resource quantity is a register: the row's volumes and rates, the
// capacities and bounds, the running hard sums, and the round's left, sum3 and sum4 (in
// the generic loop these live in scratch memory, and each row's load-add-store of them
// waited on the previous row's store). Resources go two per f64x2 lane pair; an odd K's
// last pair has a zero second lane (load64_zero, stored with store64_lane): a zero volume
// tolerates any count and never binds, a zero rate, want and capacity add nothing.
//
// The round's rows take one of three shapes (bopfAllocate's formulas with its masks
// worked out; all three give the generic formulas' bits, argued per shape below):
//   live hard LQ    a = min(rate, want, left), left -= a, sp = (want - a) above the residue
//                   threshold, alloc = (a + 0) + sp, sum4 += sp
//   rejected        alloc = 0
//   any other row   e = want above the threshold, alloc = e, sum3 += e
// A live soft LQ makes the round general: the rest of the pass skips the round entirely.
// The mins are f64x2.pmin (b < a ? b : a: one instruction, where f64x2.min's NaN and
// signed-zero rules cost several): they differ from min only on a NaN (a bad want: the
// round is not OK anyway) and on the sign of a zero result, which no output keeps:
// left - (+-0) = left, (+-0) + (+0) = +0, and want - a is then a zero that sp drops.
// A run of TQ rows whose last row passes the safety condition is written in bulk (every
// row of it is elastic, all held, with the next id: M grows, the smallest guaranteed
// tolerance does not move).
// Worked example (K = 2, C = <10, 10>, threshold 1e-11): a TQ wanting <1, 1e-12> gets
// e = <1, 0> (the second is residue), sum3 <1, 0>; a live hard LQ with rate <6, 3> and
// want <8, 4> gets a = <6, 3>, left <4, 7>, sp = <2, 1>, alloc <8, 4>.
// Edge values: K = 1 (one lane of one pair), K = 8 (four full pairs), a want of -0 (no
// allocation, +0 out), a bad want cell or an infinite rate (the round is not OK: the
// general path names it).
import { ldf, stf, ldb, stb, isFiniteF64 } from "../util/mem";
import { OK } from "../util/status";
import {
  HARD, SOFT, ELASTIC, REJECTED, R_SAFETY, R_FAIRNESS, R_RESOURCE, R_ALL_HELD, TWO_M48F, MIN_D, EXHAUSTED, MAXF,
  toleranceByLane, badRow, roundStatus,
} from "./common";

// Lane-pair constants as loads from a static table: V8 materialises a v128 constant at each
// use from immediates (several instructions), a load from L1 is one.
const CONSTS: usize = memory.data<f64>([
  Infinity, Infinity, MAXF, MAXF, 1, 1, TWO_M48F, TWO_M48F, MIN_D, MIN_D,
], 16);
const C_INF: usize = 0, C_MAX: usize = 16, C_ONE: usize = 32, C_REL: usize = 48, C_DMIN: usize = 64;

@inline function cst(off: usize): v128 {
  return v128.load(CONSTS + off);
}

/** Pair j of a K-vector: resources 2j and 2j+1 (the second lane 0 past an odd K). */
@inline function slot(p: usize, j: i32, K: i32): v128 {
  return 2 * j + 1 == K ? v128.load64_zero(p + (<usize>j << 4)) : v128.load(p + (<usize>j << 4));
}

/** Stores pair j of a K-vector (only the first lane past an odd K). */
@inline function put(p: usize, j: i32, K: i32, v: v128): void {
  if (2 * j + 1 == K) v128.store64_lane(p + (<usize>j << 4), v, 0);
  else v128.store(p + (<usize>j << 4), v);
}

/** Lanes of a pair that are not a finite number >= 0. */
@inline function badLanes(v: v128): v128 {
  return v128.not(v128.and(f64x2.ge(v, f64x2.splat(0)), f64x2.le(v, cst(C_MAX))));
}

/**
 * tolerance()'s fast test for one pair (fastCount per lane: v the volumes, q the first
 * division, m its floor): lanes with a volume > 0 whose count is not fast.
 */
@inline function slowLanes(v: v128, q: v128, m: v128, pos: v128): v128 {
  const m1 = f64x2.add(m, cst(C_ONE));
  const fast = v128.and(
    v128.and(f64x2.ge(v, cst(C_DMIN)), f64x2.gt(q, m)),
    f64x2.ge(f64x2.sub(m1, q), f64x2.mul(m1, cst(C_REL))),
  );
  return v128.andnot(pos, fast);
}

/**
 * The first division of a pair, C * period / |v|: the same bits as C * period / v where v > 0;
 * where v is +-0 it is +Infinity (or NaN for a zero C * period, or a padding lane), which
 * pmin never takes over a count: such resources never bind, as in tolerance().
 */
@inline function firstDiv(c: v128, pv: v128, v: v128): v128 {
  return f64x2.div(f64x2.mul(c, pv), f64x2.abs(v));
}

/** The shortest run of TQ rows written in bulk (shorter ones go row by row). */
const TQ_RUN: i32 = 4;

/** Flag bit 0 with K <= 8: the row loop for that K, with (ROUND) or without the fused round. */
export function admitFast(
  n: i32, k: i32, round: bool, cap: usize, bound: usize, hard: usize, state: usize,
  kind: usize, start: usize, period: usize, window: usize, count: usize, volume: usize, want: usize,
  cls: usize, reason: usize, id: usize, clsById: usize, kindById: usize, gkey: usize, gid: usize,
  alloc: usize, scratch: usize,
): i32 {
  if (round) {
    switch (k) {
      case 1: return rowsK(1, true, n, cap, bound, hard, state, kind, start, period, window, count, volume, want, cls, reason, id, clsById, kindById, gkey, gid, alloc, scratch);
      case 2: return rowsK(2, true, n, cap, bound, hard, state, kind, start, period, window, count, volume, want, cls, reason, id, clsById, kindById, gkey, gid, alloc, scratch);
      case 3: return rowsK(3, true, n, cap, bound, hard, state, kind, start, period, window, count, volume, want, cls, reason, id, clsById, kindById, gkey, gid, alloc, scratch);
      case 4: return rowsK(4, true, n, cap, bound, hard, state, kind, start, period, window, count, volume, want, cls, reason, id, clsById, kindById, gkey, gid, alloc, scratch);
      case 5: return rowsK(5, true, n, cap, bound, hard, state, kind, start, period, window, count, volume, want, cls, reason, id, clsById, kindById, gkey, gid, alloc, scratch);
      case 6: return rowsK(6, true, n, cap, bound, hard, state, kind, start, period, window, count, volume, want, cls, reason, id, clsById, kindById, gkey, gid, alloc, scratch);
      case 7: return rowsK(7, true, n, cap, bound, hard, state, kind, start, period, window, count, volume, want, cls, reason, id, clsById, kindById, gkey, gid, alloc, scratch);
      default: return rowsK(8, true, n, cap, bound, hard, state, kind, start, period, window, count, volume, want, cls, reason, id, clsById, kindById, gkey, gid, alloc, scratch);
    }
  }
  switch (k) {
    case 1: return rowsK(1, false, n, cap, bound, hard, state, kind, start, period, window, count, volume, want, cls, reason, id, clsById, kindById, gkey, gid, alloc, scratch);
    case 2: return rowsK(2, false, n, cap, bound, hard, state, kind, start, period, window, count, volume, want, cls, reason, id, clsById, kindById, gkey, gid, alloc, scratch);
    case 3: return rowsK(3, false, n, cap, bound, hard, state, kind, start, period, window, count, volume, want, cls, reason, id, clsById, kindById, gkey, gid, alloc, scratch);
    case 4: return rowsK(4, false, n, cap, bound, hard, state, kind, start, period, window, count, volume, want, cls, reason, id, clsById, kindById, gkey, gid, alloc, scratch);
    case 5: return rowsK(5, false, n, cap, bound, hard, state, kind, start, period, window, count, volume, want, cls, reason, id, clsById, kindById, gkey, gid, alloc, scratch);
    case 6: return rowsK(6, false, n, cap, bound, hard, state, kind, start, period, window, count, volume, want, cls, reason, id, clsById, kindById, gkey, gid, alloc, scratch);
    case 7: return rowsK(7, false, n, cap, bound, hard, state, kind, start, period, window, count, volume, want, cls, reason, id, clsById, kindById, gkey, gid, alloc, scratch);
    default: return rowsK(8, false, n, cap, bound, hard, state, kind, start, period, window, count, volume, want, cls, reason, id, clsById, kindById, gkey, gid, alloc, scratch);
  }
}

/**
 * The loop (bopfAdmit's, header of assembly/bopf.ts) for a compile-time K and ROUND. Why
 * each round shape gives bopfAllocate's bits (e = want & (want > thr) & step-3 mask, u =
 * (want - a) - e, sp = u & (u > thr) & step-4 mask, alloc = (a + e) + sp): a live hard LQ
 * has e = +0, and x - (+0) = x, so u = want - a; sum3 + (+0) = sum3 (sums are >= +0). A
 * rejected row has a = e = sp = +0. Any other row has a = +0 and u = want - e, which is
 * +0 (e = want) or want <= thr (e = +0): sp = +0, alloc = (+0 + e) + (+0) = e, since e
 * is +0 or > 0 (for a bad want the round is not OK anyway).
 */
@inline function rowsK(
  K: i32, ROUND: bool, n: i32, cap: usize, bound: usize, hard: usize, state: usize,
  kind: usize, start: usize, period: usize, window: usize, count: usize, volume: usize, want: usize,
  cls: usize, reason: usize, id: usize, clsById: usize, kindById: usize, gkey: usize, gid: usize,
  alloc: usize, scratch: usize,
): i32 {
  const rowBytes = <usize>K << 3;
  const zero = f64x2.splat(0), ones = i64x2.splat(-1);
  // the residue thresholds C * EXHAUSTED in scratch (bopfAdmit's thr), read in the loop:
  // the loop-carried sums keep the registers
  const kb = <usize>K << 3;
  const left = scratch + 8 + align8n(n) + 2 * kb, thr = left + kb, sum3 = thr + kb, sum4 = sum3 + kb;
  for (let r = 0; r < K; r++) stf(thr, r, ldf(cap, r) * EXHAUSTED);
  let h0 = slot(hard, 0, K), h1 = K > 2 ? slot(hard, 1, K) : zero, h2 = K > 4 ? slot(hard, 2, K) : zero, h3 = K > 6 ? slot(hard, 3, K) : zero;
  let l0 = slot(cap, 0, K), l1 = K > 2 ? slot(cap, 1, K) : zero, l2 = K > 4 ? slot(cap, 2, K) : zero, l3 = K > 6 ? slot(cap, 3, K) : zero; // what step 1 leaves
  let s30 = zero, s31 = zero, s32 = zero, s33 = zero; // step 3's sums
  let s40 = zero, s41 = zero, s42 = zero, s43 = zero; // step 4's sums
  let m: f64 = ldf(state, 0);
  let minTol = ldf(state, 1);
  const nbopf = ldf(state, 2) != 0;
  const id0 = <i32>ldf(state, 3);
  let j = 0, g = 0, minId = -1;
  let okAcc = ones;
  let anyG = false, general = false;
  let scanned = 0; // rows before it belong to TQ runs already looked at
  for (let i = 0; i < n; i++) {
    const kd = ldb(kind, i);
    if (kd == 0 && i >= scanned) {
      // a run of TQs [i, e): if the safety condition holds for its last row it holds for all
      // (M grows by one per admitted row, the smallest guaranteed tolerance does not move),
      // and each row is then what the loop below would make it: elastic, all held, the next
      // id, and in the round its want above the residue threshold. Written in bulk.
      let e = i + 1;
      while (e < n && ldb(kind, e) == 0) e++;
      scanned = e;
      const L = e - i;
      if (L >= TQ_RUN && !(minTol < m + <f64>L)) {
        memory.fill(cls + <usize>i, ELASTIC, <usize>L);
        memory.fill(reason + <usize>i, R_ALL_HELD, <usize>L);
        memory.fill(clsById + <usize>j, ELASTIC, <usize>L);
        memory.fill(kindById + <usize>j, 2, <usize>L);
        const ids = id + (<usize>i << 2);
        let next = i32x4.add(i32x4(0, 1, 2, 3), i32x4.splat(id0 + j));
        const four = i32x4.splat(4);
        let p = 0;
        for (; p + 4 <= L; p += 4) {
          v128.store(ids + (<usize>p << 2), next);
          next = i32x4.add(next, four);
        }
        for (; p < L; p++) store<i32>(ids + (<usize>p << 2), id0 + j + p);
        if (ROUND && !general) {
          for (let r = i; r < e; r++) {
            const wr = want + <usize>r * rowBytes, ar = alloc + <usize>r * rowBytes;
            const w0 = slot(wr, 0, K), w1 = K > 2 ? slot(wr, 1, K) : zero, w2 = K > 4 ? slot(wr, 2, K) : zero, w3 = K > 6 ? slot(wr, 3, K) : zero;
            let badW = badLanes(w0);
            if (K > 2) badW = v128.or(badW, badLanes(w1));
            if (K > 4) badW = v128.or(badW, badLanes(w2));
            if (K > 6) badW = v128.or(badW, badLanes(w3));
            okAcc = v128.andnot(okAcc, badW);
            let ev = v128.and(w0, f64x2.gt(w0, slot(thr, 0, K)));
            s30 = f64x2.add(s30, ev);
            put(ar, 0, K, ev);
            if (K > 2) {
              ev = v128.and(w1, f64x2.gt(w1, slot(thr, 1, K)));
              s31 = f64x2.add(s31, ev);
              put(ar, 1, K, ev);
            }
            if (K > 4) {
              ev = v128.and(w2, f64x2.gt(w2, slot(thr, 2, K)));
              s32 = f64x2.add(s32, ev);
              put(ar, 2, K, ev);
            }
            if (K > 6) {
              ev = v128.and(w3, f64x2.gt(w3, slot(thr, 3, K)));
              s33 = f64x2.add(s33, ev);
              put(ar, 3, K, ev);
            }
          }
        }
        m += <f64>L;
        j += L;
        i = e - 1;
        continue;
      }
    }
    const isLQ = kd == 1;
    let t: f64 = Infinity;
    let pos = false, rateOk = true;
    let x0 = zero, x1 = zero, x2 = zero, x3 = zero; // the rates
    if (isLQ) {
      const vol = volume + <usize>i * rowBytes;
      const v0 = slot(vol, 0, K), v1 = K > 2 ? slot(vol, 1, K) : zero, v2 = K > 4 ? slot(vol, 2, K) : zero, v3 = K > 6 ? slot(vol, 3, K) : zero;
      const st = ldf(start, i), pr = ldf(period, i), w = ldf(window, i), c = ldf(count, i);
      // the gap: a single burst's is its window (src/bopf/bursts.ts); checks read the period itself
      const pe = c == 1 ? w : pr;
      let bad = badLanes(v0);
      if (K > 2) bad = v128.or(bad, badLanes(v1));
      if (K > 4) bad = v128.or(bad, badLanes(v2));
      if (K > 6) bad = v128.or(bad, badLanes(v3));
      const ok = isFiniteF64(st) && pr > 0 && isFiniteF64(pr) && w > 0 && isFiniteF64(w) && c >= 0 && Math.floor(c) == c && isFiniteF64(c) && !v128.any_true(bad);
      if (!ok) return badRow(i, K, kind, start, period, window, count, volume, scratch);
      const p0 = f64x2.gt(v0, zero), p1 = f64x2.gt(v1, zero), p2 = f64x2.gt(v2, zero), p3 = f64x2.gt(v3, zero);
      pos = v128.any_true(v128.or(v128.or(p0, p1), v128.or(p2, p3)));
      if (c > 0) {
        const wv = f64x2.splat(w);
        x0 = f64x2.div(v0, wv);
        if (K > 2) x1 = f64x2.div(v1, wv);
        if (K > 4) x2 = f64x2.div(v2, wv);
        if (K > 6) x3 = f64x2.div(v3, wv);
        if (ROUND) {
          // an infinite rate (volume / window overflows): the round's general path names it
          const maxv = cst(C_MAX);
          let big = f64x2.gt(x0, maxv);
          if (K > 2) big = v128.or(big, f64x2.gt(x1, maxv));
          if (K > 4) big = v128.or(big, f64x2.gt(x2, maxv));
          if (K > 6) big = v128.or(big, f64x2.gt(x3, maxv));
          rateOk = !v128.any_true(big);
        }
        // tolerance(): the first divisions C[r] * period / v[r], their floors, the fast test
        const pv = f64x2.splat(pe);
        const q0 = firstDiv(slot(cap, 0, K), pv, v0);
        const m0 = f64x2.floor(q0);
        let slow = slowLanes(v0, q0, m0, p0);
        // the minimum count: pmin(best, c) = c < best ? c : best (a NaN c never replaces), per
        // lane from +Infinity, then across the lanes. Which resource binds is not needed here:
        // the kernel writes no summary rows with flag bit 0 (the control derives them, bind
        // included, when read)
        let best = f64x2.pmin(cst(C_INF), m0);
        if (K > 2) {
          const q = firstDiv(slot(cap, 1, K), pv, v1), mm = f64x2.floor(q);
          slow = v128.or(slow, slowLanes(v1, q, mm, p1));
          best = f64x2.pmin(best, mm);
        }
        if (K > 4) {
          const q = firstDiv(slot(cap, 2, K), pv, v2), mm = f64x2.floor(q);
          slow = v128.or(slow, slowLanes(v2, q, mm, p2));
          best = f64x2.pmin(best, mm);
        }
        if (K > 6) {
          const q = firstDiv(slot(cap, 3, K), pv, v3), mm = f64x2.floor(q);
          slow = v128.or(slow, slowLanes(v3, q, mm, p3));
          best = f64x2.pmin(best, mm);
        }
        if (v128.any_true(slow)) {
          // some count near an integer boundary (or huge): every count exactly, in resource order
          t = toleranceByLane(K, K & ~1, cap, vol, pe);
        } else {
          t = f64x2.extract_lane(f64x2.pmin(best, i64x2.shuffle(best, best, 1, 0)), 0);
        }
      }
    } else if (kd != 0) {
      return badRow(i, K, kind, start, period, window, count, volume, scratch);
    }
    // (1) safety, (2) fairness, (3) resource
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
          why = R_FAIRNESS;
        } else {
          const y0 = f64x2.add(h0, x0), y1 = f64x2.add(h1, x1), y2 = f64x2.add(h2, x2), y3 = f64x2.add(h3, x3);
          let over = f64x2.gt(y0, slot(bound, 0, K));
          if (K > 2) over = v128.or(over, f64x2.gt(y1, slot(bound, 1, K)));
          if (K > 4) over = v128.or(over, f64x2.gt(y2, slot(bound, 2, K)));
          if (K > 6) over = v128.or(over, f64x2.gt(y3, slot(bound, 3, K)));
          if (!v128.any_true(over)) {
            c = HARD;
            h0 = y0; h1 = y1; h2 = y2; h3 = y3;
          } else {
            c = nbopf ? ELASTIC : SOFT;
            why = R_RESOURCE;
          }
        }
      }
      stb(cls, i, c);
      stb(reason, i, why);
      store<i32>(id + (<usize>i << 2), id0 + j);
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
    if (ROUND && !general) {
      const wr = want + <usize>i * rowBytes, ar = alloc + <usize>i * rowBytes;
      const w0 = slot(wr, 0, K), w1 = K > 2 ? slot(wr, 1, K) : zero, w2 = K > 4 ? slot(wr, 2, K) : zero, w3 = K > 6 ? slot(wr, 3, K) : zero;
      let badW = badLanes(w0);
      if (K > 2) badW = v128.or(badW, badLanes(w1));
      if (K > 4) badW = v128.or(badW, badLanes(w2));
      if (K > 6) badW = v128.or(badW, badLanes(w3));
      okAcc = v128.andnot(okAcc, badW);
      if (c <= SOFT && isLQ && pos) {
        // a live guarantee
        anyG = true;
        if (!rateOk) okAcc = zero;
        if (c == SOFT) {
          general = true; // SRPT (step 2): the general path
        } else {
          let a = f64x2.pmin(f64x2.pmin(x0, w0), l0);
          l0 = f64x2.sub(l0, a);
          let u = f64x2.sub(w0, a);
          let sp = v128.and(u, f64x2.gt(u, slot(thr, 0, K)));
          s40 = f64x2.add(s40, sp);
          put(ar, 0, K, atMost(f64x2.add(f64x2.add(a, zero), sp), w0));
          if (K > 2) {
            a = f64x2.pmin(f64x2.pmin(x1, w1), l1);
            l1 = f64x2.sub(l1, a);
            u = f64x2.sub(w1, a);
            sp = v128.and(u, f64x2.gt(u, slot(thr, 1, K)));
            s41 = f64x2.add(s41, sp);
            put(ar, 1, K, atMost(f64x2.add(f64x2.add(a, zero), sp), w1));
          }
          if (K > 4) {
            a = f64x2.pmin(f64x2.pmin(x2, w2), l2);
            l2 = f64x2.sub(l2, a);
            u = f64x2.sub(w2, a);
            sp = v128.and(u, f64x2.gt(u, slot(thr, 2, K)));
            s42 = f64x2.add(s42, sp);
            put(ar, 2, K, atMost(f64x2.add(f64x2.add(a, zero), sp), w2));
          }
          if (K > 6) {
            a = f64x2.pmin(f64x2.pmin(x3, w3), l3);
            l3 = f64x2.sub(l3, a);
            u = f64x2.sub(w3, a);
            sp = v128.and(u, f64x2.gt(u, slot(thr, 3, K)));
            s43 = f64x2.add(s43, sp);
            put(ar, 3, K, atMost(f64x2.add(f64x2.add(a, zero), sp), w3));
          }
        }
      } else if (c == REJECTED) {
        put(ar, 0, K, zero);
        if (K > 2) put(ar, 1, K, zero);
        if (K > 4) put(ar, 2, K, zero);
        if (K > 6) put(ar, 3, K, zero);
      } else {
        let e = v128.and(w0, f64x2.gt(w0, slot(thr, 0, K)));
        s30 = f64x2.add(s30, e);
        put(ar, 0, K, e);
        if (K > 2) {
          e = v128.and(w1, f64x2.gt(w1, slot(thr, 1, K)));
          s31 = f64x2.add(s31, e);
          put(ar, 1, K, e);
        }
        if (K > 4) {
          e = v128.and(w2, f64x2.gt(w2, slot(thr, 2, K)));
          s32 = f64x2.add(s32, e);
          put(ar, 2, K, e);
        }
        if (K > 6) {
          e = v128.and(w3, f64x2.gt(w3, slot(thr, 3, K)));
          s33 = f64x2.add(s33, e);
          put(ar, 3, K, e);
        }
      }
    }
  }
  put(hard, 0, K, h0);
  if (K > 2) put(hard, 1, K, h1);
  if (K > 4) put(hard, 2, K, h2);
  if (K > 6) put(hard, 3, K, h3);
  stf(state, 0, m);
  stf(state, 1, minTol);
  stf(state, 4, <f64>j);
  stf(state, 5, <f64>g);
  stf(state, 6, <f64>minId);
  if (ROUND) {
    // the end checks read left, sum3 and sum4 from scratch (bopfAdmit's layout)
    put(left, 0, K, l0); put(sum3, 0, K, s30); put(sum4, 0, K, s40);
    if (K > 2) { put(left, 1, K, l1); put(sum3, 1, K, s31); put(sum4, 1, K, s41); }
    if (K > 4) { put(left, 2, K, l2); put(sum3, 2, K, s32); put(sum4, 2, K, s42); }
    if (K > 6) { put(left, 3, K, l3); put(sum3, 3, K, s33); put(sum4, 3, K, s43); }
    stf(state, 7, <f64>roundStatus(n, K, general || !i64x2.all_true(okAcc), anyG, cap, left, sum3, sum4));
  }
  return OK;
}

@inline function align8n(n: i32): usize {
  return (<usize>n + 7) & ~(<usize>7);
}

/** The lanes of `tot`, but `w` where tot > w: a + (want - a) can round one ulp above want (src/bopf/allocate-steps.ts). */
@inline function atMost(tot: v128, w: v128): v128 {
  return v128.bitselect(w, tot, f64x2.gt(tot, w));
}
