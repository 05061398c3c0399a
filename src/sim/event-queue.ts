// A binary min-heap of events ordered by (time, sequence number): ties keep insertion
// order, so a run is deterministic. Pushing an event earlier than the current time is a
// bug in whoever pushed it and throws (time never goes backwards).
import { SimulationError } from "./errors.js";

export interface Timed {
  time: number;
  seq: number;
}

/** Omit distributed over a union, so each event kind keeps its own fields. */
export type Unsequenced<E> = E extends unknown ? Omit<E, "seq"> : never;

export class EventQueue<E extends Timed> {
  private heap: E[] = [];
  private nextSeq = 0;
  now = 0;

  get size(): number {
    return this.heap.length;
  }

  push(e: Unsequenced<E>): void {
    if (!(e.time >= this.now)) {
      throw new SimulationError(`time went backwards: an event at t=${e.time} was scheduled at t=${this.now}`, { time: this.now });
    }
    const ev = e as unknown as E;
    ev.seq = this.nextSeq++;
    const h = this.heap;
    h.push(ev);
    let i = h.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!before(ev, h[p])) break;
      h[i] = h[p];
      i = p;
    }
    h[i] = ev;
  }

  peekTime(): number {
    return this.heap.length ? this.heap[0].time : Infinity;
  }

  pop(): E | undefined {
    const h = this.heap;
    if (h.length === 0) return undefined;
    const top = h[0];
    const last = h.pop()!;
    if (h.length > 0) {
      let i = 0;
      const n = h.length;
      for (;;) {
        const l = 2 * i + 1;
        if (l >= n) break;
        const r = l + 1;
        const c = r < n && before(h[r], h[l]) ? r : l;
        if (!before(h[c], last)) break;
        h[i] = h[c];
        i = c;
      }
      h[i] = last;
    }
    if (top.time < this.now) throw new SimulationError(`time went backwards: popped t=${top.time} after t=${this.now}`, { time: this.now });
    this.now = top.time;
    return top;
  }
}

function before(a: Timed, b: Timed): boolean {
  return a.time < b.time || (a.time === b.time && a.seq < b.seq);
}
