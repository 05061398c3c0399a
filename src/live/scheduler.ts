// The live scheduler (docs/live-scheduler.md): the policy objects of src/policies/ and the shared
// dispatch (src/dispatch/dispatcher.ts) driven by a host's calls instead of a simulated clock —
// queues come and go, tasks are submitted, started by schedule() and finished. The policy gets
// the simulator's events (arrival, taskEnd, jobEnd, burstStart, burstEnd) as the calls happen,
// with the time from the injected clock, so it decides as it does in the simulator.
// Elastic queues sit in the dispatcher's heap keyed by weighted dominant share, so a decision
// costs O(log N) amortised and allocates nothing but its result.
// Bad input is an InputError naming the field, raised before anything changes.
import type { Engine } from "../engine/engine.js";
import { loadEngineSync } from "../engine/load.js";
import { InputError, describeValue } from "../errors.js";
import { Rng } from "../random/rng.js";
import { Dispatcher } from "../dispatch/dispatcher.js";
import { exceeds, fits } from "../dispatch/fit.js";
import type { QueueSpec } from "../policy/model.js";
import type { Admission, ClusterState, Policy, PolicyActions, PolicyFactory, PolicyState, QueueState, SimEvent } from "../policy/policy.js";
import { BUILTIN_POLICIES } from "../policies/index.js";
import { FREE, LiveQueue, LiveState, RUNNING, WAITING } from "./live-state.js";
import { checkKeys, checkVector, finiteNonNeg, queueSpec, specOptions, type QueueOptions } from "./validate.js";
import { SNAPSHOT_VERSION, checkSnapshot, type SchedulerSnapshot } from "./snapshot.js";

export type { QueueOptions } from "./validate.js";
export type { SchedulerSnapshot } from "./snapshot.js";

/** Policies the live scheduler runs: every built-in queue-level policy. */
export const LIVE_POLICIES: Readonly<Record<string, PolicyFactory>> = Object.fromEntries(BUILTIN_POLICIES.map((f) => [f.name, f]));

/** Policies that apply QueueSpec min/max shares themselves (docs/policies/ltrf.md); for the others the live scheduler does. */
const OWN_SHARE_RULES = new Set(["ltrf", "mlrf", "h-ltrf"]);

/** Points in one schedule() call asked for by wake-ups at the same instant (a policy reading usage after its starts asks once). */
const MAX_POINTS = 64;
const SHARE_EPS = 1e-9;
const TASK_KEYS = ["id", "demand", "estimate", "job", "burst"];
const HANDLE_KEYS = ["estimate", "job", "burst"];

export interface SchedulerOptions {
  policy: string;
  capacity: number[];
  resources?: string[];
  engine?: Engine;
  /** Seconds; default Date.now() / 1000. Inject a fake clock in tests. */
  clock?: () => number;
  /** Hold unguaranteed queues while a guaranteed one is below its target (default false). */
  reservation?: boolean;
  /**
   * The dispatch's starvation guard (src/dispatch/head-reservation.ts): room is reserved for the
   * head of the elastic phase's DRF order when its next task does not fit (default true).
   */
  starvationGuard?: boolean;
  /** The policy's options, as in simulate({ policyOptions }) (e.g. LTRF window, quantum, tWait, groupWeights; BoPF expiry; M-BVT lag). */
  policyOptions?: Record<string, unknown>;
  /** Seed of the random numbers a policy may draw (H-LTRF tieBreak 'random'). Default 0. */
  seed?: number;
}

export interface TaskInput {
  id: string;
  demand: number[];
  estimate?: number;
  /** Job the task belongs to (default: its own id): the job arrives with its first task and ends with its last. */
  job?: string;
  /** LQ burst index (into the queue's `bursts`): its first task opens the burst, for the burst's window. */
  burst?: number;
}

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

/** Which API a scheduler's tasks came from (one at a time: docs/live-scheduler.md, "Handles"). */
const NO_TASKS = 0, IDS = 1, HANDLES = 2;

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

interface Timer {
  time: number;
  /** null: a wake-up the policy asked for; else a burst's end. */
  queue: LiveQueue | null;
  burst: number;
}

export class Scheduler {
  readonly policyName: string;
  private readonly factory: PolicyFactory;
  private readonly policyOptions: Record<string, unknown> | undefined;
  private policy: Policy;
  /** The queue set changed since the policy was built (it is rebuilt before its next use). */
  private stale = true;
  /** The policy has been built for some queue set (its history can be exported). */
  private built = false;
  /** A policy state to take over at the next build (restoreScheduler). */
  private carried: PolicyState | null = null;
  private readonly events: boolean;
  private readonly ownShares: boolean;
  private readonly state: LiveState;
  private readonly k: number;
  private readonly engine: Engine;
  private readonly clock: () => number;
  private readonly dispatcher: Dispatcher;
  private readonly reservation: boolean;
  private readonly starvationGuard: boolean;
  private readonly seed: number;
  private rng: Rng;
  private readonly byName = new Map<string, LiveQueue>();
  /** The string API's ids -> slots. */
  private readonly tasks = new Map<string, number>();
  /** The API of the tasks held: string ids or handles (either while none is held). */
  private mode = NO_TASKS;
  private readonly admissions = new Map<LiveQueue, Admission>();
  /** Queues with a min share (served first, unless the policy has its own rule). */
  private minQueues: LiveQueue[] = [];
  /** Burst ends and wake-ups, by time (few: one per open burst). */
  private timers: Timer[] = [];
  private readonly actions: PolicyActions;
  // the current point: its time, the result list and, under schedule(free), the shifted usage
  private pointTime = 0;
  /** Slots started at the current schedule call, in start order. */
  private startedSlots = new Int32Array(16);
  private startedCount = 0;
  /** Starts so far (the running tasks' order in snapshots). */
  private starts = 0;
  private shifted: Float64Array | null = null;
  private readonly startFn = (qi: number): void => this.start(qi);

  constructor(options: SchedulerOptions) {
    if (options === null || typeof options !== "object") throw new InputError("options", `expected {policy, capacity, ...}, got ${describeValue(options)}`);
    checkKeys("options", options, ["policy", "capacity", "resources", "engine", "clock", "reservation", "starvationGuard", "policyOptions", "seed"]);
    const { policy, capacity, resources, clock, reservation, starvationGuard, policyOptions, seed } = options;
    if (typeof policy !== "string") throw new InputError("policy", `expected a policy name, got ${describeValue(policy)}`);
    const factory = Object.prototype.hasOwnProperty.call(LIVE_POLICIES, policy) ? LIVE_POLICIES[policy] : undefined;
    if (!factory) throw new InputError("policy", `unknown policy '${policy}' (live: ${Object.keys(LIVE_POLICIES).join(", ")})`);
    if (!Array.isArray(capacity) || capacity.length === 0) throw new InputError("capacity", `expected a non-empty array of numbers, got ${describeValue(capacity)}`);
    capacity.forEach((c, r) => { if (!(typeof c === "number" && Number.isFinite(c) && c > 0)) throw new InputError(`capacity[${r}]`, `must be a finite number > 0 (got ${describeValue(c)})`); });
    const k = capacity.length;
    if (resources !== undefined && !(Array.isArray(resources) && resources.length === k && resources.every((s) => typeof s === "string"))) throw new InputError("resources", `expected ${k} names, got ${describeValue(resources)}`);
    if (clock !== undefined && typeof clock !== "function") throw new InputError("clock", `expected a function returning seconds, got ${describeValue(clock)}`);
    if (reservation !== undefined && typeof reservation !== "boolean") throw new InputError("reservation", `must be true or false (got ${describeValue(reservation)})`);
    if (starvationGuard !== undefined && typeof starvationGuard !== "boolean") throw new InputError("starvationGuard", `must be true or false (got ${describeValue(starvationGuard)})`);
    if (policyOptions !== undefined && (policyOptions === null || typeof policyOptions !== "object" || Array.isArray(policyOptions))) throw new InputError("policyOptions", `expected an object, got ${describeValue(policyOptions)}`);
    if (seed !== undefined && !(typeof seed === "number" && Number.isInteger(seed))) throw new InputError("seed", `must be an integer (got ${describeValue(seed)})`);
    const gw = policyOptions?.groupWeights;
    if (gw !== null && typeof gw === "object") {
      // checked here: the policy sees only the groups its queues have (groups may come later)
      for (const [key, w] of Object.entries(gw)) if (!(typeof w === "number" && w > 0 && Number.isFinite(w))) throw new InputError(`policyOptions.groupWeights.${key}`, `must be a finite number > 0 (got ${describeValue(w)})`);
    }
    this.k = k;
    this.policyName = policy;
    this.factory = factory;
    this.policyOptions = policyOptions === undefined ? undefined : JSON.parse(JSON.stringify(policyOptions, (_, v) => (v === Infinity ? "Infinity" : v)), (_, v) => (v === "Infinity" ? Infinity : v));
    this.reservation = reservation === true;
    this.starvationGuard = starvationGuard !== false;
    this.seed = seed ?? 0;
    this.rng = new Rng(this.seed);
    this.engine = options.engine ?? loadEngineSync();
    this.clock = clock ?? (() => Date.now() / 1000);
    this.state = new LiveState(Float64Array.from(capacity), resources ?? capacity.map((_, r) => `r${r}`));
    this.policy = factory.create(this.policyOptions); // checks the options now (an InputError naming them)
    this.events = typeof this.policy.onEvent === "function";
    this.ownShares = OWN_SHARE_RULES.has(policy);
    this.dispatcher = new Dispatcher(k, { reservation: this.reservation, starvationGuard: this.starvationGuard });
    this.actions = {
      dropJob: () => { throw new InputError("dropJob", "the live scheduler does not drop jobs (cancel their tasks)"); },
      wakeAt: (time: number) => this.addTimer({ time: Math.max(time, this.state.time), queue: null, burst: -1 }),
    };
  }

  /** The clock's time (never before the last call's). Reads only: a refused call changes nothing. */
  private now(): number {
    const t = this.clock();
    if (!(typeof t === "number" && Number.isFinite(t))) throw new InputError("clock", `returned ${describeValue(t)}, expected finite seconds`);
    return t > this.state.time ? t : this.state.time;
  }

  /**
   * After a call's checks: the policy built for the current queues, due timers fired, the clock at
   * `time`. A timer due exactly now fires only at a scheduling point (`point`): as in the simulator,
   * an instant's submits come before its burst ends. `queueSet`: the call only changes queues
   * (addQueue, updateQueue), so the policy is rebuilt only if a timer fires now.
   */
  private begin(time: number, point = false, queueSet = false): void {
    // the policy is needed only where it hears of something (an event) or decides (points,
    // shares): a run of addQueue calls (and, for a policy without events, of submits too) builds
    // it once. Deferring is exact because the policy it replaces heard nothing in between, so what
    // it carries over is the same then as now.
    if (this.stale && (point || (this.events && (!queueSet || this.timerDue(time, point))))) this.bind();
    while (this.timerDue(time, point)) {
      const tm = this.timers.shift()!;
      this.state.time = tm.time;
      const q = tm.queue;
      if (q === null || !this.byName.has(q.spec.name) || this.byName.get(q.spec.name) !== q) continue;
      if (q.openBurst && q.openBurst.index === tm.burst) q.openBurst = null;
      this.emit({ type: "burstEnd", time: tm.time, queue: q.index, burst: tm.burst });
    }
    this.state.time = time;
  }

  /** A timer fires now: one due before `time`, or at it when this is a scheduling point. */
  private timerDue(time: number, point: boolean): boolean {
    return this.timers.length > 0 && (this.timers[0].time < time || (point && this.timers[0].time === time));
  }

  /**
   * Builds the policy for the current queue set: admission, then its history carried over
   * (exportState of the previous build, or the snapshot's; docs/live-scheduler.md, "Policy
   * state"); a policy without exportable state is told the active jobs and open bursts again.
   */
  private bind(): void {
    const st = this.state;
    const old = this.policy;
    const carried = this.carried ?? (this.built && typeof old.exportState === "function" ? old.exportState() : null);
    const p = this.factory.create(this.presentOptions());
    p.init?.({
      engine: this.engine, random: () => this.rng.next(),
      workload: { name: "live", resources: [...st.resources], capacity: Array.from(st.capacity), queues: st.queues.map((q) => q.spec), jobs: [], params: {}, seed: this.seed },
    });
    const imported = carried !== null && typeof p.importState === "function";
    if (imported) p.importState!(carried, "snapshot.policyState", this.actions);
    this.policy = p;
    this.carried = null;
    this.built = true;
    this.stale = false;
    // the wake-ups the policy asked for are its history too: kept when it is carried over
    if (!imported) this.timers = this.timers.filter((t) => t.queue !== null);
    for (const q of st.queues) this.takeAdmission(q);
    if (!this.events || imported) return;
    for (const q of st.queues) {
      if (q.hasJobs) for (const [job, j] of q.jobs) this.emit({ type: "arrival", time: j.arrival, queue: q.index, job });
      if (q.openBurst) this.emit({ type: "burstStart", time: q.openBurst.start, queue: q.index, burst: q.openBurst.index });
    }
  }

  /** Queue q's admission from the built policy (every queue is admitted by a policy without admission control). */
  private takeAdmission(q: LiveQueue): void {
    const a = this.policy.admission?.(q.index);
    this.admissions.set(q, a ? { class: a.class, reason: a.reason } : this.admitsAll());
    q.rejected = a?.class === "rejected";
    this.dispatcher.touch(this.state, q.index);
  }

  /** A copy of queue q's admission, for the caller. */
  private admissionOf(q: LiveQueue): Admission {
    return { ...(this.admissions.get(q) ?? this.admitsAll()) };
  }

  /** The admission of a policy without admission control. */
  private admitsAll(): Admission {
    return { class: "admitted", reason: `${this.policyName} admits every queue` };
  }

  /** The policy options with H-LTRF's groupWeights narrowed to the groups the current queues have. */
  private presentOptions(): Record<string, unknown> | undefined {
    const o = this.policyOptions;
    const gw = o?.groupWeights as Record<string, number> | undefined;
    if (!o || gw === null || typeof gw !== "object") return o;
    const present = new Set<string>();
    for (const q of this.state.queues) (q.spec.path ?? []).forEach((_, i, path) => present.add(path.slice(0, i + 1).join("/")));
    return { ...o, groupWeights: Object.fromEntries(Object.entries(gw).filter(([key]) => present.has(key))) };
  }

  /** Rebuilds the policy now for a queue-set change that must answer the admission; undoes the change when the policy refuses the set. */
  private bindOrUndo(undo: () => void): void {
    try {
      this.bind();
    } catch (e) {
      undo();
      this.stale = true;
      this.bind();
      throw e;
    }
  }

  private emit(ev: SimEvent): void {
    if (this.events) this.policy.onEvent!(ev, this.state, this.actions);
  }

  private addTimer(t: Timer): void {
    let lo = 0, hi = this.timers.length;
    while (lo < hi) { const mid = (lo + hi) >> 1; if (this.timers[mid].time <= t.time) lo = mid + 1; else hi = mid; }
    this.timers.splice(lo, 0, t);
  }

  /** Time of the next burst end or wake-up the policy asked for: call schedule() then (the simulator's scheduling point). */
  nextWakeup(): number | null {
    return this.timers.length ? this.timers[0].time : null;
  }

  /** Brings a queue's accumulated usage up to `time` (lazily, per queue, on change). */
  private settle(q: LiveQueue, time: number): void {
    if (time === q.since) return;
    const rows = this.state.usageRows, cap = this.state.capacity, k = this.k, o = q.index * k;
    let d = 0;
    for (let r = 0; r < k; r++) { const s = rows[o + r] / cap[r]; if (s > d) d = s; }
    q.accumulated += d * (time - q.since);
    q.since = time;
  }

  private queue(name: unknown, field = "queue"): LiveQueue {
    if (typeof name !== "string") throw new InputError(field, `expected a queue name, got ${describeValue(name)}`);
    const q = this.byName.get(name);
    if (!q) throw new InputError(field, `unknown queue '${name}'`);
    return q;
  }

  private setSpec(q: LiveQueue, spec: QueueSpec): void {
    q.spec = spec;
    const max = spec.params?.maxShare;
    q.maxShare = !this.ownShares && typeof max === "number" ? max : 1;
    const min = spec.params?.minShare;
    this.minQueues = this.minQueues.filter((x) => x !== q);
    if (!this.ownShares && typeof min === "number" && min > 0) this.minQueues.push(q);
    this.refreshCap(q);
  }

  /** Adds a queue; returns its admission (BoPF: hard, soft, elastic or rejected, with the reason). */
  addQueue(name: string, options?: QueueOptions): Admission {
    if (typeof name !== "string" || name === "") throw new InputError("name", `expected a non-empty queue name, got ${describeValue(name)}`);
    if (this.byName.has(name)) throw new InputError("name", `queue '${name}' exists already`);
    const spec = queueSpec(name, options, "options", this.k);
    const time = this.now();
    this.begin(time, false, true);
    // a built, current policy that can take a newcomer as its last queue is not rebuilt (BoPF: O(1) admission work)
    const append = !this.stale && this.built && this.carried === null && typeof this.policy.appendQueue === "function";
    const q = new LiveQueue(this.state.queues.length, spec, time, this.state.slots);
    this.state.push(q);
    this.byName.set(name, q);
    this.setSpec(q, spec);
    const undo = () => {
      this.byName.delete(name);
      this.minQueues = this.minQueues.filter((x) => x !== q);
      this.state.remove(q.index);
      this.admissions.delete(q);
      this.dispatcher.reset(this.state.queues.length, q.index);
      for (const x of this.state.queues) this.dispatcher.touch(this.state, x.index);
    };
    if (append) {
      try {
        this.policy.appendQueue!(spec);
      } catch (e) {
        undo();
        throw e;
      }
      this.takeAdmission(q);
    } else {
      this.stale = true;
      if (typeof this.policy.admission === "function") this.bindOrUndo(undo);
      else this.dispatcher.touch(this.state, q.index);
    }
    return this.admissionOf(q);
  }

  /** Changes a queue's options (merged into its current ones); returns its admission after the change. */
  updateQueue(name: string, options: QueueOptions): Admission {
    const q = this.queue(name, "name");
    if (options === null || typeof options !== "object" || Array.isArray(options)) throw new InputError("options", `expected an object, got ${describeValue(options)}`);
    checkKeys("options", options, ["weight", "path", "kind", "bursts", "minShare", "maxShare", "warp"]);
    const spec = queueSpec(name, { ...specOptions(q.spec), ...options }, "options", this.k);
    if (spec.kind !== "LQ" && q.openBurst) throw new InputError("options.kind", `queue '${name}' has an open burst: it stays an LQ until the burst ends`);
    const time = this.now();
    this.begin(time, false, true);
    const before = q.spec;
    this.setSpec(q, spec);
    this.stale = true;
    if (typeof this.policy.admission === "function") this.bindOrUndo(() => this.setSpec(q, before));
    this.dispatcher.touch(this.state, q.index);
    return this.admissionOf(q);
  }

  /** Removes a queue without running tasks; returns its waiting tasks (ids and demands). */
  removeQueue(name: string): TaskInput[] {
    const q = this.queue(name, "name");
    if (q.runningCount > 0) throw new InputError("name", `queue '${name}' has ${q.runningCount} running tasks: finish or cancel them first`);
    const time = this.now();
    this.begin(time);
    const waiting = q.waitingSlots().map((x) => this.taskInput(x));
    for (const x of q.waitingSlots()) this.dropSlot(x);
    this.byName.delete(name);
    this.admissions.delete(q);
    this.minQueues = this.minQueues.filter((x) => x !== q);
    this.timers = this.timers.filter((t) => t.queue !== q);
    const index = q.index;
    this.state.remove(index);
    this.dispatcher.reset(this.state.queues.length, index);
    for (const x of this.state.queues) this.dispatcher.touch(this.state, x.index);
    this.stale = true;
    // rebuilt now by a policy with events too: a queue added later under the same name must not
    // inherit this one's history from the policy built before the removal
    if (typeof this.policy.admission === "function" || this.events) this.bind();
    return waiting;
  }

  submit(queue: string, task: TaskInput): void {
    const q = this.queue(queue);
    if (task === null || typeof task !== "object") throw new InputError("task", `expected {id, demand}, got ${describeValue(task)}`);
    checkKeys("task", task, TASK_KEYS);
    const id = task.id;
    if (typeof id !== "string" || id === "") throw new InputError("task.id", `expected a non-empty string, got ${describeValue(id)}`);
    this.useApi(IDS, "task.id");
    this.enqueue(q, queue, task.demand, task.estimate, task.job, task.burst, "task.demand", "task.", id);
  }

  /**
   * The handle API's submit (docs/live-scheduler.md, "Handles"): the same checks and decisions as
   * submit(), with no id string; returns the task's handle, a small integer that names it until it
   * finishes or is cancelled (then a later task may get it, as a file descriptor).
   */
  submitHandle(queue: string, demand: ArrayLike<number>, options?: HandleTaskOptions): number {
    const q = this.queue(queue);
    if (options !== undefined && (options === null || typeof options !== "object")) throw new InputError("options", `expected {estimate?, job?, burst?}, got ${describeValue(options)}`);
    if (options !== undefined) checkKeys("options", options, HANDLE_KEYS);
    this.useApi(HANDLES, "handle");
    return this.enqueue(q, queue, demand, options?.estimate, options?.job, options?.burst, "demand", "options.");
  }

  /** A scheduler holds tasks of one API at a time (ids or handles); either while it holds none. */
  private useApi(mode: number, field: string): void {
    if (this.mode !== mode && this.state.slots.count > 0) throw new InputError(field, this.mode === IDS ? "this scheduler's tasks have string ids (submit, finish, cancel)" : "this scheduler's tasks are handles (submitHandle, finishHandle, cancelHandle)");
  }

  /**
   * Checks a task's fields (InputErrors before anything changes), then adds it to queue q's FIFO
   * in a new slot. A duplicate id is found by the insertion into the id map itself (one hash
   * lookup instead of two; it is the last check).
   */
  private enqueue(q: LiveQueue, queue: string, demandIn: unknown, estimate: unknown, jobIn: unknown, burst: unknown, demandField: string, p: string, id?: string): number {
    const d = checkVector(demandField, demandIn, this.k);
    const cap = this.state.capacity;
    for (let r = 0; r < this.k; r++) {
      if (exceeds(0, d[r], cap[r])) throw new InputError(`${demandField}[${r}]`, `${d[r]} exceeds the capacity ${cap[r]}: the task can never fit`);
    }
    if (estimate !== undefined && !finiteNonNeg(estimate)) throw new InputError(`${p}estimate`, `must be a finite number >= 0 (got ${describeValue(estimate)})`);
    if (jobIn !== undefined && !(typeof jobIn === "string" && jobIn !== "")) throw new InputError(`${p}job`, `expected a non-empty string, got ${describeValue(jobIn)}`);
    if (burst !== undefined) {
      if (!(typeof burst === "number" && Number.isInteger(burst) && burst >= 0)) throw new InputError(`${p}burst`, `must be an integer >= 0 (got ${describeValue(burst)})`);
      if (q.spec.kind !== "LQ") throw new InputError(`${p}burst`, `queue '${queue}' is not an LQ`);
    }
    if (q.rejected) throw new InputError("queue", `queue '${queue}' was rejected at admission: ${this.admissions.get(q)?.reason ?? "rejected"}`);
    const slots = this.state.slots;
    const s = slots.alloc(); // given back below when the call is refused
    if (id !== undefined) {
      const n = this.tasks.size;
      this.tasks.set(id, s);
      if (this.tasks.size === n) {
        this.tasks.set(id, this.slotOfId(id, s)); // the set replaced the holder's slot: put it back
        slots.free(s);
        throw new InputError("task.id", `task '${id}' exists already`);
      }
    }
    let time: number;
    try {
      time = this.now();
      this.begin(time);
    } catch (e) {
      if (id !== undefined) this.tasks.delete(id);
      slots.free(s);
      throw e;
    }
    const demand = sameVector(q.lastDemand, d, this.k) ? q.lastDemand! : (q.lastDemand = Float64Array.from(d));
    this.mode = id === undefined ? HANDLES : IDS;
    slots.id[s] = id;
    const job = jobIn as string | undefined;
    let arrival = time;
    let newJob = false;
    let jobName = "";
    if (this.events || job !== undefined) {
      jobName = job ?? slots.idOf(s);
      let j = q.jobs.get(jobName);
      if (!j) { j = { left: 0, arrival: time }; q.jobs.set(jobName, j); newJob = true; }
      j.left++;
      arrival = j.arrival;
    }
    slots.state[s] = WAITING;
    slots.queue[s] = q;
    slots.demand[s] = demand;
    slots.job[s] = job;
    slots.submitted[s] = time;
    slots.arrival[s] = arrival;
    slots.started[s] = NaN;
    slots.burst[s] = burst === undefined ? -1 : (burst as number);
    slots.estimate[s] = estimate === undefined ? NaN : (estimate as number);
    q.push(s);
    this.addPending(q, demand, 1);
    if (!this.events) return s;
    if (newJob) this.emit({ type: "arrival", time, queue: q.index, job: jobName });
    if (burst === undefined) return s;
    const b = burst as number;
    if (newJob) {
      // as in the simulator, every job of a burst (re)opens it, for the burst's window from now
      const window = q.spec.bursts?.[b]?.window ?? Infinity;
      q.openBurst = { index: b, start: time, deadline: time + window, submittedTasks: 0, finishedTasks: 0 };
      this.emit({ type: "burstStart", time, queue: q.index, burst: b });
      if (Number.isFinite(window)) this.addTimer({ time: time + window, queue: q, burst: b });
    }
    if (q.openBurst?.index === b) q.openBurst.submittedTasks++;
    return s;
  }

  /** The slot holding task `id` other than `except` (a scan: only a refused duplicate needs it). */
  private slotOfId(id: string, except: number): number {
    const slots = this.state.slots;
    for (let x = 0; x < slots.size; x++) if (x !== except && slots.state[x] !== FREE && slots.id[x] === id) return x;
    throw new Error(`task '${id}' has no slot`);
  }

  /** A task's id: the string API's, or the handle as a decimal string (snapshots, events, removeQueue). */
  private taskInput(s: number): TaskInput {
    const slots = this.state.slots;
    const id = slots.idOf(s);
    const o: TaskInput = { id, demand: Array.from(slots.demand[s]!) };
    if (!Number.isNaN(slots.estimate[s])) o.estimate = slots.estimate[s];
    const job = slots.job[s];
    if (job !== undefined && job !== id) o.job = job;
    if (slots.burst[s] >= 0) o.burst = slots.burst[s];
    return o;
  }

  /** Cancels a waiting or running task (a running one frees its resources). */
  cancel(id: string): { id: string; queue: string; wasRunning: boolean } {
    const s = this.task(id);
    const { queue, wasRunning } = this.cancelSlot(s);
    return { id, queue, wasRunning };
  }

  /** cancel() for a handle. */
  cancelHandle(handle: number): { queue: string; wasRunning: boolean } {
    return this.cancelSlot(this.handle(handle));
  }

  private cancelSlot(s: number): { queue: string; wasRunning: boolean } {
    const time = this.now();
    this.begin(time);
    const slots = this.state.slots;
    const q = slots.queue[s]!;
    const wasRunning = slots.state[s] === RUNNING;
    if (wasRunning) this.release(s, time);
    else {
      q.unlink(s);
      this.addPending(q, slots.demand[s]!, -1);
      this.jobTaskGone(s, time);
      this.dropSlot(s);
    }
    return { queue: q.spec.name, wasRunning };
  }

  /** Forgets a task that is no longer waiting or running: its id and its slot. */
  private dropSlot(s: number): void {
    const slots = this.state.slots;
    const id = slots.id[s];
    if (id !== undefined) this.tasks.delete(id);
    slots.free(s);
  }

  private task(id: unknown): number {
    if (typeof id !== "string") throw new InputError("id", `expected a task id, got ${describeValue(id)}`);
    const s = this.tasks.get(id);
    if (s === undefined) throw new InputError("id", `unknown task '${id}'`);
    return s;
  }

  private handle(h: unknown): number {
    const slots = this.state.slots;
    if (!(typeof h === "number" && Number.isInteger(h) && h >= 0 && h < slots.size && slots.state[h] !== FREE && slots.id[h] === undefined)) {
      throw new InputError("handle", `unknown task handle ${describeValue(h)}`);
    }
    return h;
  }

  /** Starts the tasks the policy picks now (greedy while they fit in `free`, default capacity minus running). */
  schedule(free?: number[]): Started[] {
    this.run(free);
    const slots = this.state.slots;
    const started: Started[] = new Array(this.startedCount);
    for (let i = 0; i < this.startedCount; i++) {
      const s = this.startedSlots[i];
      started[i] = { id: slots.idOf(s), queue: slots.queue[s]!.spec.name };
    }
    return started;
  }

  /**
   * schedule() for the handle API: the same decisions; returns how many tasks started, their
   * handles the first that many of `startedHandles` in start order (valid until the next call).
   */
  scheduleHandles(free?: number[]): number {
    if (this.mode === IDS && this.state.slots.count > 0) throw new InputError("scheduleHandles", "this scheduler's tasks have string ids: use schedule()");
    this.run(free);
    return this.startedCount;
  }

  /** The handles the last scheduleHandles() started (its count first entries). */
  get startedHandles(): Int32Array {
    return this.startedSlots;
  }

  /** Runs the scheduling point(s) of a schedule call: the started slots in startedSlots[0, startedCount). */
  private run(free: number[] | undefined): void {
    const st = this.state;
    let view: ClusterState = st;
    this.shifted = null;
    if (free !== undefined) {
      const f = checkVector("free", free, this.k);
      // the policy sees `used` shifted by (capacity - limit), so what fits is what is free
      const shifted = new Float64Array(this.k);
      for (let r = 0; r < this.k; r++) shifted[r] = st.used[r] + (st.capacity[r] - Math.min(st.capacity[r], st.used[r] + f[r]));
      this.shifted = shifted;
      view = new LimitedView(st, shifted);
    }
    const time = this.now();
    this.begin(time, true);
    this.startedCount = 0;
    this.pointTime = time;
    this.point(view);
    // a wake-up at this instant asked for during the point is another point (as in the simulator)
    for (let n = 1; n < MAX_POINTS && this.timers.length > 0 && this.timers[0].time <= time; n++) {
      this.begin(time, true);
      this.point(view);
    }
    this.shifted = null;
  }

  /** One scheduling point: min shares first, then the policy through the shared dispatch or its picks. */
  private point(view: ClusterState): void {
    if (this.minQueues.length > 0) this.minSharePhase(view);
    const policy = this.policy;
    if (policy.shares) this.dispatcher.apply(view, policy, this.startFn);
    else if (policy.pickNext) {
      for (;;) {
        const qi = policy.pickNext(view);
        if (qi < 0) break;
        const next = this.state.queues[qi]?.nextTask;
        if (!next || !fits(view, next)) break;
        this.start(qi);
      }
    }
  }

  /** Queues below their min share start tasks first, the smallest dominant share / min share first. */
  private minSharePhase(view: ClusterState): void {
    const cap = this.state.capacity;
    for (;;) {
      let best: LiveQueue | null = null;
      let bestRatio = 1 - SHARE_EPS;
      for (const q of this.minQueues) {
        const next = q.nextTask;
        if (q.rejected || !next) continue;
        const ratio = dominantShare(q.usage, cap) / (q.spec.params!.minShare as number);
        if (ratio < bestRatio && fits(view, next)) { bestRatio = ratio; best = q; }
      }
      if (!best) return;
      this.start(best.index);
    }
  }

  /** Starts queue qi's next task (the dispatch's and the pick loop's start). */
  private start(qi: number): void {
    const st = this.state;
    const slots = st.slots;
    const q = st.queues[qi];
    const s = q.shift();
    const time = this.pointTime;
    this.settle(q, time);
    slots.state[s] = RUNNING;
    slots.started[s] = time;
    slots.startSeq[s] = this.starts++;
    q.runningCount++;
    const d = slots.demand[s]!;
    const none = q.waitingCount === 0;
    const pending = st.pendingRows, usage = st.usageRows, demand = st.demandRows, used = st.used, shifted = this.shifted;
    const k = this.k, o = qi * k;
    for (let r = 0; r < k; r++) {
      const p = none ? 0 : pending[o + r] - d[r];
      const pr = p > 0 ? p : 0;
      pending[o + r] = pr;
      const u = usage[o + r] + d[r];
      usage[o + r] = u;
      demand[o + r] = u + pr;
      used[r] += d[r];
      if (shifted) shifted[r] += d[r];
    }
    if (q.maxShare < 1) this.refreshCap(q);
    this.dispatcher.touch(st, qi);
    if (this.startedCount === this.startedSlots.length) {
      const more = new Int32Array(2 * this.startedSlots.length);
      more.set(this.startedSlots);
      this.startedSlots = more;
    }
    this.startedSlots[this.startedCount++] = s;
  }

  /** A running task ends: its resources are free again. */
  finish(id: string): void {
    const s = this.task(id);
    if (this.state.slots.state[s] !== RUNNING) throw new InputError("id", `task '${id}' is not running`);
    const time = this.now();
    this.begin(time);
    this.release(s, time);
  }

  /** finish() for a handle. */
  finishHandle(handle: number): void {
    const s = this.handle(handle);
    if (this.state.slots.state[s] !== RUNNING) throw new InputError("handle", `task handle ${s} is not running`);
    const time = this.now();
    this.begin(time);
    this.release(s, time);
  }

  /** Running task s ends (finished or cancelled): its resources are free again, its slot too. */
  private release(s: number, time: number): void {
    const slots = this.state.slots;
    const q = slots.queue[s]!;
    this.settle(q, time);
    q.runningCount--;
    slots.state[s] = FREE;
    const id = slots.id[s];
    if (id !== undefined) this.tasks.delete(id);
    this.addUsage(q, slots.demand[s]!, -1);
    if (this.events) {
      this.emit({ type: "taskEnd", time, queue: q.index, job: slots.jobOf(s), stage: 0, task: 0, started: slots.started[s] });
      if (q.openBurst && slots.burst[s] === q.openBurst.index) q.openBurst.finishedTasks++;
    }
    // a job ends with its last task for every policy (a later task of that name is a new job, as after a restore)
    this.jobTaskGone(s, time);
    slots.free(s);
  }

  /** A task of a tracked job ended or was cancelled: the job ends with its last task. */
  private jobTaskGone(s: number, time: number): void {
    const q = this.state.slots.queue[s]!;
    if (!q.hasJobs) return;
    const job = this.state.slots.jobOf(s);
    const j = q.jobs.get(job);
    if (!j || --j.left > 0) return;
    q.jobs.delete(job);
    this.emit({ type: "jobEnd", time, queue: q.index, job });
  }

  private addPending(q: LiveQueue, d: Float64Array, sign: 1 | -1): void {
    const none = q.waitingCount === 0;
    const st = this.state, pending = st.pendingRows, usage = st.usageRows, demand = st.demandRows;
    const k = this.k, o = q.index * k;
    for (let r = 0; r < k; r++) {
      const p = pending[o + r] + sign * d[r];
      const pr = none || p < 0 ? 0 : p;
      pending[o + r] = pr;
      demand[o + r] = usage[o + r] + pr;
    }
    if (q.maxShare < 1 || q.capped) this.refreshCap(q);
    this.dispatcher.touch(st, q.index);
  }

  private addUsage(q: LiveQueue, d: Float64Array, sign: 1 | -1): void {
    const none = q.runningCount === 0;
    const st = this.state, pending = st.pendingRows, usage = st.usageRows, demand = st.demandRows, used = st.used;
    const k = this.k, o = q.index * k;
    for (let r = 0; r < k; r++) {
      const u = usage[o + r] + sign * d[r];
      const ur = none || u < 0 ? 0 : u;
      usage[o + r] = ur;
      demand[o + r] = ur + pending[o + r];
      const x = used[r] + sign * d[r];
      used[r] = x > 0 ? x : 0;
    }
    if (q.maxShare < 1 || q.capped) this.refreshCap(q);
    this.dispatcher.touch(st, q.index);
  }

  /** Max share: a queue whose next task would take its dominant share above it shows no runnable task. */
  private refreshCap(q: LiveQueue): void {
    const max = q.maxShare;
    if (max >= 1) { q.capped = false; return; }
    if (q.head < 0) { q.capped = false; return; }
    const head = this.state.slots.demand[q.head]!;
    let after = 0;
    for (let r = 0; r < this.k; r++) after = Math.max(after, (q.usage[r] + head[r]) / this.state.capacity[r]);
    q.capped = after > max + SHARE_EPS;
  }

  /** Per queue: usage, dominant share, the policy's target (if it has one), accumulated dominant share x seconds. */
  shares(): QueueShare[] {
    const time = this.now();
    this.begin(time);
    if (this.stale) this.bind();
    const st = this.state;
    const k = this.k;
    let targets: Float64Array | null = null;
    if (this.policy.shares) {
      targets = new Float64Array(st.queues.length * k);
      this.policy.shares(st, targets);
    }
    return st.queues.map((q) => ({
      queue: q.spec.name,
      usage: Array.from(q.usage),
      dominantShare: dominantShare(q.usage, st.capacity),
      target: targets ? Array.from(targets.subarray(q.index * k, q.index * k + k)) : null,
      accumulated: q.accumulated + dominantShare(q.usage, st.capacity) * (time - q.since),
      waiting: q.waitingCount,
      running: q.runningCount,
    }));
  }

  /** Why a queue is where it is: its weighted dominant share, rank among queues with waiting tasks, and whether its next task fits. */
  explain(queue: string): { queue: string; weightedShare: number; rank: number | null; waiting: number; running: number; nextTaskFits: boolean | null; admission: Admission; reason: string } {
    const q = this.queue(queue);
    const st = this.state;
    const key = (x: LiveQueue) => dominantShare(x.usage, st.capacity) / (x.spec.weight ?? 1);
    const w = key(q);
    const head = q.head;
    const fitsNow = head >= 0 ? fits(st, st.slots.demand[head]!) : null;
    let rank: number | null = null;
    if (head >= 0) {
      rank = 1;
      for (const x of st.queues) if (x !== q && x.head >= 0 && (key(x) < w || (key(x) === w && x.index < q.index))) rank++;
    }
    const admission = this.admissionOf(q);
    const min = q.spec.params?.minShare as number | undefined;
    const max = q.spec.params?.maxShare as number | undefined;
    const parts: string[] = [];
    if (q.rejected) parts.push(`rejected at admission (${admission.reason}): it starts nothing`);
    else if (head < 0) parts.push("no waiting task");
    else {
      parts.push(this.policyName === "fifo"
        ? `FIFO: its next task's job arrived at t=${st.slots.arrival[head]}`
        : `weighted dominant share ${w.toPrecision(4)} (dominant share / weight ${q.spec.weight ?? 1}) is number ${rank} among queues with waiting tasks`);
      parts.push(`its next task ${fitsNow ? "fits in what is free" : "does not fit in what is free"}`);
      if (q.capped) parts.push(`it is at its max share ${max}: its next task would take it above`);
      const held = this.heldFor(q);
      if (held) parts.push(`the starvation guard holds the room its next task needs for queue '${held}' (the head of the DRF order, whose next task does not fit)`);
      if (min !== undefined && !this.ownShares && dominantShare(q.usage, st.capacity) < min) parts.push(`it is below its min share ${min}: served before the policy's order`);
      if (this.policyName === "sp" && q.spec.kind === "LQ") parts.push("as an LQ it is served first, up to its DRF share of the whole capacity");
    }
    if (!q.rejected && (this.policyName === "bopf" || this.policyName === "nbopf") && q.spec.kind === "LQ") parts.push(`admitted ${admission.class}${q.openBurst ? `, burst ${q.openBurst.index} open until t=${q.openBurst.deadline}` : ", no burst open"}`);
    return { queue: q.spec.name, weightedShare: w, rank, waiting: q.waitingCount, running: q.runningCount, nextTaskFits: fitsNow, admission, reason: parts.join("; ") };
  }

  /** The queue whose reserved task keeps q's next task from starting now (the starvation guard), or null. */
  private heldFor(q: LiveQueue): string | null {
    const h = this.dispatcher.reservedQueue;
    const st = this.state;
    const head = q.head >= 0 ? st.slots.demand[q.head] : null;
    const other = h >= 0 && h !== q.index ? st.queues[h] : null;
    const reserved = other && other.head >= 0 ? st.slots.demand[other.head] : null;
    if (!head || !reserved || !this.policy.shares) return null;
    for (let r = 0; r < this.k; r++) {
      const d = head[r], x = reserved[r];
      if (d > 0 && x > 0 && exceeds(st.used[r] + d, x, st.capacity[r])) return st.queues[h].spec.name;
    }
    return null;
  }

  /** Versioned plain JSON from which restoreScheduler rebuilds the scheduler (docs/live-scheduler.md says what carries over). */
  snapshot(): SchedulerSnapshot {
    const time = this.now();
    const slots = this.state.slots;
    // running tasks by queue, in start order
    const running = new Map<LiveQueue, number[]>();
    for (let x = 0; x < slots.size; x++) {
      if (slots.state[x] !== RUNNING) continue;
      const q = slots.queue[x]!;
      const list = running.get(q);
      if (list) list.push(x); else running.set(q, [x]);
    }
    const record = (x: number) => ({ ...this.taskInput(x), submitted: slots.submitted[x], arrival: slots.arrival[x] });
    const out: SchedulerSnapshot = {
      version: SNAPSHOT_VERSION,
      policy: this.policyName,
      capacity: Array.from(this.state.capacity),
      resources: [...this.state.resources],
      reservation: this.reservation,
      starvationGuard: this.starvationGuard,
      seed: this.seed,
      time,
      queues: this.state.queues.map((q) => ({
        name: q.spec.name,
        spec: JSON.parse(JSON.stringify(q.spec)) as QueueSpec,
        accumulated: q.accumulated,
        since: q.since,
        openBurst: q.openBurst ? { ...q.openBurst, deadline: Number.isFinite(q.openBurst.deadline) ? q.openBurst.deadline : null } : null,
        waiting: q.waitingSlots().map(record),
        running: (running.get(q) ?? []).sort((a, b) => slots.started[a] - slots.started[b] || slots.startSeq[a] - slots.startSeq[b]).map((x) => ({ ...record(x), started: slots.started[x] })),
      })),
    };
    if (this.mode === HANDLES && slots.count > 0) out.handles = true;
    if (this.policyOptions !== undefined) out.policyOptions = JSON.parse(JSON.stringify(this.policyOptions, (_, v) => (v === Infinity ? "Infinity" : v)));
    // the policy's history (version 3): what a rebuild now would carry over; none before its first build
    const ps = this.carried ?? (this.built && typeof this.policy.exportState === "function" ? this.policy.exportState() : null);
    if (ps !== null) out.policyState = JSON.parse(JSON.stringify(ps)) as PolicyState;
    out.rng = this.rng.getState();
    const reserved = this.dispatcher.reservedQueue;
    if (reserved >= 0) out.reservedFor = this.state.queues[reserved].spec.name;
    out.wakeups = this.timers.filter((t) => t.queue === null).map((t) => t.time);
    return out;
  }

  /** Internal: rebuilds the state from a checked snapshot (restoreScheduler). */
  load(s: SchedulerSnapshot): void {
    this.state.time = s.time;
    const slots = this.state.slots;
    // handle tasks keep their handles (their slots); tasks with ids take slots in order
    if (s.handles === true) this.mode = HANDLES;
    else if (s.queues.some((q) => q.running.length + q.waiting.length > 0)) this.mode = IDS;
    if (s.policyState !== undefined) {
      if (typeof this.factory.create(this.policyOptions).importState !== "function") throw new InputError("snapshot.policyState", `policy '${this.policyName}' has no state to restore`);
      this.carried = s.policyState;
    }
    if (s.rng !== undefined) this.rng = Rng.fromState(s.rng);
    for (const t of s.wakeups ?? []) this.addTimer({ time: t, queue: null, burst: -1 });
    for (const qs of s.queues) {
      const q = new LiveQueue(this.state.queues.length, qs.spec, qs.since, slots);
      q.accumulated = qs.accumulated;
      this.state.push(q);
      this.byName.set(qs.name, q);
      this.setSpec(q, qs.spec);
      if (qs.openBurst) {
        const deadline = qs.openBurst.deadline ?? Infinity;
        q.openBurst = { ...qs.openBurst, deadline };
        if (Number.isFinite(deadline)) this.addTimer({ time: deadline, queue: q, burst: qs.openBurst.index });
      }
      const add = (r: SchedulerSnapshot["queues"][number]["waiting"][number], running: boolean, started: number) => {
        const job = r.job ?? r.id;
        const tracked = this.events || r.job !== undefined;
        const arrival = r.arrival ?? r.submitted;
        let x: number;
        if (s.handles === true) slots.allocAt((x = Number(r.id)));
        else {
          x = slots.alloc();
          slots.id[x] = r.id;
          this.tasks.set(r.id, x);
        }
        if (tracked) {
          const j = q.jobs.get(job);
          if (j) j.left++;
          else q.jobs.set(job, { left: 1, arrival });
        }
        const demand = Float64Array.from(r.demand);
        slots.queue[x] = q;
        slots.demand[x] = demand;
        slots.job[x] = r.job;
        slots.submitted[x] = r.submitted;
        slots.arrival[x] = arrival;
        slots.burst[x] = r.burst ?? -1;
        slots.estimate[x] = r.estimate ?? NaN;
        if (running) {
          slots.state[x] = RUNNING;
          slots.started[x] = started;
          slots.startSeq[x] = this.starts++;
          q.runningCount++;
          this.addUsage(q, demand, 1);
        } else {
          slots.state[x] = WAITING;
          slots.started[x] = NaN;
          q.push(x);
          this.addPending(q, demand, 1);
        }
      };
      for (const r of qs.running) add(r, true, r.started);
      for (const w of qs.waiting) add(w, false, NaN);
    }
    this.stale = true;
    this.bind();
    if (s.reservedFor !== undefined) this.dispatcher.reservedQueue = this.byName.get(s.reservedFor)!.index;
  }
}

function sameVector(a: Float64Array | null, b: ArrayLike<number>, k: number): boolean {
  if (a === null) return false;
  for (let r = 0; r < k; r++) if (a[r] !== b[r]) return false;
  return true;
}

export function dominantShare(usage: ArrayLike<number>, capacity: ArrayLike<number>): number {
  let d = 0;
  for (let r = 0; r < capacity.length; r++) d = Math.max(d, usage[r] / capacity[r]);
  return d;
}

/**
 * The state with `used` replaced (schedule(free)): capacities, and so dominant shares, stay. A
 * plain object with the ClusterState members (not a Proxy: the dispatch and the policy read it
 * on every step of the point).
 */
class LimitedView implements ClusterState {
  constructor(private readonly state: LiveState, readonly used: Float64Array) {}
  get time(): number { return this.state.time; }
  get capacity(): Float64Array { return this.state.capacity; }
  get resources(): readonly string[] { return this.state.resources; }
  get queues(): readonly QueueState[] { return this.state.queues; }
  get demands(): Float64Array { return this.state.demands; }
  get usages(): Float64Array { return this.state.usages; }
}

/** A live scheduler (docs/live-scheduler.md). */
export function createScheduler(options: SchedulerOptions): Scheduler {
  return new Scheduler(options);
}

/** A scheduler from a snapshot; it makes the same decisions from then on (docs/live-scheduler.md, "Snapshots"). */
export function restoreScheduler(snapshot: SchedulerSnapshot, options: Omit<SchedulerOptions, "policy" | "capacity" | "resources" | "reservation" | "starvationGuard" | "policyOptions" | "seed"> = {}): Scheduler {
  const s = checkSnapshot(snapshot);
  const sched = new Scheduler({ ...options, policy: s.policy, capacity: s.capacity, resources: s.resources, reservation: s.reservation, starvationGuard: s.starvationGuard, policyOptions: s.policyOptions, seed: s.seed });
  s.queues.forEach((q, i) => queueSpec(q.name, specOptions(q.spec), `snapshot.queues[${i}].spec`, s.capacity.length));
  sched.load(s);
  return sched;
}
