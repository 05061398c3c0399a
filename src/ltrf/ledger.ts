// Accumulated usage per queue, f_i(t) = integral of g_i over the current round (the
// paper's Formula (1) with LTYARN's time windows, §6.2.2): g_i is piecewise constant
// between scheduling points, so advancing is exact. With round length L the ledger resets
// at every multiple of L: the part of an interval before a boundary goes to the old
// round, the part after it to the new one.
//
// Example: L = 10, queue 0 holds dominant share 0.5 from t = 4 to t = 13: advance(13) adds
// 0.5 * 6 = 3 to the round [0, 10), resets at 10, then adds 0.5 * 3 = 1.5: usage = 1.5.
// Edge values: L = Infinity never resets; an interval ending exactly on a boundary leaves
// usage 0 (the boundary belongs to the new round).
import { InputError, describeValue } from "../errors.js";

export class UsageLedger {
  readonly usage: Float64Array;
  readonly window: number;
  /** Start of the current round. */
  roundStart = 0;
  /** Rounds completed so far. */
  resets = 0;
  private last = 0;
  private readonly rate: Float64Array;

  constructor(n: number, window = Infinity) {
    if (!(window > 0) || Number.isNaN(window)) throw new InputError("window", `must be a number > 0 or Infinity (got ${describeValue(window)})`);
    this.usage = new Float64Array(n);
    this.rate = new Float64Array(n);
    this.window = window;
  }

  /** Integrates the current rates up to time t, resetting at every round boundary on the way. */
  advance(t: number): void {
    if (!(t >= this.last)) throw new InputError("time", `moved backwards from ${this.last} to ${describeValue(t)}`);
    const L = this.window;
    while (Number.isFinite(L) && this.roundStart + L <= t) {
      const b = this.roundStart + L;
      this.add(b - this.last);
      this.usage.fill(0);
      this.last = b;
      this.roundStart = b;
      this.resets++;
    }
    this.add(t - this.last);
    this.last = t;
  }

  /** From now on queue i accrues `rate` (its dominant share) per unit time. */
  setRate(i: number, rate: number): void {
    this.rate[i] = rate;
  }

  get time(): number {
    return this.last;
  }

  private add(dt: number): void {
    if (dt <= 0) return;
    for (let i = 0; i < this.usage.length; i++) this.usage[i] += this.rate[i] * dt;
  }

  /** What to export (Policy.exportState): round, time and per-queue integral and rate. */
  get lastTime(): number {
    return this.last;
  }

  rateOf(i: number): number {
    return this.rate[i];
  }

  /** Takes over an exported ledger (values checked by the caller). */
  restore(roundStart: number, resets: number, last: number, usage: ArrayLike<number>, rate: ArrayLike<number>): void {
    this.roundStart = roundStart;
    this.resets = resets;
    this.last = last;
    this.usage.set(usage);
    this.rate.set(rate);
  }
}
