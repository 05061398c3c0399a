// Mutable run-time state of queues, jobs, stages and tasks. The simulator owns it; the
// policy sees it through the read-only ClusterState / QueueState views.
import type { JobOutcome, JobSpec, QueueSpec, StageSpec } from "../policy/model.js";
import type { ClusterState, QueueState } from "../policy/policy.js";
import { ClusterRows, type QueueRows } from "../policy/cluster-rows.js";
import { fits } from "../dispatch/fit.js";

export interface StageRt {
  spec: StageSpec;
  demand: Float64Array;
  /** Next never-started task index. */
  next: number;
  /** Tasks preempted and waiting to re-run (indices). */
  retry: number[];
  running: number;
  finished: number;
  waitingParents: number;
  runnable: boolean;
  children: number[];
}

export interface TaskRt {
  job: JobRt;
  stage: StageRt;
  index: number;
  start: number;
  alive: boolean;
}

export interface JobRt {
  spec: JobSpec;
  queue: QueueRt;
  stages: StageRt[];
  /** Started-or-not tasks still to launch in runnable stages. */
  pendingTasks: number;
  tasksLeft: number;
  running: Set<TaskRt>;
  outcome: JobOutcome | null;
}

export class QueueRt implements QueueState {
  readonly index: number;
  readonly spec: QueueSpec;
  readonly demand: Float64Array;
  readonly pending: Float64Array;
  readonly usage: Float64Array;
  /** Active jobs in arrival order; `head` skips ended ones. */
  jobs: JobRt[] = [];
  head = 0;
  runnableTasks = 0;
  runningTasks = 0;
  activeJobs = 0;
  openBurst: QueueState["openBurst"] = null;
  rejected = false;
  /** Running tasks, newest last (preemption victims come from the end). */
  runningList: TaskRt[] = [];
  useDom = 0;

  constructor(index: number, spec: QueueSpec, rows: QueueRows) {
    this.index = index;
    this.spec = spec;
    this.demand = rows.demand;
    this.pending = rows.pending;
    this.usage = rows.usage;
  }

  /** Cached nextStage(); undefined = stale. Every change to pending work goes through ClusterRt.addPending, which clears it. */
  cachedNext: { job: JobRt; stage: StageRt } | null | undefined = undefined;

  /** The job and stage whose task would start next (FIFO over jobs, stage order within a job). */
  nextStage(): { job: JobRt; stage: StageRt } | null {
    if (this.cachedNext !== undefined) return this.cachedNext;
    this.cachedNext = null;
    for (let j = this.head; j < this.jobs.length; j++) {
      const job = this.jobs[j];
      if (job.outcome !== null || job.pendingTasks === 0) continue;
      for (const stage of job.stages) {
        if (stage.runnable && (stage.retry.length > 0 || stage.next < stage.spec.tasks)) {
          this.cachedNext = { job, stage };
          return this.cachedNext;
        }
      }
    }
    return null;
  }

  get nextArrival(): number {
    return this.nextStage()?.job.spec.arrival ?? Infinity;
  }

  get nextJob(): string | null {
    return this.nextStage()?.job.spec.id ?? null;
  }

  get nextTask(): Float64Array | null {
    return this.nextStage()?.stage.demand ?? null;
  }

  /** Drops ended jobs from the front so FIFO scans stay short. */
  compact(): void {
    while (this.head < this.jobs.length && this.jobs[this.head].outcome !== null) this.head++;
    if (this.head > 64 && this.head * 2 > this.jobs.length) {
      this.jobs = this.jobs.slice(this.head);
      this.head = 0;
    }
  }
}

export class ClusterRt extends ClusterRows implements ClusterState {
  time = 0;
  readonly resources: readonly string[];
  readonly queues: QueueRt[];
  /** Called after every change of a queue's usage or pending work (the dispatcher keeps its heap current). */
  onChange: ((q: QueueRt) => void) | null = null;

  constructor(capacity: number[], resources: string[], specs: QueueSpec[]) {
    super(capacity, specs.length);
    this.resources = resources;
    this.queues = specs.map((s, i) => new QueueRt(i, s, this.rowsOf(i)));
  }

  /** Adds `count` tasks of `demand` to a queue's pending demand (negative count removes). */
  addPending(q: QueueRt, demand: Float64Array, count: number): void {
    q.cachedNext = undefined;
    q.runnableTasks += count;
    for (let r = 0; r < this.k; r++) {
      // exact zero when nothing is pending, so rounding never leaves phantom demand
      const p = q.runnableTasks === 0 ? 0 : Math.max(0, q.pending[r] + demand[r] * count);
      q.pending[r] = p;
      q.demand[r] = q.usage[r] + p;
    }
    this.onChange?.(q);
  }

  /** Moves one task's demand between pending and usage (+1 = start, -1 = end or kill). */
  addUsage(q: QueueRt, demand: Float64Array, sign: 1 | -1): void {
    q.runningTasks += sign;
    let dom = 0;
    for (let r = 0; r < this.k; r++) {
      const u = q.runningTasks === 0 ? 0 : Math.max(0, q.usage[r] + sign * demand[r]);
      q.usage[r] = u;
      q.demand[r] = u + q.pending[r];
      this.used[r] = Math.max(0, this.used[r] + sign * demand[r]);
      const s = u / this.capacity[r];
      if (s > dom) dom = s;
    }
    q.useDom = dom;
    this.onChange?.(q);
  }

  fits(demand: Float64Array): boolean {
    return fits(this, demand);
  }
}
