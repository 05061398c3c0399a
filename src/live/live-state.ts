// The live scheduler's state as the policies and the dispatch see it (ClusterState / QueueState,
// src/policy/policy.ts): queue-major flat arrays of demand, pending work and usage (each queue's
// vectors are views into them, as in the simulator's ClusterRt) so a policy reads `demands` /
// `usages` without a copy, and every task in one slot of flat per-slot arrays (TaskSlots), a
// queue's waiting tasks a FIFO linked through the slots. Hot paths allocate nothing: a submit
// takes a free slot, a start unlinks it from its queue's FIFO, a finish frees it
// (docs/performance.md, "Live scheduler").
import type { QueueSpec } from "../policy/model.js";
import type { ClusterState, QueueState } from "../policy/policy.js";

/** Slot states. */
export const FREE = 0;
export const WAITING = 1;
export const RUNNING = 2;

/**
 * Every submitted task, one slot each (a slot is a task's handle): per-slot arrays, grown by
 * doubling, and a free list. Free slots are linked through `next` / `prev` too, so a given slot
 * can be taken (a snapshot's handle task) in O(1).
 */
export class TaskSlots {
  /** Slots allocated (free or not). */
  size = 0;
  /** Slots holding a task. */
  count = 0;
  queue: Array<LiveQueue | undefined> = [];
  /** The task's demand vector: tasks of a queue with equal demands share one (never changed in place). */
  demand: Array<Float64Array | undefined> = [];
  /** The string API's id; undefined for a handle task. */
  id: Array<string | undefined> = [];
  /** The job named at submit; undefined when the task is its own job. */
  job: Array<string | undefined> = [];
  state = new Uint8Array(0);
  /** FIFO links (a queue's waiting tasks, or the free list); -1 at the ends. */
  next = new Int32Array(0);
  prev = new Int32Array(0);
  /** LQ burst index, -1 for none. */
  burst = new Int32Array(0);
  submitted = new Float64Array(0);
  /** Arrival time of its job (the first task of the job still active), = submitted without a job. */
  arrival = new Float64Array(0);
  started = new Float64Array(0);
  /** Start order among running tasks (snapshot order; a restore keeps it). */
  startSeq = new Float64Array(0);
  /** The host's duration estimate (seconds), NaN when not given. */
  estimate = new Float64Array(0);
  private freeHead = -1;

  /** The task's id: the string API's, else its handle as a string. */
  idOf(s: number): string {
    return this.id[s] ?? String(s);
  }

  /** Its job: the one named at submit, else the task itself. */
  jobOf(s: number): string {
    return this.job[s] ?? this.idOf(s);
  }

  /** Takes a free slot (the lowest-numbered first in a fresh store). */
  alloc(): number {
    if (this.freeHead < 0) this.grow(Math.max(16, 2 * this.size));
    const s = this.freeHead;
    this.unlinkFree(s);
    return s;
  }

  /** Takes slot `s`, which must be free (a restored handle task). */
  allocAt(s: number): void {
    while (s >= this.size) this.grow(Math.max(16, 2 * this.size, s + 1));
    if (this.state[s] !== FREE) throw new Error(`slot ${s} is taken`);
    this.unlinkFree(s);
  }

  /** Gives a slot back (its references dropped). */
  free(s: number): void {
    this.state[s] = FREE;
    this.queue[s] = undefined;
    this.demand[s] = undefined;
    this.id[s] = undefined;
    this.job[s] = undefined;
    this.pushFree(s);
    this.count--;
  }

  /** Puts slot s at the head of the free list. */
  private pushFree(s: number): void {
    this.prev[s] = -1;
    this.next[s] = this.freeHead;
    if (this.freeHead >= 0) this.prev[this.freeHead] = s;
    this.freeHead = s;
  }

  private unlinkFree(s: number): void {
    const p = this.prev[s], n = this.next[s];
    if (p >= 0) this.next[p] = n; else this.freeHead = n;
    if (n >= 0) this.prev[n] = p;
    this.next[s] = -1;
    this.prev[s] = -1;
    this.count++;
  }

  private grow(size: number): void {
    const old = this.size;
    this.state = grown(this.state, size);
    this.next = grown(this.next, size);
    this.prev = grown(this.prev, size);
    this.burst = grown(this.burst, size);
    this.submitted = grown(this.submitted, size);
    this.arrival = grown(this.arrival, size);
    this.started = grown(this.started, size);
    this.startSeq = grown(this.startSeq, size);
    this.estimate = grown(this.estimate, size);
    this.size = size;
    for (let s = size - 1; s >= old; s--) {
      this.queue.push(undefined);
      this.demand.push(undefined);
      this.id.push(undefined);
      this.job.push(undefined);
      this.pushFree(s);
    }
  }
}

function grown<T extends Uint8Array | Int32Array | Float64Array>(a: T, size: number): T {
  const b = new (a.constructor as new (n: number) => T)(size);
  b.set(a);
  return b;
}

export type OpenBurst = { index: number; start: number; deadline: number; submittedTasks: number; finishedTasks: number };

export class LiveQueue implements QueueState {
  index: number;
  spec: QueueSpec;
  demand!: Float64Array;
  pending!: Float64Array;
  usage!: Float64Array;
  /** Waiting tasks: a FIFO of slots from `head` to `tail` (-1 when empty). */
  head = -1;
  tail = -1;
  waitingCount = 0;
  runningCount = 0;
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

  constructor(index: number, spec: QueueSpec, now: number, private readonly slots: TaskSlots) {
    this.index = index;
    this.spec = spec;
    this.since = now;
  }
  get runnableTasks(): number { return this.capped ? 0 : this.waitingCount; }
  get runningTasks(): number { return this.runningCount; }
  get activeJobs(): number { return this.waitingCount + this.runningCount; }
  get nextTask(): Float64Array | null { return !this.capped && this.head >= 0 ? this.slots.demand[this.head]! : null; }
  get nextArrival(): number { return !this.capped && this.head >= 0 ? this.slots.arrival[this.head] : Infinity; }
  get nextJob(): string | null { return !this.capped && this.head >= 0 ? this.slots.jobOf(this.head) : null; }

  /** Appends slot s to the waiting FIFO. */
  push(s: number): void {
    const slots = this.slots;
    slots.prev[s] = this.tail;
    slots.next[s] = -1;
    if (this.tail >= 0) slots.next[this.tail] = s; else this.head = s;
    this.tail = s;
    this.waitingCount++;
  }

  /** Takes the head slot off the waiting FIFO. */
  shift(): number {
    const s = this.head;
    this.unlink(s);
    return s;
  }

  /** Takes waiting slot s out of the FIFO (O(1)). */
  unlink(s: number): void {
    const slots = this.slots;
    const p = slots.prev[s], n = slots.next[s];
    if (p >= 0) slots.next[p] = n; else this.head = n;
    if (n >= 0) slots.prev[n] = p; else this.tail = p;
    slots.next[s] = -1;
    slots.prev[s] = -1;
    this.waitingCount--;
  }

  /** The waiting slots in FIFO order. */
  waitingSlots(): number[] {
    const out: number[] = [];
    for (let s = this.head; s >= 0; s = this.slots.next[s]) out.push(s);
    return out;
  }
}

export class LiveState implements ClusterState {
  time = 0;
  readonly used: Float64Array;
  queues: LiveQueue[] = [];
  readonly slots = new TaskSlots();
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
      this.demandRows = grown(this.demandRows, size);
      this.pendingRows = grown(this.pendingRows, size);
      this.usageRows = grown(this.usageRows, size);
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
