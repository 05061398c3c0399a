// The node-level model's events, on the shared (time, sequence) queue of src/sim: events at one
// instant run in the order they were scheduled, every run is deterministic, and an event
// scheduled in the past is caught. The API is that of the discrete-event core's Environment
// (now, pending, scheduleAt, run), so the model moves onto src/des by replacing this adapter.
// Example: scheduleAt(5, A), scheduleAt(3, B), scheduleAt(5, C) runs B, A, C.
import { EventQueue } from "../sim/event-queue.js";

/** An event: its type (node/events.ts) and two payloads whose meaning the type sets. */
export interface NodeEventBody {
  type: number;
  a: number;
  b: number;
}

export interface NodeEvent extends NodeEventBody {
  time: number;
  seq: number;
}

export class NodeEvents {
  private readonly q = new EventQueue<NodeEvent>();
  private t = -Infinity;

  /** Time of the event being handled (-Infinity before the first). */
  get now(): number {
    return this.t;
  }

  /** Events scheduled and not yet taken. */
  get pending(): number {
    return this.q.size;
  }

  /** Schedules an event at absolute `time` (>= now). */
  scheduleAt(time: number, event: NodeEventBody): void {
    (event as NodeEvent).time = time;
    this.q.push(event as NodeEvent);
  }

  /** Takes events in (time, sequence) order until none is left, passing each to `handle`. */
  run(handle: (event: NodeEvent) => void): void {
    for (;;) {
      const e = this.q.pop();
      if (!e) return;
      if (e.time < this.t) throw new Error(`phoenix simulator: time went backwards (${e.time} < ${this.t})`);
      this.t = e.time;
      handle(e);
    }
  }
}
