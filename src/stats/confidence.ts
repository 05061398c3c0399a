// Confidence intervals and a paired sign test for results over many seeds (docs/reproduction-justice.md).
//
// meanCi95: the mean and the half-width of its 95% Student-t interval, t(0.975, n-1) * s / sqrt(n)
//   (s the sample standard deviation). Example: 1, 2, 3 -> mean 2, s 1, t(2) = 4.303,
//   half-width 4.303 / sqrt(3) = 2.484. One value: half-width null (no interval).
// signTest: paired differences, ties (|d| <= tie) dropped; two-sided exact binomial p-value of
//   seeing at least max(pos, neg) of the same sign out of pos + neg under p = 1/2.
//   Example: 10 positive of 10: p = 2 / 2^10 = 0.00195.
import { InputError, describeValue } from "../errors.js";

/** t(0.975, df) for df = 1..30; beyond, the normal 1.96 plus the first Cornish-Fisher term. */
const T975 = [
  12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.16, 2.145, 2.131,
  2.12, 2.11, 2.101, 2.093, 2.086, 2.08, 2.074, 2.069, 2.064, 2.06, 2.056, 2.052, 2.048, 2.045, 2.042,
];

/** The 0.975 quantile of Student's t with `df` degrees of freedom (df >= 1). */
export function tQuantile975(df: number): number {
  if (!Number.isSafeInteger(df) || df < 1) throw new InputError("df", `must be an integer >= 1 (got ${describeValue(df)})`);
  if (df <= T975.length) return T975[df - 1];
  const z = 1.959964;
  return z + (z ** 3 + z) / (4 * df);
}

export interface MeanCi {
  n: number;
  mean: number;
  /** Half-width of the 95% interval (null with fewer than 2 values). */
  half: number | null;
  lo: number | null;
  hi: number | null;
}

function checkValues(xs: readonly number[], field: string): void {
  if (!Array.isArray(xs) || xs.length === 0) throw new InputError(field, `expected a non-empty array of numbers, got ${describeValue(xs)}`);
  xs.forEach((x, i) => {
    if (typeof x !== "number" || !Number.isFinite(x)) throw new InputError(`${field}[${i}]`, `must be a finite number (got ${describeValue(x)})`);
  });
}

/** Mean and 95% Student-t confidence interval of the values. */
export function meanCi95(xs: readonly number[]): MeanCi {
  checkValues(xs, "xs");
  const n = xs.length;
  let s = 0;
  for (const x of xs) s += x;
  const mean = s / n;
  if (n < 2) return { n, mean, half: null, lo: null, hi: null };
  let ss = 0;
  for (const x of xs) ss += (x - mean) ** 2;
  const half = (tQuantile975(n - 1) * Math.sqrt(ss / (n - 1))) / Math.sqrt(n);
  return { n, mean, half, lo: mean - half, hi: mean + half };
}

export interface SignTest {
  positive: number;
  negative: number;
  ties: number;
  /** Two-sided exact binomial p-value (1 when every pair ties). */
  p: number;
}

/** Paired sign test on differences; |d| <= tie counts as a tie. */
export function signTest(diffs: readonly number[], tie = 0): SignTest {
  checkValues(diffs, "diffs");
  let positive = 0, negative = 0, ties = 0;
  for (const d of diffs) {
    if (Math.abs(d) <= tie) ties++;
    else if (d > 0) positive++;
    else negative++;
  }
  const m = positive + negative;
  if (m === 0) return { positive, negative, ties, p: 1 };
  const k = Math.max(positive, negative);
  // P(X >= k), X ~ Binomial(m, 1/2), by a running binomial coefficient in log space
  let tail = 0;
  for (let i = k; i <= m; i++) tail += Math.exp(logChoose(m, i) - m * Math.LN2);
  return { positive, negative, ties, p: Math.min(1, 2 * tail) };
}

function logChoose(n: number, k: number): number {
  let s = 0;
  for (let i = 1; i <= k; i++) s += Math.log((n - k + i) / i);
  return s;
}
