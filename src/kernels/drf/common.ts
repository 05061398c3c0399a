// Pieces shared by DRF's event path (twin.ts) and its level path (levels.ts, pass1.ts,
// output.ts), as in assembly/drf/common.ts: the safe range, the largest demand/capacity ratio
// of a row, one row done exactly, and the level grid's bucket arithmetic.
import { Status } from "../status.js";
import { isFiniteF64 } from "../util/finite.js";
import type { DrfScratch } from "./scratch.js";

const INF_HI = 0x7ff00000;
// the level path's safe range (assembly/drf/common.ts, assembly/drf.ts header)
const RANGE_LO = 2.938735877055719e-39; // 2^-128
const RANGE_HI = 3.402823669209385e38; // 2^128
export const CAP_LO = 8.636168555094445e-78; // 2^-256
export const CAP_HI = 1.157920892373162e77; // 2^256
/** What the level path returns for a call outside its safe range or with a tiny row: drfKernel routes it to the event path. */
export const ROUTE_EVENT = 0x40 as Status;

const bitsF = new Float64Array(1);
const bitsU = new Uint32Array(bitsF.buffer);
export function hi32(x: number): number {
  bitsF[0] = x;
  return bitsU[1];
}

export function gridIndex(h: number, lo: number, shift: number, w: number): number {
  if (h <= lo) return 0;
  const q = (h - lo) >>> shift;
  return q >= w ? w - 1 : q;
}

export function gridBound(b: number, lo: number, shift: number, w: number): number {
  if (b <= 0) return 0;
  if (b >= w) return Infinity;
  const h = lo + b * 2 ** shift;
  if (h >= INF_HI) return Infinity;
  bitsU[0] = 0;
  bitsU[1] = h;
  return bitsF[0];
}

export function inRange(x: number): boolean {
  return x >= RANGE_LO && x <= RANGE_HI;
}

/** largestRatioIndex's answer for a row with a bad demand (its index is in s.errIndex). */
export const BAD_ROW = -2;
/** largestRatioIndex's answer for a row with a positive demand whose every ratio is 0. */
export const TINY_ROW = -3;

export function rowHasDemand(dem: Float64Array, row: number, k: number): boolean {
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
export function exactRow(
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
