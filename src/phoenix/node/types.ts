// Per-run records of the node-level model: a job in flight and a queue entry (a probe, or a long
// task bound by the central scheduler).
import type { Constraint } from "../constraints.js";
import type { PhoenixJob } from "../workload.js";

export interface Job {
  spec: PhoenixJob;
  /** Task count. */
  n: number;
  long: boolean;
  /** Next task to hand out (late binding); tasks [0, next) are bound. */
  next: number;
  done: number;
  /** End of the last task; NaN until then. */
  end: number;
  /** Constraint ids the job is placed with (after relaxation). */
  ids: number[];
  /** Constraints the job is placed with (after relaxation). */
  active: Constraint[];
  rejected?: string;
  /** Soft constraints relaxed. */
  relaxed: number;
}

export interface Entry {
  job: Job;
  /** Bound task for a long task placed centrally; -1 for a probe. */
  task: number;
  /** Times bypassed by reordering (engine.crvReorder). */
  slack: number;
  /** When the entry (re)joined this worker's queue: the E[W] history's arrival time. */
  enq: number;
  /** When the probe first reached this worker (a sticky probe keeps it; enq restarts). */
  arrived: number;
}

/** Worker states: idle, waiting for the answer to a task request, running a task. */
export const IDLE = 0, REQUESTING = 1, RUNNING = 2;
