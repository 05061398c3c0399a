// The discrete-event simulator (SPEC §8). Deterministic: events are ordered by (time,
// sequence), all randomness comes from the seeded Rng. At every scheduling point (all
// events at one instant applied, then the policy consulted) tasks start FIFO within each
// queue: for share policies, the queue furthest below its target share starts its next
// task while it is under its share and the task fits; task-level policies pick the queue.
// Invariants are checked as the run goes: no resource over-allocated, time never moves
// backwards, every job ends finished, rejected or dropped with a reason.
import type { Engine } from "../engine/engine.js";
import { InputError, describeValue } from "../engine/errors.js";
import { EventQueue } from "./event-queue.js";
import { SimulationError } from "./errors.js";
import type { JobRecord, Workload } from "./model.js";
import type { Admission, Policy, PolicyActions, SimEvent } from "./policy.js";
import { Rng } from "./random.js";
import { getPolicy, policyNames } from "./registry.js";
import { ClusterRt, type JobRt, type QueueRt, type StageRt, type TaskRt } from "./runtime.js";
import { computeMetrics, type RunMetrics } from "./metrics.js";
import { validateWorkload } from "./validate-workload.js";

export type { QueueMetrics, RunMetrics, CompletionStats } from "./metrics.js";

export interface SimOptions {
  /** A policy object or a registered policy name. */
  policy: Policy | string;
  policyOptions?: Record<string, unknown>;
  engine: Engine;
  seed?: number;
  /** Also consult the policy every `updateInterval` seconds (0 = only at events). Default 0. */
  updateInterval?: number;
  /** Allow preempting tasks of queues above their share (restarted later from scratch). Default false. */
  preemption?: boolean;
  /** Length of one time-series point: each is the average dominant share over its interval. Default: about 200 points. */
  sampleInterval?: number;
  /** Stop at this time (jobs not ended by then are dropped with reason 'horizon'). Default: run to completion. */
  horizon?: number;
}

export interface SimResult {
  policy: string;
  seed: number;
  jobs: JobRecord[];
  metrics: RunMetrics;
  /** Per-queue admission decisions, when the policy does admission control. */
  admissions: Array<Admission | undefined>;
  /** Per-queue usage time series: dominantShare[queue][j] is the average over [t[j], t[j] + interval). */
  series: { t: number[]; dominantShare: number[][] };
  policyReport?: Record<string, unknown>;
  stats: { events: number; schedulingPoints: number; tasksStarted: number; preemptions: number };
}

type Ev =
  | { kind: "arrival"; time: number; seq: number; job: JobRt }
  | { kind: "taskEnd"; time: number; seq: number; task: TaskRt }
  | { kind: "burstEnd"; time: number; seq: number; queue: QueueRt; burst: number }
  | { kind: "tick"; time: number; seq: number }
  | { kind: "wake"; time: number; seq: number };

const SHARE_EPS = 1e-9;

export function resolvePolicy(p: Policy | string, options?: Record<string, unknown>): Policy {
  if (typeof p !== "string") return p;
  const f = getPolicy(p);
  if (!f) throw new InputError("policy", `unknown policy '${p}' (known: ${policyNames().join(", ")})`);
  return f.create(options);
}

/** Runs `workload` under one policy and returns every job's outcome, the metrics and the time series. */
export function simulate(workload: Workload, opts: SimOptions): SimResult {
  validateWorkload(workload);
  checkSimOptions(opts);
  const policy = resolvePolicy(opts.policy, opts.policyOptions);
  const seed = opts.seed ?? workload.seed ?? 0;
  const updateInterval = opts.updateInterval ?? 0;
  if (typeof updateInterval !== "number" || !(updateInterval >= 0 && Number.isFinite(updateInterval))) throw new InputError("updateInterval", `must be a finite number >= 0 (got ${describeValue(updateInterval)})`);
  const horizon = opts.horizon ?? Infinity;
  const k = workload.capacity.length;
  const cl = new ClusterRt(workload.capacity, workload.resources, workload.queues);
  const n = cl.queues.length;
  const queueByName = new Map(cl.queues.map((q) => [q.spec.name, q]));
  const rng = new Rng(seed);
  const events = new EventQueue<Ev>();

  // jobs, in arrival order then position
  const jobs: JobRt[] = workload.jobs.map((spec) => {
    const stages: StageRt[] = spec.stages.map((s) => ({
      spec: s, demand: Float64Array.from(s.demand), next: 0, retry: [], running: 0, finished: 0,
      waitingParents: (s.parents ?? []).length, runnable: false, children: [],
    }));
    spec.stages.forEach((s, i) => (s.parents ?? []).forEach((p) => stages[p].children.push(i)));
    const tasksLeft = spec.stages.reduce((a, s) => a + s.tasks, 0);
    return { spec, queue: queueByName.get(spec.queue)!, stages, pendingTasks: 0, tasksLeft, running: new Set(), outcome: null };
  });
  const jobById = new Map(jobs.map((j) => [j.spec.id, j]));
  const order = jobs.map((_, i) => i).sort((a, b) => jobs[a].spec.arrival - jobs[b].spec.arrival || a - b);
  for (const i of order) events.push({ kind: "arrival", time: jobs[i].spec.arrival, job: jobs[i] });

  // metrics accumulators
  let tPrev = 0;
  const domIntegral = new Float64Array(n);
  const busy = new Float64Array(k);
  const lastArrival = order.length ? jobs[order[order.length - 1]].spec.arrival : 0;
  const sampleInterval = opts.sampleInterval ?? Math.max(1e-3, estimateSpan(workload, lastArrival) / 200);
  const seriesT: number[] = [];
  const seriesDs: number[][] = cl.queues.map(() => []);
  const stats = { events: 0, schedulingPoints: 0, tasksStarted: 0, preemptions: 0 };

  // Series: each point is the time-average of a queue's dominant share over
  // [t, t + sampleInterval), so short bursts are not lost between samples (no aliasing).
  let bucketStart = 0;
  const bucketAcc = new Float64Array(n);
  const flushBucket = (length: number) => {
    seriesT.push(bucketStart);
    for (let q = 0; q < n; q++) {
      seriesDs[q].push(length > 0 ? bucketAcc[q] / length : cl.queues[q].useDom);
      bucketAcc[q] = 0;
    }
  };
  const addToSeries = (from: number, to: number) => {
    // one loop turn per bucket: refuse a run that would take billions (or never move on:
    // bucketStart + sampleInterval == bucketStart far out in time)
    if (from < to && !((to - bucketStart) / sampleInterval <= MAX_STEPS && bucketStart + sampleInterval > bucketStart)) {
      throw new InputError("sampleInterval", `${sampleInterval} s gives more than ${MAX_STEPS} series points up to t = ${to} s; use a longer interval`);
    }
    while (from < to) {
      const bucketEnd = bucketStart + sampleInterval;
      const segEnd = Math.min(to, bucketEnd);
      for (let q = 0; q < n; q++) bucketAcc[q] += cl.queues[q].useDom * (segEnd - from);
      from = segEnd;
      if (segEnd === bucketEnd) {
        flushBucket(sampleInterval);
        bucketStart = bucketEnd;
      }
    }
  };

  const advanceTo = (t: number) => {
    addToSeries(tPrev, t);
    const dt = t - tPrev;
    if (dt > 0) {
      for (let q = 0; q < n; q++) domIntegral[q] += cl.queues[q].useDom * dt;
      for (let r = 0; r < k; r++) busy[r] += cl.used[r] * dt;
      tPrev = t;
    }
    cl.time = t;
  };

  const endJob = (job: JobRt, outcome: JobRt["outcome"]) => {
    job.outcome = outcome;
    job.queue.activeJobs--;
    job.queue.compact();
    const ev: SimEvent = { type: "jobEnd", time: cl.time, queue: job.queue.index, job: job.spec.id };
    policy.onEvent?.(ev, cl, actions);
  };

  const makeRunnable = (job: JobRt, stage: StageRt) => {
    stage.runnable = true;
    const count = stage.spec.tasks - stage.next + stage.retry.length;
    job.pendingTasks += count;
    cl.addPending(job.queue, stage.demand, count);
  };

  const killTask = (task: TaskRt) => {
    task.alive = false;
    const q = task.job.queue;
    cl.addUsage(q, task.stage.demand, -1);
    task.stage.running--;
    task.job.running.delete(task);
    const at = q.runningList.lastIndexOf(task);
    if (at >= 0) q.runningList.splice(at, 1);
  };

  const actions: PolicyActions = {
    dropJob(jobId, reason) {
      const job = jobById.get(jobId);
      if (!job) throw new InputError("dropJob", `unknown job '${jobId}'`);
      if (job.outcome !== null) return;
      if (typeof reason !== "string" || reason === "") {
        throw new SimulationError("a job was dropped without a reason", { time: cl.time, queue: job.queue.spec.name, job: jobId });
      }
      for (const t of [...job.running]) killTask(t);
      for (const s of job.stages) {
        if (!s.runnable) continue;
        const left = s.spec.tasks - s.next + s.retry.length;
        if (left > 0) cl.addPending(job.queue, s.demand, -left);
      }
      job.pendingTasks = 0;
      endJob(job, { status: "dropped", time: cl.time, reason });
    },
    wakeAt(time) {
      events.push({ kind: "wake", time });
    },
  };

  policy.init?.({ workload, engine: opts.engine, random: () => rng.next() });
  const admissions = cl.queues.map((q) => policy.admission?.(q.index));
  admissions.forEach((a, i) => { if (a?.class === "rejected") cl.queues[i].rejected = true; });

  const startTask = (q: QueueRt): void => {
    const ns = q.nextStage();
    if (!ns) throw new SimulationError("the policy chose a queue with no runnable task", { time: cl.time, queue: q.spec.name });
    const { job, stage } = ns;
    const index = stage.retry.length > 0 ? stage.retry.shift()! : stage.next++;
    const task: TaskRt = { job, stage, index, start: cl.time, alive: true };
    stage.running++;
    job.pendingTasks--;
    job.running.add(task);
    cl.addPending(q, stage.demand, -1);
    cl.addUsage(q, stage.demand, 1);
    q.runningList.push(task);
    stats.tasksStarted++;
    for (let r = 0; r < k; r++) {
      if (cl.used[r] > cl.capacity[r] * (1 + 1e-9) + 1e-12) {
        throw new SimulationError(
          `resource ${workload.resources[r]} over-allocated: ${cl.used[r]} > capacity ${cl.capacity[r]}`,
          { time: cl.time, queue: q.spec.name, job: job.spec.id },
        );
      }
    }
    const d = stage.spec.duration;
    const duration = typeof d === "number" ? d : d[index];
    events.push({ kind: "taskEnd", time: cl.time + duration, task });
  };

  const shares = new Float64Array(n * k);
  const shareDom = new Float64Array(n);
  const scheduleShares = (p: Policy) => {
    let preemptBudget = cl.queues.reduce((a, q) => a + q.runningTasks, 0);
    shares.fill(0);
    p.shares!(cl, shares);
    for (let q = 0; q < n; q++) {
      let s = 0;
      for (let r = 0; r < k; r++) s = Math.max(s, shares[q * k + r] / cl.capacity[r]);
      shareDom[q] = s;
    }
    for (;;) {
      let best: QueueRt | null = null;
      let bestRatio = Infinity;
      for (const q of cl.queues) {
        if (q.rejected || q.runnableTasks === 0) continue;
        const next = q.nextTask;
        if (!next) continue;
        // a task that needs no resource always runs (no share can be owed for it)
        const free = next.every((d) => d === 0);
        const sd = shareDom[q.index];
        if (!free && (!(sd > 0) || q.useDom >= sd * (1 - SHARE_EPS) || !cl.fits(next))) continue;
        const ratio = free ? -1 : q.useDom / sd;
        if (ratio < bestRatio) { bestRatio = ratio; best = q; }
      }
      if (best) { startTask(best); continue; }
      // bounded: each point preempts at most as many tasks as were running when it began
      if (!opts.preemption || preemptBudget-- <= 0 || !preemptFor()) break;
    }
  };

  // Preemption: the queue furthest below its share whose next task does not fit takes
  // the newest task of the queue furthest above its share (if that stays >= its share and
  // the task holds a resource the waiting task is blocked on; otherwise killing it would
  // free nothing useful and could repeat forever).
  const preemptFor = (): boolean => {
    let needy: QueueRt | null = null;
    let needRatio = Infinity;
    for (const q of cl.queues) {
      if (q.rejected || q.runnableTasks === 0) continue;
      const sd = shareDom[q.index];
      if (!(sd > 0) || q.useDom >= sd * (1 - SHARE_EPS)) continue;
      if (q.useDom / sd < needRatio) { needRatio = q.useDom / sd; needy = q; }
    }
    if (!needy) return false;
    // only a task holding a resource the needy task is blocked on is worth killing
    const want = needy.nextTask!;
    const frees = (t: TaskRt) => t.stage.demand.some((d, r) => d > 0 && cl.used[r] + want[r] > cl.capacity[r] * (1 + 1e-12));
    let victim: QueueRt | null = null;
    let over = 1 + SHARE_EPS;
    for (const q of cl.queues) {
      if (q === needy || q.runningList.length === 0) continue;
      const sd = shareDom[q.index];
      const task = q.runningList[q.runningList.length - 1];
      if (!frees(task)) continue;
      let taskDom = 0;
      for (let r = 0; r < k; r++) taskDom = Math.max(taskDom, task.stage.demand[r] / cl.capacity[r]);
      if (q.useDom - taskDom < sd * (1 - SHARE_EPS)) continue; // would fall below its own share
      const ratio = sd > 0 ? q.useDom / sd : Infinity;
      if (ratio > over) { over = ratio; victim = q; }
    }
    if (!victim) return false;
    const task = victim.runningList[victim.runningList.length - 1];
    killTask(task);
    task.stage.retry.push(task.index);
    task.job.pendingTasks++;
    cl.addPending(victim, task.stage.demand, 1);
    stats.preemptions++;
    return true;
  };

  const schedulePick = (p: Policy) => {
    for (;;) {
      const q = p.pickNext!(cl);
      if (q < 0) break;
      const queue = cl.queues[q];
      if (!queue || queue.rejected) throw new SimulationError(`the policy picked an invalid or rejected queue index ${q}`, { time: cl.time });
      startTask(queue);
    }
  };

  const notify = (ev: SimEvent) => policy.onEvent?.(ev, cl, actions);

  const apply = (ev: Ev) => {
    stats.events++;
    switch (ev.kind) {
      case "arrival": {
        const job = ev.job;
        const q = job.queue;
        if (q.rejected) {
          job.outcome = { status: "rejected", reason: admissions[q.index]?.reason ?? "rejected at admission" };
          return;
        }
        q.jobs.push(job);
        q.activeJobs++;
        for (const s of job.stages) if (s.waitingParents === 0) makeRunnable(job, s);
        notify({ type: "arrival", time: ev.time, queue: q.index, job: job.spec.id });
        if (job.spec.burst !== undefined) {
          const deadline = ev.time + (job.spec.deadline ?? Infinity);
          q.openBurst = { index: job.spec.burst, start: ev.time, deadline, submittedTasks: job.tasksLeft, finishedTasks: 0 };
          notify({ type: "burstStart", time: ev.time, queue: q.index, burst: job.spec.burst });
          if (Number.isFinite(deadline)) events.push({ kind: "burstEnd", time: deadline, queue: q, burst: job.spec.burst });
        }
        return;
      }
      case "taskEnd": {
        const task = ev.task;
        if (!task.alive) return; // killed by preemption or a drop
        task.alive = false;
        const { job, stage } = task;
        const q = job.queue;
        cl.addUsage(q, stage.demand, -1);
        stage.running--;
        stage.finished++;
        job.tasksLeft--;
        job.running.delete(task);
        const at = q.runningList.lastIndexOf(task);
        if (at >= 0) q.runningList.splice(at, 1);
        if (q.openBurst && job.spec.burst === q.openBurst.index) q.openBurst.finishedTasks++;
        notify({ type: "taskEnd", time: ev.time, queue: q.index, job: job.spec.id, stage: job.stages.indexOf(stage), task: task.index, started: task.start });
        if (stage.finished === stage.spec.tasks) {
          for (const c of stage.children) {
            const child = job.stages[c];
            if (--child.waitingParents === 0) makeRunnable(job, child);
          }
        }
        if (job.tasksLeft === 0 && job.outcome === null) endJob(job, { status: "finished", finish: ev.time });
        return;
      }
      case "burstEnd": {
        const q = ev.queue;
        if (q.openBurst && q.openBurst.index === ev.burst) q.openBurst = null;
        notify({ type: "burstEnd", time: ev.time, queue: q.index, burst: ev.burst });
        return;
      }
      case "tick":
        notify({ type: "tick", time: ev.time });
        if (events.size > 0 || cl.queues.some((q) => q.activeJobs > 0)) {
          // a tick that does not advance time (t + updateInterval == t) would repeat forever
          const next = ev.time + updateInterval;
          if (!(next > ev.time) || ++ticks > MAX_STEPS) throw new InputError("updateInterval", `${updateInterval} s needs more than ${MAX_STEPS} policy ticks (or does not advance time) at t = ${ev.time} s; use a longer interval`);
          events.push({ kind: "tick", time: next });
        }
        return;
      case "wake":
        return;
    }
  };

  let ticks = 0;
  if (updateInterval > 0) {
    // the run reaches at least the last arrival (or the horizon): refuse at once an interval that
    // could not get there within MAX_STEPS ticks (each tick is a scheduling point, so the
    // in-loop cap alone meant minutes of policy calls before the error)
    const reach = Math.min(horizon, lastArrival);
    if (reach / updateInterval > MAX_STEPS) throw new InputError("updateInterval", `${updateInterval} s needs more than ${MAX_STEPS} policy ticks to reach t = ${reach} s; use a longer interval`);
    events.push({ kind: "tick", time: 0 });
  }
  while (events.size > 0) {
    const t = events.peekTime();
    if (t > horizon) break;
    advanceTo(t);
    while (events.size > 0 && events.peekTime() === t) apply(events.pop()!);
    stats.schedulingPoints++;
    if (policy.shares) scheduleShares(policy);
    else if (policy.pickNext) schedulePick(policy);
  }
  const end = Number.isFinite(horizon) && events.size > 0 ? horizon : cl.time;
  advanceTo(end);
  if (end > bucketStart || seriesT.length === 0) flushBucket(end - bucketStart);

  // every job must have ended
  for (const job of jobs) {
    if (job.outcome !== null) continue;
    if (Number.isFinite(horizon) && events.size > 0) {
      job.outcome = { status: "dropped", time: horizon, reason: "horizon" };
      continue;
    }
    throw new SimulationError(
      job.pendingTasks > 0 ? "the job never ended: the policy left its runnable tasks waiting with nothing left to happen" : "the job never ended",
      { time: cl.time, queue: job.queue.spec.name, job: job.spec.id },
    );
  }

  const records: JobRecord[] = jobs.map((j) => {
    const o = j.outcome!;
    const rec: JobRecord = {
      id: j.spec.id, queue: j.queue.spec.name, queueIndex: j.queue.index, kind: j.queue.spec.kind,
      arrival: j.spec.arrival, outcome: o, tasks: j.spec.stages.reduce((a, s) => a + s.tasks, 0),
    };
    if (j.spec.deadline !== undefined) rec.deadline = j.spec.deadline;
    if (j.spec.burst !== undefined) rec.burst = j.spec.burst;
    if (o.status === "finished") rec.completionTime = o.finish - j.spec.arrival;
    return rec;
  });
  const makespan = end;
  const metrics = computeMetrics(workload, records, domIntegral, busy, makespan);
  return {
    policy: policy.name, seed, jobs: records, metrics, admissions,
    series: { t: seriesT, dominantShare: seriesDs },
    policyReport: policy.report?.(),
    stats,
  };
}

/** A rough length of the run (for the default sample interval): last arrival + total work / capacity. */
/**
 * The options' values, named on failure: a string horizon compared as a string (jobs never
 * ended), a NaN one ended nothing, a tiny sampleInterval or updateInterval meant billions
 * of buckets or ticks.
 */
function checkSimOptions(opts: SimOptions): void {
  if (opts === null || typeof opts !== "object") throw new InputError("options", `expected {policy, engine, ...}, got ${describeValue(opts)}`);
  const { horizon, sampleInterval, seed, preemption, policyOptions } = opts;
  if (horizon !== undefined && !(typeof horizon === "number" && horizon >= 0)) throw new InputError("horizon", `must be a number >= 0 or Infinity (got ${describeValue(horizon)})`);
  if (sampleInterval !== undefined && !(typeof sampleInterval === "number" && sampleInterval > 0 && Number.isFinite(sampleInterval))) {
    throw new InputError("sampleInterval", `must be a finite number > 0 (got ${describeValue(sampleInterval)})`);
  }
  if (seed !== undefined && !(typeof seed === "number" && Number.isFinite(seed))) throw new InputError("seed", `must be a finite number (got ${describeValue(seed)})`);
  if (preemption !== undefined && typeof preemption !== "boolean") throw new InputError("preemption", `must be true or false (got ${describeValue(preemption)})`);
  if (policyOptions !== undefined && (policyOptions === null || typeof policyOptions !== "object")) throw new InputError("policyOptions", `expected an object, got ${describeValue(policyOptions)}`);
}

/** Series buckets or policy ticks at most in one run (far beyond the ~200 points of the default). */
const MAX_STEPS = 2 ** 24;

function estimateSpan(w: Workload, lastArrival: number): number {
  let work = 0;
  for (const j of w.jobs) for (const s of j.stages) {
    let dom = 0;
    s.demand.forEach((d, r) => { dom = Math.max(dom, d / w.capacity[r]); });
    const dur = typeof s.duration === "number" ? s.duration * s.tasks : s.duration.reduce((a, b) => a + b, 0);
    work += dom * dur;
  }
  return Math.max(1, lastArrival + work);
}
