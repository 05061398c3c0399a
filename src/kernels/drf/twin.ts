// Pure-TS twin of assembly/drf.ts (see the algorithms and worked example there): the event
// loop (with offsets); the level path (without offsets) is in levels.ts. Same float operations
// in the same order, so both backends agree to the last bit on valid input (loops that the
// WASM side writes branch-free or by bit patterns are written plainly here, same values).
// Extreme magnitudes (slopes in shares of capacity, afresh sums after a 2^-20 drop, the
// `slack` bound that refuses a late start too narrow for f64): see the WASM header.
import { Status } from "../status.js";
import { bucketByKey, sortIndicesByKey, sortRangeByKey } from "../util/radix.js";
import { isFiniteF64 } from "../util/finite.js";
import { BAD_ROW, CAP_HI, CAP_LO, ROUTE_EVENT, TINY_ROW, largestRatioIndex } from "./common.js";
import { drfLevels } from "./levels.js";
import { DrfScratch } from "./scratch.js";

export { DrfScratch };

/** The level path keeps each queue's used resources as a u32 bit mask. */
const MAX_LEVELS_K = 32;
const WAITING = 0;
const RAMPING = 1;
const FROZEN = 2;
/** A slope that falls below this fraction of its peak is summed afresh (see freezeCapped in the WASM twin). */
const PEAK_DROP = 1.0 / 1048576.0; // 2^-20
/** 2^-52 and 2^-30: the misplaced-share bound per event and its limit (see `slack` in the WASM twin). */
const ULP1 = 2.220446049250313e-16;
const SLACK_MAX = 9.313225746154785e-10;



/** Weights from 2^-20 up always cap a tiny row at once (assembly/drf.ts, "Tiny rows"). */
const TINY_W = 9.5367431640625e-7;

/** The first tiny row whose lambda 1 is not proven, or -1 (WASM twin: tinyRowRefused in assembly/drf.ts). */
function tinyRowRefused(
  n: number, weights: Float64Array | null, offsets: Float64Array | null, minOff: number, outLambda: Float64Array, state: Uint8Array,
): number {
  if (offsets) {
    for (let i = 0; i < n; i++) if (state[i] === FROZEN && outLambda[i] === 1.0 && offsets[i] > minOff) return i;
  }
  if (!weights) return -1;
  let sum = 0;
  for (let i = 0; i < n; i++) sum += weights[i];
  for (let i = 0; i < n; i++) {
    if (state[i] !== FROZEN || outLambda[i] !== 1.0) continue;
    const w = weights[i];
    if (w < TINY_W && !(sum * 4.336808689942018e-19 <= w * 1.7555597020139804e305)) return i;
  }
  return -1;
}

/** What the slope helpers read and write (WASM twin: the parameters of addSlopes, settle, freezeCapped in assembly/drf.ts). */
interface Slopes {
  n: number;
  k: number;
  cap: Float64Array;
  dem: Float64Array;
  invCap: Float64Array;
  divideRatios: boolean;
  rate: Float64Array;
  state: Uint8Array;
  /** Per resource: the ramping queues' summed rate * share (in shares of capacity per unit of theta). */
  slope: Float64Array;
  /** Per resource: how many ramping queues use it. */
  cnt: Uint32Array;
  /** Each slope's largest value since it was last summed afresh. */
  peak: Float64Array;
}

/** D/C, or D * (1/C) when every 1/C is finite. */
function shareOf(sl: Slopes, d: number, r: number): number {
  return sl.divideRatios ? d / sl.cap[r] : d * sl.invCap[r];
}

/** Queue i starts ramping: its rate joins the slope of every resource (its count only where it has demand). */
function addSlopes(sl: Slopes, i: number): void {
  const { k, dem, slope, cnt } = sl;
  const rt = sl.rate[i];
  const base = i * k;
  for (let r = 0; r < k; r++) {
    const d = dem[base + r];
    slope[r] = slope[r] + rt * shareOf(sl, d, r);
    if (d > 0) cnt[r]++;
  }
}

/**
 * After queues were added: raises the peaks, or names the ramping queue with the largest term
 * on a slope that overflowed (-1 when all is well).
 */
function settleSlopes(sl: Slopes): number {
  const { n, k, dem, rate, state, slope, peak } = sl;
  for (let r = 0; r < k; r++) {
    const v = slope[r];
    if (!isFiniteF64(v)) {
      let worst = 0, big = -1;
      for (let i = 0; i < n; i++) {
        if (state[i] !== RAMPING) continue;
        const x = rate[i] * shareOf(sl, dem[i * k + r], r);
        if (x > big) { big = x; worst = i; }
      }
      return worst;
    }
    peak[r] = Math.max(peak[r], v);
  }
  return -1;
}

/**
 * Queue i capped (lambda = 1) after ramping for `ramp`: its rate leaves every resource it uses;
 * exact zero when the last user leaves; a slope fallen below 2^-20 of its peak is summed afresh
 * from the queues still ramping.
 */
function freezeCapped(
  sl: Slopes, i: number, outLambda: Float64Array, liveList: Uint32Array, liveLen: number, ramp: number, slack: Float64Array,
): void {
  const { k, dem, rate, state, slope, cnt, peak } = sl;
  const rt = rate[i];
  const base = i * k;
  // the use tracked for queue i is its share times (e - s) * rate as rounded; it is given 1
  const miss = Math.abs(ramp * rt - 1.0) + ULP1;
  state[i] = FROZEN;
  outLambda[i] = 1.0;
  for (let r = 0; r < k; r++) {
    const d = dem[base + r];
    if (d > 0) {
      const c = cnt[r] - 1;
      cnt[r] = c;
      const sh = shareOf(sl, d, r);
      slack[r] = slack[r] + miss * sh;
      let v = c === 0 ? 0.0 : slope[r] - rt * sh;
      if (c !== 0 && !(v >= peak[r] * PEAK_DROP)) {
        v = 0;
        for (let j = 0; j < liveLen; j++) {
          const q = liveList[j];
          if (state[q] === RAMPING) v += rate[q] * shareOf(sl, dem[q * k + r], r);
        }
        peak[r] = v;
      }
      slope[r] = v;
    }
  }
}

export function drfKernel(
  n: number, k: number,
  cap: Float64Array, dem: Float64Array, weights: Float64Array | null, offsets: Float64Array | null,
  outLambda: Float64Array, outAlloc: Float64Array, outDs: Float64Array,
  s: DrfScratch,
): Status {
  s.ensure(n, k);
  const { rate, delta, startKey, endKey, endOrder, startOrder, liveList, bounds, state, used, slope, satAt, invCap, cnt, sat } = s;
  const fail = (code: Status, index: number): Status => {
    s.errIndex = index;
    return code;
  };

  let capsInRange = true;
  for (let r = 0; r < k; r++) {
    const c = cap[r];
    if (!(c > 0) || !isFiniteF64(c)) return fail(Status.Capacity, r);
    if (!(c >= CAP_LO && c <= CAP_HI)) capsInRange = false;
    invCap[r] = 1.0 / c;
  }
  let divideRatios = false;
  for (let r = 0; r < k; r++) if (!isFiniteF64(invCap[r])) divideRatios = true;
  // the level path only inside its safe range (assembly/drf.ts header); ROUTE_EVENT: a row outside it
  if (!offsets && k <= MAX_LEVELS_K && capsInRange) {
    const st = drfLevels(n, k, cap, dem, weights, outLambda, outAlloc, outDs, s, divideRatios);
    if (st !== ROUTE_EVENT) return st;
  }
  for (let r = 0; r < k; r++) { used[r] = 0; slope[r] = 0; cnt[r] = 0; sat[r] = 0; }

  const peak = s.fbase; // each slope's largest value since it was last summed afresh
  const slack = s.base; // bound on the share of each resource misplaced by rounded levels
  for (let r = 0; r < k; r++) { peak[r] = 0; slack[r] = 0; }
  let lastStart = 0;
  const slopes: Slopes = { n, k, cap, dem, invCap, divideRatios, rate, state, slope, cnt, peak };
  const activate = (i: number): void => {
    state[i] = RAMPING;
    addSlopes(slopes, i);
  };
  const settle = (): number => settleSlopes(slopes);

  // Pass 1: validate, delta, rate; without offsets also the cap key and activation.
  // (The WASM twin finds the same first largest ratio branch-free, by bit patterns.)
  let minOff = Infinity;
  let live = 0;
  let tiny = 0;
  for (let i = 0; i < n; i++) {
    const w = weights ? weights[i] : 1.0;
    if (!(w > 0) || !isFiniteF64(w)) return fail(Status.Weight, i);
    const o = offsets ? offsets[i] : 0.0;
    if (!(o >= 0) || !isFiniteF64(o)) return fail(Status.Offset, i);
    const row = i * k;
    const bestR = largestRatioIndex(row, k, dem, cap, invCap, divideRatios, s);
    if (bestR === BAD_ROW) return Status.Demand;
    outLambda[i] = 0;
    if (bestR < 0) {
      state[i] = FROZEN;
      if (bestR === TINY_ROW) {
        // capped at once (assembly/drf.ts header, "Tiny rows"): lambda 1, dominant share 0
        outLambda[i] = 1.0;
        delta[i] = 0;
        tiny++;
      }
      continue;
    }
    const dl = dem[row + bestR] / cap[bestR];
    const rt = w / dl;
    if (!isFiniteF64(dl) || !(rt > 0) || !isFiniteF64(rt)) return fail(Status.ShareOverflow, i);
    delta[i] = dl;
    rate[i] = rt;
    liveList[live++] = i;
    if (offsets) {
      state[i] = WAITING;
      if (o < minOff) minOff = o;
    } else {
      const e = dl / w;
      if (!(e > 0) || !isFiniteF64(e)) return fail(Status.ShareOverflow, i);
      endKey[i] = e;
      activate(i);
    }
  }
  const nLive = live;
  if (tiny) {
    const bad = tinyRowRefused(n, weights, offsets, minOff, outLambda, state);
    if (bad >= 0) return fail(Status.ShareOverflow, bad);
  }
  if (!offsets) {
    const bad = settle();
    if (bad >= 0) return fail(Status.ShareOverflow, bad);
  }

  // With offsets: normalized start and cap keys, starts fully sorted (frozen last, +Inf).
  let sp = n;
  if (offsets) {
    let anyStart = false;
    for (let i = 0; i < n; i++) {
      if (state[i] === FROZEN) {
        startKey[i] = Infinity;
        continue;
      }
      const st = offsets[i] - minOff;
      const e = st + delta[i] / (weights ? weights[i] : 1.0);
      if (!isFiniteF64(e)) return fail(Status.ShareOverflow, i);
      startKey[i] = st;
      endKey[i] = e;
      if (st > 0) anyStart = true;
    }
    if (anyStart) {
      sortIndicesByKey(n, startKey, startOrder, s.radix);
      sp = 0;
      while (sp < n) {
        const i = startOrder[sp];
        if (startKey[i] > 0) break;
        if (state[i] === WAITING) activate(i);
        sp++;
      }
    } else {
      for (let j = 0; j < nLive; j++) activate(liveList[j]);
    }
    const bad = settle();
    if (bad >= 0) return fail(Status.ShareOverflow, bad);
  }

  // Caps in key order, bucket by bucket: bucket b is sorted when ep first reaches it.
  // A saturation rebuilds the buckets from the survivors, so frozen queues are never sorted.
  let orderLen = nLive;
  bucketByKey(orderLen, liveList, endKey, endOrder, bounds);
  let sortedEnd = 0;
  let nextBucket = 0;

  let liveLen = nLive;
  let theta = 0;
  let ep = 0;
  while (live > 0) {
    while (ep < orderLen) {
      while (ep >= sortedEnd) {
        const a = bounds[nextBucket], b = bounds[nextBucket + 1];
        sortRangeByKey(endOrder, a, b - a, endKey, s.radix);
        sortedEnd = b;
        nextBucket++;
      }
      if (state[endOrder[ep]] !== FROZEN) break;
      ep++;
    }
    while (sp < n && state[startOrder[sp]] !== WAITING) sp++;
    const tEnd = ep < orderLen ? endKey[endOrder[ep]] : Infinity;
    const tStart = sp < n ? startKey[startOrder[sp]] : Infinity;
    const tNext = Math.min(tEnd, tStart);
    const dtNext = tNext - theta;
    let tSat = Infinity;
    for (let r = 0; r < k; r++) {
      const sl = slope[r];
      let at = Infinity;
      if (sl > 0) {
        const u = used[r];
        if (u + sl * dtNext >= 1.0) {
          at = theta + (1.0 - u) / sl;
          if (at < theta) at = theta;
          if (at < tSat) tSat = at;
        }
      }
      satAt[r] = at;
    }
    const t = Math.min(tSat, tNext);
    if (t === Infinity) break;
    const dt = t - theta;
    for (let r = 0; r < k; r++) {
      const sl = slope[r];
      if (sl > 0) used[r] = used[r] + sl * dt;
    }
    theta = t;

    // caps first (ep only moves within sorted buckets here)
    while (ep < sortedEnd) {
      const i = endOrder[ep];
      const st = state[i];
      if (st === FROZEN) { ep++; continue; }
      if (endKey[i] > t) break;
      if (st === WAITING) break;
      freezeCapped(slopes, i, outLambda, liveList, liveLen, endKey[i] - (offsets ? startKey[i] : 0.0), slack);
      live--;
      ep++;
    }
    // saturations: freeze every live queue using r, compact the live list; then rebuild slopes
    let rebuilt = false;
    for (let r = 0; r < k; r++) {
      if (sat[r]) continue;
      if (!(satAt[r] <= t) && !(used[r] >= 1.0)) continue;
      if (cnt[r] === 0 && !(used[r] >= 1.0)) continue;
      const sk = slack[r] + Math.abs(used[r] - 1.0);
      if (!(sk <= SLACK_MAX)) return fail(Status.ShareOverflow, lastStart);
      sat[r] = 1;
      used[r] = 1.0;
      let kept = 0;
      s.work += liveLen;
      for (let j = 0; j < liveLen; j++) {
        const i = liveList[j];
        const st = state[i];
        if (st === FROZEN) continue;
        if (dem[i * k + r] > 0) {
          let lam = 0;
          if (st === RAMPING) {
            lam = Math.min(1.0, (theta - (offsets ? startKey[i] : 0.0)) * rate[i]);
            // the counts a re-sum would give the next resource of this loop
            const base = i * k;
            s.work += k;
            for (let q = 0; q < k; q++) if (dem[base + q] > 0) cnt[q]--;
          }
          state[i] = FROZEN;
          outLambda[i] = lam;
          live--;
          continue;
        }
        liveList[kept++] = i;
      }
      liveLen = kept;
      rebuilt = true;
    }
    if (rebuilt) {
      // slopes summed afresh once for all the resources saturated at t (once per resource
      // made a tie of K resources O(K^2)); the counts equal the decremented ones
      for (let q = 0; q < k; q++) { slope[q] = 0; cnt[q] = 0; peak[q] = 0; }
      s.work += k + liveLen * k;
      for (let j = 0; j < liveLen; j++) {
        const i = liveList[j];
        if (state[i] === RAMPING) addSlopes(slopes, i);
      }
      const bad = settle();
      if (bad >= 0) return fail(Status.ShareOverflow, bad);
      orderLen = liveLen;
      bucketByKey(orderLen, liveList, endKey, endOrder, bounds);
      ep = 0; sortedEnd = 0; nextBucket = 0;
    }
    let started = false;
    while (sp < n) {
      const i = startOrder[sp];
      if (state[i] !== WAITING) { sp++; continue; }
      if (startKey[i] > t) break;
      activate(i);
      lastStart = i;
      started = true;
      sp++;
    }
    if (started) {
      const bad = settle();
      if (bad >= 0) return fail(Status.ShareOverflow, bad);
    }
  }

  for (let r = 0; r < k; r++) {
    const sk = slack[r];
    if (!sat[r] && sk > SLACK_MAX && used[r] + sk >= 1.0) return fail(Status.ShareOverflow, lastStart);
  }

  for (let i = 0; i < n; i++) {
    const lam = outLambda[i];
    outDs[i] = lam === 0 ? 0.0 : lam * delta[i];
    const base = i * k;
    for (let r = 0; r < k; r++) outAlloc[base + r] = lam * dem[base + r];
  }
  return Status.OK;
}
