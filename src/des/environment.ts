// The discrete-event environment, in the style of SimPy's small Environment: a clock (`now`),
// one event queue ordered by (time, priority, seq), `schedule` / `scheduleAt`, `step` and
// `run`, plus the instant loop every model here uses ("apply every event at one instant,
// then decide once"). A model is a set of handlers over its own event type; the environment
// knows nothing about queues, jobs, nodes or policies.
//
// Usage (a model = an event union + handlers):
//
//   type Ev = Keyed & ({ kind: "arrival"; job: number } | { kind: "end"; job: number });
//   const env = new Environment<Ev>();
//   env.scheduleAt(0, { kind: "arrival", job: 0 });           // absolute time
//   env.runInstants({
//     until: horizon,                                          // events at t <= until run
//     advance: (t) => busy.advance(t),                         // before the instant's first event
//     apply: (e) => { ... env.schedule({ kind: "end", job: e.job }, 0, duration); },
//     decide: (t) => { ... },                                  // once per instant
//   });
//
// `apply` returns false when an event needs no decision (e.g. a stale completion); an
// instant whose events all return false gets no `decide`. Events that handlers schedule at
// the current instant join it (they run before `decide`). Priorities order one instant's
// events (lower first), e.g. completions (0) before arrivals (1) before deadline checks (2).
// Periodic events (policy ticks, heartbeats) guard against running away with RunawayGuard;
// busy-time and usage integrals use TimeIntegral, time-bucketed averages BucketAverages.
// A node-level model (many workers, probes, steals) is the same: one event union, handlers
// for each kind, `decide` empty or absent when every handler acts immediately (use `run`).
// See docs/notes/des.md.
import { EventQueue, type Keyed, type Unkeyed } from "./event-queue.js";

/** The instant loop's handlers (see the file header). */
export interface InstantLoop<E> {
  /** Run events at times <= until (default Infinity). */
  until?: number;
  /** Called with an instant's time before its first event is applied (integrate up to it). */
  advance?(time: number): void;
  /** Applies one event; returns false when it needs no decision. */
  apply(event: E): boolean | void;
  /** The scheduling point after every event of one instant is applied. */
  decide?(time: number): void;
}

export class Environment<E extends Keyed> {
  private readonly queue = new EventQueue<E>();

  /** The current time: the time of the last event taken (0 before the first). */
  get now(): number {
    return this.queue.now;
  }

  /** Events scheduled and not yet taken. */
  get pending(): number {
    return this.queue.size;
  }

  /** Schedules `event` `delay` seconds from now (delay >= 0), `priority` lower first at equal times. */
  schedule(event: Unkeyed<E>, priority = 0, delay = 0): E {
    return this.queue.push(this.queue.now + delay, event, priority);
  }

  /** Schedules `event` at absolute `time` (>= now; earlier is a SimulationError). */
  scheduleAt(time: number, event: Unkeyed<E>, priority = 0): E {
    return this.queue.push(time, event, priority);
  }

  /** Time of the next event, Infinity when none. */
  peekTime(): number {
    return this.queue.peekTime();
  }

  /** Takes the next event (advancing `now` to its time), or undefined when none is left. */
  step(): E | undefined {
    return this.queue.pop();
  }

  /** Takes events one by one while the next is at or before `until`, passing each to `handle`. */
  run(handle: (event: E) => void, until = Infinity): void {
    while (this.queue.size > 0 && this.queue.peekTime() <= until) handle(this.queue.pop() as E);
  }

  /**
   * The instant loop: while an event is left at or before `until`, advance to its time, apply
   * every event of that instant, then decide once (unless every event said it needs none).
   * Returns true when it stopped at `until` with events left, false when the queue ran dry.
   */
  runInstants(loop: InstantLoop<E>): boolean {
    const until = loop.until ?? Infinity;
    const q = this.queue;
    while (q.size > 0) {
      const t = q.peekTime();
      if (t > until) return true;
      loop.advance?.(t);
      let decide = false;
      while (q.size > 0 && q.peekTime() === t) {
        if (loop.apply(q.pop() as E) !== false) decide = true;
      }
      if (decide) loop.decide?.(t);
    }
    return false;
  }
}
