// The state and handlers of one run of Justice's deadline mode (src/justice/sim.ts runs it):
// the jobs, the queued and running lists, the CPUs in use, the allocator's context, and one
// handler per event phase; the shared mode's two ways of starting work (fluid rates, waves of
// tasks) run at each scheduling point after the allocator.
import type { Allocator, AllocatorContext, JobView } from "./allocator.js";
import { Environment } from "../des/environment.js";
import type { Keyed } from "../des/event-queue.js";
import { TIME_EPS, type DropKind, type JobOutcome, type RuntimeModel, maxCpus, timeLeq, waves } from "./model.js";
import type { JobState } from "./job-state.js";

const enum Phase { Finish = 0, Arrival = 1, Deadline = 2 }

/** priority = Phase. */
interface Ev extends Keyed {
  job: number;
  /** Shared mode: waves: number of tasks of the batch ending now; fluid: the job's rate version. */
  count: number;
}

export class DeadlineSimRun {
  private readonly env = new Environment<Ev>();
  private readonly fixed: boolean;
  private readonly fluid: boolean;
  private queued: JobState[] = [];
  private running: JobState[] = [];
  private used = 0; // fixed: reserved CPUs; shared: running tasks
  private now = 0;
  events = 0;
  points = 0;
  private dirtyLists = false;
  /** What the allocator sees and calls. */
  private readonly ctx: AllocatorContext;

  constructor(
    private readonly states: JobState[],
    private readonly allocator: Allocator,
    private readonly C: number,
    runtime: RuntimeModel,
  ) {
    this.fixed = allocator.mode === "fixed";
    this.fluid = runtime === "fluid";
    const run = this;
    this.ctx = {
      get now() { return run.now; },
      capacity: C,
      runtime,
      get freeCpus() { return C - run.used; },
      get queued() { return run.queued; },
      get running() { return run.running; },
      admit: (view, cpus) => this.admit(view, cpus),
      drop: (view, kind, reason) => this.drop(view, kind, reason),
      setShare: (view, cpus) => this.setShare(view, cpus),
    };
  }

  /** Runs every event: arrivals in (arrival time, input position) order, then what they cause. */
  run(): void {
    const order = this.states.map((s) => s.index).sort((a, b) => this.states[a].spec.arrival - this.states[b].spec.arrival || a - b);
    for (const i of order) this.push(this.states[i].spec.arrival, Phase.Arrival, i);
    this.env.runInstants({
      advance: (t) => { this.now = t; },
      apply: (e) => {
        this.events++;
        const s = this.states[e.job];
        return e.priority === Phase.Arrival ? this.onArrival(s) : e.priority === Phase.Finish ? this.onFinish(s, e) : this.onDeadline(s);
      },
      decide: () => this.decide(),
    });
  }

  private push(time: number, phase: Phase, job: number, count = 0): void {
    this.env.scheduleAt(time, { job, count }, phase);
  }

  private end(s: JobState, t: number, fate: JobOutcome["fate"], dropKind?: DropKind, reason?: string): void {
    if (s.status === "running") this.used -= this.fixed ? s.cpus : s.runningTasks;
    s.status = "ended";
    // fixed mode pre-records the whole run: cut it at t
    const u = s.usage;
    while (u.t.length > 0 && u.t[u.t.length - 1] > t) { u.t.pop(); u.held.pop(); u.busy.pop(); }
    const cpuSeconds = s.busySecondsUntil(t);
    if (u.t.length > 0) s.record(t, 0, 0);
    s.runningTasks = 0;
    s.outcome = {
      id: s.spec.id, index: s.index, fate, arrival: s.spec.arrival, start: s.start, end: t,
      cpus: this.fixed ? s.cpus : s.maxHeld, cpuSeconds,
    };
    if (dropKind) { s.outcome.dropKind = dropKind; s.outcome.reason = reason; }
    this.dirtyLists = true;
  }

  private admit(view: JobView, cpus: number): void {
    const { allocator, C, now } = this;
    const s = this.states[view.index];
    if (!this.fixed) throw new Error(`${allocator.name}: admit() is for fixed-allocation allocators`);
    if (s !== view || s.status !== "queued") throw new Error(`${allocator.name}: job ${s.spec.id} is not queued`);
    const m = maxCpus(s.spec.requestedTasks, C);
    if (!Number.isInteger(cpus) || cpus < 1 || cpus > m) throw new Error(`${allocator.name}: job ${s.spec.id} offered ${cpus} CPUs, allowed 1..${m}`);
    if (cpus > C - this.used) throw new Error(`${allocator.name}: job ${s.spec.id} offered ${cpus} CPUs, only ${C - this.used} free`);
    s.status = "running";
    s.cpus = cpus;
    s.start = now;
    this.used += cpus;
    const n = s.spec.requestedTasks;
    s.runningTasks = Math.min(cpus, n);
    s.pendingTasks = n - s.runningTasks;
    s.record(now, cpus, Math.min(cpus, n));
    let finish: number;
    if (this.fluid) {
      finish = now + s.spec.compTime / cpus;
    } else {
      const w = waves(n, cpus);
      const last = n - (w - 1) * cpus;
      if (w > 1 && last !== cpus) s.record(now + (w - 1) * s.d, cpus, last);
      finish = now + w * s.d;
    }
    s.record(finish, cpus, 0); // placeholder end point, replaced by end()
    this.push(finish, Phase.Finish, s.index);
    if (allocator.killAtDeadline && !timeLeq(finish, s.deadlineAt)) this.push(deadlineCheckTime(s), Phase.Deadline, s.index);
    this.dirtyLists = true;
  }

  private drop(view: JobView, kind: DropKind, reason: string): void {
    const s = this.states[view.index];
    if (s !== view || s.status !== "queued") throw new Error(`${this.allocator.name}: can only drop queued jobs (job ${s.spec.id} is ${s.status})`);
    if (!reason) throw new Error(`${this.allocator.name}: dropping job ${s.spec.id} needs a reason`);
    this.end(s, this.now, "dropped", kind, reason);
  }

  private setShare(view: JobView, cpus: number): void {
    const s = this.states[view.index];
    const name = this.allocator.name;
    if (this.fixed) throw new Error(`${name}: setShare() is for fair-share allocators`);
    if (s !== view || s.status !== "running") throw new Error(`${name}: job ${s.spec.id} is not running`);
    const cap = s.pendingTasks + s.runningTasks;
    if (!Number.isInteger(cpus) || cpus < 0 || cpus > Math.min(cap, this.C)) throw new Error(`${name}: share ${cpus} for job ${s.spec.id} outside 0..${Math.min(cap, this.C)}`);
    s.cpus = cpus;
  }

  // Arrival: fixed mode queues the job for the allocator; shared mode runs it at once (share 0).
  private onArrival(s: JobState): boolean {
    if (this.fixed) {
      s.status = "queued";
      this.queued.push(s);
    } else {
      s.status = "running";
      this.running.push(s);
      s.record(this.now, 0, 0);
      if (this.allocator.killAtDeadline) this.push(deadlineCheckTime(s), Phase.Deadline, s.index);
    }
    return true;
  }

  // Finish: the job (fixed, fluid) or a batch of its tasks (waves shared) ends; stale events are ignored.
  private onFinish(s: JobState, e: Ev): boolean {
    if (s.status !== "running") return false; // killed earlier: stale event
    const now = this.now;
    if (this.fixed) {
      const met = timeLeq(now, s.deadlineAt);
      s.doneTasks = s.spec.requestedTasks;
      this.end(s, now, met ? "met" : "missed");
      this.allocator.onComplete?.(s, met, now);
    } else if (this.fluid) {
      if (e.count !== s.version) return false; // superseded by a rate change
      this.used -= s.rate;
      s.runningTasks = 0;
      s.rate = 0;
      s.remaining = 0;
      s.doneTasks = s.spec.requestedTasks;
      const met = timeLeq(now, s.deadlineAt);
      this.end(s, now, met ? "met" : "missed");
      this.allocator.onComplete?.(s, met, now);
    } else {
      s.runningTasks -= e.count;
      s.doneTasks += e.count;
      this.used -= e.count;
      s.record(now, s.runningTasks, s.runningTasks);
      if (s.doneTasks === s.spec.requestedTasks) {
        const met = timeLeq(now, s.deadlineAt);
        this.end(s, now, met ? "met" : "missed");
        this.allocator.onComplete?.(s, met, now);
      }
    }
    return true;
  }

  // Deadline check: the allocator may kill a job still running at its deadline.
  private onDeadline(s: JobState): boolean {
    if (s.status !== "running" || !this.allocator.killAtDeadline?.(s)) return false;
    const done = s.busySecondsUntil(this.now);
    this.end(s, this.now, "dropped", "killed-past-deadline",
      `still running at its deadline (t=${fmt(s.deadlineAt)} s) after ${fmt(done)} of ${fmt(s.spec.compTime)} CPU·s; ` +
      `${s.spec.requestedTasks} tasks, killed by ${this.allocator.name}`);
    return true;
  }

  // The scheduling point: the allocator decides, then idle CPUs start work (shared mode).
  private decide(): void {
    this.points++;
    if (this.dirtyLists) this.compact();
    this.allocator.schedule(this.ctx);
    if (this.dirtyLists) this.compact();
    if (!this.fixed) {
      if (this.fluid) this.applyRates(); else this.startTasks();
    }
    if (this.used > this.C || this.used < 0) throw new Error(`invariant: ${this.used} CPUs in use of ${this.C} at t=${this.now}`);
  }

  private compact(): void {
    this.queued = this.queued.filter((s) => s.status === "queued");
    this.running = this.running.filter((s) => s.status === "running");
    this.dirtyLists = false;
  }

  // Fluid shared mode: every running job drains at its share from now on.
  private applyRates(): void {
    const now = this.now;
    for (const s of this.running) {
      if (s.cpus === s.rate) continue;
      s.remaining -= s.rate * (now - s.since);
      s.since = now;
      this.used += s.cpus - s.rate;
      s.rate = s.cpus;
      s.runningTasks = s.rate;
      s.pendingTasks = s.spec.requestedTasks - s.rate;
      s.version++;
      s.record(now, s.rate, s.rate);
      if (s.rate > 0) {
        if (s.start === null) s.start = now;
        this.push(now + Math.max(0, s.remaining) / s.rate, Phase.Finish, s.index, s.version);
      }
    }
  }

  // Waves shared mode: hand idle CPUs to jobs below their share, lowest running count first.
  private startTasks(): void {
    const free = this.C - this.used;
    if (free <= 0) return;
    const cand = this.running.filter((s) => s.pendingTasks > 0 && s.runningTasks < s.cpus);
    if (cand.length === 0) return;
    const give = tasksToStart(cand, free);
    for (const s of cand) {
      const k = give.get(s) as number;
      if (k <= 0) continue;
      if (s.start === null) s.start = this.now;
      s.pendingTasks -= k;
      s.runningTasks += k;
      this.used += k;
      s.record(this.now, s.runningTasks, s.runningTasks);
      this.push(this.now + s.d, Phase.Finish, s.index, k);
    }
  }
}

/**
 * How many tasks each candidate starts on `free` idle CPUs: water-filling the running counts up
 * to the largest level L the CPUs reach (each job at most its room: share minus running, and
 * its pending tasks), then one more task each for jobs at the level, in arrival order.
 */
function tasksToStart(cand: readonly JobState[], free: number): Map<JobState, number> {
  const room = (s: JobState) => Math.min(s.cpus - s.runningTasks, s.pendingTasks);
  const fill = (L: number) => {
    let f = 0;
    for (const s of cand) f += Math.min(Math.max(L - s.runningTasks, 0), room(s));
    return f;
  };
  let lo = 0, hi = 0;
  for (const s of cand) hi = Math.max(hi, s.runningTasks + room(s));
  if (fill(hi) <= free) lo = hi;
  else {
    // largest L with fill(L) <= free
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (fill(mid) <= free) lo = mid; else hi = mid - 1;
    }
  }
  const give = new Map<JobState, number>();
  for (const s of cand) give.set(s, Math.min(Math.max(lo - s.runningTasks, 0), room(s)));
  free -= fill(lo);
  for (const s of cand) { // ties at the level: earliest arrival first (cand is in arrival order)
    if (free <= 0) break;
    const g = give.get(s) as number;
    if (s.runningTasks + g === lo && g < room(s)) { give.set(s, g + 1); free--; }
  }
  return give;
}

function deadlineCheckTime(s: JobState): number {
  return s.deadlineAt + TIME_EPS * Math.max(1, Math.abs(s.deadlineAt));
}

function fmt(x: number): string {
  return Number.isInteger(x) ? String(x) : x.toFixed(3);
}
