// Pass 1 of DRF's level path (levels.ts): the only full read of D before the outputs. Per
// queue: validation, delta (the largest D/C, as the largest D * (1/C)), rate = w / delta,
// cap key e = delta / w, the mask of the resources it uses, and its row added into the
// grid bucket of its key (sums of D and of rate*D).
//
// Fast path (K <= 8, capacities whose reciprocals are finite): two rows per iteration with
// K fixed at compile time (one copy of the loop per K, the 1/C vectors in registers), so
// the two rows' rate divisions share one f64x2 divide and so do their key divisions. A
// pair is taken when all its products have a clear sign bit and delta, rate and key are
// all in [2^-128, 2^128] (the level path's safe range, assembly/drf.ts); otherwise each of the two rows is redone by slowRow (which is
// the per-row code with every check, so errors and edge values do not depend on the
// pairing). A +NaN demand can slip through the pair test (pmax drops NaN); it then makes
// its bucket's sums NaN, which the end-of-pass check catches. Any error or NaN sends the
// whole pass to the careful per-row loop (rows in order, so the first bad element is the
// one reported). Same values as the per-row code on every valid input: the same products,
// the maximum of non-negative values in any order, the same divisions, the same adds in
// row order into the same cells. The pairs run in blocks of 128 rows: one loop computes the
// keys and rates, a second adds the block's rows into their cells, four rows per step
// (see BLOCK for why).
//
// Worked example (K = 2, C = <9, 18>, w = 1): rows <9, 36> and <27, 9> give products
// <1, 2> and <3, 0.5>; delta = <2, 3>, rate = <0.5, 0.333..>, key = <2, 3>, masks 0b11 and
// 0b11. Edge values: a zero row (delta 0) or a -0 demand sends its pair to slowRow, which
// marks a queue without demand with delta 0, rate 0, key -1 and mask 0.
import { ldf, stf, stu, isFiniteF64 } from "../util/mem";
import { E_WEIGHT } from "../util/status";
import { fail, exactRow, gridCellBytes, gridIndex, hi32, inRange, rowHasDemand, RANGE_LO, RANGE_HI, ROUTE_EVENT } from "./common";

/** The fast pass met an error or a NaN: redo every row with the careful loop. */
const RETRY: i32 = -0x40000000;

/** Largest K with a compile-time specialised pair loop. */
export const PAIR_MAX_K: i32 = 8;

/**
 * Mask bit (K <= 8 only) of a queue whose delta is stored: the pair loop does not store
 * delta (the output pass recomputes it from the row it reads anyway, the same products and
 * maximum), slowRow does, and marks the queue. The two queues of a pair are either both
 * taken by the pair loop or both redone by slowRow.
 */
export const STORED_DELTA: u32 = 1 << 8;

/**
 * Returns the number of queues with demand, or -status (error index stored). Writes rate,
 * endKey and mask for every queue, delta for the queues slowRow does (marked STORED_DELTA
 * when K <= 8; a queue without demand: delta 0, rate 0, key -1, mask 0 or STORED_DELTA).
 */
export function levelsPass1(
  n: i32, k: i32, cap: usize, dem: usize, weights: usize, scratch: usize,
  divideRatios: bool, invCap: usize,
  rate: usize, delta: usize, endKey: usize, mask: usize, exact: usize,
  grid: usize, lo: u32, shift: u32, nb: i32,
): i32 {
  const gridBytes = <usize>nb * gridCellBytes(k);
  memory.fill(grid, 0, gridBytes);
  let live = RETRY;
  if (!divideRatios && k <= PAIR_MAX_K) {
    if (weights) {
      switch (k) {
        case 1: live = pairs(1, true, n, dem, weights, cap, invCap, scratch, exact, rate, delta, endKey, mask, grid, lo, shift, nb); break;
        case 2: live = pairs(2, true, n, dem, weights, cap, invCap, scratch, exact, rate, delta, endKey, mask, grid, lo, shift, nb); break;
        case 3: live = pairs(3, true, n, dem, weights, cap, invCap, scratch, exact, rate, delta, endKey, mask, grid, lo, shift, nb); break;
        case 4: live = pairs(4, true, n, dem, weights, cap, invCap, scratch, exact, rate, delta, endKey, mask, grid, lo, shift, nb); break;
        case 5: live = pairs(5, true, n, dem, weights, cap, invCap, scratch, exact, rate, delta, endKey, mask, grid, lo, shift, nb); break;
        case 6: live = pairs(6, true, n, dem, weights, cap, invCap, scratch, exact, rate, delta, endKey, mask, grid, lo, shift, nb); break;
        case 7: live = pairs(7, true, n, dem, weights, cap, invCap, scratch, exact, rate, delta, endKey, mask, grid, lo, shift, nb); break;
        default: live = pairs(8, true, n, dem, weights, cap, invCap, scratch, exact, rate, delta, endKey, mask, grid, lo, shift, nb);
      }
    } else {
      switch (k) {
        case 1: live = pairs(1, false, n, dem, weights, cap, invCap, scratch, exact, rate, delta, endKey, mask, grid, lo, shift, nb); break;
        case 2: live = pairs(2, false, n, dem, weights, cap, invCap, scratch, exact, rate, delta, endKey, mask, grid, lo, shift, nb); break;
        case 3: live = pairs(3, false, n, dem, weights, cap, invCap, scratch, exact, rate, delta, endKey, mask, grid, lo, shift, nb); break;
        case 4: live = pairs(4, false, n, dem, weights, cap, invCap, scratch, exact, rate, delta, endKey, mask, grid, lo, shift, nb); break;
        case 5: live = pairs(5, false, n, dem, weights, cap, invCap, scratch, exact, rate, delta, endKey, mask, grid, lo, shift, nb); break;
        case 6: live = pairs(6, false, n, dem, weights, cap, invCap, scratch, exact, rate, delta, endKey, mask, grid, lo, shift, nb); break;
        case 7: live = pairs(7, false, n, dem, weights, cap, invCap, scratch, exact, rate, delta, endKey, mask, grid, lo, shift, nb); break;
        default: live = pairs(8, false, n, dem, weights, cap, invCap, scratch, exact, rate, delta, endKey, mask, grid, lo, shift, nb);
      }
    }
    // a NaN demand that the pair test let through shows up as a NaN sum
    if (live != RETRY && gridHasNaN(grid, gridBytes)) live = RETRY;
  }
  if (live != RETRY) return live;

  // careful loop: every row with every check, in order
  const flag = k <= PAIR_MAX_K ? STORED_DELTA : 0;
  memory.fill(grid, 0, gridBytes);
  live = 0;
  for (let i = 0; i < n; i++) {
    const s = slowRow(i, k, dem, weights, cap, invCap, divideRatios, scratch, exact, rate, delta, endKey, mask, grid, lo, shift, nb, flag, true);
    if (s < 0) return s;
    live += s;
  }
  return live;
}

function gridHasNaN(grid: usize, bytes: usize): bool {
  let acc = f64x2.splat(0);
  for (let p: usize = 0; p < bytes; p += 16) {
    const v = v128.load(grid + p);
    acc = v128.or(acc, f64x2.ne(v, v));
  }
  return v128.any_true(acc);
}

/** Slot j of a K-vector: resources 2j and 2j+1 (the second lane 0 past an odd K). */
@inline function slot(p: usize, j: i32, K: i32): v128 {
  return 2 * j + 1 == K ? v128.load64_zero(p + (<usize>j << 4)) : v128.load(p + (<usize>j << 4));
}

/** Adds slot j of a row into a cell (D, and rate*D at +gsOff). */
@inline function addSlot(g: usize, gsOff: usize, j: i32, d: v128, rv: v128): void {
  const p = g + (<usize>j << 4);
  v128.store(p, f64x2.add(v128.load(p), d));
  const q = p + gsOff;
  v128.store(q, f64x2.add(v128.load(q), f64x2.mul(rv, d)));
}

/** The mask bits of slot j of a row (resources 2j and 2j+1 with a demand > 0). */
@inline function slotBits(d: v128, j: i32): u32 {
  return <u32>i64x2.bitmask(f64x2.gt(d, f64x2.splat(0))) << (<u32>j << 1);
}

/**
 * Rows per block of the pair loop (even; 128 rows of K <= 8 are at most 8 KiB, L1-resident
 * between the two loops). Why blocks: in one loop, a row's grid cell depends on its key,
 * which waits for the division, which waits for the row's products: a dependency chain of
 * about 60 cycles per pair that the out-of-order window could not overlap with the next
 * pairs (the pass ran 0.8 floors faster with the cells taken in sequence instead of by key).
 * The first loop computes and stores keys, rates and masks; the second adds each row
 * into its cell from the stored key.
 */
const BLOCK: i32 = 128;

/**
 * Rows [first, end) (an even count) into the grid cells of their keys (sums of D and of
 * rate*D), two at a time. Both cells come from one i32x4 computation on the keys' high
 * words (gridIndex's clamp as max_u / min_u: the same bucket). A row without demand
 * (key -1) adds nothing.
 */
@inline function addBlock(
  K: i32, first: i32, end: i32, row: usize, rate: usize, endKey: usize,
  grid: usize, lo: u32, shift: u32, nb: i32,
): void {
  const rowBytes = <usize>K << 3;
  const gsOff = <usize>((K + 1) & ~1) << 3;
  const cellBytes = gsOff << 1;
  const vlo = i32x4.splat(<i32>lo);
  const vtop = i32x4.splat(nb - 1);
  const vcell = i32x4.splat(<i32>cellBytes);
  let j = first;
  // four rows per step: one cell computation for the four keys' high words (i32 lanes 1 and 3
  // of each pair of keys), and half the loop's own overhead per row
  for (; j + 3 < end; j += 4, row += rowBytes << 2) {
    const k0 = v128.load(endKey + (<usize>j << 3)), k1 = v128.load(endKey + (<usize>j << 3) + 16);
    if (i64x2.bitmask(v128.or(k0, k1)) != 0) {
      // a key -1 (no demand) among them: one row at a time
      addRow(K, j, row, rate, endKey, grid, lo, shift, nb);
      addRow(K, j + 1, row + rowBytes, rate, endKey, grid, lo, shift, nb);
      addRow(K, j + 2, row + (rowBytes << 1), rate, endKey, grid, lo, shift, nb);
      addRow(K, j + 3, row + rowBytes * 3, rate, endKey, grid, lo, shift, nb);
      continue;
    }
    const hv = i8x16.shuffle(k0, k1, 4, 5, 6, 7, 12, 13, 14, 15, 20, 21, 22, 23, 28, 29, 30, 31);
    const off = i32x4.mul(i32x4.min_u(i32x4.shr_u(i32x4.sub(i32x4.max_u(hv, vlo), vlo), shift), vtop), vcell);
    const r0 = v128.load(rate + (<usize>j << 3)), r1 = v128.load(rate + (<usize>j << 3) + 16);
    addCell(K, grid + <usize>i32x4.extract_lane(off, 0), gsOff, row, i64x2.shuffle(r0, r0, 0, 0));
    addCell(K, grid + <usize>i32x4.extract_lane(off, 1), gsOff, row + rowBytes, i64x2.shuffle(r0, r0, 1, 1));
    addCell(K, grid + <usize>i32x4.extract_lane(off, 2), gsOff, row + (rowBytes << 1), i64x2.shuffle(r1, r1, 0, 0));
    addCell(K, grid + <usize>i32x4.extract_lane(off, 3), gsOff, row + rowBytes * 3, i64x2.shuffle(r1, r1, 1, 1));
  }
  for (; j < end; j += 2, row += rowBytes << 1) {
    const kv = v128.load(endKey + (<usize>j << 3));
    if (i64x2.bitmask(kv) != 0) {
      // a key -1 (no demand) in the pair: one row at a time
      addRow(K, j, row, rate, endKey, grid, lo, shift, nb);
      addRow(K, j + 1, row + rowBytes, rate, endKey, grid, lo, shift, nb);
      continue;
    }
    const off = i32x4.mul(i32x4.min_u(i32x4.shr_u(i32x4.sub(i32x4.max_u(kv, vlo), vlo), shift), vtop), vcell);
    const rt = v128.load(rate + (<usize>j << 3));
    addCell(K, grid + <usize>i32x4.extract_lane(off, 1), gsOff, row, i64x2.shuffle(rt, rt, 0, 0));
    addCell(K, grid + <usize>i32x4.extract_lane(off, 3), gsOff, row + rowBytes, i64x2.shuffle(rt, rt, 1, 1));
  }
}

/** One row into cell g with its rate in both lanes of rv. */
@inline function addCell(K: i32, g: usize, gsOff: usize, row: usize, rv: v128): void {
  addSlot(g, gsOff, 0, slot(row, 0, K), rv);
  if (K > 2) addSlot(g, gsOff, 1, slot(row, 1, K), rv);
  if (K > 4) addSlot(g, gsOff, 2, slot(row, 2, K), rv);
  if (K > 6) addSlot(g, gsOff, 3, slot(row, 3, K), rv);
}

/** addBlock for one row j (nothing for a row without demand). */
@inline function addRow(
  K: i32, j: i32, row: usize, rate: usize, endKey: usize, grid: usize, lo: u32, shift: u32, nb: i32,
): void {
  const h = load<u32>(endKey + (<usize>j << 3), 4);
  if (h >= 0x80000000) return; // key -1
  const gsOff = <usize>((K + 1) & ~1) << 3;
  const g = grid + <usize>gridIndex(h, lo, shift, nb) * (gsOff << 1);
  addCell(K, g, gsOff, row, v128.load64_splat(rate + (<usize>j << 3)));
}

/**
 * The rounds' grid (levels.ts): m compact rows at `rows` with their rates and keys (all with
 * demand) into the grid cells of their keys, in row order, by addBlock's K-specialised code.
 * Returns false for K > 8 (the caller adds them itself).
 */
export function gridAddRows(k: i32, m: i32, rows: usize, rate: usize, keys: usize, grid: usize, lo: u32, shift: u32, nb: i32): bool {
  switch (k) {
    case 1: addRows(1, m, rows, rate, keys, grid, lo, shift, nb); break;
    case 2: addRows(2, m, rows, rate, keys, grid, lo, shift, nb); break;
    case 3: addRows(3, m, rows, rate, keys, grid, lo, shift, nb); break;
    case 4: addRows(4, m, rows, rate, keys, grid, lo, shift, nb); break;
    case 5: addRows(5, m, rows, rate, keys, grid, lo, shift, nb); break;
    case 6: addRows(6, m, rows, rate, keys, grid, lo, shift, nb); break;
    case 7: addRows(7, m, rows, rate, keys, grid, lo, shift, nb); break;
    case 8: addRows(8, m, rows, rate, keys, grid, lo, shift, nb); break;
    default: return false;
  }
  return true;
}

@inline function addRows(K: i32, m: i32, rows: usize, rate: usize, keys: usize, grid: usize, lo: u32, shift: u32, nb: i32): void {
  const even = m & ~1;
  addBlock(K, 0, even, rows, rate, keys, grid, lo, shift, nb);
  if (m & 1) addRow(K, even, rows + <usize>even * (<usize>K << 3), rate, keys, grid, lo, shift, nb);
}

/** The pair loop for a compile-time K (1..8) and weights present or not (W). */
@inline function pairs(
  K: i32, W: bool, n: i32, dem: usize, weights: usize, cap: usize, invCap: usize, scratch: usize, exact: usize,
  rate: usize, delta: usize, endKey: usize, mask: usize, grid: usize, lo: u32, shift: u32, nb: i32,
): i32 {
  const rowBytes = <usize>K << 3;
  const zero = f64x2.splat(0);
  const one = f64x2.splat(1);
  const vlo = f64x2.splat(RANGE_LO);
  const vhi = f64x2.splat(RANGE_HI);
  const c0 = slot(invCap, 0, K);
  const c1 = K > 2 ? slot(invCap, 1, K) : zero;
  const c2 = K > 4 ? slot(invCap, 2, K) : zero;
  const c3 = K > 6 ? slot(invCap, 3, K) : zero;
  let live = 0;
  let i = 0;
  let ra = dem;
  const nPairs = n & ~1;
  while (i < nPairs) {
    const first = i;
    const firstRow = ra;
    const end = min(i + BLOCK, nPairs);
    for (; i < end; i += 2, ra += rowBytes << 1) {
      const rb = ra + rowBytes;
      const a0 = slot(ra, 0, K), b0 = slot(rb, 0, K);
      let xa = f64x2.mul(a0, c0), xb = f64x2.mul(b0, c0);
      let ma = xa, mb = xb;
      let sg = v128.or(xa, xb);
      let a1 = zero, b1 = zero, a2 = zero, b2 = zero, a3 = zero, b3 = zero;
      if (K > 2) {
        a1 = slot(ra, 1, K); b1 = slot(rb, 1, K);
        xa = f64x2.mul(a1, c1); xb = f64x2.mul(b1, c1);
        ma = f64x2.pmax(ma, xa); mb = f64x2.pmax(mb, xb);
        sg = v128.or(sg, v128.or(xa, xb));
      }
      if (K > 4) {
        a2 = slot(ra, 2, K); b2 = slot(rb, 2, K);
        xa = f64x2.mul(a2, c2); xb = f64x2.mul(b2, c2);
        ma = f64x2.pmax(ma, xa); mb = f64x2.pmax(mb, xb);
        sg = v128.or(sg, v128.or(xa, xb));
      }
      if (K > 6) {
        a3 = slot(ra, 3, K); b3 = slot(rb, 3, K);
        xa = f64x2.mul(a3, c3); xb = f64x2.mul(b3, c3);
        ma = f64x2.pmax(ma, xa); mb = f64x2.pmax(mb, xb);
        sg = v128.or(sg, v128.or(xa, xb));
      }
      // lane 0 = row i, lane 1 = row i + 1
      const dl = f64x2.pmax(i64x2.shuffle(ma, mb, 0, 2), i64x2.shuffle(ma, mb, 1, 3));
      const off = <usize>i << 3;
      const w = W ? v128.load(weights + off) : one;
      const rt = f64x2.div(w, dl);
      const e = W ? f64x2.div(dl, w) : dl;
      // delta, rate and key in range, as their smallest >= 2^-128 and largest <= 2^128 (four
      // min/max and two compares instead of six compares and five ands: 0.2 floors). A NaN
      // fails: pmin(a, b) and pmax(a, b) return a when a is NaN, and every NaN here is in
      // rate (delta NaN or weight NaN make w / delta NaN; the key is NaN only when rate is)
      const mn = W ? f64x2.pmin(rt, f64x2.pmin(e, dl)) : f64x2.pmin(rt, dl);
      const mx = W ? f64x2.pmax(rt, f64x2.pmax(e, dl)) : f64x2.pmax(rt, dl);
      const ok = v128.and(f64x2.ge(mn, vlo), f64x2.le(mx, vhi));
      if ((i64x2.bitmask(sg) | (i64x2.bitmask(ok) ^ 3)) != 0) {
        const sa = slowRow(i, K, dem, weights, cap, invCap, false, scratch, exact, rate, delta, endKey, mask, grid, lo, shift, nb, STORED_DELTA, false);
        if (sa < 0) return RETRY;
        const sb = slowRow(i + 1, K, dem, weights, cap, invCap, false, scratch, exact, rate, delta, endKey, mask, grid, lo, shift, nb, STORED_DELTA, false);
        if (sb < 0) return RETRY;
        live += sa + sb;
        continue;
      }
      v128.store(rate + off, rt);
      v128.store(endKey + off, e);
      // both masks (here rather than with the adds: the second loop is bound by its stores)
      let ka = slotBits(a0, 0), kb = slotBits(b0, 0);
      if (K > 2) { ka |= slotBits(a1, 1); kb |= slotBits(b1, 1); }
      if (K > 4) { ka |= slotBits(a2, 2); kb |= slotBits(b2, 2); }
      if (K > 6) { ka |= slotBits(a3, 3); kb |= slotBits(b3, 3); }
      store<u64>(mask + (<usize>i << 2), <u64>ka | (<u64>kb << 32));
      live += 2;
    }
    // the block's rows into their buckets, in row order (the same adds in the same order as
    // the per-row code); their rows are still in L1, and their keys were stored a block ago,
    // so no cell address waits on this block's divisions
    addBlock(K, first, end, firstRow, rate, endKey, grid, lo, shift, nb);
  }
  if (i < n) {
    const s = slowRow(i, K, dem, weights, cap, invCap, false, scratch, exact, rate, delta, endKey, mask, grid, lo, shift, nb, STORED_DELTA, true);
    if (s < 0) return RETRY;
    live += s;
  }
  return live;
}

/**
 * One row with every check (the event path's checks in its order, so the same first error):
 * 1 when the queue has demand, 0 when it has none, or -status. The largest product D * (1/C)
 * is taken when every product is finite and >= +0 (bits below +Inf, sign clear) and delta,
 * rate and key are in range; anything else (a bad demand, -0, a subnormal capacity, an
 * extreme ratio) is redone exactly as the event path does it, checks and all. -ROUTE_EVENT
 * when the exact values are still out of range, or for a positive demand whose products all
 * round to 0 (a tiny row): drf() then answers the call with the event path.
 */
function slowRow(
  i: i32, k: i32, dem: usize, weights: usize, cap: usize, invCap: usize, divideRatios: bool,
  scratch: usize, exact: usize, rate: usize, delta: usize, endKey: usize, mask: usize,
  grid: usize, lo: u32, shift: u32, nb: i32, flag: u32, add: bool,
): i32 {
  const w = weights ? ldf(weights, i) : 1.0;
  if (!(w > 0) || !isFiniteF64(w)) return -fail(scratch, E_WEIGHT, i);
  const row = dem + (<usize>(i * k) << 3);
  let bits: u64 = 0;
  let best: f64 = 0;
  for (let r = 0; r < k; r++) {
    const x = ldf(row, r) * ldf(invCap, r);
    bits |= select<u64>(0x8000000000000000, reinterpret<u64>(x), reinterpret<u64>(x) >= 0x7ff0000000000000);
    best = max(best, x);
  }
  const bad = divideRatios || bits >= 0x8000000000000000;
  let dl = best;
  if (!bad && dl == 0) {
    // a positive demand whose every product rounded to 0: the event path decides (tiny row)
    if (rowHasDemand(row, k)) return -ROUTE_EVENT;
    return noDemand(i, rate, delta, endKey, mask, flag);
  }
  let rt = w / dl;
  let e = weights ? dl / w : dl;
  if (bad || !(inRange(dl) && inRange(rt) && inRange(e))) {
    const st = exactRow(i, k, row, cap, invCap, divideRatios, w, scratch, exact);
    if (st > 0) return -st;
    if (st < 0) return noDemand(i, rate, delta, endKey, mask, flag);
    dl = load<f64>(exact);
    rt = load<f64>(exact, 8);
    e = load<f64>(exact, 16);
    // outside the level path's safe range even when exact: the event path answers the call
    if (!(inRange(dl) && inRange(rt) && inRange(e))) return -ROUTE_EVENT;
  }
  stf(delta, i, dl);
  stf(rate, i, rt);
  stf(endKey, i, e);
  const gsOff = <usize>((k + 1) & ~1) << 3;
  const g = grid + <usize>gridIndex(hi32(e), lo, shift, nb) * (gsOff << 1);
  let msk: u32 = 0;
  for (let r = 0; r < k; r++) {
    const d = ldf(row, r);
    if (add) {
      stf(g, r, ldf(g, r) + d);
      stf(g + gsOff, r, ldf(g + gsOff, r) + rt * d);
    }
    msk |= <u32>(d > 0) << <u32>r;
  }
  stu(mask, i, msk | flag);
  return 1;
}

@inline function noDemand(i: i32, rate: usize, delta: usize, endKey: usize, mask: usize, flag: u32): i32 {
  stf(delta, i, 0);
  stf(rate, i, 0);
  stf(endKey, i, -1);
  stu(mask, i, flag);
  return 0;
}
