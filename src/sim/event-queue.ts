// Kept for src/phoenix/event-queue.ts until the node-level model moves onto src/des/: the
// (time, sequence) queue it used, now the core's EventQueue with every priority 0.
import { EventQueue as CoreQueue, type Keyed, type Unkeyed } from "../des/event-queue.js";

export interface Timed {
  time: number;
  seq: number;
}

/** Omit distributed over a union, so each event kind keeps its own fields. */
export type Unsequenced<E> = E extends unknown ? Omit<E, "seq"> : never;

export class EventQueue<E extends Timed> {
  private readonly q = new CoreQueue<E & Keyed>();

  get size(): number {
    return this.q.size;
  }

  get now(): number {
    return this.q.now;
  }

  push(e: Unsequenced<E>): void {
    this.q.push(e.time, e as unknown as Unkeyed<E & Keyed>);
  }

  peekTime(): number {
    return this.q.peekTime();
  }

  pop(): E | undefined {
    return this.q.pop();
  }
}
