// Quantile functions for the alpha-strategy (docs/policies/bopf.md, alpha strategy).
//
// normalQuantile: Acklam's rational approximation of the standard normal inverse CDF
// (relative error < 1.15e-9 over (0, 1)): a rational function in q = p - 0.5 on the
// central region [0.02425, 0.97575], and in sqrt(-2 ln p) on the tails. It is odd around
// p = 0.5 by construction, so normalQuantile(1 - p) = -normalQuantile(p).
// Known values: p = 0.5 -> 0; 0.95 -> 1.6448536; 0.975 -> 1.9599640; 0.999 -> 3.0902323;
// 1e-10 -> -6.3613409. Edge values: p = 0 -> -Infinity, p = 1 -> +Infinity, outside [0, 1]
// or NaN -> InputError.
//
// empiricalQuantile: the generalised inverse of the empirical CDF, inf{x : F_n(x) >= p}:
// the ceil(p·n)-th smallest sample (p = 0 -> the smallest). Samples {3, 1, 2, 4}, p = 0.5
// -> 2; p = 0.95 -> 4.
import { InputError, describeValue } from "../errors.js";

const A = [-3.969683028665376e1, 2.209460984245205e2, -2.759285104469687e2, 1.38357751867269e2, -3.066479806614716e1, 2.506628277459239];
const B = [-5.447609879822406e1, 1.615858368580409e2, -1.556989798598866e2, 6.680131188771972e1, -1.328068155288572e1];
const C = [-7.784894002430293e-3, -3.223964580411365e-1, -2.400758277161838, -2.549732539343734, 4.374664141464968, 2.938163982698783];
const D = [7.784695709041462e-3, 3.224671290700398e-1, 2.445134137142996, 3.754408661907416];
const P_LOW = 0.02425;

function checkP(p: number, field: string): void {
  if (typeof p !== "number" || !(p >= 0 && p <= 1)) throw new InputError(field, `must be a probability in [0, 1] (got ${describeValue(p)})`);
}

function tail(p: number): number {
  const q = Math.sqrt(-2 * Math.log(p));
  return (((((C[0] * q + C[1]) * q + C[2]) * q + C[3]) * q + C[4]) * q + C[5]) /
    ((((D[0] * q + D[1]) * q + D[2]) * q + D[3]) * q + 1);
}

/** Standard normal inverse CDF. */
export function normalQuantile(p: number, field = "p"): number {
  checkP(p, field);
  if (p === 0) return -Infinity;
  if (p === 1) return Infinity;
  if (p < P_LOW) return tail(p);
  if (p > 1 - P_LOW) return -tail(1 - p);
  const q = p - 0.5;
  const r = q * q;
  return ((((((A[0] * r + A[1]) * r + A[2]) * r + A[3]) * r + A[4]) * r + A[5]) * q) /
    (((((B[0] * r + B[1]) * r + B[2]) * r + B[3]) * r + B[4]) * r + 1);
}

/** inf{x : F_n(x) >= p} over the samples. */
export function empiricalQuantile(samples: readonly number[], p: number, field = "samples"): number {
  checkP(p, "p");
  if (!Array.isArray(samples) || samples.length === 0) throw new InputError(field, "must be a non-empty array of numbers");
  samples.forEach((x, i) => {
    if (typeof x !== "number" || !Number.isFinite(x)) throw new InputError(`${field}[${i}]`, `must be a finite number (got ${describeValue(x)})`);
  });
  const s = Float64Array.from(samples).sort();
  const rank = Math.max(1, Math.ceil(p * s.length));
  return s[rank - 1];
}
