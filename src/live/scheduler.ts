// The live scheduler (docs/live-scheduler.md): the policy objects of src/policies/ and the shared
// dispatch (src/dispatch/dispatcher.ts) driven by a host's calls instead of a simulated clock —
// queues come and go, tasks are submitted, started by schedule() and finished. The policy gets
// the simulator's events (arrival, taskEnd, jobEnd, burstStart, burstEnd) as the calls happen,
// with the time from the injected clock, so it decides as it does in the simulator.
// This file is the public API: each call checks its arguments and hands over to the state and its
// changes (core.ts), the scheduling point (point.ts), the explanations (explain.ts) or the
// snapshots (persist.ts). Bad input is an InputError naming the field, raised before anything changes.
import { InputError, describeValue } from "../errors.js";
import type { Admission, PolicyFactory } from "../policy/policy.js";
import { getPolicy, policyNames } from "../sim/registry.js";
import { LiveCore } from "./core.js";
import { explainQueue, queueShares, type QueueExplanation, type QueueShare } from "./explain.js";
import { IDS, HANDLES, type TaskInput } from "./ledger.js";
import { checkOptions, type SchedulerOptions } from "./options.js";
import { loadInto, snapshotOf } from "./persist.js";
import { PointRunner } from "./point.js";
import { checkSnapshot, type SchedulerSnapshot } from "./snapshot.js";
import { checkKeys, queueSpec, specOptions, QUEUE_KEYS, type QueueOptions } from "./validate.js";

export type { QueueOptions } from "./validate.js";
export type { SchedulerSnapshot } from "./snapshot.js";
export type { SchedulerOptions } from "./options.js";
export type { TaskInput } from "./ledger.js";
export type { QueueShare, QueueExplanation } from "./explain.js";
export { dominantShare } from "../policy/dominant-share.js";

/**
 * The policies the live scheduler runs, by name: a read-only view of the one policy registry
 * (src/sim/registry.ts) the simulator and the CLI read, so a policy added with registerPolicy is
 * here too. Kept for the package's existing users; getPolicy / policyNames answer the same.
 */
export const LIVE_POLICIES: Readonly<Record<string, PolicyFactory>> = new Proxy({} as Record<string, PolicyFactory>, {
  // the target stays empty (and extensible, as a proxy that reports keys it lacks must have it)
  set: () => false,
  defineProperty: () => false,
  deleteProperty: () => false,
  get: (_, name) => (typeof name === "string" ? getPolicy(name) : undefined),
  has: (_, name) => typeof name === "string" && getPolicy(name) !== undefined,
  ownKeys: () => policyNames(),
  getOwnPropertyDescriptor: (_, name) => {
    const f = typeof name === "string" ? getPolicy(name) : undefined;
    return f ? { value: f, enumerable: true, configurable: true, writable: false } : undefined;
  },
});

const TASK_KEYS = ["id", "demand", "estimate", "job", "burst"];
const HANDLE_KEYS = ["estimate", "job", "burst"];

export interface Started {
  id: string;
  queue: string;
}

/** submitHandle's optional fields (TaskInput's, without the id). */
export interface HandleTaskOptions {
  estimate?: number;
  job?: string;
  burst?: number;
}

export class Scheduler {
  readonly policyName: string;
  private readonly core: LiveCore;
  private readonly points: PointRunner;

  constructor(options: SchedulerOptions) {
    const o = checkOptions(options, getPolicy, policyNames);
    this.policyName = o.policy;
    this.core = new LiveCore(o);
    this.points = new PointRunner(this.core);
  }

  /** Adds a queue; returns its admission (BoPF: hard, soft, elastic or rejected, with the reason). */
  addQueue(name: string, options?: QueueOptions): Admission {
    if (typeof name !== "string" || name === "") throw new InputError("name", `expected a non-empty queue name, got ${describeValue(name)}`);
    if (this.core.byName.has(name)) throw new InputError("name", `queue '${name}' exists already`);
    return this.core.addQueue(name, queueSpec(name, options, "options", this.core.k));
  }

  /** Changes a queue's options (merged into its current ones); returns its admission after the change. */
  updateQueue(name: string, options: QueueOptions): Admission {
    const q = this.core.queue(name, "name");
    if (options === null || typeof options !== "object" || Array.isArray(options)) throw new InputError("options", `expected an object, got ${describeValue(options)}`);
    checkKeys("options", options, QUEUE_KEYS);
    const spec = queueSpec(name, { ...specOptions(q.spec), ...options }, "options", this.core.k);
    if (spec.kind !== "LQ" && q.openBurst) throw new InputError("options.kind", `queue '${name}' has an open burst: it stays an LQ until the burst ends`);
    return this.core.updateQueue(q, spec);
  }

  /** Removes a queue without running tasks; returns its waiting tasks (ids and demands). */
  removeQueue(name: string): TaskInput[] {
    const q = this.core.queue(name, "name");
    if (q.runningCount > 0) throw new InputError("name", `queue '${name}' has ${q.runningCount} running tasks: finish or cancel them first`);
    return this.core.removeQueue(q);
  }

  submit(queue: string, task: TaskInput): void {
    const q = this.core.queue(queue);
    if (task === null || typeof task !== "object") throw new InputError("task", `expected {id, demand}, got ${describeValue(task)}`);
    checkKeys("task", task, TASK_KEYS);
    const id = task.id;
    if (typeof id !== "string" || id === "") throw new InputError("task.id", `expected a non-empty string, got ${describeValue(id)}`);
    this.core.ledger.useApi(IDS, "task.id");
    this.core.enqueue(q, queue, task.demand, task.estimate, task.job, task.burst, "task.demand", "task.", id);
  }

  /**
   * The handle API's submit (docs/live-scheduler.md, "Handles"): the same checks and decisions as
   * submit(), with no id string; returns the task's handle, a small integer that names it until it
   * finishes or is cancelled (then a later task may get it, as a file descriptor).
   */
  submitHandle(queue: string, demand: ArrayLike<number>, options?: HandleTaskOptions): number {
    const q = this.core.queue(queue);
    if (options !== undefined && (options === null || typeof options !== "object")) throw new InputError("options", `expected {estimate?, job?, burst?}, got ${describeValue(options)}`);
    if (options !== undefined) checkKeys("options", options, HANDLE_KEYS);
    this.core.ledger.useApi(HANDLES, "handle");
    return this.core.enqueue(q, queue, demand, options?.estimate, options?.job, options?.burst, "demand", "options.");
  }

  /** Cancels a waiting or running task (a running one frees its resources). */
  cancel(id: string): { id: string; queue: string; wasRunning: boolean } {
    const { queue, wasRunning } = this.core.cancelSlot(this.core.ledger.task(id));
    return { id, queue, wasRunning };
  }

  /** cancel() for a handle. */
  cancelHandle(handle: number): { queue: string; wasRunning: boolean } {
    return this.core.cancelSlot(this.core.ledger.handle(handle));
  }

  /** Starts the tasks the policy picks now (greedy while they fit in `free`, default capacity minus running). */
  schedule(free?: number[]): Started[] {
    const points = this.points;
    points.run(free);
    const slots = this.core.state.slots;
    const started: Started[] = new Array(points.startedCount);
    for (let i = 0; i < points.startedCount; i++) {
      const s = points.startedSlots[i];
      started[i] = { id: slots.idOf(s), queue: slots.queue[s]!.spec.name };
    }
    return started;
  }

  /**
   * schedule() for the handle API: the same decisions; returns how many tasks started, their
   * handles the first that many of `startedHandles` in start order (valid until the next call).
   */
  scheduleHandles(free?: number[]): number {
    if (this.core.ledger.mode === IDS && this.core.state.slots.count > 0) throw new InputError("scheduleHandles", "this scheduler's tasks have string ids: use schedule()");
    this.points.run(free);
    return this.points.startedCount;
  }

  /** The handles the last scheduleHandles() started (its count first entries). */
  get startedHandles(): Int32Array {
    return this.points.startedSlots;
  }

  /** A running task ends: its resources are free again. */
  finish(id: string): void {
    const s = this.core.ledger.task(id);
    if (!this.core.isRunning(s)) throw new InputError("id", `task '${id}' is not running`);
    this.core.finishSlot(s);
  }

  /** finish() for a handle. */
  finishHandle(handle: number): void {
    const s = this.core.ledger.handle(handle);
    if (!this.core.isRunning(s)) throw new InputError("handle", `task handle ${s} is not running`);
    this.core.finishSlot(s);
  }

  /** Time of the next burst end or wake-up the policy asked for: call schedule() then (the simulator's scheduling point). */
  nextWakeup(): number | null {
    const next = this.core.timers.next();
    return next === null ? null : this.core.toClock(next);
  }

  /** Per queue: usage, dominant share, the policy's target (if it has one), accumulated dominant share x seconds. */
  shares(): QueueShare[] {
    const core = this.core;
    const time = core.now();
    core.begin(time);
    if (core.binding.stale) core.binding.bind();
    return queueShares(core, time);
  }

  /** Why a queue is where it is: its weighted dominant share, rank among queues with waiting tasks, and whether its next task fits. */
  explain(queue: string): QueueExplanation {
    return explainQueue(this.core, this.core.queue(queue));
  }

  /** Versioned plain JSON from which restoreScheduler rebuilds the scheduler (docs/live-scheduler.md says what carries over). */
  snapshot(): SchedulerSnapshot {
    this.core.now(); // the clock is read (a bad clock is an InputError) but the state is as of the last call
    return snapshotOf(this.core);
  }

  /** Internal: rebuilds the state from a checked snapshot (restoreScheduler). */
  load(s: SchedulerSnapshot): void {
    loadInto(this.core, s);
  }
}

/** A live scheduler (docs/live-scheduler.md). */
export function createScheduler(options: SchedulerOptions): Scheduler {
  return new Scheduler(options);
}

/** A scheduler from a snapshot; it makes the same decisions from then on (docs/live-scheduler.md, "Snapshots"). */
export function restoreScheduler(snapshot: SchedulerSnapshot, options: Omit<SchedulerOptions, "policy" | "capacity" | "resources" | "reservation" | "starvationGuard" | "policyOptions" | "seed"> = {}): Scheduler {
  const s = checkSnapshot(snapshot);
  const sched = new Scheduler({ ...options, policy: s.policy, capacity: s.capacity, resources: s.resources, reservation: s.reservation, starvationGuard: s.starvationGuard, policyOptions: s.policyOptions, seed: s.seed });
  sched.load(s);
  return sched;
}
