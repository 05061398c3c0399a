// DRF progressive filling, weighted, with demand caps and offsets (SPEC §2).
//
// A common level theta (dominant share per unit weight) rises from 0. Queue i ramps
// lambda_i(theta) = clamp((theta - o_i) * w_i / delta_i, 0, 1) and freezes when it is
// capped (lambda_i = 1) or when a resource it uses saturates. Instead of stepping theta,
// the kernel jumps from event to event:
//   start  theta = o_i                (offsets only; all queues start at 0 otherwise)
//   cap    theta = o_i + delta_i / w_i
//   sat    theta where sum of consumption on resource r reaches C[r]
// Between events every resource's usage is linear in theta (slope = sum over ramping queues
// of w_i D[i][r] / delta_i), so a saturation is found by checking usage at the next event
// (a multiply-add) and solving for theta only when it would overflow. Total O(N*K + N).
//
// Without offsets (plain weighted DRF, the common call) a different algorithm is used:
// every queue ramps from 0, so queue i ends at min(its cap, the first saturation level
// among the resources it uses), and the at most K saturation levels are found from
// bucketed sums collected in the pass that validates (drfLevels below). Offsets keep the
// event loop.
//
// Where the time goes in the event path, and why it is shaped this way (N = 1e5, K = 6):
// - One pass reads D: it validates, finds delta, and (no offsets) computes the cap key and
//   activates the queue. The dominant resource is found by multiplying by 1/C (a divide per
//   element costs more than the whole pass) and delta is then one exact division.
// - Caps are not fully sorted: one counting pass buckets them by key, and a bucket is sorted
//   only when the event loop reaches it. Most queues freeze at a saturation long before their
//   cap, so most buckets are never sorted.
// - Queues still live are kept in a list (index order) that each saturation compacts, and
//   the slopes are rebuilt from the survivors instead of subtracting every frozen queue.
//
// Worked example (DRF paper): C = <9 CPU, 18 GB>, tasks A = <1, 4>, B = <3, 1>, nine
// tasks each: D_A = <9, 36>, D_B = <27, 9>, so delta_A = 2, delta_B = 3 and
// lambda_A = theta / 2, lambda_B = theta / 3. CPU use is 9 theta/2 + 27 theta/3 = 13.5 theta,
// memory 18 theta + 3 theta = 21 theta: CPU saturates first, at theta = 2/3. Then
// lambda_A = 1/3 -> <3, 12> (3 tasks), lambda_B = 2/9 -> <6, 2> (2 tasks); both dominant
// shares are 2/3 and 4 GB stay free (no queue can use them without CPU).
//
// Edge values: delta_i = 0 (no demand) -> lambda 0 and the queue is ignored; weights
// scale the ramp speed; offsets are shifted so the smallest live one is 0 (only
// differences matter), and a ramp too narrow for f64 to resolve is reported.

import { ldf, stf, ldu, stu, ldb, stb, align8, isFiniteF64 } from "./util/mem";
import { sortIndicesByKey, sortRangeByKey, radixScratchBytes, bucketByKey, bucketBoundsBytes, bucketCountFor } from "./util/radix";
import { OK, E_CAPACITY, E_DEMAND, E_WEIGHT, E_OFFSET, E_SHARE_OVERFLOW } from "./util/status";

const WAITING: u8 = 0;
const RAMPING: u8 = 1;
const FROZEN: u8 = 2;
const INF_BITS: u64 = 0x7ff0000000000000;

/** Scratch layout; the error index is the first i32 of scratch. */
export function drfScratchBytes(n: i32, k: i32): usize {
  const nf = <usize>n << 3;
  const nu = <usize>n << 2;
  const kf = <usize>k << 3;
  return 8 + nf * 4 + align8(nu) * 3 + align8(<usize>n) + kf * 4 + align8(<usize>k << 2) + align8(<usize>k)
    + align8(bucketBoundsBytes(n)) + radixScratchBytes(n)
    + kf * 4 + 32 + ((<usize>gridBuckets(n, k) * <usize>k) << 4);
}

/**
 * Computes lambda (fraction of demand), the allocation lambda*D and the dominant share
 * lambda*delta. `weights` and `offsets` may be 0 (all ones / all zeros). Returns a status
 * from util/status; on error the offending element index is the i32 at `scratch`.
 */
export function drf(
  n: i32, k: i32,
  cap: usize, dem: usize, weights: usize, offsets: usize,
  outLambda: usize, outAlloc: usize, outDs: usize,
  scratch: usize,
): i32 {
  // carve scratch
  let p = scratch + 8;
  const rate = p; p += <usize>n << 3;
  const delta = p; p += <usize>n << 3;
  const startKey = p; p += <usize>n << 3;
  const endKey = p; p += <usize>n << 3;
  const endOrder = p; p += align8(<usize>n << 2);
  const startOrder = p; p += align8(<usize>n << 2);
  const liveList = p; p += align8(<usize>n << 2);
  const state = p; p += align8(<usize>n);
  const used = p; p += <usize>k << 3;
  const slope = p; p += <usize>k << 3;
  const satAt = p; p += <usize>k << 3;
  const invCap = p; p += <usize>k << 3;
  const cnt = p; p += align8(<usize>k << 2);
  const sat = p; p += align8(<usize>k);
  const bounds = p; p += align8(bucketBoundsBytes(n));
  const radix = p; p += radixScratchBytes(n);
  const fbase = p; p += <usize>k << 3;
  const base = p; p += <usize>k << 3;
  const cur = p; p += <usize>k << 3;
  const s1 = p; p += <usize>k << 3;
  const exact = p; p += 32;
  const grid = p;

  for (let r = 0; r < k; r++) {
    const c = ldf(cap, r);
    if (!(c > 0) || !isFiniteF64(c)) return fail(scratch, E_CAPACITY, r);
    stf(used, r, 0); stf(slope, r, 0); stu(cnt, r, 0); stb(sat, r, 0);
    stf(invCap, r, 1.0 / c);
  }
  // 1/C overflows only for subnormal capacities; then the ratios are divided exactly
  let divideRatios = false;
  for (let r = 0; r < k; r++) divideRatios = divideRatios | !isFiniteF64(ldf(invCap, r));

  if (!offsets && k <= MAX_LEVELS_K) {
    return drfLevels(
      n, k, cap, dem, weights, outLambda, outAlloc, outDs, scratch, divideRatios,
      rate, delta, endKey, liveList, endOrder, startOrder, used, slope, satAt, invCap, sat,
      fbase, base, cur, s1, exact, grid, radix,
    );
  }

  // Pass 1: validate, delta, rate; without offsets also the cap key and activation.
  let minOff = Infinity;
  let live = 0;
  for (let i = 0; i < n; i++) {
    const w = weights ? ldf(weights, i) : 1.0;
    if (!(w > 0) || !isFiniteF64(w)) return fail(scratch, E_WEIGHT, i);
    const o = offsets ? ldf(offsets, i) : 0.0;
    if (!(o >= 0) || !isFiniteF64(o)) return fail(scratch, E_OFFSET, i);
    const row = dem + (<usize>(i * k) << 3);
    const bestR = largestRatioIndex(i, k, row, cap, invCap, divideRatios, scratch);
    if (bestR == BAD_ROW) return E_DEMAND;
    stf(outLambda, i, 0);
    if (bestR < 0) {
      stb(state, i, FROZEN);
      continue;
    }
    const dl = ldf(row, bestR) / ldf(cap, bestR);
    const rt = w / dl;
    if (!isFiniteF64(dl) || !(rt > 0) || !isFiniteF64(rt)) return fail(scratch, E_SHARE_OVERFLOW, i);
    stf(delta, i, dl);
    stf(rate, i, rt);
    stu(liveList, live, <u32>i);
    live++;
    if (offsets) {
      stb(state, i, WAITING);
      if (o < minOff) minOff = o;
    } else {
      const e = dl / w;
      if (!(e > 0) || !isFiniteF64(e)) return fail(scratch, E_SHARE_OVERFLOW, i);
      stf(endKey, i, e);
      stb(state, i, RAMPING);
      for (let r = 0; r < k; r++) {
        const d = ldf(row, r);
        stf(slope, r, ldf(slope, r) + rt * d);
        stu(cnt, r, ldu(cnt, r) + <u32>(d > 0));
      }
    }
  }
  const nLive = live;

  // With offsets: normalized start and cap keys, starts fully sorted (frozen last, +Inf).
  let sp = n;
  if (offsets) {
    let anyStart = false;
    for (let i = 0; i < n; i++) {
      if (ldb(state, i) == FROZEN) {
        stf(startKey, i, Infinity);
        continue;
      }
      const s = ldf(offsets, i) - minOff;
      const e = s + ldf(delta, i) / (weights ? ldf(weights, i) : 1.0);
      if (!(e > s) || !isFiniteF64(e)) return fail(scratch, E_SHARE_OVERFLOW, i);
      stf(startKey, i, s);
      stf(endKey, i, e);
      if (s > 0) anyStart = true;
    }
    if (anyStart) {
      sortIndicesByKey(n, startKey, startOrder, radix);
      sp = 0;
      // queues starting at 0 begin ramping now
      while (sp < n) {
        const i = <i32>ldu(startOrder, sp);
        if (ldf(startKey, i) > 0) break;
        if (ldb(state, i) == WAITING) activate(i, k, dem, rate, state, slope, cnt);
        sp++;
      }
    } else {
      for (let j = 0; j < nLive; j++) activate(<i32>ldu(liveList, j), k, dem, rate, state, slope, cnt);
    }
  }

  // Caps in key order, bucket by bucket: bucket b is sorted when ep first reaches it.
  // A saturation rebuilds the buckets from the survivors, so frozen queues are never sorted.
  let orderLen = nLive;
  bucketByKey(orderLen, liveList, endKey, endOrder, bounds);
  let sortedEnd = 0;
  let nextBucket = 0;

  let liveLen = nLive;
  let theta: f64 = 0;
  let ep = 0;
  while (live > 0) {
    while (ep < orderLen) {
      while (ep >= sortedEnd) {
        const a = ldu(bounds, nextBucket), b = ldu(bounds, nextBucket + 1);
        sortRangeByKey(endOrder + (<usize>a << 2), <i32>(b - a), endKey, radix);
        sortedEnd = <i32>b;
        nextBucket++;
      }
      if (ldb(state, <i32>ldu(endOrder, ep)) != FROZEN) break;
      ep++;
    }
    while (sp < n && ldb(state, <i32>ldu(startOrder, sp)) != WAITING) sp++;
    const tEnd = ep < orderLen ? ldf(endKey, <i32>ldu(endOrder, ep)) : Infinity;
    const tStart = sp < n ? ldf(startKey, <i32>ldu(startOrder, sp)) : Infinity;
    const tNext = min(tEnd, tStart);
    const dtNext = tNext - theta;
    let tSat = Infinity;
    for (let r = 0; r < k; r++) {
      const sl = ldf(slope, r);
      let at = Infinity;
      if (sl > 0) {
        const u = ldf(used, r), c = ldf(cap, r);
        if (u + sl * dtNext >= c) {
          at = theta + (c - u) / sl;
          if (at < theta) at = theta;
          if (at < tSat) tSat = at;
        }
      }
      stf(satAt, r, at);
    }
    const t = min(tSat, tNext);
    if (t == Infinity) break; // unreachable while live > 0; guards against a hang
    const dt = t - theta;
    for (let r = 0; r < k; r++) {
      const sl = ldf(slope, r);
      if (sl > 0) stf(used, r, ldf(used, r) + sl * dt);
    }
    theta = t;

    // caps first: a queue capping exactly when a resource saturates keeps lambda = 1
    // (ep only moves within sorted buckets here: the loop above sorted the one it points into)
    while (ep < sortedEnd) {
      const i = <i32>ldu(endOrder, ep);
      const st = ldb(state, i);
      if (st == FROZEN) { ep++; continue; }
      if (ldf(endKey, i) > t) break;
      if (st == WAITING) break; // its start is still pending at this theta (cannot precede it)
      freezeCapped(i, k, dem, rate, state, slope, cnt, outLambda);
      live--;
      ep++;
    }
    // saturations: freeze every live queue using r, compact the live list, rebuild slopes
    let rebuilt = false;
    for (let r = 0; r < k; r++) {
      if (ldb(sat, r)) continue;
      if (!(ldf(satAt, r) <= t) && !(ldf(used, r) >= ldf(cap, r))) continue;
      if (ldu(cnt, r) == 0 && !(ldf(used, r) >= ldf(cap, r))) continue;
      stb(sat, r, 1);
      stf(used, r, ldf(cap, r));
      let kept = 0;
      for (let j = 0; j < liveLen; j++) {
        const i = <i32>ldu(liveList, j);
        const st = ldb(state, i);
        if (st == FROZEN) continue;
        if (ldf(dem, i * k + r) > 0) {
          let lam: f64 = 0;
          if (st == RAMPING) lam = min(1.0, (theta - (offsets ? ldf(startKey, i) : 0.0)) * ldf(rate, i));
          stb(state, i, FROZEN);
          stf(outLambda, i, lam);
          live--;
          continue;
        }
        stu(liveList, kept, <u32>i);
        kept++;
      }
      liveLen = kept;
      for (let q = 0; q < k; q++) { stf(slope, q, 0); stu(cnt, q, 0); }
      for (let j = 0; j < liveLen; j++) {
        const i = <i32>ldu(liveList, j);
        if (ldb(state, i) == RAMPING) addSlopes(i, k, dem, rate, slope, cnt);
      }
      rebuilt = true;
    }
    if (rebuilt) {
      orderLen = liveLen;
      bucketByKey(orderLen, liveList, endKey, endOrder, bounds);
      ep = 0; sortedEnd = 0; nextBucket = 0;
    }
    // starts
    while (sp < n) {
      const i = <i32>ldu(startOrder, sp);
      if (ldb(state, i) != WAITING) { sp++; continue; }
      if (ldf(startKey, i) > t) break;
      activate(i, k, dem, rate, state, slope, cnt);
      sp++;
    }
  }

  // Outputs: allocation = lambda * D, dominant share = lambda * delta.
  for (let i = 0; i < n; i++) {
    const lam = ldf(outLambda, i);
    stf(outDs, i, lam == 0 ? 0.0 : lam * ldf(delta, i));
    const base = i * k;
    for (let r = 0; r < k; r++) stf(outAlloc, base + r, lam * ldf(dem, base + r));
  }
  return OK;
}

@inline function fail(scratch: usize, code: i32, index: i32): i32 {
  store<i32>(scratch, index);
  return code;
}

/** Adds queue i's consumption rate to every resource it uses (a zero demand adds exactly 0). */
@inline function addSlopes(i: i32, k: i32, dem: usize, rate: usize, slope: usize, cnt: usize): void {
  const rt = ldf(rate, i);
  const base = i * k;
  for (let r = 0; r < k; r++) {
    const d = ldf(dem, base + r);
    stf(slope, r, ldf(slope, r) + rt * d);
    stu(cnt, r, ldu(cnt, r) + <u32>(d > 0));
  }
}

@inline function activate(i: i32, k: i32, dem: usize, rate: usize, state: usize, slope: usize, cnt: usize): void {
  stb(state, i, RAMPING);
  addSlopes(i, k, dem, rate, slope, cnt);
}

/** Queue i reached its cap (lambda = 1): its rate leaves every resource it uses. */
@inline function freezeCapped(
  i: i32, k: i32, dem: usize, rate: usize, state: usize, slope: usize, cnt: usize, outLambda: usize,
): void {
  const rt = ldf(rate, i);
  const base = i * k;
  for (let r = 0; r < k; r++) {
    const d = ldf(dem, base + r);
    if (d > 0) {
      const c = ldu(cnt, r) - 1;
      stu(cnt, r, c);
      // exact zero when the last user leaves, so rounding never leaves a phantom slope
      stf(slope, r, c == 0 ? 0.0 : ldf(slope, r) - rt * d);
    }
  }
  stb(state, i, FROZEN);
  stf(outLambda, i, 1.0);
}

// ---------------------------------------------------------------------------------------
// Without offsets: saturation levels by bucketed sums (drfLevels).
// ---------------------------------------------------------------------------------------

/** The level path keeps each queue's used resources as a u32 bit mask. */
const MAX_LEVELS_K: i32 = 32;
/** Grid bucket sums stay at most 4,096 * 16 bytes (64 KiB): cache-resident while D streams (bigger grids measured no faster). */
const GRID_CELLS: i32 = 4096;

/** Buckets of the level grid for m keys and k resources (a power of two, >= 1). */
export function gridBuckets(m: i32, k: i32): i32 {
  let limit = 1;
  while ((limit << 1) * k <= GRID_CELLS) limit <<= 1;
  return min(bucketCountFor(m), limit);
}

@inline function hi32(x: f64): u32 {
  return <u32>(reinterpret<u64>(x) >> 32);
}

/** Bucket of a key with high word h: (h - lo) >> shift, clamped to [0, w). */
@inline function gridIndex(h: u32, lo: u32, shift: u32, w: i32): i32 {
  if (h <= lo) return 0;
  const q = (h - lo) >> shift;
  return q >= <u32>w ? w - 1 : <i32>q;
}

/** Lower bound of bucket b's keys (0 for the first bucket, +Inf past the last). */
@inline function gridBound(b: i32, lo: u32, shift: u32, w: i32): f64 {
  if (b <= 0) return 0;
  if (b >= w) return Infinity;
  const h = <u64>lo + (<u64>b << <u64>shift);
  if (h >= 0x7ff00000) return Infinity;
  return reinterpret<f64>(h << 32);
}

/**
 * Plain (weighted) DRF without offsets. Every queue ramps from theta = 0, so queue i ends
 * at min(its cap e_i = delta_i / w_i, the first saturation level among the resources it
 * uses). The saturation levels are found from bucketed sums instead of event by event:
 *
 *   use_r(theta) = F_r + sum_{live, e_i <= theta} D[i][r] + theta * sum_{live, e_i > theta} rate_i D[i][r]
 *
 * (F_r: what the already frozen queues hold). Pass 1 validates, computes delta, rate and
 * e, and adds each row into the bucket of its key: the sums of D and of rate*D. Scanning
 * the buckets in key order gives use_r at every bucket boundary, so the first boundary
 * where some resource would overflow brackets the next saturation; only that bucket is
 * sorted and walked cap by cap to solve for the level t. Then every live queue is resolved
 * in one pass: e_i <= t -> capped (lambda 1), uses a saturated resource -> lambda =
 * min(1, t * rate_i), else it stays live. The survivors (they use none of the saturated
 * resources) are bucketed again from their rows, and so on: at most one round per resource.
 *
 * Versus the event path's results: the same up to rounding (delta here is the largest
 * D * (1/C) rather than D / C, except on rows redone exactly, and use is summed per bucket
 * rather than updated by subtracting each capped queue), below 1e-11 relative on the
 * benchmark instances; on extreme inputs (demands near 1e300 next to tiny ones, weights
 * 1e-300) the event path's running subtraction can lose every digit, this path does not.
 *
 * Where the time goes (N = 1e5, K = 6): pass 1 ~60% (the branch-free largest product, two
 * divisions, 2K bucket adds per row), the rounds ~25% (one pass over the live queues to
 * pick the bracketing bucket's members, one to resolve them, a gather of the survivors'
 * rows), the output pass ~15%.
 */
function drfLevels(
  n: i32, k: i32, cap: usize, dem: usize, weights: usize,
  outLambda: usize, outAlloc: usize, outDs: usize, scratch: usize, divideRatios: bool,
  rate: usize, delta: usize, endKey: usize, list: usize, members: usize, mask: usize,
  used: usize, slope: usize, satAt: usize, invCap: usize, sat: usize,
  fbase: usize, base: usize, cur: usize, s1: usize, exact: usize, grid: usize, radix: usize,
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

  const live = levelsPass1(n, k, cap, dem, weights, outLambda, scratch, divideRatios, invCap,
    rate, delta, endKey, list, mask, exact, grid, lo, shift, nb);
  if (live < 0) return -live;

  levelsSolve(live, k, cap, dem, outLambda, outAlloc, rate, endKey, list, members, mask,
    used, slope, satAt, sat, fbase, base, cur, s1, grid, radix, lo, shift, nb);

  levelsOutputs(n, k, dem, outLambda, outAlloc, outDs, delta);
  return OK;
}

/**
 * Outputs: allocation = lambda * D, dominant share = lambda * delta (0 where lambda is 0:
 * delta is not written for queues without demand). Two elements per f64x2, the same
 * product per element as the twin.
 */
function levelsOutputs(n: i32, k: i32, dem: usize, outLambda: usize, outAlloc: usize, outDs: usize, delta: usize): void {
  const zero = f64x2.splat(0);
  let i = 0;
  for (; i + 1 < n; i += 2) {
    const off = <usize>i << 3;
    const lam = v128.load(outLambda + off);
    v128.store(outDs + off, v128.andnot(f64x2.mul(lam, v128.load(delta + off)), f64x2.eq(lam, zero)));
  }
  if (i < n) {
    const lam = ldf(outLambda, i);
    stf(outDs, i, lam == 0 ? 0.0 : lam * ldf(delta, i));
  }
  const rowBytes = <usize>k << 3;
  const kp = k & ~1;
  let row = dem, out = outAlloc;
  if (k == 2) {
    for (i = 0; i < n; i++, row += 16, out += 16) {
      v128.store(out, f64x2.mul(v128.load64_splat(outLambda + (<usize>i << 3)), v128.load(row)));
    }
    return;
  }
  for (i = 0; i < n; i++, row += rowBytes, out += rowBytes) {
    const lam = v128.load64_splat(outLambda + (<usize>i << 3));
    for (let r = 0; r < kp; r += 2) {
      const off = <usize>r << 3;
      v128.store(out + off, f64x2.mul(lam, v128.load(row + off)));
    }
    if (k & 1) stf(out, kp, f64x2.extract_lane(lam, 0) * ldf(row, kp));
  }
}

/**
 * Pass 1 of the level path: the event path's checks in the same order (so the same first
 * error), delta, rate, cap key, resource mask, and each row added into its key's bucket.
 * Returns the number of live queues (listed in index order), or -status.
 */
function levelsPass1(
  n: i32, k: i32, cap: usize, dem: usize, weights: usize, outLambda: usize, scratch: usize,
  divideRatios: bool, invCap: usize,
  rate: usize, delta: usize, endKey: usize, list: usize, mask: usize, exact: usize,
  grid: usize, lo: u32, shift: u32, nb: i32,
): i32 {
  const rowBytes = <usize>k << 3;
  const cellBytes = rowBytes << 1; // a bucket: k sums of D, then k sums of rate*D
  memory.fill(grid, 0, <usize>nb * cellBytes);
  let live = 0;
  let row = dem;
  const kp = k & ~1; // resources taken in pairs (one f64x2 each); an odd last one alone
  const zero = f64x2.splat(0);
  const maxFinite = i64x2.splat(0x7fefffffffffffff);
  for (let i = 0; i < n; i++, row += rowBytes) {
    const w = weights ? ldf(weights, i) : 1.0;
    if (!(w > 0) || !isFiniteF64(w)) return -fail(scratch, E_WEIGHT, i);
    // delta = the largest D/C, as the largest product D * (1/C), two resources per f64x2.
    // Taken when every product is finite and >= +0 (no sign bit, bits <= the largest
    // finite) and delta, rate and key are far from the ends of the f64 range; anything
    // else (a bad demand, -0, a subnormal capacity, an extreme ratio) is redone exactly as
    // the event path does it, checks and all, so errors and edge values do not depend on
    // the path. For such products the largest is the same whatever the order (pmax is
    // exact there).
    let mx = zero;
    let signs = zero;
    let over = zero;
    for (let r = 0; r < kp; r += 2) {
      const off = <usize>r << 3;
      const x = f64x2.mul(v128.load(row + off), v128.load(invCap + off));
      mx = f64x2.pmax(mx, x);
      signs = v128.or(signs, x);
      over = v128.or(over, i64x2.gt_s(x, maxFinite));
    }
    if (k & 1) {
      const off = <usize>kp << 3;
      const x = f64x2.mul(v128.load64_zero(row + off), v128.load64_zero(invCap + off));
      mx = f64x2.pmax(mx, x);
      signs = v128.or(signs, x);
      over = v128.or(over, i64x2.gt_s(x, maxFinite));
    }
    const bad = i64x2.bitmask(v128.or(signs, over)) != 0;
    let dl = f64x2.extract_lane(f64x2.pmax(mx, i64x2.shuffle(mx, mx, 1, 0)), 0); // branch-free
    if (!bad && dl == 0) {
      stf(outLambda, i, 0);
      continue;
    }
    let rt = w / dl;
    let e = weights ? dl / w : dl;
    if (bad || !(inRange(dl) && inRange(rt) && inRange(e))) {
      const st = exactRow(i, k, row, cap, invCap, divideRatios, w, scratch, exact);
      if (st > 0) return -st;
      if (st < 0) {
        stf(outLambda, i, 0);
        continue;
      }
      dl = ldf(exact, 0);
      rt = ldf(exact, 1);
      e = ldf(exact, 2);
    }
    stf(delta, i, dl);
    stf(rate, i, rt);
    stf(endKey, i, e);
    stu(list, live, <u32>i);
    live++;
    const g = grid + <usize>gridIndex(hi32(e), lo, shift, nb) * cellBytes;
    stu(mask, i, addRow(k, kp, row, rt, g, g + rowBytes));
  }
  return live;
}

/**
 * Adds a row into a grid cell: g[r] += D[r] and gs[r] += rt * D[r] (the same two IEEE
 * operations per element as the twin, two resources per f64x2). Returns the mask of the
 * resources the row uses (D[r] > 0).
 */
@inline function addRow(k: i32, kp: i32, row: usize, rt: f64, g: usize, gs: usize): u32 {
  const rtv = f64x2.splat(rt);
  const zero = f64x2.splat(0);
  let msk: u32 = 0;
  for (let r = 0; r < kp; r += 2) {
    const off = <usize>r << 3;
    const d = v128.load(row + off);
    v128.store(g + off, f64x2.add(v128.load(g + off), d));
    v128.store(gs + off, f64x2.add(v128.load(gs + off), f64x2.mul(rtv, d)));
    msk |= <u32>i64x2.bitmask(f64x2.gt(d, zero)) << <u32>r;
  }
  if (k & 1) {
    const d = ldf(row, kp);
    stf(g, kp, ldf(g, kp) + d);
    stf(gs, kp, ldf(gs, kp) + rt * d);
    msk |= <u32>(d > 0) << <u32>kp;
  }
  return msk;
}

/** 2^-1000 <= x <= 2^1000 (false for 0, subnormals, +-Inf, NaN and negatives). */
@inline function inRange(x: f64): bool {
  return x >= 9.332636185032189e-302 && x <= 1.0715086071862673e301;
}

/** largestRatioIndex's answer for a row with a bad demand (its index is stored in scratch). */
const BAD_ROW: i32 = -2;

/**
 * The first index of the largest D/C (or D * (1/C)) in a row, -1 for a row without demand,
 * or BAD_ROW. Fast path: the largest ratio by its bit pattern (unsigned, branch-free). For
 * valid rows (every ratio finite and >= +0) bits order like values; anything else (a bad
 * demand, -0, an overflowing ratio) shows up as bits >= +Inf and takes the exact slow path.
 */
@inline function largestRatioIndex(
  i: i32, k: i32, row: usize, cap: usize, invCap: usize, divideRatios: bool, scratch: usize,
): i32 {
  let bestBits: u64 = 0;
  let bestR = -1;
  for (let r = 0; r < k; r++) {
    const a = ldf(row, r);
    const xb = reinterpret<u64>(divideRatios ? a / ldf(cap, r) : a * ldf(invCap, r));
    const more = xb > bestBits;
    bestBits = select<u64>(xb, bestBits, more);
    bestR = select<i32>(r, bestR, more);
  }
  if (bestBits >= INF_BITS) {
    let best: f64 = 0;
    bestR = -1;
    for (let r = 0; r < k; r++) {
      const a = ldf(row, r);
      if (!(a >= 0) || !isFiniteF64(a)) {
        fail(scratch, E_DEMAND, i * k + r);
        return BAD_ROW;
      }
      const x = divideRatios ? a / ldf(cap, r) : a * ldf(invCap, r);
      if (x > best) { best = x; bestR = r; }
    }
  }
  return bestR;
}

/**
 * One row exactly as the event path's pass 1 does it (its first largest ratio by index,
 * delta = D/C by one division, its checks in its order). Returns 0 with delta, rate and
 * key at `out`, -1 for a queue without demand, or a status (error index stored).
 */
function exactRow(
  i: i32, k: i32, row: usize, cap: usize, invCap: usize, divideRatios: bool, w: f64,
  scratch: usize, out: usize,
): i32 {
  const bestR = largestRatioIndex(i, k, row, cap, invCap, divideRatios, scratch);
  if (bestR == BAD_ROW) return E_DEMAND;
  if (bestR < 0) return -1;
  const dl = ldf(row, bestR) / ldf(cap, bestR);
  const rt = w / dl;
  if (!isFiniteF64(dl) || !(rt > 0) || !isFiniteF64(rt)) return fail(scratch, E_SHARE_OVERFLOW, i);
  const e = dl / w;
  if (!(e > 0) || !isFiniteF64(e)) return fail(scratch, E_SHARE_OVERFLOW, i);
  stf(out, 0, dl);
  stf(out, 1, rt);
  stf(out, 2, e);
  return 0;
}

/** The rounds of the level path: writes lambda of every live queue. */
function levelsSolve(
  live: i32, k: i32, cap: usize, dem: usize, outLambda: usize, outAlloc: usize,
  rate: usize, endKey: usize, list: usize, members: usize, mask: usize,
  used: usize, slope: usize, satAt: usize, sat: usize,
  fbase: usize, base: usize, cur: usize, s1: usize, grid: usize, radix: usize,
  lo: u32, shift: u32, nb: i32,
): void {
  const rowBytes = <usize>k << 3;
  const cellBytes = rowBytes << 1;
  let m = live;
  let theta0: f64 = 0;
  for (let r = 0; r < k; r++) { stf(fbase, r, 0); stb(sat, r, 0); }
  let round = 0;
  while (m > 0) {
    // rate*D sums -> suffix sums: bucket b holds the slope of every key in buckets >= b
    for (let b = nb - 2; b >= 0; b--) {
      const gs = grid + <usize>b * cellBytes + rowBytes;
      const hs = gs + cellBytes;
      for (let r = 0; r < k; r++) stf(gs, r, ldf(gs, r) + ldf(hs, r));
    }
    // F_r: the use at the last level minus what the survivors held there
    if (round > 0) {
      for (let r = 0; r < k; r++) {
        if (ldb(sat, r)) continue;
        stf(fbase, r, ldf(used, r) - theta0 * ldf(grid + rowBytes, r));
      }
    }
    // the first bucket whose upper bound would overflow some resource holds the level
    for (let r = 0; r < k; r++) stf(base, r, ldf(fbase, r));
    let rb = -1;
    for (let b = 0; b < nb; b++) {
      const g = grid + <usize>b * cellBytes;
      const next = b + 1 < nb ? g + cellBytes + rowBytes : 0;
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
    if (rb < 0) {
      // no resource saturates: every live queue reaches its cap
      for (let j = 0; j < m; j++) stf(outLambda, <i32>ldu(list, j), 1.0);
      return;
    }

    // that bucket's queues in key order
    let mm = 0;
    for (let j = 0; j < m; j++) {
      const i = <i32>ldu(list, j);
      if (gridIndex(hi32(ldf(endKey, i)), lo, shift, nb) == rb) {
        stu(members, mm, <u32>i);
        mm++;
      }
    }
    sortRangeByKey(members, mm, endKey, radix);
    // segment slopes (suffix sums, never a running subtraction): row j of outAlloc (which
    // the output pass overwrites) = the slope while members j.. still ramp
    const gb = grid + <usize>rb * cellBytes;
    for (let r = 0; r < k; r++) stf(s1, r, rb + 1 < nb ? ldf(gb + cellBytes + rowBytes, r) : 0.0);
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
    let thetaPrev = max(theta0, gridBound(rb, lo, shift, nb));
    const lhi = gridBound(rb + 1, lo, shift, nb);
    let j = 0;
    let t: f64 = 0;
    let found = false;
    while (true) {
      const last = j == mm;
      const tNext = last ? lhi : ldf(endKey, <i32>ldu(members, j));
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
        if (ldf(satAt, r) <= t) { satMask |= (<u32>1) << <u32>r; stb(sat, r, 1); continue; }
        stf(used, r, ldf(used, r) + t * ldf(slope, r)); // use at t
      }
    }
    if (satMask == 0) {
      for (let q = 0; q < m; q++) stf(outLambda, <i32>ldu(list, q), 1.0);
      return;
    }

    // resolve every live queue at t; the survivors stay in the list (index order)
    let kept = 0;
    let klo: u32 = 0xffffffff, khi: u32 = 0;
    for (let q = 0; q < m; q++) {
      const i = <i32>ldu(list, q);
      const e = ldf(endKey, i);
      const capped = e <= t;
      // (a survivor's lambda is written again by a later round)
      stf(outLambda, i, select<f64>(1.0, min(1.0, t * ldf(rate, i)), capped));
      if (capped || (ldu(mask, i) & satMask) != 0) continue;
      stu(list, kept, <u32>i);
      kept++;
      const h = hi32(e);
      klo = min(klo, h);
      khi = max(khi, h);
    }
    m = kept;
    theta0 = t;
    round++;
    if (m == 0) return;

    // next round's grid: fitted to the survivors' keys, sums from their rows
    nb = gridBuckets(m, k);
    lo = klo;
    shift = 0;
    while (shift < 31 && ((khi - klo) >> shift) >= <u32>nb) shift++;
    memory.fill(grid, 0, <usize>nb * cellBytes);
    for (let q = 0; q < m; q++) {
      const i = <i32>ldu(list, q);
      const rt = ldf(rate, i);
      const row = dem + (<usize>(i * k) << 3);
      const g = grid + <usize>gridIndex(hi32(ldf(endKey, i)), lo, shift, nb) * cellBytes;
      addRow(k, k & ~1, row, rt, g, g + rowBytes);
    }
  }
}
