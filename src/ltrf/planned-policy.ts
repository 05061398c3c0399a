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
// - the fairness tracker: rho_i, Psi, Omega over time (docs/policies/ltrf.md), only for a
//   driver that reads report() (PolicyContext.report: the simulator); a live host has none.
// A finished task is matched to the oldest running task of its job (the simulator reports
// queue and job, not the task): exact when a job's tasks of one stage have one duration.
//
// Bounded state and cost (docs/policies/ltrf.md, "Live use"): what it holds is the queues, their
// active jobs and running tasks; an ended job is folded into its queue's quantum and forgotten.
// An event costs O(queues holding resources) (the ledger's exact integral) plus the quantum
// refresh; a queue's rate is read again only after an event of its own or a start. A scheduling
// point plans over the queues with an active job only (H-LTRF: every queue, its groups sum them).
import type { Engine } from "../engine/engine.js";
import { exceeds } from "../dispatch/fit.js";
import type { ClusterState, Policy, PolicyContext, SimEvent } from "../policy/policy.js";
import type { QueueSpec } from "../policy/model.js";
import { FairnessTracker, checkSampleReach } from "./fairness.js";
import { UsageLedger } from "./ledger.js";
import { parseLtrfOptions, shareParam, type LtrfPolicyOptions } from "./options.js";
import { QuantumUpdater, type QuantumKey } from "./quantum.js";
import { InputError, describeValue } from "../errors.js";
import { appended, type PlanInput } from "./plan-input.js";
import { byQueueName, stateArray, stateByQueue, stateNumber, stateObject, stateString } from "../policy/state-check.js";

export { MAX_FAIRNESS_SAMPLES } from "./fairness.js";

/**
 * Queues at most: a scheduling point plans over every queue with an active job (H-LTRF: every
 * queue), O(N) with N past 10^5 costing tens of ms per point (docs/performance.md, "Live LTRF").
 */
export const MAX_LTRF_QUEUES = 2 ** 17;

/** One queue's part of an exported state. */
interface QueuePart {
  usage: number;
  rate: number;
  jobs: Array<{ id: string; arrival: number }>;
  running: Array<{ job: string; dom: number; start: number; q: number; node: QuantumKey }>;
}

/** An active job: its arrival and its quantum node. */
interface ActiveJob {
  arrival: number;
  node: number;
}

interface RunningTask {
  id: string;
  job: string;
  dom: number;
  start: number;
  q: number;
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
  /** Null unless the driver reads report(). */
  protected fairness: FairnessTracker | null = null;
  protected quantum!: QuantumUpdater;
  private queueNode!: number[];
  private queuePath!: string[][];
  protected names: string[] = [];
  private running!: RunningTask[][];
  /** Per queue its active jobs by name, in arrival order. */
  private jobs!: Array<Map<string, ActiveJob>>;
  /** Queues with an active job (the only ones that can have runnable tasks), and each one's place there (-1: none). */
  private active: number[] = [];
  private activeAt!: Int32Array;
  /** Queues whose usage may have changed since their rate was last read (events, starts). */
  private stale: number[] = [];
  private staleMark!: Uint8Array;
  private lastPick = -1;
  private plan: PlanInput | null = null;
  private cursor = 0;
  private seq = 0;
  private nextSample = 0;
  private stats = { plans: 0, replans: 0 };

  constructor(options?: Record<string, unknown>) {
    this.opts = parseLtrfOptions(options);
  }

  /**
   * Queue `spec` joins last as a newcomer (Policy.appendQueue; the live scheduler's addQueue):
   * what a rebuild would give (integral 0, its quantum node created last under its groups), in
   * amortised O(1). A run that reports fairness takes its queues at init only.
   */
  protected appendLeaf(spec: QueueSpec): void {
    const i = this.n;
    if (i + 1 > MAX_LTRF_QUEUES) throw new InputError("name", `${this.name} takes at most ${MAX_LTRF_QUEUES} queues: a scheduling point costs O(queues)`);
    if (this.fairness) throw new InputError("name", "a run that reports fairness takes its queues at init");
    const min = shareParam(spec.params, "minShare", i) ?? 0, max = shareParam(spec.params, "maxShare", i) ?? 1;
    const node = this.quantum.leafQueue(spec.path ?? [], spec.name); // checks the path's names
    this.weights = appended(this.weights, spec.weight ?? 1);
    this.minShare = appended(this.minShare, min);
    this.maxShare = appended(this.maxShare, max);
    this.ledger.append();
    this.names.push(spec.name);
    this.queuePath.push([...(spec.path ?? [])]);
    this.queueNode.push(node);
    this.running.push([]);
    this.jobs.push(new Map());
    if (i >= this.activeAt.length) {
      const at = new Int32Array(2 * i + 16).fill(-1);
      at.set(this.activeAt);
      this.activeAt = at;
      const mark = new Uint8Array(2 * i + 16);
      mark.set(this.staleMark);
      this.staleMark = mark;
    }
    this.n = i + 1;
  }

  /** Decides in.count (tasks per queue) for one scheduling point. */
  protected abstract decide(p: PlanInput): void;
  /** The usage a queue is ranked by, U_i (before this point's starts). */
  protected abstract rankUsage(state: ClusterState, i: number): number;
  /** The usage one started task adds to U_i: its dominant share x the quantum, or x 1 for memoryless ranking. */
  protected abstract charge(taskDom: number, quantum: number): number;
  /** Whether a plan needs every queue (H-LTRF: a group's usage sums all its queues'), not only those with an active job. */
  protected planAll(): boolean {
    return false;
  }

  init(ctx: PolicyContext): void {
    const w = ctx.workload;
    if (w.queues.length > MAX_LTRF_QUEUES) throw new InputError("queues", `${this.name} takes at most ${MAX_LTRF_QUEUES} queues (got ${w.queues.length}): a scheduling point costs O(queues)`);
    this.engine = ctx.engine;
    this.n = w.queues.length;
    this.k = w.capacity.length;
    this.cap = Float64Array.from(w.capacity);
    this.weights = Float64Array.from(w.queues, (q) => q.weight ?? 1);
    this.minShare = Float64Array.from(w.queues, (q, i) => shareParam(q.params, "minShare", i) ?? 0);
    this.maxShare = Float64Array.from(w.queues, (q, i) => shareParam(q.params, "maxShare", i) ?? 1);
    this.ledger = new UsageLedger(this.n, this.opts.window);
    this.fairness = ctx.report === true ? new FairnessTracker(this.weights) : null;
    this.quantum = new QuantumUpdater(this.opts.quantum, this.opts.refreshInterval);
    this.names = w.queues.map((q) => q.name);
    this.queuePath = w.queues.map((q) => [...(q.path ?? [])]);
    this.queueNode = this.names.map((name, i) => this.quantum.leafQueue(this.queuePath[i], name));
    this.running = w.queues.map(() => []);
    this.jobs = w.queues.map(() => new Map());
    this.activeAt = new Int32Array(this.n).fill(-1);
    this.staleMark = new Uint8Array(this.n);
  }

  onEvent(ev: SimEvent, state: ClusterState): void {
    if (ev.type !== "tick") this.markStale(ev.queue);
    this.observe(state);
    if (ev.type === "arrival") {
      const jobs = this.jobs[ev.queue];
      if (!jobs.has(ev.job)) jobs.set(ev.job, { arrival: ev.time, node: this.quantum.appOf(this.queueNode[ev.queue], ev.job) });
      this.setActive(ev.queue);
    } else if (ev.type === "taskEnd") {
      const list = this.running[ev.queue];
      const at = list.findIndex((r) => r.job === ev.job);
      if (at >= 0) {
        const [r] = list.splice(at, 1);
        this.quantum.taskFinished(r.id, ev.time);
      }
    } else if (ev.type === "jobEnd") {
      // tasks of a dropped job end without taskEnd events
      this.running[ev.queue] = this.running[ev.queue].filter((r) => r.job !== ev.job || (this.quantum.taskFinished(r.id, ev.time), false));
      const jobs = this.jobs[ev.queue];
      const job = jobs.get(ev.job);
      if (job) {
        jobs.delete(ev.job);
        this.quantum.appEnded(job.node);
        if (jobs.size === 0) this.setIdle(ev.queue);
      }
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
      const rows = p.queues.length;
      while (this.cursor < rows && p.count[this.cursor] === 0) this.cursor++;
      if (this.cursor === rows) {
        // Spent. A queue the plan stopped serving while its head is unchanged was stopped
        // by room (or its max share), so a re-plan is only worth it when a head changed.
        const changed = !fresh && this.headsChanged(state, p);
        this.plan = null;
        if (!changed) return -1;
        this.stats.replans++;
        continue;
      }
      const row = this.cursor;
      const q = p.queues[row];
      const next = state.queues[q].nextTask;
      if (!next || !this.sameTask(next, p.tasks, row) || !this.fits(state, next)) {
        this.plan = null;
        this.stats.replans++;
        if (fresh) return -1;
        continue;
      }
      p.count[row]--;
      this.recordStart(state, q, next);
      this.lastPick = q;
      return q;
    }
  }

  report(): Record<string, unknown> {
    const f = this.fairness;
    return {
      ...(f ? { fairness: f.series, final: { rho: Array.from({ length: this.n }, (_, i) => f.rho(i)), psi: f.psi(), omega: f.omega() } } : {}),
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
    return {
      round: { start: this.ledger.roundStart, resets: this.ledger.resets, last: this.ledger.lastTime },
      quantum,
      seq: this.seq,
      nextSample: this.nextSample,
      stats: { ...this.stats },
      queues: byQueueName(this.names, (i): QueuePart => ({
        usage: this.ledger.usage[i],
        rate: this.ledger.rateOf(i),
        jobs: Array.from(this.jobs[i], ([id, j]) => ({ id, arrival: j.arrival })),
        running: this.running[i].map((r) => ({ job: r.job, dom: r.dom, start: r.start, q: r.q, node: this.quantum.keyOf(this.quantum.nodeOfRunning(r.id)) })),
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
    this.queueNode = this.names.map((name, i) => quantum.leafQueue(this.queuePath[i], name));
    this.active = [];
    this.activeAt.fill(-1);
    let restored = 0; // ids of taken-over tasks: their own series, so `seq` goes on as exported
    this.names.forEach((name, i) => {
      const q = queues.get(name);
      this.jobs[i] = new Map();
      this.running[i] = [];
      this.markStale(i);
      if (!q) return;
      for (const j of q.jobs) this.jobs[i].set(j.id, { arrival: j.arrival, node: quantum.appOf(this.queueNode[i], j.id) });
      if (this.jobs[i].size > 0) this.setActive(i);
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
    if (this.fairness !== null) checkSampleReach(this.fairness, this.nextSample, this.opts.sampleInterval, t);
  }

  /** The quantum of the job whose task queue i would start next. */
  protected headQuantum(state: ClusterState, i: number): number {
    const job = this.headJob(state, i);
    return this.quantum.quantum(job !== null ? this.jobs[i].get(job)!.node : this.queueNode[i]);
  }

  /** What the state holds, for tests and hosts that watch it: active jobs, running tasks, quantum nodes, kept folded apps, fairness samples. */
  retained(): { jobs: number; running: number; nodes: number; kept: number; samples: number } {
    let jobs = 0, running = 0;
    for (let i = 0; i < this.n; i++) { jobs += this.jobs[i].size; running += this.running[i].length; }
    const q = this.quantum.size;
    return { jobs, running, nodes: q.nodes, kept: q.kept, samples: this.fairness?.series.t.length ?? 0 };
  }

  private markStale(i: number): void {
    if (this.staleMark[i] === 1) return;
    this.staleMark[i] = 1;
    this.stale.push(i);
  }

  private setActive(i: number): void {
    if (this.activeAt[i] >= 0) return;
    this.activeAt[i] = this.active.length;
    this.active.push(i);
  }

  private setIdle(i: number): void {
    const at = this.activeAt[i];
    if (at < 0) return;
    const last = this.active.pop()!;
    if (last !== i) { this.active[at] = last; this.activeAt[last] = at; }
    this.activeAt[i] = -1;
  }

  private observe(state: ClusterState): void {
    const t = state.time;
    const f = this.fairness;
    if (f) {
      checkSampleReach(f, this.nextSample, this.opts.sampleInterval, t);
      while (this.nextSample <= t) {
        f.advance(this.nextSample);
        f.sample(this.nextSample);
        this.nextSample += this.opts.sampleInterval;
      }
    }
    this.ledger.advance(t);
    if (this.opts.adaptive) this.quantum.refresh(t);
    // a queue's usage changes only at its own events and at its starts (the pick before this call)
    if (this.lastPick >= 0) { this.markStale(this.lastPick); this.lastPick = -1; }
    for (const i of this.stale) {
      this.staleMark[i] = 0;
      this.ledger.setRate(i, this.dom(state.queues[i].usage));
    }
    this.stale.length = 0;
    if (f) {
      f.advance(t);
      for (let i = 0; i < this.n; i++) {
        const q = state.queues[i];
        f.set(i, this.dom(q.usage), this.dom(q.demand));
      }
    }
  }

  /** The plan's rows: every queue, or the queues with an active job, in index order. */
  private planRows(): Int32Array {
    if (this.planAll()) return Int32Array.from({ length: this.n }, (_, i) => i);
    return Int32Array.from(this.active).sort();
  }

  private makePlan(state: ClusterState): PlanInput | null {
    const k = this.k;
    const t = state.time;
    const rows = this.planRows();
    const n = rows.length;
    const p: PlanInput = {
      time: t, free: new Float64Array(k), tasks: new Float64Array(n * k), pending: new Float64Array(n),
      minPending: new Float64Array(n), usage: new Float64Array(n), increments: new Float64Array(n),
      weights: n === this.n ? this.weights : Float64Array.from(rows, (i) => this.weights[i]), count: new Float64Array(n), planned: new Float64Array(0), queues: rows,
    };
    for (let r = 0; r < k; r++) p.free[r] = Math.max(0, this.cap[r] - state.used[r]);
    let any = false;
    for (let j = 0; j < n; j++) {
      const i = rows[j];
      const q = state.queues[i];
      p.usage[j] = this.rankUsage(state, i);
      const next = q.nextTask;
      if (q.rejected || !next || q.runnableTasks === 0) continue;
      p.tasks.set(next, j * k);
      const td = this.dom(next);
      const held = this.dom(q.usage);
      let pend = q.runnableTasks;
      // max share: tasks that keep the queue at or under it (tiny slack for rounding)
      if (this.maxShare[i] < 1 && td > 0) pend = Math.min(pend, Math.max(0, Math.floor((this.maxShare[i] - held) / td + 1e-9)));
      if (this.minShare[i] > 0 && held < this.minShare[i]) {
        p.minPending[j] = td > 0 ? Math.min(pend, Math.ceil((this.minShare[i] - held) / td - 1e-9)) : pend;
      }
      p.pending[j] = pend;
      p.increments[j] = this.charge(td, this.headQuantum(state, i));
      if (pend > 0) any = true;
    }
    if (!any) return null;
    this.stats.plans++;
    this.decide(p);
    p.planned = p.count.slice();
    let total = 0;
    for (let j = 0; j < n; j++) total += p.count[j];
    return total > 0 ? p : null;
  }

  private headsChanged(state: ClusterState, p: PlanInput): boolean {
    for (let j = 0; j < p.queues.length; j++) {
      if (p.planned[j] === 0) continue;
      const next = state.queues[p.queues[j]].nextTask;
      if (next && !this.sameTask(next, p.tasks, j)) return true;
    }
    return false;
  }

  /** Is `next` the task of plan row `row`? */
  private sameTask(next: Float64Array, tasks: Float64Array, row: number): boolean {
    for (let r = 0; r < this.k; r++) if (next[r] !== tasks[row * this.k + r]) return false;
    return true;
  }

  private fits(state: ClusterState, task: Float64Array): boolean {
    // against the workload's capacity, which the plan was made for
    for (let r = 0; r < this.k; r++) if (exceeds(state.used[r], task[r], this.cap[r])) return false;
    return true;
  }

  private headJob(state: ClusterState, i: number): string | null {
    const jobs = this.jobs[i];
    const named = state.queues[i].nextJob;
    if (named !== undefined && named !== null && jobs.has(named)) return named;
    const a = state.queues[i].nextArrival;
    for (const [id, j] of jobs) if (j.arrival === a) return id;
    for (const [id] of jobs) return id;
    return null;
  }

  private recordStart(state: ClusterState, q: number, task: Float64Array): void {
    const job = this.headJob(state, q) ?? "?";
    const id = `${q}#${this.seq++}`;
    const node = this.jobs[q].get(job)?.node ?? this.queueNode[q];
    this.quantum.taskStarted(node, id, state.time);
    this.running[q].push({ id, job, dom: this.dom(task), start: state.time, q: this.quantum.quantum(node) });
  }
}
