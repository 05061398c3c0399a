// The deterministic discrete-event loop of Justice's job-level deadline mode.
//
// A set of handlers on the discrete-event core (src/des/environment.ts): events are ordered by
// (time, priority, sequence) with the phase as priority: at equal times, task/job completions
// (phase 0) come before arrivals (phase 1), and deadline checks (phase 2) come last, so a job
// finishing exactly at its deadline is not killed. All events of one instant are applied, then
// there is one scheduling point (unless every event was stale): the allocator decides, then
// idle CPUs start work.
//
// Runtime models (model.ts):
// - Fixed mode (Justice, Oracle): an admitted job with c CPUs keeps them until it ends.
//   waves: ceil(n / c) waves of up to c tasks, ending ceil(n / c) * d after admission (idle
//   reserved CPUs of a partial last wave count as allocated, not busy). fluid: ends compTime / c
//   after admission, all c CPUs busy.
// - Shared mode (fair share). waves: a job holds exactly the CPUs of its running tasks; at a
//   scheduling point, idle CPUs start tasks of jobs running fewer tasks than their share
//   (water-filling from the job running the fewest tasks, ties by arrival). Tasks are never
//   preempted: a job above a lowered share keeps its running tasks and frees CPUs as they end.
//   fluid: a job's work drains at its share (CPU·s per second), re-set at every scheduling point.
// A deadline is met when the job ends by arrival + deadline (relative tolerance 1e-9).
import { InputError, describeValue } from "../errors.js";
import type { Allocator, AllocatorContext, JobView } from "./allocator.js";
import { Environment } from "../des/environment.js";
import type { Keyed } from "../des/event-queue.js";
import {
  RUNTIME_MODELS, TIME_EPS, type DeadlineJob, type DropKind, type JobOutcome, type RuntimeModel, maxCpus, timeLeq, waves,
} from "./model.js";
import { JobState, type JobUsage } from "./job-state.js";
import { checkInt, validateJobs } from "./validate.js";

export type { JobUsage } from "./job-state.js";

export interface DeadlineRun {
  allocator: string;
  capacity: number;
  runtime: RuntimeModel;
  outcomes: JobOutcome[];
  /** Per job (input order): its CPU usage over time, ending with a 0 entry at its end. */
  usage: JobUsage[];
  /** When the last job ended (stale events of superseded rates do not count). */
  makespan: number;
  stats: { events: number; schedulingPoints: number };
  allocatorReport?: Record<string, unknown>;
}

export interface RunOptions {
  capacity: number;
  /** Runtime model (model.ts). Default "waves". */
  runtime?: RuntimeModel;
}

const enum Phase { Finish = 0, Arrival = 1, Deadline = 2 }

/** priority = Phase. */
interface Ev extends Keyed {
  job: number;
  /** Shared mode: waves: number of tasks of the batch ending now; fluid: the job's rate version. */
  count: number;
}

/** Runs a job list under one allocator to completion. Deterministic: no randomness inside. */
export function runDeadlineSim(jobsIn: readonly DeadlineJob[], allocator: Allocator, opts: RunOptions): DeadlineRun {
  const jobs = validateJobs(jobsIn);
  const C = checkInt("capacity", opts?.capacity, 1);
  const fixed = allocator.mode === "fixed";
  const runtime: RuntimeModel = opts.runtime ?? "waves";
  if (!RUNTIME_MODELS.includes(runtime)) {
    throw new InputError("runtime", `must be one of ${RUNTIME_MODELS.join(", ")} (got ${describeValue(runtime)})`);
  }
  const fluid = runtime === "fluid";
  if (allocator.mode !== "fixed" && allocator.mode !== "shared") {
    throw new InputError("allocator.mode", `must be "fixed" or "shared"`);
  }
  const states = jobs.map((j, i) => new JobState(i, j));
  const env = new Environment<Ev>();
  const push = (time: number, phase: Phase, job: number, count = 0) => { env.scheduleAt(time, { job, count }, phase); };
  // Arrivals in (arrival time, input position) order.
  const order = states.map((s) => s.index).sort((a, b) => jobs[a].arrival - jobs[b].arrival || a - b);
  for (const i of order) push(jobs[i].arrival, Phase.Arrival, i);

  let queued: JobState[] = [];
  let running: JobState[] = [];
  let used = 0; // fixed: reserved CPUs; shared: running tasks
  let now = 0;
  let nEvents = 0, nPoints = 0;
  let dirtyLists = false;

  const end = (s: JobState, t: number, fate: JobOutcome["fate"], dropKind?: DropKind, reason?: string) => {
    if (s.status === "running") used -= fixed ? s.cpus : s.runningTasks;
    s.status = "ended";
    // fixed mode pre-records the whole run: cut it at t
    const u = s.usage;
    while (u.t.length > 0 && u.t[u.t.length - 1] > t) { u.t.pop(); u.held.pop(); u.busy.pop(); }
    const cpuSeconds = s.busySecondsUntil(t);
    if (u.t.length > 0) s.record(t, 0, 0);
    s.runningTasks = 0;
    s.outcome = {
      id: s.spec.id, index: s.index, fate, arrival: s.spec.arrival, start: s.start, end: t,
      cpus: fixed ? s.cpus : s.maxHeld, cpuSeconds,
    };
    if (dropKind) { s.outcome.dropKind = dropKind; s.outcome.reason = reason; }
    dirtyLists = true;
  };

  const ctx: AllocatorContext = {
    get now() { return now; },
    capacity: C,
    runtime,
    get freeCpus() { return C - used; },
    get queued() { return queued; },
    get running() { return running; },
    admit(view: JobView, cpus: number) {
      const s = states[view.index];
      if (!fixed) throw new Error(`${allocator.name}: admit() is for fixed-allocation allocators`);
      if (s !== view || s.status !== "queued") throw new Error(`${allocator.name}: job ${s.spec.id} is not queued`);
      const m = maxCpus(s.spec.requestedTasks, C);
      if (!Number.isInteger(cpus) || cpus < 1 || cpus > m) throw new Error(`${allocator.name}: job ${s.spec.id} offered ${cpus} CPUs, allowed 1..${m}`);
      if (cpus > C - used) throw new Error(`${allocator.name}: job ${s.spec.id} offered ${cpus} CPUs, only ${C - used} free`);
      s.status = "running";
      s.cpus = cpus;
      s.start = now;
      used += cpus;
      const n = s.spec.requestedTasks;
      s.runningTasks = Math.min(cpus, n);
      s.pendingTasks = n - s.runningTasks;
      s.record(now, cpus, Math.min(cpus, n));
      let finish: number;
      if (fluid) {
        finish = now + s.spec.compTime / cpus;
      } else {
        const w = waves(n, cpus);
        const last = n - (w - 1) * cpus;
        if (w > 1 && last !== cpus) s.record(now + (w - 1) * s.d, cpus, last);
        finish = now + w * s.d;
      }
      s.record(finish, cpus, 0); // placeholder end point, replaced by end()
      push(finish, Phase.Finish, s.index);
      if (allocator.killAtDeadline && !timeLeq(finish, s.deadlineAt)) push(deadlineCheckTime(s), Phase.Deadline, s.index);
      dirtyLists = true;
    },
    drop(view: JobView, kind: DropKind, reason: string) {
      const s = states[view.index];
      if (s !== view || s.status !== "queued") throw new Error(`${allocator.name}: can only drop queued jobs (job ${s.spec.id} is ${s.status})`);
      if (!reason) throw new Error(`${allocator.name}: dropping job ${s.spec.id} needs a reason`);
      end(s, now, "dropped", kind, reason);
    },
    setShare(view: JobView, cpus: number) {
      const s = states[view.index];
      if (fixed) throw new Error(`${allocator.name}: setShare() is for fair-share allocators`);
      if (s !== view || s.status !== "running") throw new Error(`${allocator.name}: job ${s.spec.id} is not running`);
      const cap = s.pendingTasks + s.runningTasks;
      if (!Number.isInteger(cpus) || cpus < 0 || cpus > Math.min(cap, C)) throw new Error(`${allocator.name}: share ${cpus} for job ${s.spec.id} outside 0..${Math.min(cap, C)}`);
      s.cpus = cpus;
    },
  };

  // Arrival: fixed mode queues the job for the allocator; shared mode runs it at once (share 0).
  const onArrival = (s: JobState): boolean => {
    if (fixed) {
      s.status = "queued";
      queued.push(s);
    } else {
      s.status = "running";
      running.push(s);
      s.record(now, 0, 0);
      if (allocator.killAtDeadline) push(deadlineCheckTime(s), Phase.Deadline, s.index);
    }
    return true;
  };

  // Finish: the job (fixed, fluid) or a batch of its tasks (waves shared) ends; stale events are ignored.
  const onFinish = (s: JobState, e: Ev): boolean => {
    if (s.status !== "running") return false; // killed earlier: stale event
    if (fixed) {
      const met = timeLeq(now, s.deadlineAt);
      s.doneTasks = s.spec.requestedTasks;
      end(s, now, met ? "met" : "missed");
      allocator.onComplete?.(s, met, now);
    } else if (fluid) {
      if (e.count !== s.version) return false; // superseded by a rate change
      used -= s.rate;
      s.runningTasks = 0;
      s.rate = 0;
      s.remaining = 0;
      s.doneTasks = s.spec.requestedTasks;
      const met = timeLeq(now, s.deadlineAt);
      end(s, now, met ? "met" : "missed");
      allocator.onComplete?.(s, met, now);
    } else {
      s.runningTasks -= e.count;
      s.doneTasks += e.count;
      used -= e.count;
      s.record(now, s.runningTasks, s.runningTasks);
      if (s.doneTasks === s.spec.requestedTasks) {
        const met = timeLeq(now, s.deadlineAt);
        end(s, now, met ? "met" : "missed");
        allocator.onComplete?.(s, met, now);
      }
    }
    return true;
  };

  // Deadline check: the allocator may kill a job still running at its deadline.
  const onDeadline = (s: JobState): boolean => {
    if (s.status !== "running" || !allocator.killAtDeadline?.(s)) return false;
    const done = s.busySecondsUntil(now);
    end(s, now, "dropped", "killed-past-deadline",
      `still running at its deadline (t=${fmt(s.deadlineAt)} s) after ${fmt(done)} of ${fmt(s.spec.compTime)} CPU·s; ` +
      `${s.spec.requestedTasks} tasks, killed by ${allocator.name}`);
    return true;
  };

  // The scheduling point: the allocator decides, then idle CPUs start work (shared mode).
  const decide = (): void => {
    nPoints++;
    if (dirtyLists) compact();
    allocator.schedule(ctx);
    if (dirtyLists) compact();
    if (!fixed) {
      if (fluid) applyRates(); else startTasks();
    }
    if (used > C || used < 0) throw new Error(`invariant: ${used} CPUs in use of ${C} at t=${now}`);
  };

  env.runInstants({
    advance: (t) => { now = t; },
    apply: (e) => {
      nEvents++;
      const s = states[e.job];
      return e.priority === Phase.Arrival ? onArrival(s) : e.priority === Phase.Finish ? onFinish(s, e) : onDeadline(s);
    },
    decide,
  });

  function compact(): void {
    queued = queued.filter((s) => s.status === "queued");
    running = running.filter((s) => s.status === "running");
    dirtyLists = false;
  }

  // Fluid shared mode: every running job drains at its share from now on.
  function applyRates(): void {
    for (const s of running) {
      if (s.cpus === s.rate) continue;
      s.remaining -= s.rate * (now - s.since);
      s.since = now;
      used += s.cpus - s.rate;
      s.rate = s.cpus;
      s.runningTasks = s.rate;
      s.pendingTasks = s.spec.requestedTasks - s.rate;
      s.version++;
      s.record(now, s.rate, s.rate);
      if (s.rate > 0) {
        if (s.start === null) s.start = now;
        push(now + Math.max(0, s.remaining) / s.rate, Phase.Finish, s.index, s.version);
      }
    }
  }

  // Waves shared mode: hand idle CPUs to jobs below their share, lowest running count first.
  function startTasks(): void {
    let free = C - used;
    if (free <= 0) return;
    const cand = running.filter((s) => s.pendingTasks > 0 && s.runningTasks < s.cpus);
    if (cand.length === 0) return;
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
    for (const s of cand) {
      const k = give.get(s) as number;
      if (k <= 0) continue;
      if (s.start === null) s.start = now;
      s.pendingTasks -= k;
      s.runningTasks += k;
      used += k;
      s.record(now, s.runningTasks, s.runningTasks);
      push(now + s.d, Phase.Finish, s.index, k);
    }
  }

  const outcomes = states.map((s) => {
    if (!s.outcome) throw new Error(`invariant: job ${s.spec.id} never ended`);
    return s.outcome;
  });
  return {
    allocator: allocator.name,
    capacity: C,
    runtime,
    outcomes,
    usage: states.map((s) => s.usage),
    makespan: outcomes.reduce((m, o) => Math.max(m, o.end), 0),
    stats: { events: nEvents, schedulingPoints: nPoints },
    allocatorReport: allocator.report?.(),
  };
}

function deadlineCheckTime(s: JobState): number {
  return s.deadlineAt + TIME_EPS * Math.max(1, Math.abs(s.deadlineAt));
}

function fmt(x: number): string {
  return Number.isInteger(x) ? String(x) : x.toFixed(3);
}
