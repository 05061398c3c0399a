// DRF over what is left of the cluster, where some resources may be exhausted. The DRF
// kernel needs every capacity > 0, so exhausted resources are dropped and any queue that
// needs one of them gets nothing (under Leontief utility it cannot use anything without
// it, and the exhausted resource is its saturated bottleneck — Pareto efficiency holds).
//
// Uncontended fast path: when the participating demands sum, on every live resource, to
// clearly less than what is available, progressive filling caps every queue at its whole
// demand before any resource saturates, so every lambda is 1 and the allocation is the
// demand itself. The kernel computes exactly that in that case (its level scan finds no
// saturating bucket and sets lambda = 1.0, allocation = 1.0 * demand), so skipping it
// changes no bit; the margin below covers the float error of both sums (the kernel's and
// this one, each within (N + 4) ulp relative for N non-negative terms), and test/
// bopf.drf-over.test.ts compares the two paths bit for bit near the boundary.
//
// Worked example: avail <10, 4>, wants [<3, 1>, <5, 2>], weights 1. Sums <8, 3> < <10, 4>:
// the fast path gives [<3, 1>, <5, 2>], as the kernel would. With wants [<3, 1>, <8, 2>]
// the sum 11 > 10 binds resource 0: the kernel runs (the first queue is capped at its
// whole demand, dominant share 0.3; the second gets 7/8 of its demand, <7, 1.75>). Edge values: a resource with avail <= C * 1e-12 is exhausted (dropped;
// rows needing it get 0); a want <= C * 1e-12 counts as no demand (float residue).
import type { Engine } from "../engine/engine.js";
import { InputError } from "../errors.js";
import { DRF_ARGS } from "../kernels/drf/contract.js";

/** Below this fraction of capacity a remainder counts as exhausted (float residue of C - sum). */
export const EXHAUSTED = 1e-12;

// Weights inside [2^-900, 2^900] keep every share the kernel computes from a fast-path row
// (delta in [1e-12, 1], its rate w / delta and key delta / w) finite and normal, so the
// kernel could not have failed on them either; outside, the kernel decides.
export const W_MIN = 2 ** -900, W_MAX = 2 ** 900;

/**
 * The fast path's test for N rows whose participating demands sum to `sum` (K): true when
 * every resource is live (avail > C * EXHAUSTED) and sum * (1 + (N + 16) 2^-48) < avail,
 * i.e. clearly uncontended (the margin is over 16 times the float error of the two sums).
 */
export function clearlyFits(sum: Float64Array, avail: Float64Array, capacity: ArrayLike<number>, n: number): boolean {
  const margin = 1 + (n + 16) * 2 ** -48;
  for (let r = 0; r < capacity.length; r++) {
    if (!(avail[r] > capacity[r] * EXHAUSTED) || !(sum[r] * margin < avail[r])) return false;
  }
  return true;
}

/** Scratch reused across calls (K-sized; drfOver allocates nothing per queue). */
const scratch = { live: new Int32Array(8), exhausted: new Uint8Array(8), thr: new Float64Array(8), sum: new Float64Array(8) };

/**
 * Writes into `out` (N*K, every cell) the DRF allocation of `wants` (N*K, rows of
 * non-participants all zero) over `avail` (K), with `weights` (N; null: all 1). `capacity`
 * sets the exhaustion threshold. The demands are written straight into the kernel's staging
 * views (no intermediate arrays, no copies of the results). Every row goes to the kernel,
 * participating or not: the WASM kernel's rounding depends on N, so leaving rows out would
 * change its numbers. `fast` (default true) allows the uncontended fast path (false: always
 * the kernel, for the differential tests).
 */
export function drfOver(
  engine: Engine, capacity: ArrayLike<number>, avail: Float64Array, wants: Float64Array, weights: Float64Array | null,
  out: Float64Array, n: number, fast = true,
): void {
  const k = capacity.length;
  if (scratch.live.length < k) {
    scratch.live = new Int32Array(k); scratch.exhausted = new Uint8Array(k); scratch.thr = new Float64Array(k); scratch.sum = new Float64Array(k);
  }
  const { live, exhausted, thr, sum } = scratch;
  let kl = 0;
  for (let r = 0; r < k; r++) {
    thr[r] = capacity[r] * EXHAUSTED;
    sum[r] = 0;
    if (avail[r] > thr[r]) {
      live[kl++] = r;
      exhausted[r] = 0;
    } else {
      exhausted[r] = 1;
    }
  }
  const nk = n * k;
  if (kl === 0) {
    out.fill(0, 0, nk);
    return;
  }
  const scan = scanRows(wants, weights, n, k, kl, live, exhausted, thr, sum);
  if (scan === 0) {
    out.fill(0, 0, nk);
    return;
  }
  let fits = fast && scan === 1;
  const margin = 1 + (n + 16) * 2 ** -48;
  for (let c = 0; c < kl && fits; c++) {
    const r = live[c];
    if (!(sum[r] * margin < avail[r])) fits = false;
  }
  if (fits) {
    wholeDemands(wants, out, n, k, exhausted, thr);
    return;
  }
  const kernels = engine.kernels;
  const block = kernels.stage("drf", n, kl);
  const st = block.views();
  for (let j = 0; j < kl; j++) st.capacity[j] = avail[live[j]];
  if (weights !== null) st.weights.set(weights.subarray(0, n));
  else st.weights.fill(1, 0, n);
  stageDemands(wants, st.demands, n, k, kl, live, exhausted, thr);
  const status = block.run(DRF_ARGS.weights);
  if (status !== 0) {
    // rerun through engine.drf so the error is the InputError it has always been
    const wts = Float64Array.from(st.weights.subarray(0, n));
    try {
      engine.drf({ capacity: Float64Array.from(live.subarray(0, kl), (r) => avail[r]), demands: st.demands.slice(0, n * kl), weights: wts });
    } catch (e) {
      // the kernel names its own staged row (`demands[i]`): here row i is the caller's queue i
      const row = e instanceof InputError ? /^demands\[(\d+)\]/.exec(e.field) : null;
      if (row !== null) throw new InputError(`queues[${row[1]}]`, `want / weight is beyond f64 precision in BoPF's DRF step (${e instanceof Error ? e.message : ""}); rescale the units`);
      throw e;
    }
    throw new Error(`drf kernel status ${status}`);
  }
  scatterShares(st.lambda, st.demands, out, n, k, kl, live);
}

/**
 * One pass over the rows: 0 when no row takes part (no kernel call, as before), else 1
 * (2 when a participating row's weight is outside [W_MIN, W_MAX]), with `sum` holding what
 * the participating rows would stage per live resource, for the fast path.
 */
function scanRows(
  wants: Float64Array, weights: Float64Array | null, n: number, k: number, kl: number,
  live: Int32Array, exhausted: Uint8Array, thr: Float64Array, sum: Float64Array,
): number {
  let any = 0, weightsInRange = true;
  if (kl === k) {
    // no resource exhausted (the usual round): nothing blocks a row, and a row without
    // demand above the residue adds nothing to the sums, so one loop per row does both
    for (let i = 0; i < n; i++) {
      const base = i * k;
      let some = false;
      for (let r = 0; r < k; r++) {
        const w = wants[base + r];
        if (w > thr[r]) {
          sum[r] += w;
          some = true;
        }
      }
      if (!some) continue;
      any = 1;
      if (weights !== null) {
        const wt = weights[i];
        if (!(wt >= W_MIN && wt <= W_MAX)) weightsInRange = false;
      }
    }
    return any === 0 ? 0 : weightsInRange ? 1 : 2;
  }
  for (let i = 0; i < n; i++) {
    const base = i * k;
    let blocked = false, some = false;
    for (let r = 0; r < k; r++) {
      const w = wants[base + r];
      if (w > 0 && exhausted[r] === 1) blocked = true;
      if (w > thr[r] && exhausted[r] === 0) some = true;
    }
    if (!some || blocked) continue;
    any = 1;
    for (let c = 0; c < kl; c++) {
      const r = live[c], w = wants[base + r];
      if (w > thr[r]) sum[r] += w;
    }
    if (weights !== null) {
      const wt = weights[i];
      if (!(wt >= W_MIN && wt <= W_MAX)) weightsInRange = false;
    }
  }
  return any === 0 ? 0 : weightsInRange ? 1 : 2;
}

/** The fast path's allocation: every participating row's staged demand (lambda = 1). */
function wholeDemands(wants: Float64Array, out: Float64Array, n: number, k: number, exhausted: Uint8Array, thr: Float64Array): void {
  for (let i = 0; i < n; i++) {
    const base = i * k;
    let blocked = false;
    for (let r = 0; r < k; r++) if (wants[base + r] > 0 && exhausted[r] === 1) blocked = true;
    for (let r = 0; r < k; r++) {
      const w = wants[base + r];
      out[base + r] = blocked || exhausted[r] === 1 || !(w > thr[r]) ? 0 : w;
    }
  }
}

/** The kernel's demands over the live resources: 0 for blocked rows and float residue. */
function stageDemands(
  wants: Float64Array, dem: Float64Array, n: number, k: number, kl: number, live: Int32Array, exhausted: Uint8Array, thr: Float64Array,
): void {
  if (kl === k) {
    // no resource exhausted: the same rows, without the blocked test and the live indirection
    for (let x = 0; x < n * k; x += k) {
      for (let r = 0; r < k; r++) {
        const w = wants[x + r];
        dem[x + r] = w > thr[r] ? w : 0;
      }
    }
    return;
  }
  for (let i = 0; i < n; i++) {
    const base = i * k, row = i * kl;
    let blocked = false;
    for (let r = 0; r < k; r++) if (wants[base + r] > 0 && exhausted[r] === 1) blocked = true;
    if (blocked) {
      for (let c = 0; c < kl; c++) dem[row + c] = 0;
      continue;
    }
    for (let c = 0; c < kl; c++) {
      const r = live[c];
      // float residue of want - allocated (~1e-16 of C) is no demand: it would only push
      // the kernel's demand/capacity ratios beyond f64 precision
      dem[row + c] = wants[base + r] > thr[r] ? wants[base + r] : 0;
    }
  }
}

/** out = lambda * staged demand on the live resources, 0 elsewhere. */
function scatterShares(lam: Float64Array, dem: Float64Array, out: Float64Array, n: number, k: number, kl: number, live: Int32Array): void {
  if (kl === k) {
    for (let i = 0; i < n; i++) {
      const x = lam[i], base = i * k;
      if (x > 0) for (let r = 0; r < k; r++) out[base + r] = x * dem[base + r];
      else for (let r = 0; r < k; r++) out[base + r] = 0;
    }
    return;
  }
  for (let i = 0; i < n; i++) {
    const x = lam[i];
    const base = i * k, row = i * kl;
    for (let r = 0; r < k; r++) out[base + r] = 0;
    if (!(x > 0)) continue;
    for (let c = 0; c < kl; c++) out[base + live[c]] = x * dem[row + c];
  }
}
