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
// Cost: advancing touches only the queues with a rate > 0 (the others would add exactly 0), and a
// reset only those whose usage this round may be > 0: O(queues holding resources), not O(N).
import { InputError, describeValue } from "../errors.js";

export class UsageLedger {
  /** Per queue (a view of the first N entries of a buffer that grows by doubling: append). */
  usage: Float64Array;
  readonly window: number;
  /** Start of the current round. */
  roundStart = 0;
  /** Rounds completed so far. */
  resets = 0;
  private last = 0;
  private rate: Float64Array;
  /** Queues with a rate > 0, and each one's place there (-1: none). */
  private readonly accruing: number[] = [];
  private accruingAt: Int32Array;
  /** Queues whose usage may be > 0 in this round (a superset of accruing), flagged in `held`. */
  private heldList: number[] = [];
  private held: Uint8Array;

  constructor(n: number, window = Infinity) {
    if (!(window > 0) || Number.isNaN(window)) throw new InputError("window", `must be a number > 0 or Infinity (got ${describeValue(window)})`);
    this.usage = new Float64Array(n);
    this.rate = new Float64Array(n);
    this.accruingAt = new Int32Array(n).fill(-1);
    this.held = new Uint8Array(n);
    this.window = window;
  }

  /** Integrates the current rates up to time t, resetting at every round boundary on the way. */
  advance(t: number): void {
    if (!(t >= this.last)) throw new InputError("time", `moved backwards from ${this.last} to ${describeValue(t)}`);
    const L = this.window;
    while (Number.isFinite(L) && this.roundStart + L <= t) {
      const b = this.roundStart + L;
      this.add(b - this.last);
      this.clearRound();
      this.last = b;
      this.roundStart = b;
      this.resets++;
    }
    this.add(t - this.last);
    this.last = t;
  }

  /** One more queue, last, with no usage: amortised O(1). */
  append(): void {
    const n = this.usage.length;
    if (n === this.rate.length) {
      const size = Math.max(16, 2 * n);
      const grow = <T extends Float64Array | Int32Array | Uint8Array>(a: T, fill = 0): T => { const b = new (a.constructor as new (k: number) => T)(size); b.fill(fill); b.set(a); return b; };
      const usage = new Float64Array(size);
      usage.set(this.usage);
      this.rate = grow(this.rate);
      this.accruingAt = grow(this.accruingAt, -1);
      this.held = grow(this.held);
      this.usage = usage.subarray(0, n + 1);
    } else {
      this.usage = new Float64Array(this.usage.buffer, 0, n + 1);
    }
  }

  /** From now on queue i accrues `rate` (its dominant share) per unit time. */
  setRate(i: number, rate: number): void {
    this.rate[i] = rate;
    const at = this.accruingAt[i];
    if (rate > 0 && at < 0) {
      this.accruingAt[i] = this.accruing.length;
      this.accruing.push(i);
      this.hold(i);
    } else if (!(rate > 0) && at >= 0) {
      const last = this.accruing.pop()!;
      if (last !== i) { this.accruing[at] = last; this.accruingAt[last] = at; }
      this.accruingAt[i] = -1;
    }
  }

  private hold(i: number): void {
    if (this.held[i] === 0) { this.held[i] = 1; this.heldList.push(i); }
  }

  /** A new round: every usage 0 (only those that may be > 0 are written). */
  private clearRound(): void {
    for (const i of this.heldList) { this.usage[i] = 0; this.held[i] = 0; }
    this.heldList = [];
    for (const i of this.accruing) this.hold(i);
  }

  get time(): number {
    return this.last;
  }

  private add(dt: number): void {
    if (dt <= 0) return;
    const { usage, rate } = this;
    for (const i of this.accruing) usage[i] += rate[i] * dt;
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
    for (let i = 0; i < usage.length; i++) {
      this.setRate(i, rate[i]);
      if (usage[i] !== 0) this.hold(i);
    }
  }
}
