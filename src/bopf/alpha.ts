// The alpha-strategy (docs/policies/bopf.md, alpha strategy; §3.5 of the full paper): an LQ whose burst demand is
// random asks for enough that its whole demand vector is covered with probability alpha.
//   independent resources:          request_k = F_k^{-1}(alpha^(1/K))  (prod_k P(X_k <= request_k) = alpha)
//   perfectly correlated resources: request_k = F_k^{-1}(alpha)       (all covered together)
// Normal demands are clamped at 0 (a demand cannot be negative).
//
// Worked example: K = 3, each resource Normal(mean 100, std 40), alpha = 0.95.
//   correlated:  z = 1.6449 -> 100 + 40 · 1.6449 = 165.8 on each resource;
//   independent: alpha^(1/3) = 0.98305, z = 2.1212 -> 184.8 on each resource.
// The correlated request is ~10% smaller: what the paper notes about taking correlation
// into account. Edge values: std = 0 -> the mean; alpha -> 1 with a Normal -> unbounded
// (alpha must be < 1); empirical samples -> at most the largest sample.
import { InputError, describeValue } from "../errors.js";
import { empiricalQuantile, normalQuantile } from "./quantile.js";

export type DemandDistribution =
  | { kind: "normal"; mean: number; std: number }
  | { kind: "empirical"; samples: number[] };

export type Correlation = "independent" | "correlated";

export function quantileOf(d: DemandDistribution, p: number, field: string): number {
  if (d === null || typeof d !== "object") throw new InputError(field, `expected a distribution, got ${describeValue(d)}`);
  if (d.kind === "normal") {
    if (typeof d.mean !== "number" || !Number.isFinite(d.mean)) throw new InputError(`${field}.mean`, `must be a finite number (got ${describeValue(d.mean)})`);
    if (typeof d.std !== "number" || !(d.std >= 0) || !Number.isFinite(d.std)) throw new InputError(`${field}.std`, `must be a finite number >= 0 (got ${describeValue(d.std)})`);
    if (d.std === 0) return Math.max(0, d.mean);
    return Math.max(0, d.mean + d.std * normalQuantile(p));
  }
  if (d.kind === "empirical") return Math.max(0, empiricalQuantile(d.samples, p, `${field}.samples`));
  throw new InputError(`${field}.kind`, `must be 'normal' or 'empirical' (got ${describeValue((d as { kind: unknown }).kind)})`);
}

/** The per-resource request that covers the demand vector with probability alpha. */
export function alphaRequest(dists: readonly DemandDistribution[], alpha: number, correlation: Correlation = "independent"): number[] {
  if (!Array.isArray(dists) || dists.length === 0) throw new InputError("distributions", "must list one distribution per resource");
  if (typeof alpha !== "number" || !(alpha > 0 && alpha < 1)) throw new InputError("alpha", `must be in (0, 1) (got ${describeValue(alpha)})`);
  if (correlation !== "independent" && correlation !== "correlated") throw new InputError("correlation", `must be 'independent' or 'correlated' (got ${describeValue(correlation)})`);
  const p = correlation === "independent" ? Math.pow(alpha, 1 / dists.length) : alpha;
  return dists.map((d, k) => quantileOf(d, p, `distributions[${k}]`));
}
