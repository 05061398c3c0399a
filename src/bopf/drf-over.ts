// DRF over what is left of the cluster, where some resources may be exhausted. The DRF
// kernel needs every capacity > 0, so exhausted resources are dropped and any queue that
// needs one of them gets nothing (under Leontief utility it cannot use anything without
// it, and the exhausted resource is its saturated bottleneck — Pareto efficiency holds).
import type { Engine } from "../engine/engine.js";

/** Below this fraction of capacity a remainder counts as exhausted (float residue of C - sum). */
export const EXHAUSTED = 1e-12;

/**
 * Adds to `out` (N*K) the DRF allocation of `wants` (N*K, rows of non-participants all
 * zero) over `avail` (K), with `weights` (N). `capacity` sets the exhaustion threshold.
 * The demands are written straight into the kernel's staging views (no intermediate
 * arrays, no copies of the results). Every row goes to the kernel, participating or not:
 * the WASM kernel's rounding depends on N, so leaving rows out would change its numbers.
 */
export function drfOver(
  engine: Engine, capacity: ArrayLike<number>, avail: Float64Array, wants: Float64Array, weights: Float64Array,
  out: Float64Array,
): void {
  const k = capacity.length;
  const n = weights.length;
  const live: number[] = [];
  const exhausted = new Uint8Array(k);
  const thr = new Float64Array(k);
  for (let r = 0; r < k; r++) {
    thr[r] = capacity[r] * EXHAUSTED;
    if (avail[r] > thr[r]) live.push(r);
    else exhausted[r] = 1;
  }
  if (live.length === 0) return;
  const kl = live.length;
  // does any row take part? (else no kernel call, as before)
  let any = false;
  for (let i = 0; i < n && !any; i++) {
    const base = i * k;
    let blocked = false, some = false;
    for (let r = 0; r < k; r++) {
      const w = wants[base + r];
      if (w > 0 && exhausted[r] === 1) blocked = true;
      if (w > thr[r] && exhausted[r] === 0) some = true;
    }
    any = some && !blocked;
  }
  if (!any) return;
  const kernels = engine.kernels;
  const s = kernels.stageDrf(n, kl);
  for (let j = 0; j < kl; j++) s.capacity[j] = avail[live[j]];
  s.weights.set(weights);
  const dem = s.demands;
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
  const st = kernels.runDrf(n, kl, true, false);
  if (st.code !== 0) {
    // rerun through engine.drf so the error is the InputError it has always been
    engine.drf({ capacity: Float64Array.from(live, (r) => avail[r]), demands: dem.slice(0, n * kl), weights });
    throw new Error(`drf kernel status ${st.code as number}`);
  }
  const lam = s.lambda;
  for (let i = 0; i < n; i++) {
    const x = lam[i];
    if (!(x > 0)) continue;
    const base = i * k, row = i * kl;
    for (let c = 0; c < kl; c++) out[base + live[c]] += x * dem[row + c];
  }
}
