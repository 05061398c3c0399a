// A long-lived pool of sweep worker threads (worker.ts: one engine per thread) that runs one cell
// per call, for the queue worker, where cells arrive one by one from Redis. A thread that dies is
// replaced and its cell's promise rejected (the queue then retries that cell).
import type { Worker } from "node:worker_threads";
import { InputError } from "../errors.js";
import type { SweepCell } from "./grid.js";
import { startWorker } from "./run.js";
import type { WorkerInit, WorkerReply } from "./worker.js";

/** A cell's own failure (the scenario threw): deterministic, so retrying it cannot help. */
export class CellError extends Error {
  constructor(message: string, readonly field?: string) {
    super(message);
    this.name = "CellError";
  }
}

interface Slot {
  worker: Worker;
  ready: boolean;
  busy?: { cell: SweepCell; resolve: (json: string) => void; reject: (e: Error) => void };
}

export class CellPool {
  private readonly slots: Slot[] = [];
  private readonly waiting: Array<() => void> = [];
  private closed = false;

  constructor(private readonly init: WorkerInit, readonly size: number) {
    if (!Number.isInteger(size) || size < 1) throw new InputError("workers", `must be an integer >= 1, got ${size}`);
    for (let i = 0; i < size; i++) this.slots.push(this.spawn());
  }

  private spawn(): Slot {
    const slot: Slot = { worker: startWorker(this.init), ready: false };
    slot.worker.on("message", (msg: WorkerReply | { ready: true }) => {
      if ("ready" in msg) {
        slot.ready = true;
        return this.wake();
      }
      const busy = slot.busy;
      if (!busy) return;
      slot.busy = undefined;
      if ("error" in msg) busy.reject(new CellError(msg.error.message, msg.error.field));
      else busy.resolve(msg.json);
      this.wake();
    });
    slot.worker.on("error", () => {}); // reported through "exit"
    slot.worker.on("exit", (code) => {
      const busy = slot.busy;
      slot.busy = undefined;
      const i = this.slots.indexOf(slot);
      if (this.closed || i < 0) return;
      busy?.reject(new Error(`sweep worker thread exited with code ${code} during cell ${busy.cell.index}`));
      this.slots[i] = this.spawn();
    });
    return slot;
  }

  private wake(): void {
    this.waiting.shift()?.();
  }

  /** Runs one cell on a free thread (waiting for one); resolves with the report's JSON. */
  async run(cell: SweepCell): Promise<string> {
    for (;;) {
      if (this.closed) throw new Error("cell pool closed");
      const slot = this.slots.find((s) => s.ready && !s.busy);
      if (slot) {
        return new Promise<string>((resolve, reject) => {
          slot.busy = { cell, resolve, reject };
          slot.worker.postMessage(cell);
        });
      }
      await new Promise<void>((r) => this.waiting.push(r));
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    this.waiting.splice(0).forEach((r) => r());
    await Promise.all(this.slots.map((s) => s.worker.terminate()));
  }
}
