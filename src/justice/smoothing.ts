// CALC_SMOOTHED_AVG of Algorithm 3 (the Justice paper): the weighted average of the history of
// estimation errors that corrects Justice's allocation fraction. docs/policies/justice.md: exponential smoothing
// with a configurable factor (default 0.5), or equal weights for every past error.
//
//   exponential, factor a:  s_1 = e_1,  s_k = a * e_k + (1 - a) * s_(k-1)
//   equal weights:          s_k = (e_1 + ... + e_k) / k
//
// Worked example, errors -0.5, -0.25, 0.4: exponential with a = 0.5 gives -0.5, -0.375, 0.0125;
// equal weights give -0.5, -0.375, -0.11667. Edge values: a = 1 keeps only the latest error;
// a close to 0 barely moves from the first error. With no errors yet the average is 0.
// O(1) per update: the running value is kept, not recomputed from the list.
import { InputError, describeValue } from "../errors.js";
import { checkFraction } from "./validate.js";

export type ErrorWeighting = "exponential" | "equal";

export class SmoothedAverage {
  private value = 0;
  private sum = 0;
  private n = 0;

  constructor(
    readonly weighting: ErrorWeighting = "exponential",
    readonly factor = 0.5,
  ) {
    if (weighting !== "exponential" && weighting !== "equal") {
      throw new InputError("errorWeighting", `must be "exponential" or "equal" (got ${describeValue(weighting)})`);
    }
    checkFraction("smoothing", factor);
  }

  add(x: number): void {
    this.n += 1;
    this.sum += x;
    this.value = this.n === 1 ? x : this.factor * x + (1 - this.factor) * this.value;
  }

  get count(): number {
    return this.n;
  }

  /** The current weighted average (0 before any value). */
  get average(): number {
    if (this.n === 0) return 0;
    return this.weighting === "equal" ? this.sum / this.n : this.value;
  }
}
