// The live scheduler (docs/live-scheduler.md): the policy objects of src/policies/ and the shared
// dispatch (src/dispatch/dispatcher.ts) driven by a host's calls instead of a simulated clock —
// queues come and go, tasks are submitted, started by schedule() and finished. Elastic queues sit in
// the dispatcher's heap keyed by weighted dominant share, so a decision costs O(log N) amortised.
// Bad input is an InputError naming the field, raised before anything changes.
import type { Engine } from "../engine/engine.js";
import { loadEngineSync } from "../engine/load.js";
import { InputError, describeValue } from "../errors.js";
import { Dispatcher, fits } from "../dispatch/dispatcher.js";
import type { QueueKind, QueueSpec } from "../policy/model.js";
import type { Admission, ClusterState, Policy, QueueState } from "../policy/policy.js";
import { drfPolicyFactory } from "../policies/drf.js";
import { fifoPolicyFactory } from "../policies/fifo.js";
import { spPolicyFactory } from "../policies/sp.js";

/** Policies the live scheduler runs (policies that need a whole workload up front are not among them yet). */
export const LIVE_POLICIES = { drf: drfPolicyFactory, sp: spPolicyFactory, fifo: fifoPolicyFactory } as const;
/** Policies of `fairsched list` the live scheduler refuses, with why. */
export const LIVE_UNSUPPORTED: Record<string, string> = {
  bopf: "BoPF admission and burst guarantees need burst events the live API does not take yet",
  nbopf: "N-BoPF admission and burst guarantees need burst events the live API does not take yet",
  mbvt: "M-BVT's virtual time needs a sampled usage history the live API does not keep yet",
  ltrf: "LTRF's planned quanta need the whole queue set at init (not yet incremental)",
  mlrf: "MLRF's planned quanta need the whole queue set at init (not yet incremental)",
  "h-ltrf": "H-LTRF's tree needs the whole queue set at init (not yet incremental)",
};

export interface SchedulerOptions {
  policy: string;
  capacity: number[];
  resources?: string[];
  engine?: Engine;
  /** Seconds; default Date.now() / 1000. Inject a fake clock in tests. */
  clock?: () => number;
  /** Hold unguaranteed queues while a guaranteed one is below its target (default false). */
  reservation?: boolean;
}

export interface QueueOptions {
  weight?: number;
  path?: string[];
  kind?: QueueKind;
  minShare?: number;
  maxShare?: number;
}

export interface TaskInput {
  id: string;
  demand: number[];
  estimate?: number;
}

export interface Started {
  id: string;
  queue: string;
}

export interface QueueShare {
  queue: string;
  usage: number[];
  dominantShare: number;
  /** The policy's target (resource units), when it computes targets. */
  target: number[] | null;
  /** Dominant share x seconds held so far. */
  accumulated: number;
  waiting: number;
  running: number;
}

interface LiveTask {
  id: string;
  queue: LiveQueue;
  demand: Float64Array;
  estimate?: number;
  submitted: number;
  started: number;
  running: boolean;
}

class LiveQueue implements QueueState {
  index: number;
  spec: QueueSpec;
  readonly demand: Float64Array;
  readonly pending: Float64Array;
  readonly usage: Float64Array;
  /** Waiting tasks, FIFO. */
  waiting: LiveTask[] = [];
  head = 0;
  running = new Set<LiveTask>();
  accumulated = 0;
  since: number;
  readonly openBurst = null;
  rejected = false;

  constructor(index: number, spec: QueueSpec, k: number, now: number) {
    this.index = index;
    this.spec = spec;
    this.demand = new Float64Array(k);
    this.pending = new Float64Array(k);
    this.usage = new Float64Array(k);
    this.since = now;
  }
  get runnableTasks(): number { return this.waiting.length - this.head; }
  get runningTasks(): number { return this.running.size; }
  get activeJobs(): number { return this.runnableTasks + this.running.size; }
  get nextTask(): Float64Array | null { return this.head < this.waiting.length ? this.waiting[this.head].demand : null; }
  get nextArrival(): number { return this.head < this.waiting.length ? this.waiting[this.head].submitted : Infinity; }
}

class LiveState implements ClusterState {
  time = 0;
  readonly used: Float64Array;
  queues: LiveQueue[] = [];
  constructor(readonly capacity: Float64Array, readonly resources: readonly string[]) {
    this.used = new Float64Array(capacity.length);
  }
  private flat(pick: (q: LiveQueue) => Float64Array): Float64Array {
    const k = this.capacity.length;
    const out = new Float64Array(this.queues.length * k);
    for (const q of this.queues) out.set(pick(q), q.index * k);
    return out;
  }
  get demands(): Float64Array { return this.flat((q) => q.demand); }
  get usages(): Float64Array { return this.flat((q) => q.usage); }
}

const finiteNonNeg = (x: unknown): x is number => typeof x === "number" && Number.isFinite(x) && x >= 0;

function checkVector(field: string, v: unknown, k: number): Float64Array {
  if (!Array.isArray(v) && !ArrayBuffer.isView(v)) throw new InputError(field, `expected an array of ${k} numbers, got ${describeValue(v)}`);
  const a = v as ArrayLike<unknown>;
  if (a.length !== k) throw new InputError(field, `expected ${k} numbers (one per resource), got ${a.length}`);
  for (let r = 0; r < k; r++) if (!finiteNonNeg(a[r])) throw new InputError(`${field}[${r}]`, `must be a finite number >= 0 (got ${describeValue(a[r])})`);
  return Float64Array.from(a as ArrayLike<number>);
}

function checkKeys(field: string, o: Record<string, unknown>, allowed: readonly string[]): void {
  for (const key of Object.keys(o)) if (!allowed.includes(key)) throw new InputError(`${field}.${key}`, `unknown key (known: ${allowed.join(", ")})`);
}

function queueSpec(name: string, o: unknown, field: string): QueueSpec {
  if (o === undefined) o = {};
  if (o === null || typeof o !== "object" || Array.isArray(o)) throw new InputError(field, `expected an object, got ${describeValue(o)}`);
  const q = o as Record<string, unknown>;
  checkKeys(field, q, ["weight", "path", "kind", "minShare", "maxShare"]);
  if (q.weight !== undefined && !(typeof q.weight === "number" && Number.isFinite(q.weight) && q.weight > 0)) throw new InputError(`${field}.weight`, `must be a finite number > 0 (got ${describeValue(q.weight)})`);
  if (q.kind !== undefined && q.kind !== "LQ" && q.kind !== "TQ") throw new InputError(`${field}.kind`, `must be 'LQ' or 'TQ' (got ${describeValue(q.kind)})`);
  if (q.path !== undefined && !(Array.isArray(q.path) && q.path.every((p) => typeof p === "string" && p !== ""))) throw new InputError(`${field}.path`, `must be an array of non-empty strings (got ${describeValue(q.path)})`);
  for (const s of ["minShare", "maxShare"] as const) {
    const v = q[s];
    if (v !== undefined && !(typeof v === "number" && v >= 0 && v <= 1)) throw new InputError(`${field}.${s}`, `must be a number in [0, 1] (got ${describeValue(v)})`);
  }
  const spec: QueueSpec = { name, kind: (q.kind as QueueKind | undefined) ?? "TQ" };
  if (q.weight !== undefined) spec.weight = q.weight as number;
  if (q.path !== undefined) spec.path = [...(q.path as string[])];
  const params: Record<string, number> = {};
  if (q.minShare !== undefined) params.minShare = q.minShare as number;
  if (q.maxShare !== undefined) params.maxShare = q.maxShare as number;
  if (Object.keys(params).length) spec.params = params;
  return spec;
}

export const SNAPSHOT_VERSION = 1;

export interface SchedulerSnapshot {
  version: 1;
  policy: string;
  capacity: number[];
  resources: string[];
  reservation: boolean;
  time: number;
  queues: Array<{
    name: string; spec: QueueSpec; accumulated: number; since: number;
    waiting: Array<{ id: string; demand: number[]; submitted: number; estimate?: number }>;
    running: Array<{ id: string; demand: number[]; submitted: number; started: number; estimate?: number }>;
  }>;
}

export class Scheduler {
  readonly policyName: string;
  private readonly policy: Policy;
  private readonly state: LiveState;
  private readonly k: number;
  private readonly engine: Engine;
  private readonly clock: () => number;
  private readonly dispatcher: Dispatcher;
  private readonly reservation: boolean;
  private readonly byName = new Map<string, LiveQueue>();
  private readonly tasks = new Map<string, LiveTask>();

  constructor(options: SchedulerOptions) {
    if (options === null || typeof options !== "object") throw new InputError("options", `expected {policy, capacity, ...}, got ${describeValue(options)}`);
    checkKeys("options", options as unknown as Record<string, unknown>, ["policy", "capacity", "resources", "engine", "clock", "reservation"]);
    const { policy, capacity, resources, clock, reservation } = options;
    if (typeof policy !== "string") throw new InputError("policy", `expected a policy name, got ${describeValue(policy)}`);
    const factory = (LIVE_POLICIES as Record<string, typeof drfPolicyFactory>)[policy];
    if (!factory) {
      const why = LIVE_UNSUPPORTED[policy];
      throw new InputError("policy", why ? `'${policy}' is not supported by the live scheduler: ${why}` : `unknown policy '${policy}' (live: ${Object.keys(LIVE_POLICIES).join(", ")})`);
    }
    if (!Array.isArray(capacity) || capacity.length === 0) throw new InputError("capacity", `expected a non-empty array of numbers, got ${describeValue(capacity)}`);
    capacity.forEach((c, r) => { if (!(typeof c === "number" && Number.isFinite(c) && c > 0)) throw new InputError(`capacity[${r}]`, `must be a finite number > 0 (got ${describeValue(c)})`); });
    const k = capacity.length;
    if (resources !== undefined && !(Array.isArray(resources) && resources.length === k && resources.every((s) => typeof s === "string"))) throw new InputError("resources", `expected ${k} names, got ${describeValue(resources)}`);
    if (clock !== undefined && typeof clock !== "function") throw new InputError("clock", `expected a function returning seconds, got ${describeValue(clock)}`);
    if (reservation !== undefined && typeof reservation !== "boolean") throw new InputError("reservation", `must be true or false (got ${describeValue(reservation)})`);
    this.k = k;
    this.policyName = policy;
    this.reservation = reservation === true;
    this.engine = options.engine ?? loadEngineSync();
    this.clock = clock ?? (() => Date.now() / 1000);
    this.state = new LiveState(Float64Array.from(capacity), resources ?? capacity.map((_, r) => `r${r}`));
    this.policy = factory.create();
    this.policy.init?.({ engine: this.engine, random: () => 0, workload: { name: "live", resources: [...this.state.resources], capacity: [...capacity], queues: [], jobs: [], params: {}, seed: 0 } });
    this.dispatcher = new Dispatcher(k, { reservation: this.reservation });
  }

  private now(): number {
    const t = this.clock();
    if (!(typeof t === "number" && Number.isFinite(t))) throw new InputError("clock", `returned ${describeValue(t)}, expected finite seconds`);
    const time = Math.max(t, this.state.time); // time never moves backwards
    return time;
  }

  /** Brings every accumulated usage touched by a change up to `time` (lazy: per queue on change). */
  private settle(q: LiveQueue, time: number): void {
    q.accumulated += dominantShare(q.usage, this.state.capacity) * (time - q.since);
    q.since = time;
  }

  private queue(name: unknown, field = "queue"): LiveQueue {
    if (typeof name !== "string") throw new InputError(field, `expected a queue name, got ${describeValue(name)}`);
    const q = this.byName.get(name);
    if (!q) throw new InputError(field, `unknown queue '${name}'`);
    return q;
  }

  addQueue(name: string, options?: QueueOptions): Admission {
    if (typeof name !== "string" || name === "") throw new InputError("name", `expected a non-empty queue name, got ${describeValue(name)}`);
    if (this.byName.has(name)) throw new InputError("name", `queue '${name}' exists already`);
    const spec = queueSpec(name, options, "options");
    const time = this.now();
    this.state.time = time;
    const q = new LiveQueue(this.state.queues.length, spec, this.k, time);
    this.state.queues.push(q);
    this.byName.set(name, q);
    this.dispatcher.touch(this.state, q.index);
    return { class: "admitted", reason: `${this.policyName} admits every queue` };
  }

  updateQueue(name: string, options: QueueOptions): void {
    const q = this.queue(name, "name");
    if (options === null || typeof options !== "object" || Array.isArray(options)) throw new InputError("options", `expected an object, got ${describeValue(options)}`);
    const spec = queueSpec(name, { ...specOptions(q.spec), ...options }, "options");
    q.spec = spec;
    this.dispatcher.touch(this.state, q.index);
  }

  /** Removes a queue without running tasks; returns its waiting tasks (ids and demands). */
  removeQueue(name: string): TaskInput[] {
    const q = this.queue(name, "name");
    if (q.running.size > 0) throw new InputError("name", `queue '${name}' has ${q.running.size} running tasks: finish or cancel them first`);
    const out = q.waiting.slice(q.head).map((t) => taskInput(t));
    for (const t of q.waiting.slice(q.head)) this.tasks.delete(t.id);
    this.byName.delete(name);
    this.state.queues.splice(q.index, 1);
    this.state.queues.forEach((x, i) => { x.index = i; });
    this.dispatcher.reset(this.state.queues.length);
    for (const x of this.state.queues) this.dispatcher.touch(this.state, x.index);
    return out;
  }

  submit(queue: string, task: TaskInput): void {
    const q = this.queue(queue);
    if (task === null || typeof task !== "object") throw new InputError("task", `expected {id, demand}, got ${describeValue(task)}`);
    checkKeys("task", task as unknown as Record<string, unknown>, ["id", "demand", "estimate"]);
    if (typeof task.id !== "string" || task.id === "") throw new InputError("task.id", `expected a non-empty string, got ${describeValue(task.id)}`);
    if (this.tasks.has(task.id)) throw new InputError("task.id", `task '${task.id}' exists already`);
    const demand = checkVector("task.demand", task.demand, this.k);
    for (let r = 0; r < this.k; r++) {
      if (demand[r] > this.state.capacity[r] * (1 + 1e-12)) throw new InputError(`task.demand[${r}]`, `${demand[r]} exceeds the capacity ${this.state.capacity[r]}: the task can never fit`);
    }
    if (task.estimate !== undefined && !finiteNonNeg(task.estimate)) throw new InputError("task.estimate", `must be a finite number >= 0 (got ${describeValue(task.estimate)})`);
    const time = this.now();
    this.state.time = time;
    const t: LiveTask = { id: task.id, queue: q, demand, submitted: time, started: NaN, running: false };
    if (task.estimate !== undefined) t.estimate = task.estimate;
    this.tasks.set(t.id, t);
    q.waiting.push(t);
    this.addPending(q, demand, 1);
  }

  /** Cancels a waiting or running task (a running one frees its resources). */
  cancel(id: string): { id: string; queue: string; wasRunning: boolean } {
    const t = this.task(id);
    const time = this.now();
    this.state.time = time;
    const wasRunning = t.running;
    if (t.running) this.release(t, time);
    else {
      const q = t.queue;
      const at = q.waiting.indexOf(t, q.head);
      q.waiting.splice(at, 1);
      this.tasks.delete(id);
      this.addPending(q, t.demand, -1);
    }
    return { id, queue: t.queue.spec.name, wasRunning };
  }

  private task(id: unknown): LiveTask {
    if (typeof id !== "string") throw new InputError("id", `expected a task id, got ${describeValue(id)}`);
    const t = this.tasks.get(id);
    if (!t) throw new InputError("id", `unknown task '${id}'`);
    return t;
  }

  /** Starts the tasks the policy picks now (greedy while they fit in `free`, default capacity minus running). */
  schedule(free?: number[]): Started[] {
    let limit: Float64Array | null = null;
    if (free !== undefined) {
      const f = checkVector("free", free, this.k);
      limit = f.map((x, r) => Math.min(this.state.capacity[r], this.state.used[r] + x));
    }
    const time = this.now();
    this.state.time = time;
    const started: Started[] = [];
    const start = (qi: number) => {
      const q = this.state.queues[qi];
      const t = q.waiting[q.head];
      q.head++;
      if (q.head > 64 && q.head * 2 > q.waiting.length) { q.waiting = q.waiting.slice(q.head); q.head = 0; }
      this.settle(q, time);
      t.running = true;
      t.started = time;
      q.running.add(t);
      this.addPending(q, t.demand, -1, false);
      this.addUsage(q, t.demand, 1);
      if (shifted) for (let r = 0; r < this.k; r++) shifted[r] += t.demand[r];
      started.push({ id: t.id, queue: q.spec.name });
    };
    // schedule(free): the policy sees `used` shifted by (capacity - limit), so what fits is what is free
    const shifted = limit ? this.state.used.map((u, r) => u + (this.state.capacity[r] - limit![r])) : null;
    const view = shifted ? limitedView(this.state, shifted) : this.state;
    if (this.policy.shares) this.dispatcher.apply(view, this.policy, start);
    else if (this.policy.pickNext) {
      for (;;) {
        const qi = this.policy.pickNext(view);
        if (qi < 0) break;
        const next = this.state.queues[qi]?.nextTask;
        if (!next || !fits(view, next)) break;
        start(qi);
      }
    }
    return started;
  }

  /** A running task ends: its resources are free again. */
  finish(id: string): void {
    const t = this.task(id);
    if (!t.running) throw new InputError("id", `task '${id}' is not running`);
    const time = this.now();
    this.state.time = time;
    this.release(t, time);
  }

  private release(t: LiveTask, time: number): void {
    const q = t.queue;
    this.settle(q, time);
    q.running.delete(t);
    this.tasks.delete(t.id);
    this.addUsage(q, t.demand, -1);
  }

  private addPending(q: LiveQueue, demand: Float64Array, sign: 1 | -1, touch = true): void {
    for (let r = 0; r < this.k; r++) {
      q.pending[r] = q.runnableTasks === 0 ? 0 : Math.max(0, q.pending[r] + sign * demand[r]);
      q.demand[r] = q.usage[r] + q.pending[r];
    }
    if (touch) this.dispatcher.touch(this.state, q.index);
  }

  private addUsage(q: LiveQueue, demand: Float64Array, sign: 1 | -1): void {
    for (let r = 0; r < this.k; r++) {
      q.usage[r] = q.running.size === 0 ? 0 : Math.max(0, q.usage[r] + sign * demand[r]);
      q.demand[r] = q.usage[r] + q.pending[r];
      this.state.used[r] = Math.max(0, this.state.used[r] + sign * demand[r]);
    }
    this.dispatcher.touch(this.state, q.index);
  }

  /** Per queue: usage, dominant share, the policy's target (if it has one), accumulated dominant share x seconds. */
  shares(): QueueShare[] {
    const time = this.now();
    const st = this.state;
    const k = this.k;
    let targets: Float64Array | null = null;
    if (this.policy.shares) {
      targets = new Float64Array(st.queues.length * k);
      st.time = time;
      this.policy.shares(st, targets);
    }
    return st.queues.map((q) => ({
      queue: q.spec.name,
      usage: Array.from(q.usage),
      dominantShare: dominantShare(q.usage, st.capacity),
      target: targets ? Array.from(targets.subarray(q.index * k, q.index * k + k)) : null,
      accumulated: q.accumulated + dominantShare(q.usage, st.capacity) * (time - q.since),
      waiting: q.runnableTasks,
      running: q.running.size,
    }));
  }

  /** Why a queue is where it is: its weighted dominant share, rank among queues with waiting tasks, and whether its next task fits. */
  explain(queue: string): { queue: string; weightedShare: number; rank: number | null; waiting: number; running: number; nextTaskFits: boolean | null; reason: string } {
    const q = this.queue(queue);
    const st = this.state;
    const key = (x: LiveQueue) => dominantShare(x.usage, st.capacity) / (x.spec.weight ?? 1);
    const w = key(q);
    const next = q.nextTask;
    const fitsNow = next ? fits(st, next) : null;
    let rank: number | null = null;
    if (next) {
      rank = 1;
      for (const x of st.queues) if (x !== q && x.nextTask && (key(x) < w || (key(x) === w && x.index < q.index))) rank++;
    }
    const reason = !next
      ? "no waiting task"
      : this.policyName === "fifo"
        ? `FIFO: its next task was submitted at t=${q.nextArrival}; ${fitsNow ? "it fits now" : "it does not fit in what is free"}`
        : `weighted dominant share ${w.toPrecision(4)} (dominant share / weight ${q.spec.weight ?? 1}) is number ${rank} among queues with waiting tasks; its next task ${fitsNow ? "fits in what is free" : "does not fit in what is free"}${this.policyName === "sp" && q.spec.kind === "LQ" ? "; as an LQ it is served first, up to its DRF share of the whole capacity" : ""}`;
    return { queue: q.spec.name, weightedShare: w, rank, waiting: q.runnableTasks, running: q.running.size, nextTaskFits: fitsNow, reason };
  }

  /** Versioned plain JSON from which restoreScheduler makes the same decisions. */
  snapshot(): SchedulerSnapshot {
    const time = this.now();
    return {
      version: SNAPSHOT_VERSION,
      policy: this.policyName,
      capacity: Array.from(this.state.capacity),
      resources: [...this.state.resources],
      reservation: this.reservation,
      time,
      queues: this.state.queues.map((q) => ({
        name: q.spec.name,
        spec: JSON.parse(JSON.stringify(q.spec)) as QueueSpec,
        accumulated: q.accumulated,
        since: q.since,
        waiting: q.waiting.slice(q.head).map((t) => ({ ...taskInput(t), submitted: t.submitted })),
        running: [...q.running].map((t) => ({ ...taskInput(t), submitted: t.submitted, started: t.started })),
      })),
    };
  }

  /** Internal: rebuilds the state from a snapshot (restoreScheduler validates first). */
  load(s: SchedulerSnapshot): void {
    this.state.time = s.time;
    for (const qs of s.queues) {
      const q = new LiveQueue(this.state.queues.length, qs.spec, this.k, qs.since);
      q.accumulated = qs.accumulated;
      this.state.queues.push(q);
      this.byName.set(qs.name, q);
      for (const r of qs.running) {
        const t: LiveTask = { id: r.id, queue: q, demand: Float64Array.from(r.demand), submitted: r.submitted, started: r.started, running: true };
        if (r.estimate !== undefined) t.estimate = r.estimate;
        this.tasks.set(t.id, t);
        q.running.add(t);
        this.addUsage(q, t.demand, 1);
      }
      for (const w of qs.waiting) {
        const t: LiveTask = { id: w.id, queue: q, demand: Float64Array.from(w.demand), submitted: w.submitted, started: NaN, running: false };
        if (w.estimate !== undefined) t.estimate = w.estimate;
        this.tasks.set(t.id, t);
        q.waiting.push(t);
        this.addPending(q, t.demand, 1);
      }
    }
  }
}

function specOptions(spec: QueueSpec): QueueOptions {
  const o: QueueOptions = { kind: spec.kind };
  if (spec.weight !== undefined) o.weight = spec.weight;
  if (spec.path) o.path = spec.path;
  if (spec.params?.minShare !== undefined) o.minShare = spec.params.minShare as number;
  if (spec.params?.maxShare !== undefined) o.maxShare = spec.params.maxShare as number;
  return o;
}

function taskInput(t: LiveTask): TaskInput {
  const o: TaskInput = { id: t.id, demand: Array.from(t.demand) };
  if (t.estimate !== undefined) o.estimate = t.estimate;
  return o;
}

export function dominantShare(usage: ArrayLike<number>, capacity: ArrayLike<number>): number {
  let d = 0;
  for (let r = 0; r < capacity.length; r++) d = Math.max(d, usage[r] / capacity[r]);
  return d;
}

/** The state with `used` replaced (schedule(free)): capacities, and so dominant shares, stay. */
function limitedView(state: LiveState, used: Float64Array): ClusterState {
  return new Proxy(state, { get: (target, p) => (p === "used" ? used : Reflect.get(target, p)) });
}

/** A live scheduler (docs/live-scheduler.md). */
export function createScheduler(options: SchedulerOptions): Scheduler {
  return new Scheduler(options);
}

/** A scheduler from a snapshot that makes the same decisions from then on. */
export function restoreScheduler(snapshot: SchedulerSnapshot, options: Omit<SchedulerOptions, "policy" | "capacity" | "resources" | "reservation"> = {}): Scheduler {
  if (snapshot === null || typeof snapshot !== "object") throw new InputError("snapshot", `expected a scheduler snapshot, got ${describeValue(snapshot)}`);
  if (snapshot.version !== SNAPSHOT_VERSION) throw new InputError("snapshot.version", `expected ${SNAPSHOT_VERSION}, got ${describeValue(snapshot.version)}`);
  const s = new Scheduler({ ...options, policy: snapshot.policy, capacity: snapshot.capacity, resources: snapshot.resources, reservation: snapshot.reservation });
  if (!Array.isArray(snapshot.queues)) throw new InputError("snapshot.queues", `expected an array, got ${describeValue(snapshot.queues)}`);
  // validate through a scratch scheduler's own checks, then load
  const k = snapshot.capacity.length;
  const ids = new Set<string>();
  snapshot.queues.forEach((q, i) => {
    queueSpec(q.name, specOptions(q.spec), `snapshot.queues[${i}].spec`);
    for (const [list, what] of [[q.waiting, "waiting"], [q.running, "running"]] as const) {
      if (!Array.isArray(list)) throw new InputError(`snapshot.queues[${i}].${what}`, "expected an array");
      list.forEach((t, j) => {
        const f = `snapshot.queues[${i}].${what}[${j}]`;
        if (typeof t.id !== "string" || ids.has(t.id)) throw new InputError(`${f}.id`, `missing or duplicate task id ${describeValue(t.id)}`);
        ids.add(t.id);
        checkVector(`${f}.demand`, t.demand, k);
      });
    }
  });
  s.load(snapshot);
  return s;
}
