// The event queue of the discrete-event core: events ordered by (time, priority, seq) on the
// one Heap. `priority` orders events of one instant (lower first; e.g. completions before
// arrivals before deadline checks), `seq` is the scheduling order, so ties keep insertion
// order and every run is deterministic. An event scheduled before the current time is a bug
// in whoever scheduled it and throws a SimulationError (time never goes backwards).
// Example: push(5, A), push(3, B), push(5, C, -1), push(5, D) pops B, C, A, D.
import { Heap } from "../collections/heap.js";
import { SimulationError } from "../errors.js";

/** The keys the queue writes on every event it holds. */
export interface Keyed {
  time: number;
  priority: number;
  seq: number;
}

/** An event before it is scheduled: its own fields, without the keys (distributed over a union). */
export type Unkeyed<E> = E extends unknown ? Omit<E, "time" | "priority" | "seq"> : never;

/** Strict (time, priority, seq) order. */
export function keyedBefore(a: Keyed, b: Keyed): boolean {
  return a.time < b.time || (a.time === b.time && (a.priority < b.priority || (a.priority === b.priority && a.seq < b.seq)));
}

export class EventQueue<E extends Keyed> {
  private readonly heap = new Heap<E>(keyedBefore);
  private nextSeq = 0;
  /** The time of the last event popped (0 before the first). */
  now = 0;

  get size(): number {
    return this.heap.size;
  }

  /**
   * Schedules `event` at absolute `time` (>= now) with `priority` (lower first at equal times);
   * writes the keys onto the event object and returns it.
   */
  push(time: number, event: Unkeyed<E>, priority = 0): E {
    if (!(time >= this.now)) {
      throw new SimulationError(`time went backwards: an event at t=${time} was scheduled at t=${this.now}`, { time: this.now });
    }
    const e = event as unknown as E;
    e.time = time;
    e.priority = priority;
    e.seq = this.nextSeq++;
    this.heap.push(e);
    return e;
  }

  /** The next event without removing it. */
  peek(): E | undefined {
    return this.heap.peek();
  }

  /** Time of the next event, Infinity when none. */
  peekTime(): number {
    const e = this.heap.peek();
    return e === undefined ? Infinity : e.time;
  }

  /** Removes the next event and moves `now` to its time. */
  pop(): E | undefined {
    const e = this.heap.pop();
    if (e === undefined) return undefined;
    if (e.time < this.now) throw new SimulationError(`time went backwards: popped t=${e.time} after t=${this.now}`, { time: this.now });
    this.now = e.time;
    return e;
  }
}
