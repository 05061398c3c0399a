// The common machinery of the MLRF / LTRF / H-LTRF simulator policies.
//
// Task-level policies answer pickNext one task at a time, but the selection itself is one
// batch call per scheduling point (engine.ltrf or HLtrf.allocate): `plan` decides how many
// tasks each queue starts, assuming a queue's waiting tasks all look like its next one,
// and pickNext hands the plan out. When a queue's next task is not the one planned (its
// head stage changed) or the plan runs out, the rest is re-planned from the state then,
// so the point ends only when a fresh plan starts nothing.
//
// Alongside, it keeps what the policies need and report:
// - the ledger: accumulated dominant share x time per queue (exact integral, windowed),
//   plus the "quantum lookahead" of running tasks: a task counts at least its quantum Q
//   until it ends (LTYARN §6.2.1), so U_i = integral + sum over running tasks of
//   dom x max(Q - elapsed, 0); with this the kernel's per-task charge dom x Q is exactly
//   what the ledger shows at the next scheduling point;
// - the quantum updater (Fig. 4): root -> QueueSpec.path groups -> queue -> job;
// - the fairness tracker: rho_i, Psi, Omega over time (docs/policies/ltrf.md).
// A finished task is matched to the oldest running task of its job (the simulator reports
// queue and job, not the task): exact when a job's tasks of one stage have one duration.
import type { Engine } from "../engine/engine.js";
import type { ClusterState, Policy, PolicyContext, SimEvent } from "../policy/policy.js";
import { FairnessTracker } from "./fairness.js";
import { UsageLedger } from "./ledger.js";
import { parseLtrfOptions, shareParam, type LtrfPolicyOptions } from "./options.js";
import { QuantumUpdater, type QuantumKey } from "./quantum.js";
import { InputError, describeValue } from "../errors.js";
import { byQueueName, stateArray, stateByQueue, stateNumber, stateObject, stateString } from "../policy/state-check.js";

/** Fairness samples (Psi, Omega, rho per queue) at most in one run: memory stays in tens of MB. */
export const MAX_FAIRNESS_SAMPLES = 2 ** 20;

/** One queue's part of an exported state. */
interface QueuePart {
  usage: number;
  rate: number;
  jobs: Array<{ id: string; arrival: number }>;
  running: Array<{ job: string; dom: number; start: number; q: number; node: QuantumKey }>;
}

interface RunningTask {
  id: string;
  job: string;
  dom: number;
  start: number;
  q: number;
}

/** What plan() gets: per queue its next task, how many may start, its ledger and per-task charge. */
export interface PlanInput {
  time: number;
  free: Float64Array;
  tasks: Float64Array;
  pending: Float64Array;
  /** Tasks to start first to reach the queue's min share (a subset of pending). */
  minPending: Float64Array;
  usage: Float64Array;
  increments: Float64Array;
  weights: Float64Array;
  count: Float64Array;
  /** The counts as decided (count is consumed as tasks start). */
  planned: Float64Array;
}

export abstract class PlannedPolicy implements Policy {
  abstract readonly name: string;
  protected readonly opts: LtrfPolicyOptions;
  protected engine!: Engine;
  protected n = 0;
  protected k = 0;
  protected cap!: Float64Array;
  protected weights!: Float64Array;
  protected minShare!: Float64Array;
  protected maxShare!: Float64Array;
  protected ledger!: UsageLedger;
  protected fairness!: FairnessTracker;
  protected quantum!: QuantumUpdater;
  private queueNode!: number[];
  private queuePath!: string[][];
  protected names: string[] = [];
  /** Job -> its quantum-tree node, keyed per queue (appKey): two queues may name a job alike. */
  private readonly appNode = new Map<string, number>();
  private running!: RunningTask[][];
  private jobs!: Array<Array<{ id: string; arrival: number }>>;
  private plan: PlanInput | null = null;
  private cursor = 0;
  private seq = 0;
  private nextSample = 0;
  private stats = { plans: 0, replans: 0 };

  constructor(options?: Record<string, unknown>) {
    this.opts = parseLtrfOptions(options);
  }

  /** Decides in.count (tasks per queue) for one scheduling point. */
  protected abstract decide(p: PlanInput): void;
  /** The usage a queue is ranked by, U_i (before this point's starts). */
  protected abstract rankUsage(state: ClusterState, i: number): number;
  /** The usage one started task adds to U_i: its dominant share x the quantum, or x 1 for memoryless ranking. */
  protected abstract charge(taskDom: number, quantum: number): number;

  init(ctx: PolicyContext): void {
    const w = ctx.workload;
    this.engine = ctx.engine;
    this.n = w.queues.length;
    this.k = w.capacity.length;
    this.cap = Float64Array.from(w.capacity);
    this.weights = Float64Array.from(w.queues, (q) => q.weight ?? 1);
    this.minShare = Float64Array.from(w.queues, (q, i) => shareParam(q.params, "minShare", i) ?? 0);
    this.maxShare = Float64Array.from(w.queues, (q, i) => shareParam(q.params, "maxShare", i) ?? 1);
    this.ledger = new UsageLedger(this.n, this.opts.window);
    this.fairness = new FairnessTracker(this.weights);
    this.quantum = new QuantumUpdater(this.opts.quantum, this.opts.refreshInterval);
    this.names = w.queues.map((q) => q.name);
    this.queuePath = w.queues.map((q) => [...(q.path ?? []), q.name]);
    this.queueNode = this.queuePath.map((p) => this.quantum.queue(p));
    this.running = w.queues.map(() => []);
    this.jobs = w.queues.map(() => []);
  }

  onEvent(ev: SimEvent, state: ClusterState): void {
    this.observe(state);
    if (ev.type === "arrival") {
      this.jobs[ev.queue].push({ id: ev.job, arrival: ev.time });
      this.appNode.set(appKey(ev.queue, ev.job), this.quantum.app(this.queuePath[ev.queue], ev.job));
    } else if (ev.type === "taskEnd") {
      const list = this.running[ev.queue];
      const at = list.findIndex((r) => r.job === ev.job);
      if (at >= 0) {
        const [r] = list.splice(at, 1);
        this.quantum.taskFinished(r.id, ev.time);
      }
    } else if (ev.type === "jobEnd") {
      const list = this.jobs[ev.queue];
      const at = list.findIndex((j) => j.id === ev.job);
      if (at >= 0) list.splice(at, 1);
      // tasks of a dropped job end without taskEnd events
      this.running[ev.queue] = this.running[ev.queue].filter((r) => r.job !== ev.job || (this.quantum.taskFinished(r.id, ev.time), false));
    }
  }

  pickNext(state: ClusterState): number {
    this.observe(state);
    let fresh = false;
    for (;;) {
      if (!this.plan) {
        if (fresh) return -1; // a fresh plan that could not start its first task: stop (guards against loops)
        this.plan = this.makePlan(state);
        this.cursor = 0;
        fresh = true;
        if (this.plan === null) return -1;
      }
      const p = this.plan;
      while (this.cursor < this.n && p.count[this.cursor] === 0) this.cursor++;
      if (this.cursor === this.n) {
        // Spent. A queue the plan stopped serving while its head is unchanged was stopped
        // by room (or its max share), so a re-plan is only worth it when a head changed.
        const changed = !fresh && this.headsChanged(state, p);
        this.plan = null;
        if (!changed) return -1;
        this.stats.replans++;
        continue;
      }
      const q = this.cursor;
      const next = state.queues[q].nextTask;
      if (!next || !this.sameTask(next, p.tasks, q) || !this.fits(state, next)) {
        this.plan = null;
        this.stats.replans++;
        if (fresh) return -1;
        continue;
      }
      p.count[q]--;
      this.recordStart(state, q, next);
      return q;
    }
  }

  report(): Record<string, unknown> {
    const f = this.fairness;
    return {
      fairness: f.series,
      final: { rho: Array.from({ length: this.n }, (_, i) => f.rho(i)), psi: f.psi(), omega: f.omega() },
      ledger: Array.from(this.ledger.usage),
      rounds: this.ledger.resets,
      quanta: this.queueNode.map((v) => this.quantum.quantum(v)),
      plans: this.stats.plans,
      replans: this.stats.replans,
    };
  }

  /**
   * The history by queue name (docs/live-scheduler.md, "Policy state"): the ledger's round and
   * per-queue integral and rate, the quantum tree (by path and app name) with its running tasks,
   * the active jobs. A newcomer is a queue that was idle since the round began: integral 0
   * (docs/policies/ltrf.md: f_i is the integral of its dominant share over the round), its
   * quantum node created under its group with the group's quantum. The fairness series of
   * `report` is not carried (it is output, not a decision input).
   */
  exportState(): Record<string, unknown> {
    const quantum = this.quantum.exportState();
    const keys = quantum.nodes.map((n) => n.key);
    return {
      round: { start: this.ledger.roundStart, resets: this.ledger.resets, last: this.ledger.lastTime },
      quantum,
      seq: this.seq,
      nextSample: this.nextSample,
      stats: { ...this.stats },
      queues: byQueueName(this.names, (i): QueuePart => ({
        usage: this.ledger.usage[i],
        rate: this.ledger.rateOf(i),
        jobs: this.jobs[i].map((j) => ({ id: j.id, arrival: j.arrival })),
        running: this.running[i].map((r) => ({ job: r.job, dom: r.dom, start: r.start, q: r.q, node: keys[this.quantum.nodeOfRunning(r.id)] })),
      })),
    };
  }

  importState(state: unknown, field: string): void {
    const o = stateObject(state, field);
    const round = stateObject(o.round, `${field}.round`);
    const start = stateNumber(round.start, `${field}.round.start`), resets = stateNumber(round.resets, `${field}.round.resets`, 0), last = stateNumber(round.last, `${field}.round.last`);
    const seq = stateNumber(o.seq, `${field}.seq`, 0), nextSample = stateNumber(o.nextSample, `${field}.nextSample`);
    const stats = stateObject(o.stats, `${field}.stats`);
    const plans = stateNumber(stats.plans, `${field}.stats.plans`, 0), replans = stateNumber(stats.replans, `${field}.stats.replans`, 0);
    const queues = stateByQueue(o.queues, `${field}.queues`, (v, f): QueuePart => {
      const q = stateObject(v, f);
      return {
        usage: stateNumber(q.usage, `${f}.usage`, 0),
        rate: stateNumber(q.rate, `${f}.rate`, 0),
        jobs: stateArray(q.jobs, `${f}.jobs`).map((x, j) => {
          const jo = stateObject(x, `${f}.jobs[${j}]`);
          return { id: stateString(jo.id, `${f}.jobs[${j}].id`), arrival: stateNumber(jo.arrival, `${f}.jobs[${j}].arrival`) };
        }),
        running: stateArray(q.running, `${f}.running`).map((x, j) => {
          const rf = `${f}.running[${j}]`;
          const r = stateObject(x, rf);
          const node = stateArray(r.node, `${rf}.node`).map((s, i) => stateString(s, `${rf}.node[${i}]`));
          return { job: stateString(r.job, `${rf}.job`), dom: stateNumber(r.dom, `${rf}.dom`, 0), start: stateNumber(r.start, `${rf}.start`), q: stateNumber(r.q, `${rf}.q`, 0), node };
        }),
      };
    });
    const quantum = new QuantumUpdater(this.opts.quantum, this.opts.refreshInterval);
    quantum.importState(o.quantum, `${field}.quantum`);
    // every running task's node must be in the imported tree (checked before anything changes)
    const known = new Set((o.quantum as { nodes: Array<{ key: string[] }> }).nodes.map((n) => JSON.stringify(n.key)));
    for (const [name, q] of queues) q.running.forEach((r, j) => { if (!known.has(JSON.stringify(r.node))) throw new InputError(`${field}.queues.${name}.running[${j}].node`, `not a node of the quantum tree: ${describeValue(r.node)}`); });
    if (!(last >= start)) throw new InputError(`${field}.round.last`, `must be >= the round's start ${start} (got ${last})`);
    // all checked: take it over (the newcomers keep what init gave them)
    const ledger = new UsageLedger(this.n, this.opts.window);
    const usage = new Float64Array(this.n), rate = new Float64Array(this.n);
    this.names.forEach((name, i) => { const q = queues.get(name); if (q) { usage[i] = q.usage; rate[i] = q.rate; } });
    ledger.restore(start, resets, last, usage, rate);
    this.ledger = ledger;
    this.quantum = quantum;
    this.seq = seq;
    this.nextSample = nextSample;
    this.stats = { plans, replans };
    this.queueNode = this.queuePath.map((p) => quantum.queue(p));
    this.appNode.clear();
    let restored = 0; // ids of taken-over tasks: their own series, so `seq` goes on as exported
    this.names.forEach((name, i) => {
      const q = queues.get(name);
      this.jobs[i] = q ? q.jobs : [];
      this.running[i] = [];
      if (!q) return;
      for (const j of q.jobs) this.appNode.set(appKey(i, j.id), quantum.app(this.queuePath[i], j.id));
      for (const r of q.running) {
        const id = `${i}#r${restored++}`;
        quantum.restoreRunning(quantum.nodeAt(r.node), id, r.start, r.q);
        this.running[i].push({ id, job: r.job, dom: r.dom, start: r.start, q: r.q });
      }
    });
  }

  /** Dominant share of a vector. */
  protected dom(v: ArrayLike<number>, offset = 0): number {
    let s = 0;
    for (let r = 0; r < this.k; r++) s = Math.max(s, v[offset + r] / this.cap[r]);
    return s;
  }

  /** U_i from the ledger: integral of the round plus running tasks' quantum lookahead. */
  protected longTermUsage(i: number, t: number): number {
    let u = this.ledger.usage[i];
    for (const r of this.running[i]) u += r.dom * Math.max(r.q - (t - r.start), 0);
    return u;
  }

  /** Refuses a time the fairness series cannot reach (Policy.checkTime); changes nothing. */
  checkTime(t: number): void {
    if (this.fairness !== undefined && this.nextSample <= t) this.checkSamples(t);
  }

  /** Bounds the fairness series: sampling up to t must add at most MAX_FAIRNESS_SAMPLES points in all, and must advance. */
  private checkSamples(t: number): void {
    const every = this.opts.sampleInterval;
    const adding = Math.floor((t - this.nextSample) / every) + 1;
    if (this.nextSample + every === this.nextSample || !(this.fairness.series.t.length + adding <= MAX_FAIRNESS_SAMPLES)) {
      throw new InputError("policyOptions.sampleInterval", `${every} s gives more than ${MAX_FAIRNESS_SAMPLES} fairness samples up to t = ${t} s (or does not advance there); use a longer interval`);
    }
  }

  /** The quantum of the job whose task queue i would start next. */
  protected headQuantum(state: ClusterState, i: number): number {
    const job = this.headJob(state, i);
    const node = job !== null ? this.appNode.get(appKey(i, job)) : undefined;
    return this.quantum.quantum(node ?? this.queueNode[i]);
  }

  private observe(state: ClusterState): void {
    const t = state.time;
    if (this.nextSample <= t) this.checkSamples(t);
    while (this.nextSample <= t) {
      this.fairness.advance(this.nextSample);
      this.fairness.sample(this.nextSample);
      this.nextSample += this.opts.sampleInterval;
    }
    this.ledger.advance(t);
    this.fairness.advance(t);
    if (this.opts.adaptive) this.quantum.refresh(t);
    for (let i = 0; i < this.n; i++) {
      const q = state.queues[i];
      const g = this.dom(q.usage);
      this.ledger.setRate(i, g);
      this.fairness.set(i, g, this.dom(q.demand));
    }
  }

  private makePlan(state: ClusterState): PlanInput | null {
    const { n, k } = this;
    const t = state.time;
    const p: PlanInput = {
      time: t, free: new Float64Array(k), tasks: new Float64Array(n * k), pending: new Float64Array(n),
      minPending: new Float64Array(n), usage: new Float64Array(n), increments: new Float64Array(n),
      weights: this.weights, count: new Float64Array(n), planned: new Float64Array(0),
    };
    for (let r = 0; r < k; r++) p.free[r] = Math.max(0, this.cap[r] - state.used[r]);
    let any = false;
    for (let i = 0; i < n; i++) {
      const q = state.queues[i];
      p.usage[i] = this.rankUsage(state, i);
      const next = q.nextTask;
      if (q.rejected || !next || q.runnableTasks === 0) continue;
      p.tasks.set(next, i * k);
      const td = this.dom(next);
      const held = this.dom(q.usage);
      let pend = q.runnableTasks;
      // max share: tasks that keep the queue at or under it (tiny slack for rounding)
      if (this.maxShare[i] < 1 && td > 0) pend = Math.min(pend, Math.max(0, Math.floor((this.maxShare[i] - held) / td + 1e-9)));
      if (this.minShare[i] > 0 && held < this.minShare[i]) {
        p.minPending[i] = td > 0 ? Math.min(pend, Math.ceil((this.minShare[i] - held) / td - 1e-9)) : pend;
      }
      p.pending[i] = pend;
      p.increments[i] = this.charge(td, this.headQuantum(state, i));
      if (pend > 0) any = true;
    }
    if (!any) return null;
    this.stats.plans++;
    this.decide(p);
    p.planned = p.count.slice();
    let total = 0;
    for (let i = 0; i < n; i++) total += p.count[i];
    return total > 0 ? p : null;
  }

  private headsChanged(state: ClusterState, p: PlanInput): boolean {
    for (let i = 0; i < this.n; i++) {
      if (p.planned[i] === 0) continue;
      const next = state.queues[i].nextTask;
      if (next && !this.sameTask(next, p.tasks, i)) return true;
    }
    return false;
  }

  private sameTask(next: Float64Array, tasks: Float64Array, q: number): boolean {
    for (let r = 0; r < this.k; r++) if (next[r] !== tasks[q * this.k + r]) return false;
    return true;
  }

  private fits(state: ClusterState, task: Float64Array): boolean {
    for (let r = 0; r < this.k; r++) if (state.used[r] + task[r] > this.cap[r] * (1 + 1e-12)) return false;
    return true;
  }

  private headJob(state: ClusterState, i: number): string | null {
    const list = this.jobs[i];
    const named = state.queues[i].nextJob;
    if (named !== undefined && named !== null && list.some((j) => j.id === named)) return named;
    const a = state.queues[i].nextArrival;
    for (const j of list) if (j.arrival === a) return j.id;
    return list.length ? list[0].id : null;
  }

  private recordStart(state: ClusterState, q: number, task: Float64Array): void {
    const job = this.headJob(state, q) ?? "?";
    const id = `${q}#${this.seq++}`;
    const node = this.appNode.get(appKey(q, job)) ?? this.queueNode[q];
    this.quantum.taskStarted(node, id, state.time);
    this.running[q].push({ id, job, dom: this.dom(task), start: state.time, q: this.quantum.quantum(node) });
  }
}

/** Runs the min-share phase and then the rest through engine.ltrf (flat LTRF and MLRF). */
export function decideFlat(engine: Engine, p: PlanInput, blocking: boolean): void {
  const n = p.count.length;
  let free: Float64Array = p.free;
  let usage: Float64Array = p.usage;
  const given = new Float64Array(n);
  if (p.minPending.some((m) => m > 0)) {
    const r = engine.ltrf({ free, tasks: p.tasks, pending: p.minPending, usage, weights: p.weights, increments: p.increments, blocking });
    given.set(r.count);
    free = r.free;
    usage = r.usage;
  }
  const rest = Float64Array.from(p.pending, (x, i) => x - given[i]);
  const r = engine.ltrf({ free, tasks: p.tasks, pending: rest, usage, weights: p.weights, increments: p.increments, blocking });
  for (let i = 0; i < n; i++) p.count[i] = given[i] + r.count[i];
}

/** The appNode key of job `job` of queue `queue` (the index first: a job name may hold any character). */
function appKey(queue: number, job: string): string {
  return `${queue}:${job}`;
}
