// The run-time state of one job in the deadline model (src/justice/sim.ts): its status, tasks,
// CPUs and the piecewise-constant record of its usage.
import type { JobView } from "./allocator.js";
import { type DeadlineJob, type JobOutcome, taskDuration } from "./model.js";

/** Piecewise-constant usage of one job: from t[k] to t[k+1] it holds held[k] CPUs, busy[k] running tasks. */
export interface JobUsage {
  t: number[];
  held: number[];
  busy: number[];
}

export class JobState implements JobView {
  status: "waiting" | "queued" | "running" | "ended" = "waiting";
  pendingTasks: number;
  runningTasks = 0;
  cpus = 0;
  doneTasks = 0;
  start: number | null = null;
  maxHeld = 0;
  readonly usage: JobUsage = { t: [], held: [], busy: [] };
  readonly deadlineAt: number;
  readonly d: number;
  outcome: JobOutcome | null = null;
  // fluid shared mode: CPU·s left as of `since`, draining at `rate`; `version` invalidates old finish events
  remaining: number;
  since = 0;
  rate = 0;
  version = 0;
  constructor(readonly index: number, readonly spec: DeadlineJob) {
    this.pendingTasks = spec.requestedTasks;
    this.deadlineAt = spec.arrival + spec.deadline;
    this.d = taskDuration(spec);
    this.remaining = spec.compTime;
  }
  record(t: number, held: number, busy: number): void {
    const u = this.usage;
    const n = u.t.length;
    if (n > 0 && u.t[n - 1] === t) {
      u.held[n - 1] = held;
      u.busy[n - 1] = busy;
    } else {
      u.t.push(t); u.held.push(held); u.busy.push(busy);
    }
    if (held > this.maxHeld) this.maxHeld = held;
  }
  /** CPU·s of task execution up to time `t`. */
  busySecondsUntil(t: number): number {
    const u = this.usage;
    let s = 0;
    for (let k = 0; k < u.t.length; k++) {
      const a = u.t[k];
      const b = Math.min(k + 1 < u.t.length ? u.t[k + 1] : t, t);
      if (b > a) s += u.busy[k] * (b - a);
    }
    return s;
  }
}
