// The output pass of DRF's level path (levels.ts): every queue's lambda from the
// saturation levels, then allocation = lambda * D and dominant share = lambda * delta.
//
// The rounds record level[r], the theta at which resource r saturated (+Inf if it never
// does). A queue freezes at the first saturation among the resources it uses, so with
// T = min over its resources of level[r] (levels only rise from round to round):
//   lambda = 0                       without demand (delta = 0)
//          = 1                       if its cap key e <= T (capped before or when it froze)
//          = min(1, T * rate)        otherwise
// which is the value each round used to write, operation for operation. For K <= 8, T is
// looked up in a table indexed by the queue's resource mask (2^K entries).
//
// Worked example (the DRF paper's, see assembly/drf.ts): CPU saturates at theta = 2/3 and
// memory never does: level = <2/3, +Inf>; both queues use CPU so T = 2/3 for both, keys
// e = <2, 3> > T: lambda_A = min(1, 2/3 * 1/2) = 1/3, lambda_B = 2/9. A queue using only
// memory would get T = +Inf -> 1.
import { ldf, stf, ldu } from "../util/mem";
import { PAIR_MAX_K, STORED_DELTA } from "./pass1";

/** table[m] = the smallest level among the resources in mask m, for the 2^k masks. */
export function levelTable(k: i32, levels: usize, table: usize): void {
  stf(table, 0, Infinity);
  const top = 1 << k;
  for (let m = 1; m < top; m++) stf(table, m, min(ldf(table, m & (m - 1)), ldf(levels, ctz(m))));
}

export function levelsOutputs(
  n: i32, k: i32, dem: usize, invCap: usize, mask: usize, levels: usize, table: usize,
  endKey: usize, rate: usize, delta: usize, outLambda: usize, outAlloc: usize, outDs: usize,
): void {
  if (k <= PAIR_MAX_K) {
    levelTable(k, levels, table);
    switch (k) {
      case 1: outputs(1, n, dem, invCap, mask, table, endKey, rate, delta, outLambda, outAlloc, outDs); break;
      case 2: outputs(2, n, dem, invCap, mask, table, endKey, rate, delta, outLambda, outAlloc, outDs); break;
      case 3: outputs(3, n, dem, invCap, mask, table, endKey, rate, delta, outLambda, outAlloc, outDs); break;
      case 4: outputs(4, n, dem, invCap, mask, table, endKey, rate, delta, outLambda, outAlloc, outDs); break;
      case 5: outputs(5, n, dem, invCap, mask, table, endKey, rate, delta, outLambda, outAlloc, outDs); break;
      case 6: outputs(6, n, dem, invCap, mask, table, endKey, rate, delta, outLambda, outAlloc, outDs); break;
      case 7: outputs(7, n, dem, invCap, mask, table, endKey, rate, delta, outLambda, outAlloc, outDs); break;
      default: outputs(8, n, dem, invCap, mask, table, endKey, rate, delta, outLambda, outAlloc, outDs);
    }
    return;
  }
  // K > 8: T from the mask's bits, one queue at a time
  for (let i = 0; i < n; i++) {
    let t: f64 = Infinity;
    let msk = ldu(mask, i);
    while (msk) {
      t = min(t, ldf(levels, ctz(msk)));
      msk &= msk - 1;
    }
    const dl = ldf(delta, i);
    const lam = dl == 0 ? 0.0 : ldf(endKey, i) <= t ? 1.0 : min(1.0, t * ldf(rate, i));
    stf(outLambda, i, lam);
    stf(outDs, i, lam * dl);
    const base = i * k;
    for (let r = 0; r < k; r++) stf(outAlloc, base + r, lam * ldf(dem, base + r));
  }
}

/** Two queues' lambdas: lane 0 and lane 1 (min(1, x) as pmin(x, 1): x is never NaN where it is kept). */
@inline function lambdas(t: v128, e: v128, rt: v128, dl: v128): v128 {
  const one = f64x2.splat(1);
  const lam = v128.bitselect(one, f64x2.pmin(f64x2.mul(t, rt), one), f64x2.le(e, t));
  return v128.andnot(lam, f64x2.eq(dl, f64x2.splat(0)));
}

/** Slot j of a K-vector: resources 2j and 2j+1 (the second lane 0 past an odd K). */
@inline function slot(p: usize, j: i32, K: i32): v128 {
  return 2 * j + 1 == K ? v128.load64_zero(p + (<usize>j << 4)) : v128.load(p + (<usize>j << 4));
}

/** Stores lambda * slot j of a row (an odd K's last slot: one element). */
@inline function scaleSlot(out: usize, row: usize, j: i32, K: i32, lam: v128): void {
  const off = <usize>j << 4;
  if (2 * j + 1 == K) store<f64>(out + off, f64x2.extract_lane(lam, 0) * load<f64>(row + off));
  else v128.store(out + off, f64x2.mul(lam, v128.load(row + off)));
}

@inline function scaleRow(out: usize, row: usize, K: i32, lam: v128): void {
  scaleSlot(out, row, 0, K, lam);
  if (K > 2) scaleSlot(out, row, 1, K, lam);
  if (K > 4) scaleSlot(out, row, 2, K, lam);
  if (K > 6) scaleSlot(out, row, 3, K, lam);
}

/** Two queues per iteration for a compile-time K (1..8). */
@inline function outputs(
  K: i32, n: i32, dem: usize, invCap: usize, mask: usize, table: usize,
  endKey: usize, rate: usize, delta: usize, outLambda: usize, outAlloc: usize, outDs: usize,
): void {
  const rowBytes = <usize>K << 3;
  const c0 = slot(invCap, 0, K);
  const c1 = K > 2 ? slot(invCap, 1, K) : f64x2.splat(0);
  const c2 = K > 4 ? slot(invCap, 2, K) : f64x2.splat(0);
  const c3 = K > 6 ? slot(invCap, 3, K) : f64x2.splat(0);
  let i = 0;
  let row = dem, out = outAlloc;
  for (; i + 1 < n; i += 2, row += rowBytes << 1, out += rowBytes << 1) {
    const off = <usize>i << 3;
    const ma = ldu(mask, i);
    const t = f64x2.replace_lane(f64x2.splat(ldf(table, <i32>(ma & 0xff))), 1, ldf(table, <i32>(ldu(mask, i + 1) & 0xff)));
    // delta: stored by slowRow (both queues of the pair), else the pair loop's maximum again
    let dl: v128;
    if (ma & STORED_DELTA) dl = v128.load(delta + off);
    else {
      const rb = row + rowBytes;
      let xa = f64x2.mul(slot(row, 0, K), c0), xb = f64x2.mul(slot(rb, 0, K), c0);
      if (K > 2) { xa = f64x2.pmax(xa, f64x2.mul(slot(row, 1, K), c1)); xb = f64x2.pmax(xb, f64x2.mul(slot(rb, 1, K), c1)); }
      if (K > 4) { xa = f64x2.pmax(xa, f64x2.mul(slot(row, 2, K), c2)); xb = f64x2.pmax(xb, f64x2.mul(slot(rb, 2, K), c2)); }
      if (K > 6) { xa = f64x2.pmax(xa, f64x2.mul(slot(row, 3, K), c3)); xb = f64x2.pmax(xb, f64x2.mul(slot(rb, 3, K), c3)); }
      dl = f64x2.pmax(i64x2.shuffle(xa, xb, 0, 2), i64x2.shuffle(xa, xb, 1, 3));
    }
    const lam = lambdas(t, v128.load(endKey + off), v128.load(rate + off), dl);
    v128.store(outLambda + off, lam);
    v128.store(outDs + off, f64x2.mul(lam, dl));
    scaleRow(out, row, K, i64x2.shuffle(lam, lam, 0, 0));
    scaleRow(out + rowBytes, row + rowBytes, K, i64x2.shuffle(lam, lam, 1, 1));
  }
  if (i < n) {
    // (a last unpaired queue went through slowRow: its delta is stored)
    const off = <usize>i << 3;
    const lam = lambdas(f64x2.splat(ldf(table, <i32>(ldu(mask, i) & 0xff))), v128.load64_splat(endKey + off),
      v128.load64_splat(rate + off), v128.load64_splat(delta + off));
    stf(outLambda, i, f64x2.extract_lane(lam, 0));
    stf(outDs, i, f64x2.extract_lane(lam, 0) * ldf(delta, i));
    scaleRow(out, row, K, lam);
  }
}
