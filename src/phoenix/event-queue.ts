// The node-level simulator's event queue: a binary min-heap ordered by (time, sequence
// number), so events at the same instant run in the order they were scheduled and every run
// is deterministic. Example: push(5, A), push(3, B), push(5, C) pops B, A, C.

export interface SimEvent {
  time: number;
  seq: number;
  type: number;
  /** Payloads (job index, worker index, ...), meaning set by the event type. */
  a: number;
  b: number;
}

export class EventQueue {
  private readonly heap: SimEvent[] = [];
  private seq = 0;

  get size(): number {
    return this.heap.length;
  }

  push(time: number, type: number, a = 0, b = 0): void {
    const e: SimEvent = { time, seq: this.seq++, type, a, b };
    const h = this.heap;
    let i = h.length;
    h.push(e);
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!less(e, h[p])) break;
      h[i] = h[p];
      i = p;
    }
    h[i] = e;
  }

  pop(): SimEvent | undefined {
    const h = this.heap;
    if (h.length === 0) return undefined;
    const top = h[0];
    const last = h.pop()!;
    if (h.length > 0) {
      let i = 0;
      for (;;) {
        let c = 2 * i + 1;
        if (c >= h.length) break;
        if (c + 1 < h.length && less(h[c + 1], h[c])) c++;
        if (!less(h[c], last)) break;
        h[i] = h[c];
        i = c;
      }
      h[i] = last;
    }
    return top;
  }
}

function less(a: SimEvent, b: SimEvent): boolean {
  return a.time < b.time || (a.time === b.time && a.seq < b.seq);
}
