// SRPT among BoPF's soft-guarantee LQs (docs/policies/bopf.md, allocation step 2), one call for all of them.
//
// Each soft LQ i that is inside a guaranteed burst reports three K-vectors:
//   want[i]      what it could hold right now (Leontief: it uses resources only in these proportions)
//   rate[i]      its burst rate r_i(n) = d_i(n) / t_i(n): the guarantee never exceeds it
//   remaining[i] burst volume d_i(n) minus what it has consumed so far
// The queues are served in order of remaining volume expressed as a dominant share,
// key_i = max_k remaining[i][k] / C[k] (smallest first, ties by index: the radix sort is
// stable), so the burst closest to completion finishes first — shortest remaining
// processing time. Each in turn gets the largest Leontief fraction of its want that stays
// within its rate and within what is still available:
//   lambda_i = min(1, min over k with want[i][k] > 0 of rate[i][k] / want[i][k], left[k] / want[i][k])
// and left -= lambda_i * want[i]. O(N*K + sort).
//
// Worked example: C = <10, 10>, available <6, 8>.
//   A: remaining <4, 2> (key 0.4), want <4, 2>,   rate <2, 1>
//   B: remaining <1, 3> (key 0.3), want <3, 6>,   rate <3, 6>
//   C: remaining <8, 8> (key 0.8), want <10, 10>, rate <5, 5>
// Order B, A, C. B: lambda = min(1, 3/3, 6/3, 8/6) = 1 -> <3, 6>, left <3, 2>.
// A: min(1, 2/4, 1/2, 3/4, 2/2) = 0.5 -> <2, 1>, left <1, 1>.
// C: min(1, 5/10, 1/10, 1/10) = 0.1 -> <1, 1>, left <0, 0>.
//
// Edge values: want all zero -> lambda 0 (nothing it could use); an available resource of
// 0 blocks every queue that wants it; n = 0 is a no-op; remaining all zero sorts first
// (the caller stops guaranteeing consumed bursts, so it normally does not pass them).
//
// How it is computed (same results as the formula above, bit for bit; the JS twin
// src/kernels/srpt/twin.ts does the same steps). Each step touches the data once and
// allocates nothing:
// 1. scanRows, one sequential pass over want, rate, remaining, two resources per SIMD lane
//    pair: validation, key_i, the rate cap cap_i = min(1, min over want > 0 of rate / want)
//    (0 when nothing is wanted) and a bit mask of the wanted resources.
// 2. lambda is zero-filled; the queue that comes first (smallest key, then index, found by
//    the scan) is served alone, the long way.
// 3. The rest in key order: bucketRecordsByKey (util/radix.ts) spreads them over ~N/16
//    buckets in key order, one counting pass writing a 16-byte record per queue (key
//    bits, index, mask; the keys' range comes from the scan, no extra pass). Bucket by
//    bucket, read in sequence, a queue whose mask meets a resource already at left = 0
//    (or wants nothing) keeps lambda 0 without its row being read, and is not even
//    sorted: in a typical round that is most of them, since one exhausted resource
//    blocks everyone who wants it (and stays exhausted). Only the bucket's other
//    queues are sorted exactly, as (key bits, index) pairs copied from the records
//    (sortPairsByKey: no key is looked up by index). They collect into a list that,
//    every BLOCK queues, is gathered into a small buffer and run through the greedy
//    step. The gather is the one access in key order to the big inputs (a random row
//    of `want` per queue served, a cache miss each once the inputs leave the cache): a
//    first loop only touches each row, so that with its short body many misses are in
//    flight at once, then the copy finds the rows in cache. A queue that fits (cap_i *
//    want < left wherever want > 0) gets lambda = cap_i with no division and leaves
//    every left > 0; only the others divide, clamp and may mark a resource exhausted.
//    (A queue collected before a resource ran out in the same list is still exact: it
//    meets left = 0 and gets min(..., +0 / w) = +0 the long way.)
// 4. allocRows, one sequential pass: allocation = lambda * want.
// min and max are exact and order-free (also on signed zeros), so splitting lambda's min
// into cap_i and the left terms changes no bit. Skipping a blocked queue is exact because
// its lambda is min(..., +0 / w) = +0 and its row +0 * want = +0; the three ways a signed
// zero could leak in are excluded: a queue with a -0 anywhere in its row (a -0 want gives
// -0 allocations, a -0 rate a -0 lambda) is flagged FULL and never skipped, and a -0 in
// `available` is turned into +0 by the first queue's clamp (left = max(0, ...)), so the
// first queue always goes the long way and the shortcuts start after it.
// Example (above; masks 0b11, caps B 1, A 0.5, C 0.5): B fits (<3, 6> < <6, 8>): lambda 1
// without a division; A fits (<2, 1> < <3, 2>): 0.5; C does not (<5, 5> vs <1, 1>):
// min(0.5, 1/10, 1/10) = 0.1 and both resources reach 0, so a fourth queue D after C with
// want <0, 5> (mask 0b10) is skipped: lambda 0, allocation <0, 0>, its row never read.

import { ldf, stf, ldu, stu, align8, isFiniteF64 } from "./util/mem";
import { bucketRecordsByKey, recordBoundsBytes, sortPairsByKey, radixScratchBytes, RECORD_BYTES } from "./util/radix";
import { OK, E_CAPACITY, E_AVAILABLE, E_DEMAND, E_RATE, E_VOLUME } from "./util/status";

// queues per gather/greedy round: the buffers stay in L1 (BLOCK * K f64)
const BLOCK: i32 = 256;
// resources 0..MASK_BITS-1 have a bit in a queue's mask (pairs fill it exactly: MASK_BITS even)
const MASK_BITS: i32 = 30;
// mask flag: never skip this queue (it wants a resource past MASK_BITS, or a signed zero
// would make its output differ from a plain +0 row)
const FULL: u32 = 0x80000000;

/** K rounded up to even: buffer rows hold whole lane pairs (the pad lane is want 0). */
@inline function evenK(k: i32): i32 {
  return (k + 1) & ~1;
}

/**
 * Scratch layout: error index and the largest key's high word (8 bytes), keys (N f64),
 * rate caps (N f64), masks (N u32), served ids (N u32), their key bits (N u64), bucketed
 * records (N x 16 bytes), bucket bounds, left (K even f64), block rows (BLOCK x K even
 * f64), block caps (BLOCK f64 and a sink), radix.
 */
export function srptScratchBytes(n: i32, k: i32): f64 {
  // summed in f64 like drfScratchBytes: the terms fit in 32 bits, the sum may not
  const kp = <usize>evenK(k);
  return <f64>(8 + (<usize>n << 4)) + <f64>(align8(<usize>n << 2) * 2) + <f64>(<usize>n << 3) + <f64>(<usize>n * RECORD_BYTES)
    + <f64>align8(recordBoundsBytes(n)) + <f64>(kp << 3)
    + <f64>(((<usize>BLOCK * kp) << 3) + (<usize>(BLOCK + 1) << 3))
    + <f64>radixScratchBytes(n);
}

/**
 * Writes lambda (fraction of want granted) and the allocation lambda*want for every soft
 * LQ. Returns a status from util/status; on error the offending flat index is the i32 at `scratch`.
 */
export function srpt(
  n: i32, k: i32,
  cap: usize, avail: usize, want: usize, rate: usize, remaining: usize,
  outLambda: usize, outAlloc: usize,
  scratch: usize,
): i32 {
  const kp = evenK(k);
  let p = scratch + 8;
  const keys = p; p += <usize>n << 3;
  const caps = p; p += <usize>n << 3;
  const masks = p; p += align8(<usize>n << 2);
  const ids = p; p += align8(<usize>n << 2);
  const idKeys = p; p += <usize>n << 3;
  const recs = p; p += <usize>n * RECORD_BYTES;
  const bounds = p; p += align8(recordBoundsBytes(n));
  const left = p; p += <usize>kp << 3;
  const rows = p; p += (<usize>BLOCK * <usize>kp) << 3;
  const capBuf = p; p += <usize>(BLOCK + 1) << 3;
  const radix = p;

  for (let r = 0; r < k; r++) {
    const c = ldf(cap, r);
    if (!(c > 0) || !isFiniteF64(c)) return fail(scratch, E_CAPACITY, r);
  }
  for (let r = 0; r < k; r++) {
    const a = ldf(avail, r);
    if (!(a >= 0) || !isFiniteF64(a)) return fail(scratch, E_AVAILABLE, r);
    stf(left, r, a);
  }
  if (k < kp) stf(left, k, 0);
  // validate every row first so an error leaves the outputs untouched
  const first = scanRows(n, k, cap, want, rate, remaining, keys, caps, masks, scratch);
  if (first < 0) return -first;
  memory.fill(outLambda, 0, <usize>n << 3);
  if (n == 0) return OK;

  // the first queue (smallest key, then index) the long way: its clamp turns a -0 in left into +0
  stu(ids, 0, <u32>first);
  let zero = serveBlock(1, k, kp, want, caps, left, rows, ids, capBuf, outLambda, 0, false);
  // the others bucket by bucket in key order; only the queues not yet blocked are sorted
  // (the keys' high words range from the smallest key's, the first queue's, to the largest's)
  const lo = <u32>(load<u64>(keys + (<usize>first << 3)) >> 32), hi = load<u32>(scratch, 4);
  const nb = bucketRecordsByKey(n, keys, masks, lo, hi, recs, bounds);
  let c = 0;
  for (let b = 0; b < nb; b++) {
    const e = recs + (<usize>ldu(bounds, b + 1) << 4);
    const c0 = c;
    // keep the queues not already known to get nothing (branch-free: ids[c] and
    // idKeys[c] are overwritten until a kept one advances c)
    for (let rec = recs + (<usize>ldu(bounds, b) << 4); rec < e; rec += RECORD_BYTES) {
      const i = load<u32>(rec, 8), m = load<u32>(rec, 12);
      store<u64>(idKeys + (<usize>c << 3), load<u64>(rec));
      stu(ids, c, i);
      c += <i32>((m != 0) & ((m & zero) == 0) & (i != <u32>first));
    }
    if (c - c0 > 1) sortPairsByKey(c - c0, idKeys + (<usize>c0 << 3), ids + (<usize>c0 << 2), radix);
    if (c >= BLOCK) {
      zero = serveBlock(c, k, kp, want, caps, left, rows, ids, capBuf, outLambda, zero, true);
      c = 0;
    }
  }
  if (c > 0) serveBlock(c, k, kp, want, caps, left, rows, ids, capBuf, outLambda, zero, true);
  allocRows(n, k, want, outLambda, outAlloc);
  return OK;
}

/**
 * Step 1: validates want, rate, remaining row by row and writes each row's key, rate cap
 * and mask. Returns the queue that comes first (smallest key, then index), or -status.
 * Lane pairs, with a cheap check per pair: the sum of the three entries is finite and none
 * has its sign bit set. A row that fails it (a bad entry, a -0, or a sum past f64.MAX)
 * goes through rowCheck, which finds the first bad index or flags the row FULL.
 * Both reductions are exact as pmax: every value is >= +0 and not NaN once the row is
 * valid, and the running max starts at +0 (a -0 quotient never replaces it).
 */
function scanRows(
  n: i32, k: i32, cap: usize, want: usize, rate: usize, remaining: usize,
  keys: usize, caps: usize, masks: usize, scratch: usize,
): i32 {
  const zero = f64x2.splat(0), one = f64x2.splat(1), inf = f64x2.splat(Infinity);
  let least: f64 = Infinity, most: f64 = 0, first = 0;
  for (let i = 0; i < n; i++) {
    const base = <usize>(i * k) << 3;
    let keyv = zero, sum = zero, signs = zero, capv = one;
    let mask: u32 = 0;
    let r = 0;
    for (; r + 1 < k; r += 2) {
      const at = base + (<usize>r << 3);
      const w = v128.load(want + at), rt = v128.load(rate + at), v = v128.load(remaining + at);
      sum = f64x2.add(sum, f64x2.add(w, f64x2.add(rt, v)));
      signs = v128.or(signs, v128.or(w, v128.or(rt, v)));
      keyv = f64x2.pmax(keyv, f64x2.div(v, v128.load(cap + (<usize>r << 3))));
      const pos = f64x2.gt(w, zero);
      // rate / 0 is inf or NaN: replaced by +inf where want is not > 0
      capv = f64x2.pmin(capv, v128.bitselect(f64x2.div(rt, w), inf, pos));
      const bits = <u32>i64x2.bitmask(pos);
      mask |= r < MASK_BITS ? bits << <u32>r : (bits != 0 ? FULL : 0);
    }
    if (r < k) { // odd K: the last resource alone, in lane 0 (lane 1 stays 0)
      const at = base + (<usize>r << 3);
      const w = f64x2.replace_lane(zero, 0, load<f64>(want + at));
      const rt = f64x2.replace_lane(zero, 0, load<f64>(rate + at));
      const v = f64x2.replace_lane(zero, 0, load<f64>(remaining + at));
      sum = f64x2.add(sum, f64x2.add(w, f64x2.add(rt, v)));
      signs = v128.or(signs, v128.or(w, v128.or(rt, v)));
      keyv = f64x2.pmax(keyv, f64x2.div(v, f64x2.splat(ldf(cap, r))));
      const pos = f64x2.gt(w, zero); // lane 1 holds want 0: never > 0
      capv = f64x2.pmin(capv, v128.bitselect(f64x2.div(rt, w), inf, pos));
      const bits = <u32>i64x2.bitmask(pos);
      mask |= r < MASK_BITS ? bits << <u32>r : (bits != 0 ? FULL : 0);
    }
    keyv = f64x2.pmax(keyv, v128.shuffle<f64>(keyv, keyv, 1, 0));
    const key = f64x2.extract_lane(keyv, 0);
    stf(keys, i, key);
    if (key < least) { // rarely taken after the first rows: well predicted
      least = key;
      first = i;
    }
    most = max(most, key);
    capv = f64x2.pmin(capv, v128.shuffle<f64>(capv, capv, 1, 0));
    let capLam = mask != 0 ? f64x2.extract_lane(capv, 0) : 0.0;
    // finite sum (x - x == 0) and no sign bit, else the slow check
    if (!i64x2.all_true(f64x2.eq(f64x2.sub(sum, sum), zero)) || i64x2.bitmask(signs) != 0) {
      const bad = rowCheck(i, k, want, rate, remaining, scratch);
      if (bad != OK) return -bad;
      // valid, so some entry is -0 (or the sum overflowed): never skip (see the header),
      // and the cap with min's signed-zero rule
      mask = FULL;
      capLam = exactCap(i, k, want, rate);
    }
    stf(caps, i, capLam);
    store<u32>(masks + (<usize>i << 2), mask);
  }
  store<u32>(scratch, <u32>(reinterpret<u64>(most) >> 32), 4);
  return first;
}

/**
 * Row i failed the lane check: the first bad entry (want, rate, remaining at each flat
 * index in turn) as a status, or OK when the row is valid (a -0, or a sum past f64.MAX).
 */
function rowCheck(i: i32, k: i32, want: usize, rate: usize, remaining: usize, scratch: usize): i32 {
  const base = i * k;
  for (let r = 0; r < k; r++) {
    const w = ldf(want, base + r);
    if (!(w >= 0) || !isFiniteF64(w)) return fail(scratch, E_DEMAND, base + r);
    const rt = ldf(rate, base + r);
    if (!(rt >= 0) || !isFiniteF64(rt)) return fail(scratch, E_RATE, base + r);
    const v = ldf(remaining, base + r);
    if (!(v >= 0) || !isFiniteF64(v)) return fail(scratch, E_VOLUME, base + r);
  }
  return OK;
}

/** Row i's rate cap min(1, rate / want over want > 0), 0 when nothing is wanted, with min. */
function exactCap(i: i32, k: i32, want: usize, rate: usize): f64 {
  const base = i * k;
  let c: f64 = 1.0;
  let any = false;
  for (let r = 0; r < k; r++) {
    const w = ldf(want, base + r);
    if (!(w > 0)) continue;
    any = true;
    c = min(c, ldf(rate, base + r) / w);
  }
  return any ? c : 0.0;
}

/**
 * Steps 2-3 for the c queues ids[0..c), in key order, BLOCK at a time (what the buffers
 * hold): gather their wants and rate caps, run the greedy step, write lambda. Returns the
 * mask of resources at left = 0. `fast` off (the first queue) takes the long way, whose
 * clamp max(0, .) turns a -0 in left into +0.
 * min here is f64x2.min (not pmin): lambda may legitimately be -0 (FULL rows, the first queue).
 */
function serveBlock(
  c: i32, k: i32, kp: i32, want: usize, caps: usize, left: usize,
  rows: usize, ids: usize, capBuf: usize, outLambda: usize, zero: u32, fast: bool,
): u32 {
  for (let t0 = 0; t0 < c; t0 += BLOCK) {
    zero = serveChunk(min(BLOCK, c - t0), k, kp, want, caps, left, rows, ids + (<usize>t0 << 2), capBuf, outLambda, zero, fast);
  }
  return zero;
}

/** serveBlock for at most BLOCK queues (what the buffers hold). */
function serveChunk(
  c: i32, k: i32, kp: i32, want: usize, caps: usize, left: usize,
  rows: usize, ids: usize, capBuf: usize, outLambda: usize, zero: u32, fast: bool,
): u32 {
  const rowBytes = <usize>kp << 3;
  const zv = f64x2.splat(0), inf = f64x2.splat(Infinity);
  // touch first: a short loop body lets more rows' misses be in flight at once
  let sink: u64 = 0;
  const last = <usize>(k - 1) << 3;
  for (let t = 0; t < c; t++) {
    const i = ldu(ids, t);
    const src = want + ((<usize>i * <usize>k) << 3);
    sink |= load<u64>(src) | load<u64>(src + last) | load<u64>(caps + (<usize>i << 3)) | load<u64>(outLambda + (<usize>i << 3));
  }
  store<u64>(capBuf + (<usize>BLOCK << 3), sink);
  // gather: independent iterations, so the cache misses overlap
  for (let t = 0; t < c; t++) {
    const i = ldu(ids, t);
    const src = want + ((<usize>i * <usize>k) << 3), dst = rows + <usize>t * rowBytes;
    let r = 0;
    for (; r + 1 < k; r += 2) v128.store(dst + (<usize>r << 3), v128.load(src + (<usize>r << 3)));
    if (r < k) v128.store(dst + (<usize>r << 3), f64x2.replace_lane(zv, 0, load<f64>(src + (<usize>r << 3))));
    stf(capBuf, t, load<f64>(caps + (<usize>i << 3)));
  }
  // the greedy step: lambda = min(cap, left / want over want > 0); left = max(0, left - lambda * want)
  for (let t = 0; t < c; t++) {
    const row = rows + <usize>t * rowBytes;
    const cv = f64x2.splat(ldf(capBuf, t));
    // Most queues fit: cap * want < left wherever want > 0. Then lambda = cap without a
    // division (fl(cap*w) < left, both doubles, means the exact cap*w < left, so
    // fl(left/w) >= cap), and left - cap*w stays > 0, so no resource runs out. Only this
    // test waits for the previous queue's left; the branch is predicted, so consecutive
    // queues overlap instead of waiting out a division each.
    let fits = i64x2.splat(-1);
    for (let r = 0; r < kp; r += 2) {
      const w = v128.load(row + (<usize>r << 3));
      fits = v128.and(fits, v128.or(f64x2.lt(f64x2.mul(cv, w), v128.load(left + (<usize>r << 3))), f64x2.le(w, zv)));
    }
    if (fast && i64x2.all_true(fits)) {
      stf(outLambda, <i32>ldu(ids, t), f64x2.extract_lane(cv, 0));
      for (let r = 0; r < kp; r += 2) {
        const lat = left + (<usize>r << 3);
        v128.store(lat, f64x2.sub(v128.load(lat), f64x2.mul(cv, v128.load(row + (<usize>r << 3)))));
      }
      continue;
    }
    let lv = cv;
    for (let r = 0; r < kp; r += 2) {
      const w = v128.load(row + (<usize>r << 3));
      const q = f64x2.div(v128.load(left + (<usize>r << 3)), w);
      lv = f64x2.min(lv, v128.bitselect(q, inf, f64x2.gt(w, zv)));
    }
    lv = f64x2.min(lv, v128.shuffle<f64>(lv, lv, 1, 0));
    stf(outLambda, <i32>ldu(ids, t), f64x2.extract_lane(lv, 0));
    for (let r = 0; r < kp; r += 2) {
      const lat = left + (<usize>r << 3);
      const a = f64x2.mul(lv, v128.load(row + (<usize>r << 3)));
      // lam = left/want can round lam*want one ulp above left: clamp so nothing goes
      // negative (pmax(+0, x) is max(+0, x) for any x that is not NaN, -0 included)
      const l = f64x2.pmax(zv, f64x2.sub(v128.load(lat), a));
      v128.store(lat, l);
      if (r < MASK_BITS) zero |= <u32>i64x2.bitmask(f64x2.eq(l, zv)) << <u32>r;
    }
  }
  return zero;
}

/**
 * Step 4: allocation = lambda * want, one sequential pass (the same product the greedy
 * step subtracted from left; +0 * want = +0 for the queues it skipped).
 */
function allocRows(n: i32, k: i32, want: usize, lambda: usize, outAlloc: usize): void {
  for (let i = 0; i < n; i++) {
    const lv = f64x2.splat(ldf(lambda, i));
    const base = <usize>(i * k) << 3;
    let r = 0;
    for (; r + 1 < k; r += 2) {
      const at = base + (<usize>r << 3);
      v128.store(outAlloc + at, f64x2.mul(lv, v128.load(want + at)));
    }
    if (r < k) {
      const at = base + (<usize>r << 3);
      store<f64>(outAlloc + at, f64x2.extract_lane(lv, 0) * load<f64>(want + at));
    }
  }
}

@inline function fail(scratch: usize, code: i32, index: i32): i32 {
  store<i32>(scratch, index);
  return code;
}
