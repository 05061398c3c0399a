// State of the node-level model and the steps every policy shares: one execution slot and one
// queue per worker, late binding (a probe at the head of an idle worker asks its job for a task
// one round trip before running it), the central list of jobs, the reordering round and the
// CRV demand accounting. Policy-specific steps are hooks (node/hooks.ts) filled by plugins;
// the event handlers (node/handlers/) drive this state.
import type { Engine } from "../../engine/engine.js";
import { InputError, describeValue } from "../../errors.js";
import { Environment } from "../../des/environment.js";
import { Rng } from "../../random/rng.js";
import type { RunawayGuard } from "../../des/runaway-guard.js";
import { ConstraintIndex, type Machines } from "../constraints.js";
import { generateMachines } from "../machines.js";
import { CrvTable, WorkerHistory } from "../monitor.js";
import { tableIIThreshold } from "../crv-threshold.js";
import { movedAhead } from "../moved-ahead.js";
import type { PhoenixJob } from "../workload.js";
import { BusyTime } from "./busy-time.js";
import { heartbeatGuard } from "./heartbeat-guard.js";
import { FLUSH, GRANT, END, FREE, PROBE, type NodeEvent } from "./events.js";
import type { NodeHooks } from "./hooks.js";
import { checkJob, type ResolvedNodeSettings } from "./options.js";
import { WorkerSampler } from "./sampler.js";
import { IDLE, REQUESTING, RUNNING, type Entry, type Job } from "./types.js";

export class NodeModel {
  readonly o: ResolvedNodeSettings;
  readonly engine: Engine;
  readonly workers: number;
  /** Placement randomness (probe targets). */
  readonly placeRng: Rng;
  /** Work-stealing randomness (victims). */
  readonly stealRng: Rng;
  readonly machines: Machines;
  readonly index: ConstraintIndex;
  readonly crv: CrvTable;
  readonly history: WorkerHistory;
  readonly sampler: WorkerSampler;
  readonly jobs: Job[];
  /** The event queue and clock (src/des); events are scheduled by absolute time only (at()). */
  readonly events = new Environment<NodeEvent>();
  /** Round trip of a task request, seconds. */
  readonly rtt: number;

  // worker state
  readonly queues: Entry[][];
  readonly state: Uint8Array;
  readonly current: (Entry | null)[];
  readonly currentTask: Int32Array;
  readonly taskStart: Float64Array;
  /** Long entries queued or running per worker (the long-job bit vector of Eagle's SSS). */
  readonly longLoad: Int32Array;
  private readonly dirty: Uint8Array;
  private dirtyList: number[] = [];
  private flushPending = false;

  /** Jobs arrived and not finished; of those, short ones. */
  active = 0;
  activeShort = 0;
  /** First and last job arrival (Infinity / -Infinity without jobs). */
  readonly firstArr: number;
  readonly lastArr: number;
  /** First arrival event handled (the makespan's start). */
  firstArrival = Infinity;
  readonly busy: BusyTime;
  /** Bounds the heartbeats (far beyond any trace's need: Yahoo at 90% load ~5,000). */
  readonly beatGuard: RunawayGuard;
  readonly stats = { reorderedTasks: 0, crvReorderedTasks: 0, reorderRounds: 0, crvQueueRounds: 0, hotHeartbeats: 0, crvWorkerBeats: 0, stolenProbes: 0, cancelledProbes: 0, probesBehindLong: 0, resentProbes: 0, relaxedUnsatisfiable: 0, relaxedCongested: 0, relaxedNegotiated: 0, events: 0 };

  /** Filled by install(). */
  hooks!: NodeHooks;
  /** Workers [0, shortOnly) take short tasks only (the partition hook). */
  shortOnly = 0;

  // probes and centrally placed tasks in flight, addressed by id
  private readonly inFlight = new Map<number, Entry>();
  private nextEntry = 0;

  constructor(jobsIn: readonly PhoenixJob[], o: ResolvedNodeSettings, engine: Engine, machines: Machines | undefined) {
    this.o = o;
    this.engine = engine;
    const W = (this.workers = o.workers);
    this.rtt = o.networkDelay;
    // the forks' order fixes every stream: placement, stealing, then generated machines
    const rng = new Rng(o.seed);
    this.placeRng = rng.fork();
    this.stealRng = rng.fork();
    this.machines = machines ?? generateMachines(W, rng.fork());
    if (this.machines.count !== W) throw new InputError("machines", `describes ${this.machines.count} workers, expected workers=${W}`);
    const index = (this.index = new ConstraintIndex(this.machines));
    this.crv = new CrvTable(index.supply, o.tableIIThresholds ? (c) => tableIIThreshold(index.list[c], o.crvThreshold) : () => o.crvThreshold);
    this.history = new WorkerHistory(W, o.historyLength);
    this.sampler = new WorkerSampler(W, this.placeRng);

    if (!Array.isArray(jobsIn)) throw new InputError("jobs", `expected an array of jobs, got ${describeValue(jobsIn)}`);
    this.jobs = jobsIn.map((spec, i) => {
      checkJob(spec, i);
      return { spec, n: spec.durations.length, long: spec.estimate > o.cutoff, next: 0, done: 0, end: NaN, ids: [], active: [], relaxed: 0 };
    });

    this.queues = Array.from({ length: W }, () => []);
    this.state = new Uint8Array(W);
    this.current = new Array(W).fill(null);
    this.currentTask = new Int32Array(W).fill(-1);
    this.taskStart = new Float64Array(W);
    this.longLoad = new Int32Array(W);
    this.dirty = new Uint8Array(W);
    // loops, not Math.min(...arrivals): spreading ~125k arguments overflows the call stack
    this.firstArr = this.jobs.reduce((m, j) => Math.min(m, j.spec.arrival), Infinity);
    this.lastArr = this.jobs.reduce((m, j) => Math.max(m, j.spec.arrival), -Infinity);
    this.busy = new BusyTime(this.firstArr, this.lastArr, o.busyWindow);
    this.beatGuard = heartbeatGuard(Math.max(2 ** 22, 1000 * this.jobs.length), o.heartbeat);
  }

  /** The current time: the time of the event being handled. */
  get now(): number {
    return this.events.now;
  }

  /** Schedules an event of `type` (node/events.ts) at absolute `time`. */
  at(time: number, type: number, a = 0, b = 0): void {
    // absolute time, priority 0: a delay (schedule) would compute now + (time - now), not always time
    this.events.scheduleAt(time, { type, a, b });
  }

  /** Installs the policy's hooks (compose.ts). */
  install(hooks: NodeHooks): void {
    this.hooks = hooks;
    this.shortOnly = hooks.shortOnlyWorkers(this.workers, this.o.shortOnlyFraction);
  }

  /** Marks worker w's queue for the reordering round of this instant, scheduling the round once. */
  markDirty(w: number): void {
    if (!this.dirty[w]) {
      this.dirty[w] = 1;
      this.dirtyList.push(w);
    }
    if (!this.flushPending) {
      this.flushPending = true;
      this.at(this.now, FLUSH);
    }
  }

  /** Takes the queues marked since the last round (the FLUSH handler). */
  takeDirty(): number[] {
    this.flushPending = false;
    const ws = this.dirtyList;
    this.dirtyList = [];
    for (const w of ws) this.dirty[w] = 0;
    return ws;
  }

  /** An entry (probe or central task) joins worker w's queue now. */
  enqueue(w: number, e: Entry): void {
    e.enq = this.now;
    e.arrived = this.now;
    if (e.task < 0 && !e.job.long && this.longLoad[w] > 0) this.stats.probesBehindLong++;
    this.queues[w].push(e);
    this.markDirty(w);
  }

  /** Sends an entry of job j (task -1: a probe) to worker w, arriving at `at`. */
  send(w: number, j: Job, task: number, at: number): void {
    const id = this.nextEntry++;
    this.inFlight.set(id, { job: j, task, slack: 0, enq: 0, arrived: 0 });
    this.at(at, PROBE, w, id);
  }

  /** The entry with this id, no longer in flight. */
  land(id: number): Entry {
    const e = this.inFlight.get(id)!;
    this.inFlight.delete(id);
    return e;
  }

  /** Probes of a job's unbound tasks over its eligible workers (the probe placement hook). */
  sendProbes(j: Job, eligible: Int32Array): void {
    const count = Math.max(this.o.probeRatio * (j.n - j.next), this.o.minProbes);
    this.hooks.placeProbes(j, eligible, count);
  }

  // CRV demand (monitor.ts): every task of an admitted job counts toward its constraints on
  // arrival; a task bound through a probe leaves it, a task placed centrally when it starts
  // (releaseLongDemand, the default; false never subtracts them: docs/reproduction-phoenix.md).
  addDemand(j: Job): void {
    for (const c of j.ids) this.crv.add(c, j.n);
  }

  private launched(j: Job): void {
    for (const c of j.ids) this.crv.add(c, -1);
  }

  startTask(w: number, e: Entry, task: number, at: number): void {
    this.state[w] = RUNNING;
    this.current[w] = e;
    this.currentTask[w] = task;
    this.taskStart[w] = at;
    this.at(at + e.job.spec.durations[task], END, w);
  }

  /** Worker w takes entry e: a bound task starts now; a probe asks its job for a task. */
  private serve(w: number, e: Entry): void {
    const j = e.job;
    if (e.task >= 0) {
      if (this.o.releaseLongDemand) this.launched(j);
      this.startTask(w, e, e.task, this.now);
      return;
    }
    // late binding: the answer (a task, or a cancel when all are bound) arrives one round trip later
    this.state[w] = REQUESTING;
    this.current[w] = e;
    if (j.next < j.n) {
      const task = j.next++;
      this.launched(j);
      this.currentTask[w] = task;
      this.at(this.now + this.rtt, GRANT, w, task);
    } else {
      this.stats.cancelledProbes++;
      this.currentTask[w] = -1;
      this.at(this.now + this.rtt, FREE, w);
    }
  }

  /** An idle worker takes its queue's head (after the idle hook, e.g. stealing, on an empty queue). */
  dispatch(w: number): void {
    if (this.state[w] !== IDLE) return;
    if (this.queues[w].length === 0) this.hooks.idle(w);
    const q = this.queues[w];
    if (q.length === 0) return;
    this.serve(w, q.shift()!);
  }

  /** Worker w's slot is free again. */
  release(w: number): void {
    this.state[w] = IDLE;
    this.current[w] = null;
  }

  /** Reorders every listed queue that the queue order sorts, in one kernel call. */
  reorder(ws: readonly number[]): void {
    const order = this.hooks.queueOrder;
    const queues = this.queues;
    const sel = ws.filter((w) => queues[w].length >= 2 && order.mode(w) !== 0);
    if (sel.length === 0) return;
    let t = 0;
    for (const w of sel) t += queues[w].length;
    const offsets = new Uint32Array(sel.length + 1);
    const score = new Float64Array(t), runtime = new Float64Array(t), slack = new Int32Array(t);
    const mode = new Uint8Array(sel.length);
    const flat: Entry[] = new Array(t);
    let k = 0, anyCrv = false;
    sel.forEach((w, qi) => {
      offsets[qi] = k;
      mode[qi] = order.mode(w);
      if (mode[qi] === 2) { anyCrv = true; this.stats.crvQueueRounds++; }
      for (const e of queues[w]) {
        flat[k] = e;
        // long tasks were placed by the central scheduler: CRV promotes short probes only
        score[k] = e.task >= 0 ? 0 : order.score(e.job);
        runtime[k] = order.key(e);
        slack[k] = e.slack;
        k++;
      }
    });
    offsets[sel.length] = t;
    const r = this.engine.crvReorder({ queueOffsets: offsets, crv: score, runtime, slack, mode: mode as unknown as ArrayLike<0 | 1 | 2>, slackThreshold: this.o.slackThreshold });
    for (let i = 0; i < t; i++) flat[i].slack = r.slack[i];
    sel.forEach((w, qi) => {
      const q = queues[w];
      for (let p = offsets[qi]; p < offsets[qi + 1]; p++) q[p - offsets[qi]] = flat[r.order[p]];
    });
    this.stats.reorderRounds++;
    this.stats.reorderedTasks += r.reordered;
    if (anyCrv) {
      sel.forEach((_, qi) => {
        if (mode[qi] === 2) this.stats.crvReorderedTasks += movedAhead(r.order, offsets[qi], offsets[qi + 1]);
      });
    }
  }
}
