// Pure-TS twin of DRF's level path (assembly/drf/levels.ts; see the algorithm, worked examples
// and edge values there): round 1's grid, pass 1 (pass1.ts), the rounds that find the
// saturation levels, and the output pass (output.ts) that gives every queue its lambda from them.
// Same float operations in the same order, so both backends agree to the last bit.
import { Status } from "../status.js";
import { sortRangeByKey } from "../util/radix.js";
import { isFiniteF64 } from "../util/finite.js";
import { gridBound, gridIndex, hi32 } from "./common.js";
import { levelsPass1 } from "./pass1.js";
import { levelsOutputs } from "./output.js";
import { gridBuckets, type DrfScratch } from "./scratch.js";

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
