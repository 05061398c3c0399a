// Pass 1 of DRF's level path (assembly/drf/pass1.ts; the WASM side takes two queues per step
// with K fixed at compile time, same values): per queue delta, rate, cap key and resource mask,
// and its row into its key's bucket of the round's grid.
import { Status } from "../status.js";
import { isFiniteF64 } from "../util/finite.js";
import { ROUTE_EVENT, exactRow, gridIndex, hi32, inRange, rowHasDemand } from "./common.js";
import type { DrfScratch } from "./scratch.js";

/**
 * Per queue: delta, rate, key, mask, and its row into its key's bucket; a queue without
 * demand gets delta 0, rate 0, key -1, mask 0. Returns the number of queues with demand,
 * or -status (index in s.errIndex).
 */
export function levelsPass1(
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
