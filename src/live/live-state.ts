// The live scheduler's state as the policies and the dispatch see it (ClusterState / QueueState,
// src/policy/policy.ts): queues with FIFO arrays of waiting tasks and swap-remove arrays of running
// ones, and queue-major flat arrays of demand, pending work and usage (each queue's vectors are
// views into them, as in the simulator's ClusterRt) so a policy reads `demands` / `usages`
// without a copy. Hot paths allocate nothing: a start moves a task between two arrays.
import type { QueueSpec } from "../policy/model.js";
import type { ClusterState, QueueState } from "../policy/policy.js";

/** One submitted task. `job` groups tasks for the policies that track jobs (LTRF quanta, events). */
export class LiveTask {
  running = false;
  /** Position in its queue's running array while running. */
  slot = -1;
  started = NaN;
  constructor(
    readonly id: string,
    readonly queue: LiveQueue,
    readonly demand: Float64Array,
    readonly submitted: number,
    /** Arrival time of its job (the first task of the job still active), = submitted without a job. */
    readonly arrival: number,
    readonly job: string,
    /** LQ burst index the task belongs to, -1 for none. */
    readonly burst: number,
    /** The host's duration estimate (seconds), NaN when not given. */
    readonly estimate: number,
  ) {}
}

export type OpenBurst = { index: number; start: number; deadline: number; submittedTasks: number; finishedTasks: number };

export class LiveQueue implements QueueState {
  index: number;
  spec: QueueSpec;
  demand!: Float64Array;
  pending!: Float64Array;
  usage!: Float64Array;
  /** Waiting tasks, FIFO from `head`. */
  waiting: LiveTask[] = [];
  head = 0;
  running: LiveTask[] = [];
  /** Dominant share x seconds held up to `since`. */
  accumulated = 0;
  since: number;
  openBurst: OpenBurst | null = null;
  rejected = false;
  /** Set when its next task would take it above its max share (then it shows no runnable task). */
  capped = false;
  /** Its max share (1 = none), from spec.params. */
  maxShare = 1;
  /** Per job id: its tasks not ended, and its arrival (kept only when the scheduler tracks jobs). */
  private jobMap: Map<string, { left: number; arrival: number }> | null = null;
  /** Created on first use: most hosts of memoryless policies never group tasks into jobs. */
  get jobs(): Map<string, { left: number; arrival: number }> { return (this.jobMap ??= new Map()); }
  get hasJobs(): boolean { return this.jobMap !== null && this.jobMap.size > 0; }
  /** The demand vector of the last submitted task: an equal one shares it (no allocation). */
  lastDemand: Float64Array | null = null;

  constructor(index: number, spec: QueueSpec, now: number) {
    this.index = index;
    this.spec = spec;
    this.since = now;
  }
  get waitingCount(): number { return this.waiting.length - this.head; }
  get runnableTasks(): number { return this.capped ? 0 : this.waiting.length - this.head; }
  get runningTasks(): number { return this.running.length; }
  get activeJobs(): number { return this.waiting.length - this.head + this.running.length; }
  get nextTask(): Float64Array | null { return !this.capped && this.head < this.waiting.length ? this.waiting[this.head].demand : null; }
  get nextArrival(): number { return !this.capped && this.head < this.waiting.length ? this.waiting[this.head].arrival : Infinity; }
  /** The waiting head, whether or not capped. */
  get headTask(): LiveTask | null { return this.head < this.waiting.length ? this.waiting[this.head] : null; }

  /** Takes the head task off the waiting FIFO (compacting now and then, amortised O(1)). */
  shift(): LiveTask {
    const t = this.waiting[this.head];
    this.head++;
    if (this.head === this.waiting.length) { this.waiting.length = 0; this.head = 0; }
    else if (this.head > 64 && this.head * 2 > this.waiting.length) { this.waiting = this.waiting.slice(this.head); this.head = 0; }
    return t;
  }

  addRunning(t: LiveTask): void {
    t.slot = this.running.length;
    this.running.push(t);
  }

  removeRunning(t: LiveTask): void {
    const last = this.running.pop()!;
    if (last !== t) { this.running[t.slot] = last; last.slot = t.slot; }
    t.slot = -1;
  }
}

export class LiveState implements ClusterState {
  time = 0;
  readonly used: Float64Array;
  queues: LiveQueue[] = [];
  /** The rows behind the queues' vectors (queue i at i*K; room for more queues): the hot paths index them directly. */
  demandRows: Float64Array<ArrayBuffer> = new Float64Array(0);
  pendingRows: Float64Array<ArrayBuffer> = new Float64Array(0);
  usageRows: Float64Array<ArrayBuffer> = new Float64Array(0);
  private readonly k: number;

  constructor(readonly capacity: Float64Array, readonly resources: readonly string[]) {
    this.k = capacity.length;
    this.used = new Float64Array(this.k);
  }

  /** Queue-major N*K views of the live rows (the arrays have room for more queues). */
  get demands(): Float64Array { return this.demandRows.subarray(0, this.queues.length * this.k); }
  get pendings(): Float64Array { return this.pendingRows.subarray(0, this.queues.length * this.k); }
  get usages(): Float64Array { return this.usageRows.subarray(0, this.queues.length * this.k); }

  /** Appends a queue (its vectors zero), growing the flat arrays by doubling. */
  push(q: LiveQueue): void {
    const k = this.k;
    const n = this.queues.length;
    if ((n + 1) * k > this.demandRows.length) {
      const size = Math.max(16, 2 * (n + 1)) * k;
      this.demandRows = grow(this.demandRows, size);
      this.pendingRows = grow(this.pendingRows, size);
      this.usageRows = grow(this.usageRows, size);
      for (const x of this.queues) this.view(x);
    }
    q.index = n;
    this.queues.push(q);
    this.view(q);
  }

  /** Removes queue i; later queues move down one index (O(N K)). */
  remove(i: number): void {
    const k = this.k;
    const n = this.queues.length;
    for (const a of [this.demandRows, this.pendingRows, this.usageRows]) { a.copyWithin(i * k, (i + 1) * k, n * k); a.fill(0, (n - 1) * k, n * k); }
    this.queues.splice(i, 1);
    for (let j = i; j < this.queues.length; j++) { this.queues[j].index = j; this.view(this.queues[j]); }
  }

  private view(q: LiveQueue): void {
    const k = this.k, o = q.index * k;
    q.demand = this.demandRows.subarray(o, o + k);
    q.pending = this.pendingRows.subarray(o, o + k);
    q.usage = this.usageRows.subarray(o, o + k);
  }
}

function grow(a: Float64Array, size: number): Float64Array<ArrayBuffer> {
  const b = new Float64Array(size);
  b.set(a);
  return b;
}
