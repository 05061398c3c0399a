// The node-level simulator's events on the shared (time, sequence) heap of src/sim, so
// events at the same instant run in the order they were scheduled, every run is
// deterministic, and an event scheduled in the past is caught. Example: push(5, A),
// push(3, B), push(5, C) pops B, A, C.
import { EventQueue as TimedQueue } from "../sim/event-queue.js";

export interface SimEvent {
  time: number;
  seq: number;
  type: number;
  /** Payloads (job index, worker index, ...), meaning set by the event type. */
  a: number;
  b: number;
}

export class EventQueue {
  private readonly q = new TimedQueue<SimEvent>();

  get size(): number {
    return this.q.size;
  }

  push(time: number, type: number, a = 0, b = 0): void {
    this.q.push({ time, type, a, b });
  }

  pop(): SimEvent | undefined {
    return this.q.pop();
  }
}
