// Plain (weighted) DRF without offsets: saturation levels by bucketed sums.
//
// Every queue ramps from theta = 0, so queue i ends at min(its cap e_i = delta_i / w_i,
// the first saturation level among the resources it uses). The saturation levels are found
// from bucketed sums instead of event by event:
//
//   use_r(theta) = F_r + sum_{live, e_i <= theta} D[i][r] + theta * sum_{live, e_i > theta} rate_i D[i][r]
//
// (F_r: what the already frozen queues hold). Pass 1 (pass1.ts) validates, computes delta,
// rate, e and the resource mask, and adds each row into the bucket of its key: the sums of
// D and of rate*D. Scanning the buckets in key order gives use_r at every bucket boundary,
// so the first boundary where some resource would overflow brackets the next saturation;
// only that bucket's queues are collected, sorted and walked cap by cap to solve for the
// level t. The resources that saturate at t get level[r] = t; the survivors (not capped at
// t, using none of the saturated resources) are bucketed again from their rows, and so on:
// at most one round per resource. Queues are not resolved in the rounds: the output pass
// (output.ts) gives each its lambda from the levels of the resources it uses.
//
// Round 1 works on all N queues by scanning the key and mask arrays (two sequential
// passes over N f64 keys and N u32 masks, no row reads); later rounds on the survivors'
// list (index order, so every sum is taken in the same order).
//
// Only inside its safe range (capacities 2^-256..2^256; delta, rate, key 2^-128..2^128):
// drf() sends every other call, and any row with a positive demand whose shares all
// underflow, to the event path (ROUTE_EVENT; why, in the header of assembly/drf.ts).
//
// Versus the event path's results: the same up to rounding (delta here is the largest
// D * (1/C) rather than D / C, except on rows redone exactly, and use is summed per bucket
// rather than updated by subtracting each capped queue), below 1e-11 relative on the
// benchmark instances; on extreme inputs (demands near 1e300 next to tiny ones, weights
// 1e-300) the event path's running subtraction can lose every digit, this path does not.
//
// Worked example (DRF paper, C = <9, 18>, D_A = <9, 36>, D_B = <27, 9>, w = 1): keys e =
// <2, 3>, rates <1/2, 1/3>. With one bucket, the bucket test at its upper bound (+Inf, the
// slope there is 0) sees use = 9 + 27 = 36 >= 9 on CPU: the walk starts at theta = 0 with
// slopes <13.5, 21>; before the first cap (theta = 2) CPU would reach 27 >= 9, so CPU
// saturates at (9 - 0) / 13.5 = 2/3 (memory would at 18 / 21 = 6/7, later). level =
// <2/3, +Inf>; both queues use CPU, none survives. Edge values: no resource saturates ->
// no level, every queue capped (lambda 1); keys far outside round 1's sampled range land in
// the end buckets (still exact, only slower to walk).
//
// Where the time goes (N = 1e5, K = 6, bench instance; in floors = one pass reading D with
// four scalar accumulators, low percentiles of wall time with the floor timed alongside,
// shared 2-core machine; each part measured by stopping the kernel after it, or by removing
// it, in .scratch harnesses). For scale: a SIMD read of D is 0.45 floors, a copy of D to
// another N*K array 0.76 (the floor is bound by its four add chains, not by memory).
// Pass 1 ~4.05: its first loop ~2.0 (of which the masks 0.6, the sign test 0.25, the two
// divides 0.2; the range test as min/max saved 0.25) and the grid adds ~2.05 (2K adds per
// row into a 48 KiB grid, four rows per step; not bound by the stores: half of them, D sums
// only, measured 28% less; the loop and cell computation alone, with one scalar store per
// row, 0.6-1.2). Rounds ~1.75: round 1's key scan for the bracketing bucket's ~300 queues
// 0.3, their sort and walk 0.1, the survivor scan 0.35; gathering the ~8% survivors' rows,
// rates and keys 0.5 (throughput of scattered reads: a touch-ahead pass made it slower),
// their grid 0.2; rounds 2 and 3 ~0.25 (on compact keys). The output pass ~1.8: it reads D
// and writes the N*K allocation (that part alone 1.1, with lambda already stored), lambda and
// the dominant share (that part alone 1.3). ~7.6 in all (main before this round: ~8.2).
import { ldf, stf, ldu, stu, ldb, stb, isFiniteF64 } from "../util/mem";
import { sortRangeByKey } from "../util/radix";
import { OK } from "../util/status";
import { gridBuckets, gridCellBytes, gridIndex, gridBound, hi32 } from "./common";
import { levelsPass1, gridAddRows } from "./pass1";
import { levelsOutputs } from "./output";

export function drfLevels(
  n: i32, k: i32, cap: usize, dem: usize, weights: usize,
  outLambda: usize, outAlloc: usize, outDs: usize, scratch: usize, divideRatios: bool,
  rate: usize, delta: usize, endKey: usize, list: usize, members: usize, mask: usize,
  used: usize, slope: usize, satAt: usize, invCap: usize, sat: usize,
  fbase: usize, base: usize, cur: usize, s1: usize, exact: usize, grid: usize, radix: usize,
  levels: usize, table: usize, gKey: usize,
): i32 {
  // Round 1's grid is placed from a sample of rows (the keys are not known before pass 1):
  // the sample's key range plus half of it on each side; keys outside go to the end buckets.
  const nb = gridBuckets(n, k);
  let slo: u32 = 0xffffffff, shi: u32 = 0;
  const ns = min(n, 64);
  for (let s = 0; s < ns; s++) {
    const i = <i32>((<i64>s * <i64>n) / <i64>ns);
    const w = weights ? ldf(weights, i) : 1.0;
    if (!(w > 0) || !isFiniteF64(w)) continue;
    const row = dem + (<usize>(i * k) << 3);
    let best: f64 = 0;
    let bestR = -1;
    for (let r = 0; r < k; r++) {
      const a = ldf(row, r);
      if (!(a >= 0) || !isFiniteF64(a)) continue;
      const x = divideRatios ? a / ldf(cap, r) : a * ldf(invCap, r);
      if (x > best) { best = x; bestR = r; }
    }
    if (bestR < 0) continue;
    const e = ldf(row, bestR) / ldf(cap, bestR) / w;
    if (!(e > 0) || !isFiniteF64(e)) continue;
    const h = hi32(e);
    slo = min(slo, h);
    shi = max(shi, h);
  }
  if (slo > shi) { slo = 0x3ff00000; shi = slo; }
  const half = (shi - slo) >> 1;
  const lo = slo - min(slo, half);
  let shift: u32 = 0;
  while (shift < 31 && ((shi + half - lo) >> shift) >= <u32>nb) shift++; // (keys past the last bucket clamp)

  const live = levelsPass1(n, k, cap, dem, weights, scratch, divideRatios, invCap,
    rate, delta, endKey, mask, exact, grid, lo, shift, nb);
  if (live < 0) return -live;

  for (let r = 0; r < k; r++) stf(levels, r, Infinity);
  levelsSolve(n, live, k, cap, dem, outAlloc, rate, endKey, list, members, mask,
    used, slope, satAt, sat, levels, fbase, base, cur, s1, grid, radix, lo, shift, nb, gKey);

  levelsOutputs(n, k, dem, invCap, mask, levels, table, endKey, rate, delta, outLambda, outAlloc, outDs);
  return OK;
}

/** The rounds: writes level[r] for every resource that saturates. */
function levelsSolve(
  n: i32, live: i32, k: i32, cap: usize, dem: usize, outAlloc: usize,
  rate: usize, endKey: usize, list: usize, members: usize, mask: usize,
  used: usize, slope: usize, satAt: usize, sat: usize, levels: usize,
  fbase: usize, base: usize, cur: usize, s1: usize, grid: usize, radix: usize,
  lo: u32, shift: u32, nb: i32, gKey: usize,
): void {
  const rowBytes = <usize>k << 3;
  const gsOff = <usize>((k + 1) & ~1) << 3;
  const cellBytes = gsOff << 1;
  let m = live;
  let all = true; // round 1: the live queues are every queue with demand (key > 0)
  let theta0: f64 = 0;
  for (let r = 0; r < k; r++) { stf(fbase, r, 0); stb(sat, r, 0); }
  let round = 0;
  while (m > 0) {
    // rate*D sums -> suffix sums: bucket b holds the slope of every key in buckets >= b
    for (let b = nb - 2; b >= 0; b--) {
      const gs = grid + <usize>b * cellBytes + gsOff;
      const hs = gs + cellBytes;
      for (let r = 0; r < k; r++) stf(gs, r, ldf(gs, r) + ldf(hs, r));
    }
    // F_r: the use at the last level minus what the survivors held there
    if (round > 0) {
      for (let r = 0; r < k; r++) {
        if (ldb(sat, r)) continue;
        stf(fbase, r, ldf(used, r) - theta0 * ldf(grid + gsOff, r));
      }
    }
    // the first bucket whose upper bound would overflow some resource holds the level
    for (let r = 0; r < k; r++) stf(base, r, ldf(fbase, r));
    let rb = -1;
    for (let b = 0; b < nb; b++) {
      const g = grid + <usize>b * cellBytes;
      const next = b + 1 < nb ? g + cellBytes + gsOff : 0;
      const L = gridBound(b + 1, lo, shift, nb);
      let hit = false;
      for (let r = 0; r < k; r++) {
        if (ldb(sat, r)) continue;
        const pb = ldf(base, r) + ldf(g, r);
        const sl = next ? ldf(next, r) : 0.0;
        const c = ldf(cap, r);
        if (sl > 0 ? pb + L * sl >= c : pb >= c) hit = true;
      }
      if (hit) { rb = b; break; }
      for (let r = 0; r < k; r++) stf(base, r, ldf(base, r) + ldf(g, r));
    }
    if (rb < 0) return; // no resource saturates: every live queue reaches its cap

    // that bucket's queues (keys in [its lower bound, the next one's)) in key order
    const kLo = gridBound(rb, lo, shift, nb), kHi = gridBound(rb + 1, lo, shift, nb);
    const mm = all ? keysInRange(n, endKey, kLo, kHi, members) : listKeysInRange(m, list, gKey, kLo, kHi, members);
    sortRangeByKey(members, mm, endKey, radix);
    // segment slopes (suffix sums, never a running subtraction): row j of outAlloc (which
    // the output pass overwrites) = the slope while members j.. still ramp
    const gb = grid + <usize>rb * cellBytes;
    for (let r = 0; r < k; r++) stf(s1, r, rb + 1 < nb ? ldf(gb + cellBytes + gsOff, r) : 0.0);
    for (let j = mm - 1; j >= 0; j--) {
      const i = <i32>ldu(members, j);
      const rt = ldf(rate, i);
      const row = dem + (<usize>(i * k) << 3);
      const sj = outAlloc + <usize>j * rowBytes;
      const sn = j + 1 < mm ? sj + rowBytes : s1;
      for (let r = 0; r < k; r++) stf(sj, r, ldf(sn, r) + rt * ldf(row, r));
    }

    // walk the bucket: between consecutive caps every resource's use is cur + theta * slope
    for (let r = 0; r < k; r++) stf(cur, r, ldf(base, r));
    let thetaPrev = max(theta0, kLo);
    let j = 0;
    let t: f64 = 0;
    let found = false;
    while (true) {
      const last = j == mm;
      const tNext = last ? kHi : ldf(endKey, <i32>ldu(members, j));
      const sj = last ? s1 : outAlloc + <usize>j * rowBytes;
      let tSat = Infinity;
      for (let r = 0; r < k; r++) {
        let at = Infinity;
        if (!ldb(sat, r)) {
          const sl = ldf(sj, r);
          // after the last cap: exactly the bracketing test above, so a level is found
          const u = last ? ldf(base, r) + ldf(gb, r) : ldf(cur, r);
          const c = ldf(cap, r);
          if (sl > 0 ? u + tNext * sl >= c : u >= c) {
            at = sl > 0 ? max(thetaPrev, (c - u) / sl) : thetaPrev;
            tSat = min(tSat, at);
            found = true;
          }
          stf(used, r, u);
          stf(slope, r, sl);
        }
        stf(satAt, r, at);
      }
      if (found) { t = tSat; break; }
      if (last) break; // unreachable (see above)
      // members capping at tNext (equal keys together)
      while (j < mm) {
        const i = <i32>ldu(members, j);
        if (ldf(endKey, i) != tNext) break;
        const row = dem + (<usize>(i * k) << 3);
        for (let r = 0; r < k; r++) stf(cur, r, ldf(cur, r) + ldf(row, r));
        j++;
      }
      thetaPrev = tNext;
    }
    let satMask: u32 = 0;
    if (found) {
      for (let r = 0; r < k; r++) {
        if (ldb(sat, r)) continue;
        if (ldf(satAt, r) <= t) { satMask |= (<u32>1) << <u32>r; stb(sat, r, 1); stf(levels, r, t); continue; }
        stf(used, r, ldf(used, r) + t * ldf(slope, r)); // use at t
      }
    }
    if (satMask == 0) return; // every live queue reaches its cap

    // the survivors: not capped at t, using none of the saturated resources (index order)
    const kept = all ? survivorsOfAll(n, endKey, mask, t, satMask, list) : survivorsOfList(m, list, gKey, mask, t, satMask);
    m = kept;
    all = false;
    theta0 = t;
    round++;
    if (m == 0) return;

    // next round's grid: fitted to the survivors' keys, sums from their rows, rates and
    // keys (copied first, compact, into outAlloc, the radix scratch and gKey: independent
    // loads, so the misses overlap, and the grid loop then reads sequentially). The keys stay
    // compact for the next round's two scans (gKey: not the radix scratch, which the sort
    // reuses), which then read them in sequence rather than at the survivors' scattered
    // indices (round 2 ~0.07 floors faster at 1e5 x 6; gathering the masks too cost more
    // than it saved).
    const gRate = radix;
    const span = gatherRows(m, k, list, dem, outAlloc, rate, endKey, gRate, gKey);
    const klo = <u32>(span >> 32), khi = <u32>span;
    nb = gridBuckets(m, k);
    lo = klo;
    shift = 0;
    while (shift < 31 && ((khi - klo) >> shift) >= <u32>nb) shift++;
    memory.fill(grid, 0, <usize>nb * cellBytes);
    // K <= 8: pass 1's K-specialised adds (same adds, same order); else one row at a time
    if (!gridAddRows(k, m, outAlloc, gRate, gKey, grid, lo, shift, nb)) {
      const kp = k & ~1;
      let row = outAlloc;
      for (let q = 0; q < m; q++, row += rowBytes) {
        const rv = v128.load64_splat(gRate + (<usize>q << 3));
        const g = grid + <usize>gridIndex(hi32(ldf(gKey, q)), lo, shift, nb) * cellBytes;
        // two resources per f64x2 (the same two operations per element as one at a time)
        for (let r = 0; r < kp; r += 2) addPair(g + (<usize>r << 3), gsOff, v128.load(row + (<usize>r << 3)), rv);
        if (k & 1) addPair(g + (<usize>kp << 3), gsOff, v128.load64_zero(row + (<usize>kp << 3)), rv);
      }
    }
  }
}

/** cell[0..1] += d, cell[gsOff..] += rate * d (an odd K's pad lane adds 0). */
@inline function addPair(p: usize, gsOff: usize, d: v128, rv: v128): void {
  v128.store(p, f64x2.add(v128.load(p), d));
  const q = p + gsOff;
  v128.store(q, f64x2.add(v128.load(q), f64x2.mul(rv, d)));
}

/**
 * Copies the rows of the m queues at `list` one after another into `out`, their rates into
 * `outRate` and keys into `outKey`; returns the smallest and largest high words of the keys
 * (hi << 32 | lo).
 */
function gatherRows(m: i32, k: i32, list: usize, dem: usize, out: usize, rate: usize, endKey: usize, outRate: usize, outKey: usize): u64 {
  const rowBytes = <usize>k << 3;
  const kp = k & ~1;
  let klo: u32 = 0xffffffff, khi: u32 = 0;
  for (let q = 0; q < m; q++, out += rowBytes) {
    const i = <i32>ldu(list, q);
    const row = dem + <usize>i * rowBytes;
    for (let r = 0; r < kp; r += 2) v128.store(out + (<usize>r << 3), v128.load(row + (<usize>r << 3)));
    if (k & 1) stf(out, kp, ldf(row, kp));
    const e = ldf(endKey, i);
    stf(outRate, q, ldf(rate, i));
    stf(outKey, q, e);
    const h = hi32(e);
    klo = min(klo, h);
    khi = max(khi, h);
  }
  return (<u64>klo << 32) | <u64>khi;
}

/**
 * For each 4-bit mask of kept lanes, the i8x16.swizzle that moves the kept i32 lanes to the
 * front, in order (the other bytes are don't-cares: later stores overwrite them).
 */
const COMPACT4: usize = memory.data<u8>([
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
  0, 1, 2, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
  4, 5, 6, 7, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
  0, 1, 2, 3, 4, 5, 6, 7, 0, 0, 0, 0, 0, 0, 0, 0,
  8, 9, 10, 11, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
  0, 1, 2, 3, 8, 9, 10, 11, 0, 0, 0, 0, 0, 0, 0, 0,
  4, 5, 6, 7, 8, 9, 10, 11, 0, 0, 0, 0, 0, 0, 0, 0,
  0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 0, 0, 0, 0,
  12, 13, 14, 15, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
  0, 1, 2, 3, 12, 13, 14, 15, 0, 0, 0, 0, 0, 0, 0, 0,
  4, 5, 6, 7, 12, 13, 14, 15, 0, 0, 0, 0, 0, 0, 0, 0,
  0, 1, 2, 3, 4, 5, 6, 7, 12, 13, 14, 15, 0, 0, 0, 0,
  8, 9, 10, 11, 12, 13, 14, 15, 0, 0, 0, 0, 0, 0, 0, 0,
  0, 1, 2, 3, 8, 9, 10, 11, 12, 13, 14, 15, 0, 0, 0, 0,
  4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 0, 0, 0, 0,
  0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15,
]);

/** Round 1's survivors: every i < n with key > t and no saturated resource, into `list`; returns their count. */
function survivorsOfAll(n: i32, endKey: usize, mask: usize, t: f64, satMask: u32, list: usize): i32 {
  // four queues per step: key > t (two f64x2) and mask & satMask == 0 (one i32x4)
  const tv = f64x2.splat(t);
  const sv = i32x4.splat(<i32>satMask);
  const zero = i32x4.splat(0);
  const four = i32x4.splat(4);
  let iv = i32x4(0, 1, 2, 3);
  let kept = 0;
  let i = 0;
  for (; i + 3 < n; i += 4) {
    const off = <usize>i << 3;
    const big = i64x2.bitmask(f64x2.gt(v128.load(endKey + off), tv))
      | (i64x2.bitmask(f64x2.gt(v128.load(endKey + off + 16), tv)) << 2);
    const keep = big & i32x4.bitmask(i32x4.eq(v128.and(v128.load(mask + (<usize>i << 2)), sv), zero));
    // branch-free (about 8% of the queues survive at random, so a loop over the kept bits
    // mispredicted on most steps): the kept indices moved to the front of one vector, one
    // store, the count moved by their number (the store stays below i + 4 <= n: kept <= i)
    v128.store(list + (<usize>kept << 2), i8x16.swizzle(iv, v128.load(COMPACT4 + (<usize>keep << 4))));
    kept += popcnt(keep);
    iv = i32x4.add(iv, four);
  }
  for (; i < n; i++) {
    stu(list, kept, <u32>i);
    kept += <i32>((ldf(endKey, i) > t) & ((ldu(mask, i) & satMask) == 0));
  }
  return kept;
}

/** A later round's survivors, compacted in place in `list` (their keys at `keys` in list order, compact). */
function survivorsOfList(m: i32, list: usize, keys: usize, mask: usize, t: f64, satMask: u32): i32 {
  let kept = 0;
  for (let q = 0; q < m; q++) {
    const i = ldu(list, q);
    stu(list, kept, i);
    kept += <i32>((ldf(keys, q) > t) & ((ldu(mask, <i32>i) & satMask) == 0));
  }
  return kept;
}

/** Indices i < n with lo <= keys[i] < hi, in index order (a queue without demand has key -1). */
function keysInRange(n: i32, keys: usize, lo: f64, hi: f64, out: usize): i32 {
  // four keys per step; hits are rare (one bucket's worth), so the loop over them rarely runs
  const lv = f64x2.splat(lo), hv = f64x2.splat(hi);
  let c = 0;
  let i = 0;
  for (; i + 3 < n; i += 4) {
    const a = v128.load(keys + (<usize>i << 3)), b = v128.load(keys + (<usize>i << 3) + 16);
    let hit = i64x2.bitmask(v128.and(f64x2.ge(a, lv), f64x2.lt(a, hv)))
      | (i64x2.bitmask(v128.and(f64x2.ge(b, lv), f64x2.lt(b, hv))) << 2);
    while (hit) {
      stu(out, c, <u32>(i + ctz(hit)));
      c++;
      hit &= hit - 1;
    }
  }
  for (; i < n; i++) {
    const e = ldf(keys, i);
    stu(out, c, <u32>i);
    c += <i32>(e >= lo && e < hi);
  }
  return c;
}

/** keysInRange over the m queues at `list`, whose keys are at `keys` in list order (compact). */
function listKeysInRange(m: i32, list: usize, keys: usize, lo: f64, hi: f64, out: usize): i32 {
  let c = 0;
  for (let q = 0; q < m; q++) {
    const i = ldu(list, q);
    const e = ldf(keys, q);
    stu(out, c, i);
    c += <i32>(e >= lo && e < hi);
  }
  return c;
}
