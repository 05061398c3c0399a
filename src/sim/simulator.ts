// The queue-level discrete-event simulator (docs/policies/simulator.md): a set of handlers on
// the event core (src/des/) plus the scheduling actions. Deterministic: events are ordered by
// (time, sequence), all randomness comes from the seeded Rng. At every scheduling point (all
// events at one instant applied, then the policy consulted) tasks start FIFO within each
// queue: for share policies the fill-shares action (and preempt, when enabled) starts tasks
// of queues under their target share; task-level policies name the queue (pick action).
// Invariants are checked as the run goes: no resource over-allocated, time never moves
// backwards, every job ends finished, rejected or dropped with a reason.
import { InputError } from "../errors.js";
import { BucketAverages } from "../stats/bucket-averages.js";
import { Rng } from "../random/rng.js";
import { RunawayGuard } from "../des/runaway-guard.js";
import { SimulationError } from "../errors.js";
import { TimeIntegral } from "../stats/time-integral.js";
import type { JobRecord, Workload } from "../policy/model.js";
import type { Policy } from "../policy/policy.js";
import { FillShares } from "./actions/fill-shares.js";
import { pickTasks } from "./actions/pick.js";
import { applyEvent, type Ticks } from "./handlers.js";
import { computeMetrics } from "./metrics.js";
import { getPolicy, policyNames } from "./registry.js";
import { SimRun } from "./sim-run.js";
import { MAX_STEPS, checkSimOptions, checkUpdateInterval, type SimOptions, type SimResult } from "./sim-options.js";
import { validateWorkload } from "./validate-workload.js";

export type { QueueMetrics, RunMetrics, CompletionStats } from "./metrics.js";
export type { PreemptionRecord, SimOptions, SimResult, SimStats } from "./sim-options.js";

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
  const updateInterval = checkUpdateInterval(opts.updateInterval ?? 0);
  const horizon = opts.horizon ?? Infinity;
  const run = new SimRun(workload, policy);
  const { cl, env, jobs, stats } = run;
  const rng = new Rng(seed);

  // arrivals in (arrival time, position) order
  const order = jobs.map((_, i) => i).sort((a, b) => jobs[a].spec.arrival - jobs[b].spec.arrival || a - b);
  for (const i of order) env.scheduleAt(jobs[i].spec.arrival, { kind: "arrival", job: jobs[i] });

  // samplers: time-integrals of dominant shares and busy resources, and the series buckets
  const domIntegral = new TimeIntegral(cl.queues.length, (q) => cl.queues[q].useDom);
  const busy = new TimeIntegral(cl.capacity.length, (r) => cl.used[r]);
  const lastArrival = order.length ? jobs[order[order.length - 1]].spec.arrival : 0;
  const sampleInterval = opts.sampleInterval ?? Math.max(1e-3, estimateSpan(workload, lastArrival) / 200);
  const series = new BucketAverages(cl.queues.length, sampleInterval, (q) => cl.queues[q].useDom, MAX_STEPS,
    (to) => new InputError("sampleInterval", `${sampleInterval} s gives more than ${MAX_STEPS} series points up to t = ${to} s; use a longer interval`));
  const advanceTo = (t: number) => {
    series.advance(t);
    domIntegral.advance(t);
    busy.advance(t);
    cl.time = t;
  };

  policy.init?.({ workload, engine: opts.engine, random: () => rng.next(), report: true });
  const admissions = (run.admissions = cl.queues.map((q) => policy.admission?.(q.index)));
  admissions.forEach((a, i) => { if (a?.class === "rejected") cl.queues[i].rejected = true; });

  const ticks: Ticks = {
    interval: updateInterval,
    guard: new RunawayGuard(MAX_STEPS, (t) => new InputError("updateInterval", `${updateInterval} s needs more than ${MAX_STEPS} policy ticks (or does not advance time) at t = ${t} s; use a longer interval`)),
  };
  if (updateInterval > 0) {
    // the run reaches at least the last arrival (or the horizon): refuse at once an interval that
    // could not get there within MAX_STEPS ticks (each tick is a scheduling point, so the
    // in-loop cap alone meant minutes of policy calls before the error)
    const reach = Math.min(horizon, lastArrival);
    if (reach / updateInterval > MAX_STEPS) throw new InputError("updateInterval", `${updateInterval} s needs more than ${MAX_STEPS} policy ticks to reach t = ${reach} s; use a longer interval`);
    // likewise a started task's end, which the run reaches too (ticks go on while an event is
    // queued): a task of 1e52 s under a 3 s interval took 2^24 ticks, minutes, to be refused
    run.onTaskEnds = (end) => {
      const to = Math.min(horizon, end);
      if ((to - cl.time) / updateInterval > MAX_STEPS + 2) throw new InputError("updateInterval", `${updateInterval} s needs more than ${MAX_STEPS} policy ticks to reach t = ${to} s, when a task started at t = ${cl.time} s ends; use a longer interval`);
    };
    env.scheduleAt(0, { kind: "tick" });
  }

  const fillShares = new FillShares(run, opts.preemption === true, { reservation: opts.reservation === true, shareDecimals: opts.shareDecimals, starvationGuard: opts.starvationGuard === true });
  const stoppedAtHorizon = env.runInstants({
    until: horizon,
    advance: advanceTo,
    apply: (ev) => applyEvent(run, ev, ticks),
    decide: () => {
      stats.schedulingPoints++;
      if (policy.shares) fillShares.apply(policy);
      else if (policy.pickNext) pickTasks(run, policy);
    },
  });
  const end = Number.isFinite(horizon) && stoppedAtHorizon ? horizon : cl.time;
  advanceTo(end);
  series.finish(end);

  // every job must have ended
  for (const job of jobs) {
    if (job.outcome !== null) continue;
    if (Number.isFinite(horizon) && stoppedAtHorizon) {
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
  const metrics = computeMetrics(workload, records, domIntegral.totals, busy.totals, end);
  return {
    policy: policy.name, seed, jobs: records, metrics, admissions,
    series: { t: series.t, dominantShare: series.values },
    policyReport: policy.report?.(),
    stats,
    ...(opts.preemption === true ? { preempted: run.preempted } : {}),
  };
}

/** A rough length of the run (for the default sample interval): last arrival + total work / capacity. */
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
