// SRPT among BoPF's soft-guarantee LQs (SPEC §4.3 step 2), one call for all of them.
//
// Each soft LQ i that is inside a guaranteed burst reports three K-vectors:
//   want[i]      what it could hold right now (Leontief: it uses resources only in these proportions)
//   rate[i]      its burst rate r_i(n) = d_i(n) / t_i(n): the guarantee never exceeds it
//   remaining[i] burst volume d_i(n) minus what it has consumed so far
// The queues are served in order of remaining volume expressed as a dominant share,
// key_i = max_k remaining[i][k] / C[k] (smallest first, ties by index: the radix sort is
// stable), so the burst closest to completion finishes first — shortest remaining
// processing time. Each in turn gets the largest Leontief fraction of its want that stays
// within its rate and within what is still available:
//   lambda_i = min(1, min over k with want[i][k] > 0 of rate[i][k] / want[i][k], left[k] / want[i][k])
// and left -= lambda_i * want[i]. O(N*K + sort).
//
// Worked example: C = <10, 10>, available <6, 8>.
//   A: remaining <4, 2> (key 0.4), want <4, 2>,   rate <2, 1>
//   B: remaining <1, 3> (key 0.3), want <3, 6>,   rate <3, 6>
//   C: remaining <8, 8> (key 0.8), want <10, 10>, rate <5, 5>
// Order B, A, C. B: lambda = min(1, 3/3, 6/3, 8/6) = 1 -> <3, 6>, left <3, 2>.
// A: min(1, 2/4, 1/2, 3/4, 2/2) = 0.5 -> <2, 1>, left <1, 1>.
// C: min(1, 5/10, 1/10, 1/10) = 0.1 -> <1, 1>, left <0, 0>.
//
// Edge values: want all zero -> lambda 0 (nothing it could use); an available resource of
// 0 blocks every queue that wants it; n = 0 is a no-op; remaining all zero sorts first
// (the caller stops guaranteeing consumed bursts, so it normally does not pass them).

import { ldf, stf, ldu, align8, isFiniteF64 } from "./util/mem";
import { sortIndicesByKey, radixScratchBytes } from "./util/radix";
import { OK, E_CAPACITY, E_AVAILABLE, E_DEMAND, E_RATE, E_VOLUME } from "./util/status";

/** Scratch layout: error index (8 bytes), keys (N f64), order (N u32), left (K f64), radix. */
export function srptScratchBytes(n: i32, k: i32): usize {
  return 8 + (<usize>n << 3) + align8(<usize>n << 2) + (<usize>k << 3) + radixScratchBytes(n);
}

/**
 * Writes lambda (fraction of want granted) and the allocation lambda*want for every soft
 * LQ. Returns a status from util/status; on error the offending flat index is the i32 at `scratch`.
 */
export function srpt(
  n: i32, k: i32,
  cap: usize, avail: usize, want: usize, rate: usize, remaining: usize,
  outLambda: usize, outAlloc: usize,
  scratch: usize,
): i32 {
  let p = scratch + 8;
  const keys = p; p += <usize>n << 3;
  const order = p; p += align8(<usize>n << 2);
  const left = p; p += <usize>k << 3;
  const radix = p;

  for (let r = 0; r < k; r++) {
    const c = ldf(cap, r);
    if (!(c > 0) || !isFiniteF64(c)) return fail(scratch, E_CAPACITY, r);
  }
  for (let r = 0; r < k; r++) {
    const a = ldf(avail, r);
    if (!(a >= 0) || !isFiniteF64(a)) return fail(scratch, E_AVAILABLE, r);
    stf(left, r, a);
  }
  // validate every row first so an error leaves the outputs untouched
  for (let i = 0; i < n; i++) {
    const base = i * k;
    let key: f64 = 0;
    for (let r = 0; r < k; r++) {
      const w = ldf(want, base + r);
      if (!(w >= 0) || !isFiniteF64(w)) return fail(scratch, E_DEMAND, base + r);
      const rt = ldf(rate, base + r);
      if (!(rt >= 0) || !isFiniteF64(rt)) return fail(scratch, E_RATE, base + r);
      const v = ldf(remaining, base + r);
      if (!(v >= 0) || !isFiniteF64(v)) return fail(scratch, E_VOLUME, base + r);
      key = max(key, v / ldf(cap, r));
    }
    stf(keys, i, key);
  }
  sortIndicesByKey(n, keys, order, radix);

  for (let j = 0; j < n; j++) {
    const i = <i32>ldu(order, j);
    const base = i * k;
    let lam: f64 = 1.0;
    let any = false;
    for (let r = 0; r < k; r++) {
      const w = ldf(want, base + r);
      if (!(w > 0)) continue;
      any = true;
      lam = min(lam, min(ldf(rate, base + r) / w, ldf(left, r) / w));
    }
    if (!any) lam = 0;
    stf(outLambda, i, lam);
    for (let r = 0; r < k; r++) {
      const a = lam * ldf(want, base + r);
      stf(outAlloc, base + r, a);
      // lam = left/want can round lam*want one ulp above left: clamp so nothing goes negative
      stf(left, r, max(0.0, ldf(left, r) - a));
    }
  }
  return OK;
}

@inline function fail(scratch: usize, code: i32, index: i32): i32 {
  store<i32>(scratch, index);
  return code;
}
