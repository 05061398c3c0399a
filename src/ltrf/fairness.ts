// The paper's fairness metrics (§4.2, docs/policies/ltrf.md), as time series:
//   fairness degree  rho_i(t) = int_0^t g_i / int_0^t min(d_i, S_i),   S_i = w_i / sum_j w_j
//   sharing benefit  Psi(t)   = sum_i max(rho_i(t) - 1, 0)
//   sharing loss     Omega(t) = sum_i min(rho_i(t) - 1, 0)
// g_i is what queue i holds and d_i what it demands (held + waiting), both as dominant
// shares of the capacity (with one resource, fractions of it); both are piecewise
// constant between observations, so the integrals are exact.
//
// Example (Table 1, C = 100, S = 50 each): after t1..t4, A got 160 under MLRF while a
// private half would have given min(20,50) + min(40,50) + min(80,50) + min(90,50) = 160:
// rho_A = 1; B got 240 against 50 * 4 = 200: rho_B = 1.2, Psi = 0.2, Omega = 0.
// Edge values: a queue that never demanded anything has rho = NaN and counts in neither sum.
import { InputError, describeValue } from "../errors.js";
import { isNonNumericView } from "../kernels/marshal.js";

export interface FairnessSeries {
  t: number[];
  rho: number[][];
  psi: number[];
  omega: number[];
}

/** Fairness samples (Psi, Omega, rho per queue) at most in one run: memory stays in tens of MB. */
export const MAX_FAIRNESS_SAMPLES = 2 ** 20;

/**
 * Refuses a time the series cannot reach: sampling every `every` s from `nextSample` up to t must
 * add at most MAX_FAIRNESS_SAMPLES points in all, and must advance. Changes nothing.
 */
export function checkSampleReach(f: FairnessTracker, nextSample: number, every: number, t: number): void {
  if (!(nextSample <= t)) return;
  const adding = Math.floor((t - nextSample) / every) + 1;
  if (nextSample + every === nextSample || !(f.series.t.length + adding <= MAX_FAIRNESS_SAMPLES)) {
    throw new InputError("policyOptions.sampleInterval", `${every} s gives more than ${MAX_FAIRNESS_SAMPLES} fairness samples up to t = ${t} s (or does not advance there); use a longer interval`);
  }
}

export class FairnessTracker {
  private readonly got: Float64Array;
  private readonly due: Float64Array;
  private readonly g: Float64Array;
  private readonly d: Float64Array;
  private readonly share: Float64Array;
  private last = 0;
  readonly series: FairnessSeries;

  /** `weights`: w_i, so S_i = w_i / sum w (as a fraction of the capacity). */
  constructor(weights: ArrayLike<number>) {
    if (!Array.isArray(weights) && !(ArrayBuffer.isView(weights) && !isNonNumericView(weights))) throw new InputError("weights", `expected an array of numbers, got ${describeValue(weights)}`);
    const n = weights.length;
    let W = 0;
    for (let i = 0; i < n; i++) {
      const w = weights[i];
      if (typeof w !== "number" || !(w > 0) || !Number.isFinite(w)) throw new InputError(`weights[${i}]`, `must be a finite number > 0 (got ${describeValue(w)})`);
      W += w;
    }
    // a sum beyond f64 would make every share 0
    if (!Number.isFinite(W)) throw new InputError("weights", "their sum overflows f64; rescale them");
    this.share = Float64Array.from(weights, (w) => w / W);
    this.got = new Float64Array(n);
    this.due = new Float64Array(n);
    this.g = new Float64Array(n);
    this.d = new Float64Array(n);
    this.series = { t: [], rho: Array.from({ length: n }, () => []), psi: [], omega: [] };
  }

  /** Integrates the current g and d up to time t. */
  advance(t: number): void {
    if (typeof t !== "number" || !Number.isFinite(t)) throw new InputError("t", `must be a finite number (got ${describeValue(t)})`);
    const dt = t - this.last;
    if (dt > 0) {
      for (let i = 0; i < this.g.length; i++) {
        this.got[i] += this.g[i] * dt;
        this.due[i] += Math.min(this.d[i], this.share[i]) * dt;
      }
      this.last = t;
    }
  }

  /** From now on queue i holds g and demands d (dominant shares). */
  set(i: number, g: number, d: number): void {
    if (typeof i !== "number" || !Number.isInteger(i) || i < 0 || i >= this.g.length) throw new InputError("i", `must be a queue index 0..${this.g.length - 1} (got ${describeValue(i)})`);
    if (typeof g !== "number" || !(g >= 0) || !Number.isFinite(g)) throw new InputError("g", `must be a finite number >= 0 (got ${describeValue(g)})`);
    if (typeof d !== "number" || !(d >= 0) || !Number.isFinite(d)) throw new InputError("d", `must be a finite number >= 0 (got ${describeValue(d)})`);
    this.g[i] = g;
    this.d[i] = d;
  }

  rho(i: number): number {
    return this.due[i] > 0 ? this.got[i] / this.due[i] : NaN;
  }

  psi(): number {
    let s = 0;
    for (let i = 0; i < this.g.length; i++) {
      const r = this.rho(i);
      if (r > 1) s += r - 1;
    }
    return s;
  }

  omega(): number {
    let s = 0;
    for (let i = 0; i < this.g.length; i++) {
      const r = this.rho(i);
      if (r < 1) s += r - 1;
    }
    return s;
  }

  /** Appends the current values at time t to the series. */
  sample(t: number): void {
    this.series.t.push(t);
    for (let i = 0; i < this.g.length; i++) this.series.rho[i].push(this.rho(i));
    this.series.psi.push(this.psi());
    this.series.omega.push(this.omega());
  }
}

/** Fairness series of a step model run (1 time unit per step, one resource of C units). */
export function stepFairness(records: ReadonlyArray<{ totalDemand: number[]; alloc: number[] }>, capacity: number, weights: number[]): FairnessSeries {
  if (typeof capacity !== "number" || !(capacity > 0) || !Number.isFinite(capacity)) throw new InputError("capacity", `must be a finite number > 0 (got ${describeValue(capacity)})`);
  if (!Array.isArray(records)) throw new InputError("records", `expected an array of {totalDemand, alloc}, got ${describeValue(records)}`);
  const f = new FairnessTracker(weights);
  records.forEach((r, t) => {
    if (r === null || typeof r !== "object" || !Array.isArray(r.alloc) || !Array.isArray(r.totalDemand) || r.alloc.length !== weights.length || r.totalDemand.length !== weights.length) {
      throw new InputError(`records[${t}]`, `expected {totalDemand, alloc}: arrays of ${weights.length} numbers (one per queue)`);
    }
    r.alloc.forEach((a: number, i: number) => f.set(i, a / capacity, r.totalDemand[i] / capacity));
    f.advance(t + 1);
    f.sample(t + 1);
  });
  return f.series;
}
