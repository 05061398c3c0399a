// The runaway guard of periodic events (policy ticks, heartbeats): each repetition must move
// time forward (t + interval > t, false far out in time for a tiny interval) and their number
// is bounded, so a bad interval is an error naming it instead of a loop that never ends.
// Example: new RunawayGuard(2 ** 24, (t) => new InputError("updateInterval", ...)); at each
// tick, `const next = guard.next(t, interval)` gives t + interval or throws.

export class RunawayGuard {
  private count = 0;

  /** `fail(time)` builds the error thrown when a repetition at `time` runs away. */
  constructor(private readonly limit: number, private readonly fail: (time: number) => Error) {}

  /** Repetitions so far. */
  get repetitions(): number {
    return this.count;
  }

  /** The time of the next repetition after `time`; throws when it would not advance or exceed the limit. */
  next(time: number, interval: number): number {
    const next = time + interval;
    if (!(next > time) || ++this.count > this.limit) throw this.fail(time);
    return next;
  }
}
