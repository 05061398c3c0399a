// Pure-TS twin of DRF's level path (assembly/drf/levels.ts, pass1.ts, output.ts; see the
// algorithm, worked examples and edge values there): pass 1 per queue (the WASM side takes
// two queues per step with K fixed at compile time, same values), the rounds that find
// the saturation levels, and the output pass that gives every queue its lambda from them.
// Same float operations in the same order, so both backends agree to the last bit.
import { Status } from "../status.js";
import { sortRangeByKey } from "../util/radix.js";
import { isFiniteF64 } from "../util/finite.js";
import { gridBuckets, type DrfScratch } from "./scratch.js";

const INF_HI = 0x7ff00000;
// the level path's safe range (assembly/drf/common.ts, assembly/drf.ts header)
const RANGE_LO = 2.938735877055719e-39; // 2^-128
const RANGE_HI = 3.402823669209385e38; // 2^128
export const CAP_LO = 8.636168555094445e-78; // 2^-256
export const CAP_HI = 1.157920892373162e77; // 2^256
/** What the level path returns for a call outside its safe range or with a tiny row: drfKernel routes it to the event path. */
export const ROUTE_EVENT = 0x40 as Status;
/** Masks up to this K index a table of 2^K smallest levels (the WASM output pass's limit). */
const TABLE_MAX_K = 8;


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

export function drfLevels(
  n: number, k: number,
  cap: Float64Array, dem: Float64Array, weights: Float64Array | null,
  outLambda: Float64Array, outAlloc: Float64Array, outDs: Float64Array,
  s: DrfScratch, divideRatios: boolean,
): Status {
  const { invCap, levels } = s;
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

  const live = levelsPass1(n, k, cap, dem, weights, s, divideRatios, lo, shift, nb);
  if (live < 0) return -live as Status;
  levels.fill(Infinity, 0, k);
  levelsSolve(n, live, k, cap, dem, outAlloc, s, lo, shift, nb);
  levelsOutputs(n, k, dem, s, outLambda, outAlloc, outDs);
  return Status.OK;
}

/**
 * Per queue: delta, rate, key, mask, and its row into its key's bucket; a queue without
 * demand gets delta 0, rate 0, key -1, mask 0. Returns the number of queues with demand,
 * or -status (index in s.errIndex).
 */
function levelsPass1(
  n: number, k: number, cap: Float64Array, dem: Float64Array, weights: Float64Array | null,
  s: DrfScratch, divideRatios: boolean, lo: number, shift: number, nb: number,
): number {
  const { rate, delta, endKey, endKeyWords, mask, grid, invCap, exact } = s;
  const k2 = k * 2;
  grid.fill(0, 0, nb * k2);
  const noDemand = (i: number): void => {
    delta[i] = 0;
    rate[i] = 0;
    endKey[i] = -1;
    mask[i] = 0;
  };
  let live = 0;
  for (let i = 0; i < n; i++) {
    const w = weights ? weights[i] : 1.0;
    if (!(w > 0) || !isFiniteF64(w)) { s.errIndex = i; return -Status.Weight; }
    const row = i * k;
    // the largest product D * (1/C); "bad" when a product is not finite and >= +0 (the
    // WASM twin sees that as a sign bit or bits >= +Inf)
    let best = 0;
    let bad = divideRatios;
    for (let r = 0; r < k; r++) {
      const x = dem[row + r] * invCap[r];
      if (!(x >= 0 && x < Infinity) || (x === 0 && 1 / x < 0)) bad = true;
      if (x > best) best = x;
    }
    if (!bad && best === 0) {
      // a positive demand whose every product rounded to 0: the event path decides (tiny row)
      if (rowHasDemand(dem, row, k)) return -ROUTE_EVENT;
      noDemand(i);
      continue;
    }
    let dl = best;
    let rt = w / dl;
    let e = weights ? dl / w : dl;
    if (bad || !(inRange(dl) && inRange(rt) && inRange(e))) {
      const st = exactRow(i, k, row, dem, cap, invCap, divideRatios, w, s);
      if (st > 0) return -st;
      if (st < 0) {
        noDemand(i);
        continue;
      }
      dl = exact[0];
      rt = exact[1];
      e = exact[2];
      // outside the level path's safe range even when exact: the event path answers the call
      if (!(inRange(dl) && inRange(rt) && inRange(e))) return -ROUTE_EVENT;
    }
    delta[i] = dl;
    rate[i] = rt;
    endKey[i] = e;
    live++;
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
export const BAD_ROW = -2;
/** largestRatioIndex's answer for a row with a positive demand whose every ratio is 0. */
export const TINY_ROW = -3;

function rowHasDemand(dem: Float64Array, row: number, k: number): boolean {
  for (let r = 0; r < k; r++) if (dem[row + r] > 0) return true;
  return false;
}

/**
 * The first index of the largest D/C (or D * (1/C)) in the row starting at `row`, -1 for a
 * row without demand, TINY_ROW for a row with demand whose every ratio is 0, or BAD_ROW. (The WASM twin finds the same index branch-free, by bit
 * patterns, falling back to this exact scan for bad rows.)
 */
export function largestRatioIndex(
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
  if (bestR < 0 && rowHasDemand(dem, row, k)) return TINY_ROW;
  return bestR;
}

/** One row exactly as the event path's pass 1 does it; 0 (values in s.exact), -1 (no demand) or a status. */
function exactRow(
  i: number, k: number, row: number, dem: Float64Array, cap: Float64Array, invCap: Float64Array,
  divideRatios: boolean, w: number, s: DrfScratch,
): number {
  const bestR = largestRatioIndex(row, k, dem, cap, invCap, divideRatios, s);
  if (bestR === BAD_ROW) return Status.Demand;
  if (bestR === TINY_ROW) return ROUTE_EVENT;
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

/** The rounds: writes s.levels[r] for every resource that saturates. */
function levelsSolve(
  n: number, live: number, k: number, cap: Float64Array, dem: Float64Array,
  outAlloc: Float64Array, s: DrfScratch, lo: number, shift: number, nb: number,
): void {
  const { rate, endKey, endKeyWords, liveList: list, endOrder: members, mask, used, slope, satAt, sat, levels, fbase, base, cur, s1, grid } = s;
  const k2 = k * 2;
  let m = live;
  let all = true; // round 1: every queue with demand (key > 0)
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
    if (rb < 0) return;

    // that bucket's queues (keys in [its lower bound, the next one's)) in key order
    const kLo = gridBound(rb, lo, shift, nb), kHi = gridBound(rb + 1, lo, shift, nb);
    let mm = 0;
    const count = all ? n : m;
    for (let q = 0; q < count; q++) {
      const i = all ? q : list[q];
      const e = endKey[i];
      if (e >= kLo && e < kHi) members[mm++] = i;
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
    let thetaPrev = Math.max(theta0, kLo);
    let j = 0;
    let t = 0;
    let found = false;
    for (;;) {
      const last = j === mm;
      const tNext = last ? kHi : endKey[members[j]];
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
        if (satAt[r] <= t) { satMask |= 1 << r; sat[r] = 1; levels[r] = t; continue; }
        used[r] = used[r] + t * slope[r];
      }
    }
    if (satMask === 0) return;

    // the survivors: not capped at t, using none of the saturated resources (index order)
    let kept = 0;
    for (let q = 0; q < count; q++) {
      const i = all ? q : list[q];
      if (endKey[i] > t && (mask[i] & satMask) === 0) list[kept++] = i;
    }
    m = kept;
    all = false;
    theta0 = t;
    round++;
    if (m === 0) return;

    let klo = 0xffffffff, khi = 0;
    for (let q = 0; q < m; q++) {
      const h = endKeyWords[2 * list[q] + 1];
      if (h < klo) klo = h;
      if (h > khi) khi = h;
    }
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

/**
 * lambda from the levels: 0 without demand, 1 if the key is <= T (the smallest level among
 * the queue's resources), else min(1, T * rate); then allocation and dominant share.
 */
function levelsOutputs(
  n: number, k: number, dem: Float64Array, s: DrfScratch,
  outLambda: Float64Array, outAlloc: Float64Array, outDs: Float64Array,
): void {
  const { mask, levels, table, endKey, rate, delta } = s;
  const useTable = k <= TABLE_MAX_K;
  if (useTable) {
    table[0] = Infinity;
    for (let m = 1; m < 1 << k; m++) table[m] = Math.min(table[m & (m - 1)], levels[31 - Math.clz32(m & -m)]);
  }
  for (let i = 0; i < n; i++) {
    let t = Infinity;
    if (useTable) t = table[mask[i]];
    else for (let msk = mask[i]; msk !== 0; msk &= msk - 1) t = Math.min(t, levels[31 - Math.clz32(msk & -msk)]);
    const dl = delta[i];
    const lam = dl === 0 ? 0 : endKey[i] <= t ? 1 : Math.min(1, t * rate[i]);
    outLambda[i] = lam;
    outDs[i] = lam * dl;
    const b = i * k;
    for (let r = 0; r < k; r++) outAlloc[b + r] = lam * dem[b + r];
  }
}
