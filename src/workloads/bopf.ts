// The BoPF evaluation setup (the BoPF paper §5.1), as a seeded generator.
//
// - 6 resources (CPU, memory, disk in/out, network in/out), each of capacity 100 units.
// - LQs: periodic bursts. Each burst is one job of 2 stages (like the BB LQ jobs) whose
//   first stage's instantaneous demand reaches the capacity of one resource, as the paper
//   scales its LQ jobs; with the whole cluster the burst finishes in `onPeriod` seconds
//   (the paper's average ON period, 27 s). `lqScale` multiplies the tasks (Fig. 9: 1x..8x):
//   a scaled burst needs `lqScale` waves. Bursts arrive every `period` seconds (1000 s in
//   the paper's simulations) from `lqStart`; each LQ reports its bursts (start, window =
//   deadline = its ideal completion time x `deadlineSlack`, volume) for admission.
// - TQs: `tqJobs` jobs each, all queued at t = 0, each a chain of 2-4 stages with 40-300
//   tasks; per-task demand has a random dominant resource at 1-4% of capacity and
//   10-70% of that proportion on the others; task durations are heavy-tailed
//   (Pareto, xm = 4 s, alpha = 1.5, capped at `tqMaxTask` = 600 s), so jobs last tens of
//   seconds to tens of minutes. The authors' Fig. 10 run leaves out TQ jobs with tasks longer
//   than 50 s (docs/reproduction-bopf.md): `tqMaxTask: 50` is the nearest setting here.
// - `identicalLqs` (Fig. 10: "all the LQs jobs have the identical demand and task
//   durations"): every burst of every LQ is the same job — LQ0's first burst's dominant
//   resource and task demand for all. Off: each LQ draws its own dominant resource and each
//   burst its own secondary demands. Either way the random draws are the same, so turning it
//   on changes only the LQ demands.
// Worked example: onPeriod 27, lqScale 1, lqTasks 50 -> stage 1: 50 tasks of 2 units on
// its dominant resource (= 100, the capacity) for 15 s, stage 2: 50 tasks for 12 s;
// volume on the dominant resource 100*15 + 100*12 = 2700 unit·s, window 27 s, rate 100.
import type { BurstSpec, JobSpec, QueueSpec, Workload } from "../policy/model.js";
import { Rng } from "../random/rng.js";
import { InputError, describeValue } from "../errors.js";

export interface BopfWorkloadParams {
  lqs: number;
  tqs: number;
  period: number | number[];
  onPeriod: number;
  lqStart: number;
  bursts: number;
  lqTasks: number;
  lqScale: number;
  deadlineSlack: number;
  tqJobs: number;
  capacity: number;
  /** Every LQ burst the same job (LQ0's first burst's demand). Default false. */
  identicalLqs: boolean;
  /** Longest TQ task in seconds (the Pareto durations are capped here). Default 600. */
  tqMaxTask: number;
}

export const BOPF_DEFAULTS: BopfWorkloadParams = {
  lqs: 1, tqs: 8, period: 1000, onPeriod: 27, lqStart: 100, bursts: 4, lqTasks: 50, lqScale: 1,
  deadlineSlack: 1, tqJobs: 10, capacity: 100, identicalLqs: false, tqMaxTask: 600,
};

export const BOPF_RESOURCES = ["cpu", "mem", "diskIn", "diskOut", "netIn", "netOut"];

function taskDemand(rng: Rng, dominant: number, domUnits: number, k: number): number[] {
  return Array.from({ length: k }, (_, r) => (r === dominant ? domUnits : Math.round(domUnits * rng.uniform(0.1, 0.7) * 1000) / 1000));
}

/** One LQ burst job: two stages of `tasks` tasks whose first-stage demand fills resource `dominant`. */
export function lqBurstJob(rng: Rng, p: BopfWorkloadParams, queue: string, burst: number, arrival: number, dominant: number): { job: JobSpec; spec: BurstSpec } {
  const k = BOPF_RESOURCES.length;
  const tasks = Math.round(p.lqTasks * p.lqScale);
  const per = p.capacity / p.lqTasks; // one wave of lqTasks tasks fills the dominant resource
  const d1 = 15 / 27 * p.onPeriod, d2 = 12 / 27 * p.onPeriod;
  const demand = taskDemand(rng, dominant, per, k);
  const waves = Math.ceil(tasks / p.lqTasks);
  const window = (d1 + d2) * waves * p.deadlineSlack;
  const job: JobSpec = {
    id: `${queue}-b${burst}`, queue, arrival, burst, deadline: window,
    stages: [
      { tasks, demand, duration: d1 },
      { tasks, demand, duration: d2, parents: [0] },
    ],
  };
  const volume = demand.map((d) => d * tasks * (d1 + d2));
  return { job, spec: { start: arrival, window, volume } };
}

function tqJob(rng: Rng, id: string, queue: string, k: number, capacity: number, maxTask: number): JobSpec {
  const stages = rng.int(2, 4);
  return {
    id, queue, arrival: 0,
    stages: Array.from({ length: stages }, (_, s) => {
      const tasks = rng.int(40, 300);
      const dominant = rng.int(0, k - 1);
      const domUnits = Math.round(capacity * rng.uniform(0.01, 0.04) * 1000) / 1000;
      const duration = Array.from({ length: tasks }, () => Math.round(Math.min(maxTask, rng.pareto(4, 1.5)) * 100) / 100);
      return { tasks, demand: taskDemand(rng, dominant, domUnits, k), duration, ...(s > 0 ? { parents: [s - 1] } : {}) };
    }),
  };
}

export function bopfWorkload(params: Partial<BopfWorkloadParams> = {}, seed = 1): Workload {
  if (params === null || typeof params !== "object") throw new InputError("params", `expected an object of workload parameters, got ${describeValue(params)}`);
  const p: BopfWorkloadParams = { ...BOPF_DEFAULTS, ...params };
  checkParams(p, seed);
  const rng = new Rng(seed);
  const k = BOPF_RESOURCES.length;
  const queues: QueueSpec[] = [];
  const jobs: JobSpec[] = [];
  let first: JobSpec | null = null;
  for (let l = 0; l < p.lqs; l++) {
    const name = `LQ${l}`;
    const period = Array.isArray(p.period) ? p.period[l % p.period.length] : p.period;
    const bursts: BurstSpec[] = [];
    const lqRng = rng.fork();
    const dominant = lqRng.int(0, k - 1);
    for (let b = 0; b < p.bursts; b++) {
      const { job, spec } = lqBurstJob(lqRng, p, name, b, p.lqStart + b * period, dominant);
      first ??= job;
      if (p.identicalLqs) {
        // the same demand as the very first burst (same tasks and durations already)
        const demand = first.stages[0].demand;
        job.stages = job.stages.map((s) => ({ ...s, demand: [...demand] }));
        spec.volume = first === job ? spec.volume : demand.map((d) => d * job.stages.reduce((v, s) => v + s.tasks * (s.duration as number), 0));
      }
      jobs.push(job);
      bursts.push(spec);
    }
    queues.push({ name, kind: "LQ", bursts });
  }
  for (let t = 0; t < p.tqs; t++) {
    const name = `TQ${t}`;
    const tqRng = rng.fork();
    queues.push({ name, kind: "TQ" });
    for (let j = 0; j < p.tqJobs; j++) jobs.push(tqJob(tqRng, `${name}-j${j}`, name, k, p.capacity, p.tqMaxTask));
  }
  return {
    name: "bopf", resources: BOPF_RESOURCES, capacity: BOPF_RESOURCES.map(() => p.capacity), queues, jobs,
    params: { ...p }, seed,
  };
}

/** Jobs one generated workload may hold (the paper's setups have tens to a few thousand). */
const MAX_JOBS = 2 ** 20;

/**
 * The parameters, named on failure: a NaN count generated nothing silently, a NaN or
 * negative size generated tasks simulate() refuses without naming the parameter, and
 * 10^9 queues or jobs never finished generating.
 */
function checkParams(p: BopfWorkloadParams, seed: unknown): void {
  const whole = (name: keyof BopfWorkloadParams, min: number) => {
    const v = p[name];
    if (typeof v !== "number" || !Number.isInteger(v) || v < min || v > MAX_JOBS) throw new InputError(`params.${name}`, `must be a whole number in ${min}..${MAX_JOBS} (got ${describeValue(v)})`);
  };
  const positive = (name: string, v: unknown) => {
    if (typeof v !== "number" || !(v > 0) || !Number.isFinite(v)) throw new InputError(`params.${name}`, `must be a finite number > 0 (got ${describeValue(v)})`);
  };
  whole("lqs", 0); whole("tqs", 0); whole("bursts", 0); whole("tqJobs", 0); whole("lqTasks", 1);
  if (p.lqs * p.bursts + p.tqs * p.tqJobs > MAX_JOBS) throw new InputError("params", `lqs * bursts + tqs * tqJobs = ${p.lqs * p.bursts + p.tqs * p.tqJobs} jobs, beyond ${MAX_JOBS}`);
  if (Array.isArray(p.period)) {
    if (p.period.length === 0) throw new InputError("params.period", "must list at least one period");
    p.period.forEach((x, i) => positive(`period[${i}]`, x));
  } else positive("period", p.period);
  positive("tqMaxTask", p.tqMaxTask);
  if (typeof p.identicalLqs !== "boolean") throw new InputError("params.identicalLqs", `must be true or false (got ${describeValue(p.identicalLqs)})`);
  positive("onPeriod", p.onPeriod); positive("lqScale", p.lqScale); positive("deadlineSlack", p.deadlineSlack); positive("capacity", p.capacity);
  if (typeof p.lqStart !== "number" || !(p.lqStart >= 0) || !Number.isFinite(p.lqStart)) throw new InputError("params.lqStart", `must be a finite number >= 0 (got ${describeValue(p.lqStart)})`);
  if (typeof seed !== "number" || !Number.isFinite(seed)) throw new InputError("seed", `must be a finite number (got ${describeValue(seed)})`);
}
