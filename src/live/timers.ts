// The live scheduler's timers: burst ends and the wake-ups a policy asked for, kept sorted by
// time (few: one per open burst plus a policy's pending wake-ups).
import type { LiveQueue } from "./live-state.js";

export interface Timer {
  time: number;
  /** null: a wake-up the policy asked for; else a burst's end. */
  queue: LiveQueue | null;
  burst: number;
}

export class TimerList {
  private list: Timer[] = [];

  get length(): number { return this.list.length; }

  /** The earliest timer's time, or null. */
  next(): number | null {
    return this.list.length ? this.list[0].time : null;
  }

  /** Inserts t after every timer at or before its time (ties fire in insertion order). */
  add(t: Timer): void {
    const list = this.list;
    let lo = 0, hi = list.length;
    while (lo < hi) { const mid = (lo + hi) >> 1; if (list[mid].time <= t.time) lo = mid + 1; else hi = mid; }
    list.splice(lo, 0, t);
  }

  /** A timer fires now: one due before `time`, or at it when this is a scheduling point. */
  due(time: number, point: boolean): boolean {
    return this.list.length > 0 && (this.list[0].time < time || (point && this.list[0].time === time));
  }

  /** Takes the earliest timer off the list. */
  shift(): Timer {
    return this.list.shift()!;
  }

  /** Keeps the timers `keep` accepts. */
  filter(keep: (t: Timer) => boolean): void {
    this.list = this.list.filter(keep);
  }

  /** Every timer, in firing order (read only). */
  all(): readonly Timer[] {
    return this.list;
  }
}
