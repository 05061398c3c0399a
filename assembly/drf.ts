// DRF progressive filling, weighted, with demand caps and offsets (docs/policies/drf.md).
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
// bucketed sums collected in the pass that validates (drfLevels in drf/levels.ts, with
// pass1.ts and output.ts; shared pieces in drf/common.ts). Offsets keep the event loop.
//
// The level path's safe range. It sums demands in their units (sums of D and of rate * D
// per bucket, use = F + sum D + theta * sum rate*D compared with C), so it is taken only
// when every capacity is in [2^-256, 2^256] (checked here, K compares) and every queue's
// delta, rate = w / delta and key = delta / w are in [2^-128, 2^128] (pass 1's pair test
// already compares them with its range bounds, so the guard costs no extra operation per
// row: an out-of-range row goes to slowRow, which now returns ROUTE_EVENT when even the
// exact values are outside). Why that is enough: every term is then bounded, rate * D <=
// w * C <= 2^512, D <= delta * C <= 2^384, sums over N < 2^32 rows <= 2^544, theta times a
// slope <= 2^128 * 2^544: far from overflow; and no quantity the levels depend on is
// subnormal (use is compared with C >= 2^-256, so the at most 2^-1074 lost per underflowing
// term is below 2^-780 of C). Outside it the sums overflowed (C = 1e300 with a weight of
// 1e20: rate * D = +Inf, every lambda 0) or underflowed (a subnormal C: lambda 1, far
// beyond C). Such calls (ROUTE_EVENT) are answered by the event loop below with every
// queue starting at 0, which keeps usage and slopes in shares of capacity and is exact
// there (test/drf.levels-extreme checks both against exact rational progressive filling,
// including 1,500 calls near the edges of this range). The bench instances are far inside
// the range: same speed and bit-identical answers as before. Not covered by the range (both
// paths, any magnitude): when two resources would saturate within one rounding of each
// other and a slope term below one ulp of the sum (rates or shares 2^53 apart) decides which
// goes first, f64 may pick the other one, and queues using only the second are frozen there.
//
// Tiny rows: a queue with a positive demand whose every share D/C rounds to 0 (D < 2^-1074
// C, e.g. D = 1e-200, C = 1e200) was taken as "no demand" (lambda 0). Exactly, its cap
// level e_i = delta_i / w_i <= 2^-1075 / w_i, and no resource saturates before
// theta = 1 / sum(w) (use_r(theta) <= theta * sum_j w_j in shares), so it is capped at once,
// lambda 1, whenever sum(w) <= w_i * 2^1075: always without weights or when w_i >= 2^-20
// (sum(w) < 2^31 * 2^1024); below 2^-20 the sum is checked. It then holds D (less than
// 2^-1074 of each resource: no other queue's answer moves) and a dominant share of 0.
// Otherwise, or with offsets when it starts after the earliest start (a resource may
// already be saturated: lambda 0), f64 cannot tell and the call is refused
// (E_SHARE_OVERFLOW, its index). The level path sends any tiny row here (ROUTE_EVENT).
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
// differences matter).
//
// Extreme magnitudes (demands near 1e300 next to tiny ones, subnormal capacities, weights
// far apart, offsets up to 1e300). Usage and slopes are kept in shares of each resource
// (slope_r = sum of rate_i * D[i][r] / C[r], each term <= w_i), not in its units: rate * D
// overflowed to +Inf next to a huge capacity (every queue then froze at lambda 0) and
// underflowed to 0 next to a subnormal one (the resource never saturated: lambda 1, use far
// beyond C). A cap subtracts its term from the running slope; when that leaves less than
// 2^-20 of the slope's peak (a queue ramping 1e300 times faster than the rest capped, and
// the subtraction kept none of their digits) the slope is summed afresh from the queues still
// ramping. What f64 cannot carry is refused with E_SHARE_OVERFLOW and a queue index:
// - pass 1 (index: the queue): delta = D/C not finite, rate = w / delta or the cap key
//   delta / w not a finite nonzero f64 (the queue's own level is beyond f64);
// - a slope that overflows (the ramping queues' weights sum beyond f64, e.g. two weights of
//   1e308; index: the ramping queue with the largest term on that resource);
// - a late start (index: the latest queue that started ramping): theta is one f64 for all
//   queues, so a queue starting at s ramps in steps of ulp(s) * w_i / delta_i, coarse when
//   its ramp delta_i / w_i is narrow next to s (e.g. s = 1e200 and a ramp of 1). The share
//   of each resource misplaced by rounded levels is summed as the loop goes (`slack`): a
//   capped queue is given lambda 1 while the use tracked for it is (e - s) * rate_i of its
//   share, so it adds |(e - s) * rate_i - 1| (+ 2^-52) times its share; a saturation sets
//   use to 1 from the tracked u + slope * dt, so it adds |that - 1|. The answer is refused
//   when a resource saturates with more than 2^-30 of it misplaced, or ends unsaturated but
//   within its misplaced share of full. A narrow ramp whose queue fits (a tiny share capped
//   at once, even with e == s in f64) is answered: it misplaces only its own tiny share.
//   Without offsets the misplaced shares are a few ulps, so this never refuses there.
//   Example: C = <1>, D = <0.5>, <1>, offsets <0, 1e200>: queue 1 would stop at
//   theta = 1e200 + 0.5, the same f64 as 1e200, so half the resource would be misplaced:
//   refused (demands[1]); offsets <0, 1e10> give lambda_1 = 0.5.
// A positive demand whose share D/C underflows to 0: see "Tiny rows" above.
// Cost: the share factor is one more multiply per element where slopes change, overflow and
// peaks are checked once per group of activations, and the slack is one multiply-add per cap
// element (offsets on 1e4..1e5 x 6 bench rows: ~1.0-1.15x the previous event path). Each
// afresh sum follows a 2^24-fold drop of one slope; with offsets, a fast queue starting and
// capping over and over could make them O(N) each (the bench instances trigger none).

import { ldf, stf, ldu, stu, ldb, stb, align8, isFiniteF64 } from "./util/mem";
import { sortIndicesByKey, sortRangeByKey, radixScratchBytes, bucketByKey, bucketBoundsBytes } from "./util/radix";
import { OK, E_CAPACITY, E_DEMAND, E_WEIGHT, E_OFFSET, E_SHARE_OVERFLOW } from "./util/status";
import { fail, largestRatioIndex, BAD_ROW, TINY_ROW, ROUTE_EVENT, CAP_LO, CAP_HI, gridBuckets, gridCellBytes } from "./drf/common";
import { drfLevels } from "./drf/levels";

/** The level path keeps each queue's used resources as a u32 bit mask. */
const MAX_LEVELS_K: i32 = 32;

const WAITING: u8 = 0;
const RAMPING: u8 = 1;
const FROZEN: u8 = 2;

/** A slope that falls below this fraction of its peak is summed afresh (freezeCapped). */
// 2^-20: a slope kept by subtraction down to this fraction of its peak carries a relative error
// of at most about 2^-52 / 2^-20 = 2^-32 (2.3e-10), inside the 1e-9 of a share the tests hold the
// answers to; 2^-24 allowed 2^-28 (3.7e-9) and over-allocated by 1e-9 on rare inputs.
const PEAK_DROP: f64 = 1.0 / 1048576.0; // 2^-20
/** 2^-52: rounding allowed for on each capped queue's tracked use (see `slack`). */
const ULP1: f64 = 2.220446049250313e-16;
/** Largest share of a resource the level's rounding may misplace before the answer is refused (2^-30). */
const SLACK_MAX: f64 = 9.313225746154785e-10;

/** Weights from 2^-20 up always cap a tiny row at once (header, "Tiny rows"). */
const TINY_W: f64 = 9.5367431640625e-7;

/** The level path's table of the smallest level per resource mask (K <= 8: 2^8 f64). */
const LEVEL_TABLE_BYTES: usize = 256 << 3;

@inline function align64(x: usize): usize {
  return (x + 63) & ~(<usize>63);
}

/**
 * Scratch layout; the error index is the first i32 of scratch. Summed in f64: every term fits
 * in 32 bits whenever the problem's own arrays fit in 4 GiB (the only time it is asked), but
 * the sum may not, and a wrapped size would pass the caller's 4 GiB check.
 */
export function drfScratchBytes(n: i32, k: i32): f64 {
  const nf = <usize>n << 3;
  const nu = <usize>n << 2;
  const kf = <usize>k << 3;
  return <f64>(8 + 64) + <f64>(align64(nf) * 4) + <f64>(align8(nu) * 3) + <f64>align8(<usize>n)
    + <f64>(kf * 4 + align8(<usize>k << 2) + align8(<usize>k))
    + <f64>align8(bucketBoundsBytes(n)) + <f64>radixScratchBytes(n)
    + <f64>(kf * 4 + 32 + kf + LEVEL_TABLE_BYTES + 64) + <f64>(<usize>gridBuckets(n, k) * gridCellBytes(k));
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
  // (the arrays the level path reads and writes two lanes at a time start on cache lines)
  let p = align64(scratch + 8);
  const rate = p; p += align64(<usize>n << 3);
  const delta = p; p += align64(<usize>n << 3);
  const startKey = p; p += align64(<usize>n << 3);
  const endKey = p; p += align64(<usize>n << 3);
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
  const levels = p; p += <usize>k << 3;
  const table = p; p += LEVEL_TABLE_BYTES;
  const grid = align64(p);

  let capsInRange = true;
  for (let r = 0; r < k; r++) {
    const c = ldf(cap, r);
    if (!(c > 0) || !isFiniteF64(c)) return fail(scratch, E_CAPACITY, r);
    capsInRange = capsInRange & (c >= CAP_LO) & (c <= CAP_HI);
    stf(invCap, r, 1.0 / c);
  }
  // 1/C overflows only for subnormal capacities; then the ratios are divided exactly
  let divideRatios = false;
  for (let r = 0; r < k; r++) divideRatios = divideRatios | !isFiniteF64(ldf(invCap, r));

  // the level path only inside its safe range (header); ROUTE_EVENT: a row outside it
  // (startKey, used only with offsets, holds the level path's compact keys of its later rounds)
  if (!offsets && k <= MAX_LEVELS_K && capsInRange) {
    const st = drfLevels(
      n, k, cap, dem, weights, outLambda, outAlloc, outDs, scratch, divideRatios,
      rate, delta, endKey, liveList, endOrder, startOrder, used, slope, satAt, invCap, sat,
      fbase, base, cur, s1, exact, grid, radix, levels, table, startKey,
    );
    if (st != ROUTE_EVENT) return st;
  }
  for (let r = 0; r < k; r++) { stf(used, r, 0); stf(slope, r, 0); stu(cnt, r, 0); stb(sat, r, 0); }

  // Each slope's largest value since it was last summed afresh (the level path's scratch, free here).
  const peak = fbase;
  // Share of each resource misplaced by rounded levels (the level path's scratch; see the
  // header): refused past 2^-30, naming the latest queue that started ramping.
  const slack = base;
  for (let r = 0; r < k; r++) { stf(peak, r, 0); stf(slack, r, 0); }
  let lastStart = 0;

  // Pass 1: validate, delta, rate; without offsets also the cap key and activation.
  let minOff = Infinity;
  let live = 0;
  let tiny = 0;
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
      if (bestR == TINY_ROW) {
        // capped at once (header, "Tiny rows"): lambda 1, dominant share 0 (delta < 2^-1074)
        stf(outLambda, i, 1.0);
        stf(delta, i, 0);
        tiny++;
      }
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
      addSlopes(i, k, dem, rate, slope, cnt, cap, invCap, divideRatios);
    }
  }
  const nLive = live;
  if (tiny) {
    const bad = tinyRowRefused(n, weights, offsets, minOff, outLambda, state);
    if (bad >= 0) return fail(scratch, E_SHARE_OVERFLOW, bad);
  }
  if (!offsets) {
    const bad = settle(n, k, slope, peak, state, rate, dem, cap, invCap, divideRatios);
    if (bad >= 0) return fail(scratch, E_SHARE_OVERFLOW, bad);
  }

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
      if (!isFiniteF64(e)) return fail(scratch, E_SHARE_OVERFLOW, i);
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
        if (ldb(state, i) == WAITING) activate(i, k, dem, rate, state, slope, cnt, cap, invCap, divideRatios);
        sp++;
      }
    } else {
      for (let j = 0; j < nLive; j++) activate(<i32>ldu(liveList, j), k, dem, rate, state, slope, cnt, cap, invCap, divideRatios);
    }
    const bad = settle(n, k, slope, peak, state, rate, dem, cap, invCap, divideRatios);
    if (bad >= 0) return fail(scratch, E_SHARE_OVERFLOW, bad);
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
        const u = ldf(used, r);
        if (u + sl * dtNext >= 1.0) {
          at = theta + (1.0 - u) / sl;
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
      const ramp = ldf(endKey, i) - (offsets ? ldf(startKey, i) : 0.0);
      freezeCapped(i, k, dem, rate, state, slope, cnt, outLambda, cap, invCap, divideRatios, peak, liveList, liveLen, ramp, slack);
      live--;
      ep++;
    }
    // saturations: freeze every live queue using r, compact the live list; then rebuild slopes
    let rebuilt = false;
    for (let r = 0; r < k; r++) {
      if (ldb(sat, r)) continue;
      if (!(ldf(satAt, r) <= t) && !(ldf(used, r) >= 1.0)) continue;
      if (ldu(cnt, r) == 0 && !(ldf(used, r) >= 1.0)) continue;
      const sk = ldf(slack, r) + abs(ldf(used, r) - 1.0);
      if (!(sk <= SLACK_MAX)) return fail(scratch, E_SHARE_OVERFLOW, lastStart);
      stb(sat, r, 1);
      stf(used, r, 1.0);
      let kept = 0;
      for (let j = 0; j < liveLen; j++) {
        const i = <i32>ldu(liveList, j);
        const st = ldb(state, i);
        if (st == FROZEN) continue;
        if (ldf(dem, i * k + r) > 0) {
          let lam: f64 = 0;
          if (st == RAMPING) {
            lam = min(1.0, (theta - (offsets ? ldf(startKey, i) : 0.0)) * ldf(rate, i));
            // the counts a re-sum would give the next resource of this loop
            const base = i * k;
            for (let q = 0; q < k; q++) if (ldf(dem, base + q) > 0) stu(cnt, q, ldu(cnt, q) - 1);
          }
          stb(state, i, FROZEN);
          stf(outLambda, i, lam);
          live--;
          continue;
        }
        stu(liveList, kept, <u32>i);
        kept++;
      }
      liveLen = kept;
      rebuilt = true;
    }
    if (rebuilt) {
      // slopes summed afresh once for all the resources saturated at t (once per resource
      // made a tie of K resources O(K^2)); the counts equal the decremented ones
      for (let q = 0; q < k; q++) { stf(slope, q, 0); stu(cnt, q, 0); stf(peak, q, 0); }
      for (let j = 0; j < liveLen; j++) {
        const i = <i32>ldu(liveList, j);
        if (ldb(state, i) == RAMPING) addSlopes(i, k, dem, rate, slope, cnt, cap, invCap, divideRatios);
      }
      const bad = settle(n, k, slope, peak, state, rate, dem, cap, invCap, divideRatios);
      if (bad >= 0) return fail(scratch, E_SHARE_OVERFLOW, bad);
      orderLen = liveLen;
      bucketByKey(orderLen, liveList, endKey, endOrder, bounds);
      ep = 0; sortedEnd = 0; nextBucket = 0;
    }
    // starts
    let started = false;
    while (sp < n) {
      const i = <i32>ldu(startOrder, sp);
      if (ldb(state, i) != WAITING) { sp++; continue; }
      if (ldf(startKey, i) > t) break;
      activate(i, k, dem, rate, state, slope, cnt, cap, invCap, divideRatios);
      lastStart = i;
      started = true;
      sp++;
    }
    if (started) {
      const bad = settle(n, k, slope, peak, state, rate, dem, cap, invCap, divideRatios);
      if (bad >= 0) return fail(scratch, E_SHARE_OVERFLOW, bad);
    }
  }

  // a resource left unsaturated but within its slack of full may in truth be over-allocated
  for (let r = 0; r < k; r++) {
    const sk = ldf(slack, r);
    if (!ldb(sat, r) && sk > SLACK_MAX && ldf(used, r) + sk >= 1.0) return fail(scratch, E_SHARE_OVERFLOW, lastStart);
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

/**
 * The first tiny row (frozen at lambda 1 by pass 1; no other queue is frozen at 1 yet)
 * whose lambda 1 is not proven (header, "Tiny rows"), or -1: one starting after the
 * earliest start, or (weights given) one whose weight is too small next to their sum. Only weights below 2^-20 are
 * looked at: the sum of the weights is within a factor 2 of its rounded sum (N <= 2^31), so
 * sum(w) * 2^-61 <= w_i * 2^1014 proves sum(w) <= w_i * 2^1075 (each side exact or, for the
 * left one, below w_i * 2^1014 anyway when it underflows).
 */
function tinyRowRefused(n: i32, weights: usize, offsets: usize, minOff: f64, outLambda: usize, state: usize): i32 {
  if (offsets) {
    // a later start may find a resource it uses already saturated (lambda 0): not told apart
    for (let i = 0; i < n; i++) {
      if (ldb(state, i) == FROZEN && ldf(outLambda, i) == 1.0 && ldf(offsets, i) > minOff) return i;
    }
  }
  if (!weights) return -1;
  let sum: f64 = 0;
  for (let i = 0; i < n; i++) sum += ldf(weights, i);
  for (let i = 0; i < n; i++) {
    if (ldb(state, i) != FROZEN || ldf(outLambda, i) != 1.0) continue;
    const w = ldf(weights, i);
    if (w < TINY_W && !(sum * 4.336808689942018e-19 <= w * 1.7555597020139804e305)) return i;
  }
  return -1;
}

/** Share of resource r that demand d is: D/C, or D * (1/C) as largestRatioIndex takes it. */
@inline function shareOf(d: f64, r: i32, cap: usize, invCap: usize, divideRatios: bool): f64 {
  return divideRatios ? d / ldf(cap, r) : d * ldf(invCap, r);
}

/**
 * Adds queue i's consumption rate, in shares of capacity per unit of theta (rate * D/C <= w),
 * to every resource it uses (a zero demand adds exactly 0). Overflow is checked by `settle`.
 */
@inline function addSlopes(
  i: i32, k: i32, dem: usize, rate: usize, slope: usize, cnt: usize, cap: usize, invCap: usize, divideRatios: bool,
): void {
  const rt = ldf(rate, i);
  const base = i * k;
  for (let r = 0; r < k; r++) {
    const d = ldf(dem, base + r);
    stf(slope, r, ldf(slope, r) + rt * shareOf(d, r, cap, invCap, divideRatios));
    stu(cnt, r, ldu(cnt, r) + <u32>(d > 0));
  }
}

@inline function activate(
  i: i32, k: i32, dem: usize, rate: usize, state: usize, slope: usize, cnt: usize, cap: usize, invCap: usize, divideRatios: bool,
): void {
  stb(state, i, RAMPING);
  addSlopes(i, k, dem, rate, slope, cnt, cap, invCap, divideRatios);
}

/**
 * After queues were added to the slopes: raises each slope's peak, or, if a slope overflowed
 * (the ramping queues' weights sum beyond f64), returns the ramping queue with the largest
 * term on that resource (to name in the error); -1 when all is well.
 */
function settle(
  n: i32, k: i32, slope: usize, peak: usize, state: usize, rate: usize, dem: usize, cap: usize, invCap: usize, divideRatios: bool,
): i32 {
  for (let r = 0; r < k; r++) {
    const sl = ldf(slope, r);
    if (!isFiniteF64(sl)) {
      let worst = 0;
      let big: f64 = -1;
      for (let i = 0; i < n; i++) {
        if (ldb(state, i) != RAMPING) continue;
        const x = ldf(rate, i) * shareOf(ldf(dem, i * k + r), r, cap, invCap, divideRatios);
        if (x > big) { big = x; worst = i; }
      }
      return worst;
    }
    stf(peak, r, max(ldf(peak, r), sl));
  }
  return -1;
}

/**
 * Queue i reached its cap (lambda = 1): its rate leaves every resource it uses. A running
 * subtraction keeps an absolute error of a few ulps of the largest slope the sum held, which
 * is every digit when a queue ramping 1e300 times faster leaves a slow one behind: when a
 * slope falls below 2^-20 of its peak since the last exact sum, it is summed afresh from the
 * queues still ramping (each such rebuild follows a 2^24-fold drop, so they are rare).
 */
@inline function freezeCapped(
  i: i32, k: i32, dem: usize, rate: usize, state: usize, slope: usize, cnt: usize, outLambda: usize,
  cap: usize, invCap: usize, divideRatios: bool, peak: usize, liveList: usize, liveLen: i32,
  ramp: f64, slack: usize,
): void {
  const rt = ldf(rate, i);
  // the use tracked for queue i is its share times (e - s) * rate as rounded; it is given 1
  const miss = abs(ramp * rt - 1.0) + ULP1;
  const base = i * k;
  stb(state, i, FROZEN);
  stf(outLambda, i, 1.0);
  for (let r = 0; r < k; r++) {
    const d = ldf(dem, base + r);
    if (d > 0) {
      const c = ldu(cnt, r) - 1;
      stu(cnt, r, c);
      // exact zero when the last user leaves, so rounding never leaves a phantom slope
      const sh = shareOf(d, r, cap, invCap, divideRatios);
      stf(slack, r, ldf(slack, r) + miss * sh);
      let sl = c == 0 ? 0.0 : ldf(slope, r) - rt * sh;
      if (c != 0 && !(sl >= ldf(peak, r) * PEAK_DROP)) {
        sl = 0;
        for (let j = 0; j < liveLen; j++) {
          const q = <i32>ldu(liveList, j);
          if (ldb(state, q) == RAMPING) sl += ldf(rate, q) * shareOf(ldf(dem, q * k + r), r, cap, invCap, divideRatios);
        }
        stf(peak, r, sl);
      }
      stf(slope, r, sl);
    }
  }
}
