// The live scheduler's state and its changes (docs/live-scheduler.md): the queues, the task
// ledger, the timers and the bound policy, and every change a host's call makes to them — a
// queue added, updated or removed, a task submitted, finished or cancelled — with the events the
// policy hears as the calls happen. The public class (scheduler.ts) checks a call's arguments and
// calls in here; the scheduling point is point.ts, explanations explain.ts, snapshots persist.ts.
import type { Engine } from "../engine/engine.js";
import { loadEngineSync } from "../engine/load.js";
import { InputError, describeValue } from "../errors.js";
import { Dispatcher } from "../dispatch/dispatcher.js";
import type { QueueSpec } from "../policy/model.js";
import type { Admission, PolicyActions } from "../policy/policy.js";
import { PolicyBinding } from "./binding.js";
import { HANDLES, IDS, TaskLedger, type TaskInput } from "./ledger.js";
import { FREE, LiveQueue, LiveState, RUNNING, WAITING } from "./live-state.js";
import type { CheckedOptions } from "./options.js";
import { TimerList } from "./timers.js";
import { checkDemandScale, checkVector, finiteNonNeg } from "./validate.js";

export class LiveCore {
  readonly k: number;
  readonly state: LiveState;
  readonly engine: Engine;
  readonly clock: () => number;
  /**
   * The clock's reading when the scheduler started (kept in snapshots): the scheduler's time, which
   * the policy and the snapshots see, is the clock's minus it, so live time starts at 0 whatever the
   * clock (docs/live-scheduler.md, "Time").
   */
  origin: number;
  readonly reservation: boolean;
  readonly starvationGuard: boolean;
  readonly dispatcher: Dispatcher;
  readonly timers = new TimerList();
  readonly binding: PolicyBinding;
  readonly ledger: TaskLedger;
  /** The policy applies min/max shares itself (Policy.ownShareRules); else the scheduler does. */
  readonly ownShares: boolean;
  readonly byName = new Map<string, LiveQueue>();
  /** Queues with a min share (served first, unless the policy has its own rule). */
  minQueues: LiveQueue[] = [];
  private readonly actions: PolicyActions;

  constructor(o: CheckedOptions) {
    this.k = o.capacity.length;
    this.reservation = o.reservation;
    this.starvationGuard = o.starvationGuard;
    this.engine = o.engine ?? loadEngineSync();
    this.clock = o.clock ?? (() => Date.now() / 1000);
    this.origin = this.readClock();
    this.state = new LiveState(o.capacity, o.resources);
    this.dispatcher = new Dispatcher(this.k, { reservation: this.reservation, starvationGuard: this.starvationGuard });
    this.ledger = new TaskLedger(this.state, this.k, this.dispatcher);
    this.actions = {
      dropJob: () => { throw new InputError("dropJob", "the live scheduler does not drop jobs (cancel their tasks)"); },
      wakeAt: (time: number) => this.timers.add({ time: Math.max(time, this.state.time), queue: null, burst: -1 }),
    };
    this.binding = new PolicyBinding(o.policy, o.factory, o.policyOptions, this.engine, o.seed, this.state, this.timers, this.dispatcher, this.actions);
    this.ownShares = this.binding.policy.ownShareRules === true;
  }

  /** The clock's reading, checked. */
  private readClock(): number {
    const t = this.clock();
    if (!(typeof t === "number" && Number.isFinite(t))) throw new InputError("clock", `returned ${describeValue(t)}, expected finite seconds`);
    return t;
  }

  /**
   * The scheduler's time now: the clock's minus the origin, never before the last call's (one rule
   * for a scheduler and its restored copy: both hold the last call's time). A reading at or past
   * nextWakeup() is at or past that timer, whatever the rounding of the subtraction. Reads only: a
   * refused call changes nothing.
   */
  now(): number {
    const t = this.readClock();
    let rel = t - this.origin;
    const next = this.timers.next();
    if (next !== null && rel < next && t >= next + this.origin) rel = next;
    return rel > this.state.time ? rel : this.state.time;
  }

  /** A scheduler time as the clock's reading (nextWakeup). */
  toClock(time: number): number {
    return time + this.origin;
  }

  /**
   * After a call's checks: the policy built for the current queues, due timers fired, the clock at
   * `time`. A timer due exactly now fires only at a scheduling point: as in the simulator, an
   * instant's submits come before its burst ends. `queueSet`: the call only changes queues
   * (addQueue, updateQueue), so the policy is rebuilt only if a timer fires now.
   */
  begin(time: number, point = false, queueSet = false): void {
    const b = this.binding;
    // a policy that cannot go on to `time` refuses the call here, before anything changes
    if (time > this.state.time && b.built) b.policy.checkTime?.(time);
    // the policy is needed only where it hears of something (an event) or decides (points,
    // shares): a run of addQueue calls (and, for a policy without events, of submits too) builds
    // it once. Deferring is exact because the policy it replaces heard nothing in between, so what
    // it carries over is the same then as now.
    if (b.stale && (point || (b.events && (!queueSet || this.timers.due(time, point))))) b.bind();
    while (this.timers.due(time, point)) {
      const tm = this.timers.shift();
      this.state.time = tm.time;
      const q = tm.queue;
      if (q === null || this.byName.get(q.spec.name) !== q) continue;
      if (q.openBurst && q.openBurst.index === tm.burst) q.openBurst = null;
      b.emit({ type: "burstEnd", time: tm.time, queue: q.index, burst: tm.burst });
    }
    this.state.time = time;
  }

  /** The queue named `name` (an InputError naming `field` when there is none). */
  queue(name: unknown, field = "queue"): LiveQueue {
    if (typeof name !== "string") throw new InputError(field, `expected a queue name, got ${describeValue(name)}`);
    const q = this.byName.get(name);
    if (!q) throw new InputError(field, `unknown queue '${name}'`);
    return q;
  }

  /** Queue q takes `spec`: its max-share cap and min-share membership follow. */
  setSpec(q: LiveQueue, spec: QueueSpec): void {
    q.spec = spec;
    const max = spec.params?.maxShare;
    q.maxShare = !this.ownShares && typeof max === "number" ? max : 1;
    const min = spec.params?.minShare;
    this.minQueues = this.minQueues.filter((x) => x !== q);
    if (!this.ownShares && typeof min === "number" && min > 0) this.minQueues.push(q);
    this.ledger.refreshCap(q);
  }

  /** Adds a queue with a checked spec; returns its admission. */
  addQueue(name: string, spec: QueueSpec): Admission {
    const b = this.binding;
    const time = this.now();
    this.begin(time, false, true);
    // a built, current policy that can take a newcomer as its last queue is not rebuilt (BoPF: O(1) admission work)
    const append = !b.stale && b.built && b.carried === null && typeof b.policy.appendQueue === "function";
    const q = new LiveQueue(this.state.queues.length, spec, time, this.state.slots);
    this.state.push(q);
    this.byName.set(name, q);
    this.setSpec(q, spec);
    const undo = () => {
      this.byName.delete(name);
      this.minQueues = this.minQueues.filter((x) => x !== q);
      this.state.remove(q.index);
      b.dropAdmission(q);
      this.dispatcher.reset(this.state.queues.length, q.index);
      for (const x of this.state.queues) this.dispatcher.touch(this.state, x.index);
    };
    if (append) {
      try {
        b.policy.appendQueue!(spec);
      } catch (e) {
        undo();
        throw e;
      }
      b.takeAdmission(q);
    } else {
      b.stale = true;
      if (typeof b.policy.admission === "function") b.bindOrUndo(undo);
      else this.dispatcher.touch(this.state, q.index);
    }
    return b.admissionOf(q);
  }

  /** Queue q takes a checked spec; returns its admission after the change. */
  updateQueue(q: LiveQueue, spec: QueueSpec): Admission {
    const b = this.binding;
    // the tasks held and the open burst keep their burst indices: the new spec must still report them
    const held = this.highestBurstHeld(q);
    const reported = spec.bursts?.length ?? 0;
    if (held >= reported) throw new InputError("options.bursts", `queue '${q.spec.name}' holds tasks of burst ${held} (or has it open): it must report at least ${held + 1} bursts (got ${reported})`);
    const time = this.now();
    this.begin(time, false, true);
    const before = q.spec;
    this.setSpec(q, spec);
    b.stale = true;
    if (typeof b.policy.admission === "function") b.bindOrUndo(() => this.setSpec(q, before));
    this.dispatcher.touch(this.state, q.index);
    return b.admissionOf(q);
  }

  /** The highest burst index of queue q's open burst and held tasks, -1 for none (O(slots): updateQueue only). */
  private highestBurstHeld(q: LiveQueue): number {
    const slots = this.state.slots;
    let high = q.openBurst ? q.openBurst.index : -1;
    for (let x = 0; x < slots.size; x++) if (slots.state[x] !== FREE && slots.queue[x] === q && slots.burst[x] > high) high = slots.burst[x];
    return high;
  }

  /** Removes queue q (no running tasks); returns its waiting tasks. */
  removeQueue(q: LiveQueue): TaskInput[] {
    const b = this.binding;
    const time = this.now();
    this.begin(time);
    const waiting = q.waitingSlots().map((x) => this.ledger.taskInput(x));
    for (const x of q.waitingSlots()) this.ledger.dropSlot(x);
    this.byName.delete(q.spec.name);
    b.dropAdmission(q);
    this.minQueues = this.minQueues.filter((x) => x !== q);
    this.timers.filter((t) => t.queue !== q);
    const index = q.index;
    this.state.remove(index);
    this.dispatcher.reset(this.state.queues.length, index);
    for (const x of this.state.queues) this.dispatcher.touch(this.state, x.index);
    b.stale = true;
    // rebuilt now by a policy with events too: a queue added later under the same name must not
    // inherit this one's history from the policy built before the removal
    if (typeof b.policy.admission === "function" || b.events) b.bind();
    return waiting;
  }

  /**
   * Checks a task's fields (InputErrors before anything changes), then adds it to queue q's FIFO
   * in a new slot. A duplicate id is found by the insertion into the id map itself (one hash
   * lookup instead of two; it is the last check).
   */
  enqueue(q: LiveQueue, queue: string, demandIn: unknown, estimate: unknown, jobIn: unknown, burst: unknown, demandField: string, p: string, id?: string): number {
    const d = checkVector(demandField, demandIn, this.k);
    checkDemandScale(demandField, d, this.state.capacity);
    if (estimate !== undefined && !finiteNonNeg(estimate)) throw new InputError(`${p}estimate`, `must be a finite number >= 0 (got ${describeValue(estimate)})`);
    if (jobIn !== undefined && !(typeof jobIn === "string" && jobIn !== "")) throw new InputError(`${p}job`, `expected a non-empty string, got ${describeValue(jobIn)}`);
    if (burst !== undefined) {
      if (!(typeof burst === "number" && Number.isInteger(burst) && burst >= 0)) throw new InputError(`${p}burst`, `must be an integer >= 0 (got ${describeValue(burst)})`);
      if (q.spec.kind !== "LQ") throw new InputError(`${p}burst`, `queue '${queue}' is not an LQ`);
      const reported = q.spec.bursts?.length ?? 0;
      if (burst >= reported) throw new InputError(`${p}burst`, `queue '${queue}' reports ${reported} burst${reported === 1 ? "" : "s"} (indices 0..${reported - 1}); got ${burst}`);
    }
    const b = this.binding;
    if (q.rejected) throw new InputError("queue", `queue '${queue}' was rejected at admission: ${b.admissionOf(q).reason}`);
    const slots = this.state.slots;
    const ledger = this.ledger;
    const s = slots.alloc(); // given back below when the call is refused
    if (id !== undefined) {
      const n = ledger.tasks.size;
      ledger.tasks.set(id, s);
      if (ledger.tasks.size === n) {
        ledger.tasks.set(id, ledger.slotOfId(id, s)); // the set replaced the holder's slot: put it back
        slots.free(s);
        throw new InputError("task.id", `task '${id}' exists already`);
      }
    }
    let time: number;
    try {
      time = this.now();
      this.begin(time);
    } catch (e) {
      if (id !== undefined) ledger.tasks.delete(id);
      slots.free(s);
      throw e;
    }
    const demand = sameVector(q.lastDemand, d, this.k) ? q.lastDemand! : (q.lastDemand = Float64Array.from(d));
    ledger.mode = id === undefined ? HANDLES : IDS;
    slots.id[s] = id;
    const job = jobIn as string | undefined;
    let arrival = time;
    let newJob = false;
    let jobName = "";
    if (b.events || job !== undefined) {
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
    ledger.addPending(q, demand, 1);
    if (!b.events) return s;
    if (newJob) b.emit({ type: "arrival", time, queue: q.index, job: jobName });
    if (burst === undefined) return s;
    const bi = burst as number;
    if (newJob) {
      // as in the simulator, every job of a burst (re)opens it, for the burst's window from now
      const window = q.spec.bursts?.[bi]?.window ?? Infinity;
      q.openBurst = { index: bi, start: time, deadline: time + window, submittedTasks: 0, finishedTasks: 0 };
      b.emit({ type: "burstStart", time, queue: q.index, burst: bi });
      if (Number.isFinite(window)) this.timers.add({ time: time + window, queue: q, burst: bi });
    }
    if (q.openBurst?.index === bi) q.openBurst.submittedTasks++;
    return s;
  }

  /** Cancels the task in slot s (a running one frees its resources). */
  cancelSlot(s: number): { queue: string; wasRunning: boolean } {
    const time = this.now();
    this.begin(time);
    const slots = this.state.slots;
    const q = slots.queue[s]!;
    const wasRunning = slots.state[s] === RUNNING;
    if (wasRunning) this.release(s, time);
    else {
      q.unlink(s);
      this.ledger.addPending(q, slots.demand[s]!, -1);
      this.jobTaskGone(s, time);
      this.ledger.dropSlot(s);
    }
    return { queue: q.spec.name, wasRunning };
  }

  /** Task s is running. */
  isRunning(s: number): boolean {
    return this.state.slots.state[s] === RUNNING;
  }

  /** Running task s finishes now. */
  finishSlot(s: number): void {
    const time = this.now();
    this.begin(time);
    this.release(s, time);
  }

  /** Running task s ends (finished or cancelled): its resources are free again, its slot too. */
  private release(s: number, time: number): void {
    const slots = this.state.slots;
    const q = slots.queue[s]!;
    const b = this.binding;
    this.ledger.settle(q, time);
    q.runningCount--;
    slots.state[s] = FREE;
    const id = slots.id[s];
    if (id !== undefined) this.ledger.tasks.delete(id);
    this.ledger.addUsage(q, slots.demand[s]!, -1);
    if (b.events) {
      b.emit({ type: "taskEnd", time, queue: q.index, job: slots.jobOf(s), stage: 0, task: 0, started: slots.started[s] });
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
    this.binding.emit({ type: "jobEnd", time, queue: q.index, job });
  }
}

function sameVector(a: Float64Array | null, b: ArrayLike<number>, k: number): boolean {
  if (a === null) return false;
  for (let r = 0; r < k; r++) if (a[r] !== b[r]) return false;
  return true;
}
