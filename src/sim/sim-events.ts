// The queue-level model's events on the core's queue (all at priority 0: one instant's events
// run in the order they were scheduled).
import type { Keyed } from "../des/event-queue.js";
import type { JobRt, QueueRt, TaskRt } from "./runtime.js";

export type SimEv = Keyed & (
  | { kind: "arrival"; job: JobRt }
  | { kind: "taskEnd"; task: TaskRt }
  | { kind: "burstEnd"; queue: QueueRt; burst: number }
  /** A periodic policy consultation (updateInterval). */
  | { kind: "tick" }
  /** A scheduling point the policy asked for (wakeAt). */
  | { kind: "wake" }
);
