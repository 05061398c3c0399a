// DRF progressive filling, weighted, with demand caps and offsets (SPEC §2).
//
// A common level theta (dominant share per unit weight) rises from 0. Queue i ramps
// lambda_i(theta) = clamp((theta - o_i) * w_i / delta_i, 0, 1) and freezes when it is
// capped (lambda_i = 1) or when a resource it uses saturates. Instead of stepping theta,
// the kernel jumps from event to event:
//   start  theta = o_i                (offsets only; all queues start at 0 otherwise)
//   cap    theta = o_i + delta_i / w_i
//   sat    theta where sum of consumption on resource r reaches C[r]
// Starts and caps are radix-sorted once; between events every resource's usage is linear
// in theta (slope = sum over ramping queues of w_i D[i][r] / delta_i), so a saturation is
// found by checking usage at the next event (a multiply-add) and solving for theta only
// when it would overflow. Total O(N*K + N * sortPasses).
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
// differences matter), and a ramp too narrow for f64 to resolve is reported.

import { ldf, stf, ldu, stu, ldb, stb, align8, isFiniteF64 } from "./util/mem";
import { sortIndicesByKey, radixScratchBytes } from "./util/radix";
import { OK, E_CAPACITY, E_DEMAND, E_WEIGHT, E_OFFSET, E_SHARE_OVERFLOW } from "./util/status";

const WAITING: u8 = 0;
const RAMPING: u8 = 1;
const FROZEN: u8 = 2;

/** Scratch layout; the error index is the first i32 of scratch. */
export function drfScratchBytes(n: i32, k: i32): usize {
  const nf = <usize>n << 3;
  const nu = <usize>n << 2;
  const kf = <usize>k << 3;
  return 8 + nf * 4 + nu * 2 + align8(<usize>n) + kf * 3 + (<usize>k << 2) + align8(<usize>k) + radixScratchBytes(n);
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
  let p = scratch + 8;
  const rate = p; p += <usize>n << 3;
  const delta = p; p += <usize>n << 3;
  const startKey = p; p += <usize>n << 3;
  const endKey = p; p += <usize>n << 3;
  const endOrder = p; p += <usize>n << 2;
  const startOrder = p; p += <usize>n << 2;
  const state = p; p += align8(<usize>n);
  const used = p; p += <usize>k << 3;
  const slope = p; p += <usize>k << 3;
  const satAt = p; p += <usize>k << 3;
  const cnt = p; p += <usize>k << 2;
  const sat = p; p += align8(<usize>k);
  const radix = p;

  for (let r = 0; r < k; r++) {
    const c = ldf(cap, r);
    if (!(c > 0) || !isFiniteF64(c)) return fail(scratch, E_CAPACITY, r);
    stf(used, r, 0); stf(slope, r, 0); stu(cnt, r, 0); stb(sat, r, 0);
  }

  // Pass 1: validate, delta, offsets' minimum over live queues.
  let minOff = Infinity;
  let live = 0;
  for (let i = 0; i < n; i++) {
    const w = weights ? ldf(weights, i) : 1.0;
    if (!(w > 0) || !isFiniteF64(w)) return fail(scratch, E_WEIGHT, i);
    const o = offsets ? ldf(offsets, i) : 0.0;
    if (!(o >= 0) || !isFiniteF64(o)) return fail(scratch, E_OFFSET, i);
    const row = dem + (<usize>(i * k) << 3);
    let d0: f64 = 0, d1: f64 = 0;
    let r = 0;
    for (; r + 1 < k; r += 2) {
      const a = ldf(row, r), b = ldf(row, r + 1);
      if (!(a >= 0) || !isFiniteF64(a)) return fail(scratch, E_DEMAND, i * k + r);
      if (!(b >= 0) || !isFiniteF64(b)) return fail(scratch, E_DEMAND, i * k + r + 1);
      d0 = max(d0, a / ldf(cap, r));
      d1 = max(d1, b / ldf(cap, r + 1));
    }
    if (r < k) {
      const a = ldf(row, r);
      if (!(a >= 0) || !isFiniteF64(a)) return fail(scratch, E_DEMAND, i * k + r);
      d0 = max(d0, a / ldf(cap, r));
    }
    const dl = max(d0, d1);
    stf(delta, i, dl);
    stf(outLambda, i, 0);
    if (dl == 0) {
      stb(state, i, FROZEN);
      continue;
    }
    const rt = w / dl;
    if (!isFiniteF64(dl) || !(rt > 0) || !isFiniteF64(rt)) return fail(scratch, E_SHARE_OVERFLOW, i);
    stf(rate, i, rt);
    stb(state, i, WAITING);
    if (o < minOff) minOff = o;
    live++;
  }

  // Keys: normalized starts and caps. Frozen queues sort last (+Inf) and are skipped.
  let anyStart = false;
  for (let i = 0; i < n; i++) {
    if (ldb(state, i) == FROZEN) {
      stf(startKey, i, Infinity); stf(endKey, i, Infinity);
      continue;
    }
    const s = offsets ? ldf(offsets, i) - minOff : 0.0;
    const e = s + ldf(delta, i) / (weights ? ldf(weights, i) : 1.0);
    if (!(e > s) || !isFiniteF64(e)) return fail(scratch, E_SHARE_OVERFLOW, i);
    stf(startKey, i, s);
    stf(endKey, i, e);
    if (s > 0) anyStart = true;
  }
  sortIndicesByKey(n, endKey, endOrder, radix);
  let sp = n;
  if (anyStart) {
    sortIndicesByKey(n, startKey, startOrder, radix);
    sp = 0;
    // queues starting at 0 begin ramping now
    while (sp < n) {
      const i = <i32>ldu(startOrder, sp);
      if (ldf(startKey, i) > 0) break;
      if (ldb(state, i) == WAITING) activate(i, k, dem, rate, state, slope, cnt);
      sp++;
    }
  } else {
    for (let i = 0; i < n; i++) {
      if (ldb(state, i) == WAITING) activate(i, k, dem, rate, state, slope, cnt);
    }
  }

  let theta: f64 = 0;
  let ep = 0;
  while (live > 0) {
    while (ep < n && ldb(state, <i32>ldu(endOrder, ep)) == FROZEN) ep++;
    while (sp < n && ldb(state, <i32>ldu(startOrder, sp)) != WAITING) sp++;
    const tEnd = ep < n ? ldf(endKey, <i32>ldu(endOrder, ep)) : Infinity;
    const tStart = sp < n ? ldf(startKey, <i32>ldu(startOrder, sp)) : Infinity;
    const tNext = min(tEnd, tStart);
    const dtNext = tNext - theta;
    let tSat = Infinity;
    for (let r = 0; r < k; r++) {
      const sl = ldf(slope, r);
      let at = Infinity;
      if (sl > 0) {
        const u = ldf(used, r), c = ldf(cap, r);
        if (u + sl * dtNext >= c) {
          at = theta + (c - u) / sl;
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
    while (ep < n) {
      const i = <i32>ldu(endOrder, ep);
      const st = ldb(state, i);
      if (st == FROZEN) { ep++; continue; }
      if (ldf(endKey, i) > t) break;
      if (st == WAITING) break; // its start is still pending at this theta (cannot precede it)
      freeze(i, 1.0, k, dem, rate, state, slope, cnt, outLambda);
      live--;
      ep++;
    }
    // saturations
    for (let r = 0; r < k; r++) {
      if (ldb(sat, r)) continue;
      if (!(ldf(satAt, r) <= t) && !(ldf(used, r) >= ldf(cap, r))) continue;
      if (ldu(cnt, r) == 0 && !(ldf(used, r) >= ldf(cap, r))) continue;
      stb(sat, r, 1);
      stf(used, r, ldf(cap, r));
      for (let i = 0; i < n; i++) {
        const st = ldb(state, i);
        if (st == FROZEN) continue;
        if (!(ldf(dem, i * k + r) > 0)) continue;
        let lam: f64 = 0;
        if (st == RAMPING) lam = min(1.0, (theta - ldf(startKey, i)) * ldf(rate, i));
        freeze(i, lam, k, dem, rate, state, slope, cnt, outLambda);
        live--;
      }
    }
    // starts
    while (sp < n) {
      const i = <i32>ldu(startOrder, sp);
      if (ldb(state, i) != WAITING) { sp++; continue; }
      if (ldf(startKey, i) > t) break;
      activate(i, k, dem, rate, state, slope, cnt);
      sp++;
    }
  }

  // Outputs: allocation = lambda * D, dominant share = lambda * delta.
  for (let i = 0; i < n; i++) {
    const lam = ldf(outLambda, i);
    stf(outDs, i, lam * ldf(delta, i));
    const base = i * k;
    for (let r = 0; r < k; r++) stf(outAlloc, base + r, lam * ldf(dem, base + r));
  }
  return OK;
}

@inline function fail(scratch: usize, code: i32, index: i32): i32 {
  store<i32>(scratch, index);
  return code;
}

@inline function activate(i: i32, k: i32, dem: usize, rate: usize, state: usize, slope: usize, cnt: usize): void {
  stb(state, i, RAMPING);
  const rt = ldf(rate, i);
  const base = i * k;
  for (let r = 0; r < k; r++) {
    const d = ldf(dem, base + r);
    if (d > 0) {
      stf(slope, r, ldf(slope, r) + rt * d);
      stu(cnt, r, ldu(cnt, r) + 1);
    }
  }
}

@inline function freeze(
  i: i32, lam: f64, k: i32, dem: usize, rate: usize, state: usize, slope: usize, cnt: usize, outLambda: usize,
): void {
  if (ldb(state, i) == RAMPING) {
    const rt = ldf(rate, i);
    const base = i * k;
    for (let r = 0; r < k; r++) {
      const d = ldf(dem, base + r);
      if (d > 0) {
        const c = ldu(cnt, r) - 1;
        stu(cnt, r, c);
        // exact zero when the last user leaves, so rounding never leaves a phantom slope
        stf(slope, r, c == 0 ? 0.0 : ldf(slope, r) - rt * d);
      }
    }
  }
  stb(state, i, FROZEN);
  stf(outLambda, i, lam);
}
