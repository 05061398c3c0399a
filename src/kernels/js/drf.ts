// Pure-TS twin of assembly/drf.ts (see the algorithms and worked example there): the event
// loop (with offsets) and the level path (drfLevels, without offsets). Same float operations
// in the same order, so both backends agree to the last bit on valid input (loops that the
// WASM side writes branch-free or by bit patterns are written plainly here, same values).
import { Status } from "../status.js";
import { RadixScratch, bucketByKey, bucketCountFor, sortIndicesByKey, sortRangeByKey } from "./radix.js";
import { isFiniteF64 } from "./finite.js";

const WAITING = 0;
const RAMPING = 1;
const FROZEN = 2;

export class DrfScratch {
  errIndex = -1;
  rate = new Float64Array(0);
  delta = new Float64Array(0);
  startKey = new Float64Array(0);
  endKey = new Float64Array(0);
  endOrder = new Uint32Array(0);
  startOrder = new Uint32Array(0);
  liveList = new Uint32Array(0);
  bounds = new Uint32Array(1);
  state = new Uint8Array(0);
  used = new Float64Array(0);
  slope = new Float64Array(0);
  satAt = new Float64Array(0);
  cnt = new Uint32Array(0);
  invCap = new Float64Array(0);
  sat = new Uint8Array(0);
  // level path (no offsets)
  mask = new Uint32Array(0);
  endKeyWords = new Uint32Array(0);
  grid = new Float64Array(0);
  fbase = new Float64Array(0);
  base = new Float64Array(0);
  cur = new Float64Array(0);
  s1 = new Float64Array(0);
  readonly exact = new Float64Array(3);
  readonly radix = new RadixScratch();
  ensure(n: number, k: number): void {
    if (this.rate.length < n) {
      const c = Math.max(n, this.rate.length * 2);
      this.rate = new Float64Array(c);
      this.delta = new Float64Array(c);
      this.startKey = new Float64Array(c);
      this.endKey = new Float64Array(c);
      this.endOrder = new Uint32Array(c);
      this.startOrder = new Uint32Array(c);
      this.liveList = new Uint32Array(c);
      this.bounds = new Uint32Array(bucketCountFor(c) + 1);
      this.state = new Uint8Array(c);
      this.mask = new Uint32Array(c);
      this.endKeyWords = new Uint32Array(this.endKey.buffer, this.endKey.byteOffset, c * 2);
    }
    const cells = gridBuckets(n, k) * k * 2;
    if (this.grid.length < cells) this.grid = new Float64Array(Math.max(cells, this.grid.length * 2));
    if (this.used.length < k) {
      this.used = new Float64Array(k);
      this.slope = new Float64Array(k);
      this.satAt = new Float64Array(k);
      this.cnt = new Uint32Array(k);
      this.invCap = new Float64Array(k);
      this.sat = new Uint8Array(k);
      this.fbase = new Float64Array(k);
      this.base = new Float64Array(k);
      this.cur = new Float64Array(k);
      this.s1 = new Float64Array(k);
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

  for (let r = 0; r < k; r++) {
    const c = cap[r];
    if (!(c > 0) || !isFiniteF64(c)) return fail(Status.Capacity, r);
    used[r] = 0; slope[r] = 0; cnt[r] = 0; sat[r] = 0;
    invCap[r] = 1.0 / c;
  }
  let divideRatios = false;
  for (let r = 0; r < k; r++) if (!isFiniteF64(invCap[r])) divideRatios = true;
  if (!offsets && k <= MAX_LEVELS_K) return drfLevels(n, k, cap, dem, weights, outLambda, outAlloc, outDs, s, divideRatios);

  const addSlopes = (i: number): void => {
    const rt = rate[i];
    const base = i * k;
    for (let r = 0; r < k; r++) {
      const d = dem[base + r];
      slope[r] = slope[r] + rt * d;
      if (d > 0) cnt[r]++;
    }
  };
  const activate = (i: number): void => {
    state[i] = RAMPING;
    addSlopes(i);
  };

  // Pass 1: validate, delta, rate; without offsets also the cap key and activation.
  // (The WASM twin finds the same first largest ratio branch-free, by bit patterns.)
  let minOff = Infinity;
  let live = 0;
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
      if (!(e > st) || !isFiniteF64(e)) return fail(Status.ShareOverflow, i);
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
        const u = used[r], c = cap[r];
        if (u + sl * dtNext >= c) {
          at = theta + (c - u) / sl;
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
      // capped: its rate leaves every resource it uses; exact zero when the last user leaves
      const rt = rate[i];
      const base = i * k;
      for (let r = 0; r < k; r++) {
        const d = dem[base + r];
        if (d > 0) {
          const c = cnt[r] - 1;
          cnt[r] = c;
          slope[r] = c === 0 ? 0.0 : slope[r] - rt * d;
        }
      }
      state[i] = FROZEN;
      outLambda[i] = 1.0;
      live--;
      ep++;
    }
    // saturations: freeze every live queue using r, compact the live list, rebuild slopes
    let rebuilt = false;
    for (let r = 0; r < k; r++) {
      if (sat[r]) continue;
      if (!(satAt[r] <= t) && !(used[r] >= cap[r])) continue;
      if (cnt[r] === 0 && !(used[r] >= cap[r])) continue;
      sat[r] = 1;
      used[r] = cap[r];
      let kept = 0;
      for (let j = 0; j < liveLen; j++) {
        const i = liveList[j];
        const st = state[i];
        if (st === FROZEN) continue;
        if (dem[i * k + r] > 0) {
          let lam = 0;
          if (st === RAMPING) lam = Math.min(1.0, (theta - (offsets ? startKey[i] : 0.0)) * rate[i]);
          state[i] = FROZEN;
          outLambda[i] = lam;
          live--;
          continue;
        }
        liveList[kept++] = i;
      }
      liveLen = kept;
      for (let q = 0; q < k; q++) { slope[q] = 0; cnt[q] = 0; }
      for (let j = 0; j < liveLen; j++) {
        const i = liveList[j];
        if (state[i] === RAMPING) addSlopes(i);
      }
      rebuilt = true;
    }
    if (rebuilt) {
      orderLen = liveLen;
      bucketByKey(orderLen, liveList, endKey, endOrder, bounds);
      ep = 0; sortedEnd = 0; nextBucket = 0;
    }
    while (sp < n) {
      const i = startOrder[sp];
      if (state[i] !== WAITING) { sp++; continue; }
      if (startKey[i] > t) break;
      activate(i);
      sp++;
    }
  }

  for (let i = 0; i < n; i++) {
    const lam = outLambda[i];
    outDs[i] = lam === 0 ? 0.0 : lam * delta[i];
    const base = i * k;
    for (let r = 0; r < k; r++) outAlloc[base + r] = lam * dem[base + r];
  }
  return Status.OK;
}

// ---------------------------------------------------------------------------------------
// Without offsets: saturation levels by bucketed sums (twin of drfLevels in assembly/drf.ts).
// ---------------------------------------------------------------------------------------

const MAX_LEVELS_K = 32;
const GRID_CELLS = 4096;
const INF_HI = 0x7ff00000;
const RANGE_LO = 9.332636185032189e-302; // 2^-1000
const RANGE_HI = 1.0715086071862673e301; // 2^1000

/** Buckets of the level grid for m keys and k resources (a power of two, >= 1). */
export function gridBuckets(m: number, k: number): number {
  let limit = 1;
  while (limit * 2 * k <= GRID_CELLS) limit *= 2;
  return Math.min(bucketCountFor(m), limit);
}

const bitsF = new Float64Array(1);
const bitsU = new Uint32Array(bitsF.buffer);
function hi32(x: number): number {
  bitsF[0] = x;
  return bitsU[1];
}

function gridIndex(h: number, lo: number, shift: number, w: number): number {
  if (h <= lo) return 0;
  const q = (h - lo) >>> shift;
  return q >= w ? w - 1 : q;
}

function gridBound(b: number, lo: number, shift: number, w: number): number {
  if (b <= 0) return 0;
  if (b >= w) return Infinity;
  const h = lo + b * 2 ** shift;
  if (h >= INF_HI) return Infinity;
  bitsU[0] = 0;
  bitsU[1] = h;
  return bitsF[0];
}

function inRange(x: number): boolean {
  return x >= RANGE_LO && x <= RANGE_HI;
}

function drfLevels(
  n: number, k: number,
  cap: Float64Array, dem: Float64Array, weights: Float64Array | null,
  outLambda: Float64Array, outAlloc: Float64Array, outDs: Float64Array,
  s: DrfScratch, divideRatios: boolean,
): Status {
  const { invCap } = s;
  // round 1's grid from a sample of rows
  const nb = gridBuckets(n, k);
  let slo = 0xffffffff, shi = 0;
  const ns = Math.min(n, 64);
  for (let q = 0; q < ns; q++) {
    const i = Math.floor((q * n) / ns);
    const w = weights ? weights[i] : 1.0;
    if (!(w > 0) || !isFiniteF64(w)) continue;
    const row = i * k;
    let best = 0;
    let bestR = -1;
    for (let r = 0; r < k; r++) {
      const a = dem[row + r];
      if (!(a >= 0) || !isFiniteF64(a)) continue;
      const x = divideRatios ? a / cap[r] : a * invCap[r];
      if (x > best) { best = x; bestR = r; }
    }
    if (bestR < 0) continue;
    const e = dem[row + bestR] / cap[bestR] / w;
    if (!(e > 0) || !isFiniteF64(e)) continue;
    const h = hi32(e);
    if (h < slo) slo = h;
    if (h > shi) shi = h;
  }
  if (slo > shi) { slo = 0x3ff00000; shi = slo; }
  const half = (shi - slo) >>> 1;
  const lo = slo - Math.min(slo, half);
  let shift = 0;
  while (shift < 31 && Math.floor((shi + half - lo) / 2 ** shift) >= nb) shift++;

  const live = levelsPass1(n, k, cap, dem, weights, outLambda, s, divideRatios, lo, shift, nb);
  if (live < 0) return -live as Status;
  levelsSolve(live, k, cap, dem, outLambda, outAlloc, s, lo, shift, nb);

  for (let i = 0; i < n; i++) {
    const lam = outLambda[i];
    outDs[i] = lam === 0 ? 0.0 : lam * s.delta[i];
    const b = i * k;
    for (let r = 0; r < k; r++) outAlloc[b + r] = lam * dem[b + r];
  }
  return Status.OK;
}

function levelsPass1(
  n: number, k: number, cap: Float64Array, dem: Float64Array, weights: Float64Array | null,
  outLambda: Float64Array, s: DrfScratch, divideRatios: boolean,
  lo: number, shift: number, nb: number,
): number {
  const { rate, delta, endKey, endKeyWords, liveList: list, mask, grid, invCap, exact } = s;
  const k2 = k * 2;
  grid.fill(0, 0, nb * k2);
  let live = 0;
  for (let i = 0; i < n; i++) {
    const w = weights ? weights[i] : 1.0;
    if (!(w > 0) || !isFiniteF64(w)) { s.errIndex = i; return -Status.Weight; }
    const row = i * k;
    // the largest product D * (1/C); "bad" when a product is not finite and >= +0 (the
    // WASM twin sees that as bits >= +Inf)
    let best = 0;
    let bad = false;
    for (let r = 0; r < k; r++) {
      const x = dem[row + r] * invCap[r];
      if (!(x >= 0 && x < Infinity) || (x === 0 && 1 / x < 0)) bad = true;
      if (x > best) best = x;
    }
    if (!bad && best === 0) {
      outLambda[i] = 0;
      continue;
    }
    let dl = best;
    let rt = w / dl;
    let e = weights ? dl / w : dl;
    if (bad || !(inRange(dl) && inRange(rt) && inRange(e))) {
      const st = exactRow(i, k, row, dem, cap, invCap, divideRatios, w, s);
      if (st > 0) return -st;
      if (st < 0) {
        outLambda[i] = 0;
        continue;
      }
      dl = exact[0];
      rt = exact[1];
      e = exact[2];
    }
    delta[i] = dl;
    rate[i] = rt;
    endKey[i] = e;
    list[live++] = i;
    const g = gridIndex(endKeyWords[2 * i + 1], lo, shift, nb) * k2;
    const gs = g + k;
    let msk = 0;
    for (let r = 0; r < k; r++) {
      const d = dem[row + r];
      grid[g + r] = grid[g + r] + d;
      grid[gs + r] = grid[gs + r] + rt * d;
      if (d > 0) msk |= 1 << r;
    }
    mask[i] = msk >>> 0;
  }
  return live;
}

/** largestRatioIndex's answer for a row with a bad demand (its index is in s.errIndex). */
const BAD_ROW = -2;

/**
 * The first index of the largest D/C (or D * (1/C)) in the row starting at `row`, -1 for a
 * row without demand, or BAD_ROW. (The WASM twin finds the same index branch-free, by bit
 * patterns, falling back to this exact scan for bad rows.)
 */
function largestRatioIndex(
  row: number, k: number, dem: Float64Array, cap: Float64Array, invCap: Float64Array, divideRatios: boolean, s: DrfScratch,
): number {
  let best = 0;
  let bestR = -1;
  for (let r = 0; r < k; r++) {
    const a = dem[row + r];
    if (!(a >= 0) || !isFiniteF64(a)) { s.errIndex = row + r; return BAD_ROW; }
    const x = divideRatios ? a / cap[r] : a * invCap[r];
    if (x > best) { best = x; bestR = r; }
  }
  return bestR;
}

/** One row exactly as the event path's pass 1 does it; 0 (values in s.exact), -1 (no demand) or a status. */
function exactRow(
  i: number, k: number, row: number, dem: Float64Array, cap: Float64Array, invCap: Float64Array,
  divideRatios: boolean, w: number, s: DrfScratch,
): number {
  const bestR = largestRatioIndex(row, k, dem, cap, invCap, divideRatios, s);
  if (bestR === BAD_ROW) return Status.Demand;
  if (bestR < 0) return -1;
  const dl = dem[row + bestR] / cap[bestR];
  const rt = w / dl;
  if (!isFiniteF64(dl) || !(rt > 0) || !isFiniteF64(rt)) { s.errIndex = i; return Status.ShareOverflow; }
  const e = dl / w;
  if (!(e > 0) || !isFiniteF64(e)) { s.errIndex = i; return Status.ShareOverflow; }
  s.exact[0] = dl;
  s.exact[1] = rt;
  s.exact[2] = e;
  return 0;
}

function levelsSolve(
  live: number, k: number, cap: Float64Array, dem: Float64Array,
  outLambda: Float64Array, outAlloc: Float64Array, s: DrfScratch,
  lo: number, shift: number, nb: number,
): void {
  const { rate, endKey, endKeyWords, liveList: list, endOrder: members, mask, used, slope, satAt, sat, fbase, base, cur, s1, grid } = s;
  const k2 = k * 2;
  let m = live;
  let theta0 = 0;
  for (let r = 0; r < k; r++) { fbase[r] = 0; sat[r] = 0; }
  let round = 0;
  while (m > 0) {
    for (let b = nb - 2; b >= 0; b--) {
      const gs = b * k2 + k;
      const hs = gs + k2;
      for (let r = 0; r < k; r++) grid[gs + r] = grid[gs + r] + grid[hs + r];
    }
    if (round > 0) {
      for (let r = 0; r < k; r++) {
        if (sat[r]) continue;
        fbase[r] = used[r] - theta0 * grid[k + r];
      }
    }
    for (let r = 0; r < k; r++) base[r] = fbase[r];
    let rb = -1;
    for (let b = 0; b < nb; b++) {
      const g = b * k2;
      const next = b + 1 < nb ? g + k2 + k : -1;
      const L = gridBound(b + 1, lo, shift, nb);
      let hit = false;
      for (let r = 0; r < k; r++) {
        if (sat[r]) continue;
        const pb = base[r] + grid[g + r];
        const sl = next >= 0 ? grid[next + r] : 0.0;
        const c = cap[r];
        if (sl > 0 ? pb + L * sl >= c : pb >= c) hit = true;
      }
      if (hit) { rb = b; break; }
      for (let r = 0; r < k; r++) base[r] = base[r] + grid[g + r];
    }
    if (rb < 0) {
      for (let j = 0; j < m; j++) outLambda[list[j]] = 1.0;
      return;
    }

    let mm = 0;
    for (let j = 0; j < m; j++) {
      const i = list[j];
      if (gridIndex(endKeyWords[2 * i + 1], lo, shift, nb) === rb) members[mm++] = i;
    }
    sortRangeByKey(members, 0, mm, endKey, s.radix);
    const gb = rb * k2;
    for (let r = 0; r < k; r++) s1[r] = rb + 1 < nb ? grid[gb + k2 + k + r] : 0.0;
    for (let j = mm - 1; j >= 0; j--) {
      const i = members[j];
      const rt = rate[i];
      const row = i * k;
      const sj = j * k;
      if (j + 1 < mm) {
        const sn = sj + k;
        for (let r = 0; r < k; r++) outAlloc[sj + r] = outAlloc[sn + r] + rt * dem[row + r];
      } else {
        for (let r = 0; r < k; r++) outAlloc[sj + r] = s1[r] + rt * dem[row + r];
      }
    }

    for (let r = 0; r < k; r++) cur[r] = base[r];
    let thetaPrev = Math.max(theta0, gridBound(rb, lo, shift, nb));
    const lhi = gridBound(rb + 1, lo, shift, nb);
    let j = 0;
    let t = 0;
    let found = false;
    for (;;) {
      const last = j === mm;
      const tNext = last ? lhi : endKey[members[j]];
      const sj = j * k;
      let tSat = Infinity;
      for (let r = 0; r < k; r++) {
        let at = Infinity;
        if (!sat[r]) {
          const sl = last ? s1[r] : outAlloc[sj + r];
          const u = last ? base[r] + grid[gb + r] : cur[r];
          const c = cap[r];
          if (sl > 0 ? u + tNext * sl >= c : u >= c) {
            at = sl > 0 ? Math.max(thetaPrev, (c - u) / sl) : thetaPrev;
            tSat = Math.min(tSat, at);
            found = true;
          }
          used[r] = u;
          slope[r] = sl;
        }
        satAt[r] = at;
      }
      if (found) { t = tSat; break; }
      if (last) break;
      while (j < mm) {
        const i = members[j];
        if (endKey[i] !== tNext) break;
        const row = i * k;
        for (let r = 0; r < k; r++) cur[r] = cur[r] + dem[row + r];
        j++;
      }
      thetaPrev = tNext;
    }
    let satMask = 0;
    if (found) {
      for (let r = 0; r < k; r++) {
        if (sat[r]) continue;
        if (satAt[r] <= t) { satMask |= 1 << r; sat[r] = 1; continue; }
        used[r] = used[r] + t * slope[r];
      }
    }
    if (satMask === 0) {
      for (let q = 0; q < m; q++) outLambda[list[q]] = 1.0;
      return;
    }

    let kept = 0;
    let klo = 0xffffffff, khi = 0;
    for (let q = 0; q < m; q++) {
      const i = list[q];
      const e = endKey[i];
      const capped = e <= t;
      outLambda[i] = capped ? 1.0 : Math.min(1.0, t * rate[i]);
      if (capped || (mask[i] & satMask) !== 0) continue;
      list[kept++] = i;
      const h = endKeyWords[2 * i + 1];
      if (h < klo) klo = h;
      if (h > khi) khi = h;
    }
    m = kept;
    theta0 = t;
    round++;
    if (m === 0) return;

    nb = gridBuckets(m, k);
    lo = klo;
    shift = 0;
    while (shift < 31 && (khi - klo) >>> shift >= nb) shift++;
    grid.fill(0, 0, nb * k2);
    for (let q = 0; q < m; q++) {
      const i = list[q];
      const rt = rate[i];
      const row = i * k;
      const g = gridIndex(endKeyWords[2 * i + 1], lo, shift, nb) * k2;
      const gs = g + k;
      for (let r = 0; r < k; r++) {
        const d = dem[row + r];
        grid[g + r] = grid[g + r] + d;
        grid[gs + r] = grid[gs + r] + rt * d;
      }
    }
  }
}

/** The floor: one pass reading every element once, four accumulators (twin of assembly/floor.ts). */
export function floorSum(len: number, data: Float64Array): number {
  let a = 0, b = 0, c = 0, d = 0;
  let i = 0;
  for (; i + 3 < len; i += 4) {
    a += data[i]; b += data[i + 1]; c += data[i + 2]; d += data[i + 3];
  }
  for (; i < len; i++) a += data[i];
  return (a + b) + (c + d);
}
