// Pieces shared by DRF's event path (assembly/drf.ts) and its level path (levels.ts):
// the error slot, the largest demand/capacity ratio of a row, one row done exactly, and the
// level grid's bucket arithmetic.
import { ldf, isFiniteF64 } from "../util/mem";
import { bucketCountFor } from "../util/radix";
import { E_DEMAND, E_SHARE_OVERFLOW } from "../util/status";

const INF_BITS: u64 = 0x7ff0000000000000;

/** Grid bucket sums stay at most 4,096 * 16 bytes (64 KiB): cache-resident while D streams (bigger grids measured no faster). */
const GRID_CELLS: i32 = 4096;

/** Writes the offending element index into the error slot (the first i32 of scratch). */
@inline export function fail(scratch: usize, code: i32, index: i32): i32 {
  store<i32>(scratch, index);
  return code;
}

/** largestRatioIndex's answer for a row with a bad demand (its index is stored in scratch). */
export const BAD_ROW: i32 = -2;

/**
 * largestRatioIndex's answer for a row with a positive demand whose every ratio D/C rounds
 * to 0 (D < 2^-1074 C): not a row without demand (see "Tiny rows" in assembly/drf.ts).
 */
export const TINY_ROW: i32 = -3;

/**
 * What the level path returns (instead of a status) for a call outside its safe range, or
 * with a tiny row: drf() then answers it with the event path (see assembly/drf.ts).
 */
export const ROUTE_EVENT: i32 = 0x40;

/** True when some demand of the row is > 0 (only asked of rows whose ratios are all 0). */
export function rowHasDemand(row: usize, k: i32): bool {
  for (let r = 0; r < k; r++) if (ldf(row, r) > 0) return true;
  return false;
}

/**
 * The first index of the largest D/C (or D * (1/C)) in a row, -1 for a row without demand,
 * TINY_ROW for a row with demand whose every ratio is 0, or BAD_ROW. Fast path: the largest ratio by its bit pattern (unsigned, branch-free). For
 * valid rows (every ratio finite and >= +0) bits order like values; anything else (a bad
 * demand, -0, an overflowing ratio) shows up as bits >= +Inf and takes the exact slow path.
 */
@inline export function largestRatioIndex(
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
  if (bestR < 0 && rowHasDemand(row, k)) return TINY_ROW;
  return bestR;
}

/**
 * One row exactly as the event path's pass 1 does it (its first largest ratio by index,
 * delta = D/C by one division, its checks in its order). Returns 0 with delta, rate and
 * key at `out`, -1 for a queue without demand, or a status (error index stored).
 */
export function exactRow(
  i: i32, k: i32, row: usize, cap: usize, invCap: usize, divideRatios: bool, w: f64,
  scratch: usize, out: usize,
): i32 {
  const bestR = largestRatioIndex(i, k, row, cap, invCap, divideRatios, scratch);
  if (bestR == BAD_ROW) return E_DEMAND;
  if (bestR == TINY_ROW) return ROUTE_EVENT;
  if (bestR < 0) return -1;
  const dl = ldf(row, bestR) / ldf(cap, bestR);
  const rt = w / dl;
  if (!isFiniteF64(dl) || !(rt > 0) || !isFiniteF64(rt)) return fail(scratch, E_SHARE_OVERFLOW, i);
  const e = dl / w;
  if (!(e > 0) || !isFiniteF64(e)) return fail(scratch, E_SHARE_OVERFLOW, i);
  store<f64>(out, dl);
  store<f64>(out, rt, 8);
  store<f64>(out, e, 16);
  return 0;
}

/**
 * 2^-128 and 2^128: the level path's safe range for delta, rate and key (a row outside it,
 * exactly computed, sends the call to the event path; see assembly/drf.ts).
 */
export const RANGE_LO: f64 = 2.938735877055719e-39;
export const RANGE_HI: f64 = 3.402823669209385e38;

/** 2^-256 and 2^256: the level path's safe range for capacities. */
export const CAP_LO: f64 = 8.636168555094445e-78;
export const CAP_HI: f64 = 1.157920892373162e77;

/** RANGE_LO <= x <= RANGE_HI (false for 0, subnormals, +-Inf, NaN and negatives). */
@inline export function inRange(x: f64): bool {
  return x >= RANGE_LO && x <= RANGE_HI;
}

/** Buckets of the level grid for m keys and k resources (a power of two, >= 1). */
export function gridBuckets(m: i32, k: i32): i32 {
  let limit = 1;
  while ((limit << 1) * k <= GRID_CELLS) limit <<= 1;
  return min(bucketCountFor(m), limit);
}

/** Bytes of one grid cell: the sums of D, then of rate*D, each padded to an even count (f64x2). */
@inline export function gridCellBytes(k: i32): usize {
  return <usize>((k + 1) & ~1) << 4;
}

@inline export function hi32(x: f64): u32 {
  return <u32>(reinterpret<u64>(x) >> 32);
}

/** Bucket of a key with high word h: (h - lo) >> shift, clamped to [0, w). */
@inline export function gridIndex(h: u32, lo: u32, shift: u32, w: i32): i32 {
  const q = (h - lo) >> shift;
  return select<i32>(0, select<i32>(w - 1, <i32>q, q >= <u32>w), h <= lo);
}

/** Lower bound of bucket b's keys (0 for the first bucket, +Inf past the last). */
@inline export function gridBound(b: i32, lo: u32, shift: u32, w: i32): f64 {
  if (b <= 0) return 0;
  if (b >= w) return Infinity;
  const h = <u64>lo + (<u64>b << <u64>shift);
  if (h >= 0x7ff00000) return Infinity;
  return reinterpret<f64>(h << 32);
}
