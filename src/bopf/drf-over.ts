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
 */
export function drfOver(
  engine: Engine, capacity: ArrayLike<number>, avail: Float64Array, wants: Float64Array, weights: Float64Array,
  out: Float64Array,
): void {
  const k = capacity.length;
  const n = weights.length;
  const live: number[] = [];
  for (let r = 0; r < k; r++) if (avail[r] > capacity[r] * EXHAUSTED) live.push(r);
  if (live.length === 0) return;
  const kl = live.length;
  const dem = new Float64Array(n * kl);
  let any = false;
  for (let i = 0; i < n; i++) {
    const base = i * k;
    let blocked = false;
    for (let r = 0; r < k; r++) if (wants[base + r] > 0 && !(avail[r] > capacity[r] * EXHAUSTED)) blocked = true;
    if (blocked) continue;
    for (let j = 0; j < kl; j++) {
      const r = live[j];
      // float residue of want - allocated (~1e-16 of C) is no demand: it would only push
      // the kernel's demand/capacity ratios beyond f64 precision
      const d = wants[base + r] > capacity[r] * EXHAUSTED ? wants[base + r] : 0;
      dem[i * kl + j] = d;
      if (d > 0) any = true;
    }
  }
  if (!any) return;
  const cap = Float64Array.from(live, (r) => avail[r]);
  const res = engine.drf({ capacity: cap, demands: dem, weights });
  for (let i = 0; i < n; i++) {
    const lam = res.fraction[i];
    if (!(lam > 0)) continue;
    const base = i * k;
    for (let j = 0; j < kl; j++) out[base + live[j]] += lam * dem[i * kl + j];
  }
}
