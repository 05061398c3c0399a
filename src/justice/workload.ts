// A seeded job stream shaped like the production traces of the Justice paper §4 (TR1/TR2):
// about 60% single-task jobs, 70-80% under 10 tasks, a few percent with thousands of tasks that
// carry almost all the computation time, heavy-tailed computation times (most jobs under 1000
// CPU·s). Task counts are drawn by bucket (1; 2-9; 10-99; 100-999; 1000-maxTasks, log-uniform
// inside a bucket); the task duration of a job is lognormal with shape `taskSigma` and median
// `taskMedian * tasks^taskSizeExponent` s (exponent 0: independent of the job's size; the paper's
// Fig. 1c-d has big jobs' tasks far longer: PAPER_WORKLOAD), so compTime = tasks * duration is
// heavy-tailed. Arrivals are Poisson.
//
// Capacities follow the paper's setting: TR1 averages about 3,900 busy CPUs (8.59 M CPU·hours
// over 3 months) and is run on 2,250 ("highly constrained", offered load 1.7x capacity) and
// 4,500 CPUs ("moderately constrained", 0.87x). `capacityForLoad` derives a capacity from the
// stream's own offered load (total compTime / arrival span) the same way.
import type { Rng } from "../random/rng.js";
import { checkFraction, checkInt, checkPositive } from "./validate.js";
import { InputError, describeValue } from "../errors.js";

export interface WorkloadParams {
  jobs: number;
  /** Mean seconds between submissions. */
  meanInterarrival: number;
  /** Probabilities of the task-count buckets 1, 2-9, 10-99, 100-999 (the rest: 1000+). */
  pSingle: number;
  pSmall: number;
  pMedium: number;
  pLarge: number;
  /** Largest task count. */
  maxTasks: number;
  /** Median task duration (s) of a 1-task job, and lognormal shape. */
  taskMedian: number;
  taskSigma: number;
  /** The median task duration grows as tasks^taskSizeExponent (0: independent of job size). */
  taskSizeExponent: number;
  /**
   * Divides the task count of jobs with >= 100 tasks (their task length is still drawn from the
   * undivided count), for a reduced copy of a setting with the cluster divided alike: job sizes
   * relative to the cluster and the offered load relative to capacity stay. Default 1.
   */
  sizeScale?: number;
}

export const DEFAULT_WORKLOAD: WorkloadParams = {
  jobs: 1000,
  meanInterarrival: 20,
  pSingle: 0.6,
  pSmall: 0.15,
  pMedium: 0.1,
  pLarge: 0.1,
  maxTasks: 4000,
  taskMedian: 20,
  taskSigma: 1.1,
  taskSizeExponent: 0,
};

/**
 * The paper's TR1 at scale (its Fig. 1 and Table 1): 58% single-task jobs, 72% under 10 tasks,
 * 80% under 100, 13% with 1,000-4,500 tasks (1-2x the 2,250 CPUs of the highly constrained
 * setting); the median task runs 10 s in a 1-task job and 10 * tasks^0.6 s in bigger ones
 * (about 1,100 s at 2,500 tasks), so jobs of >= 1,000 tasks carry ~98% of the computation and
 * most jobs compute under 1,000 CPU·s. A mean interarrival of 175 s offers about 3,900 busy
 * CPUs, TR1's average (8.59 M CPU·hours over 3 months). Calibration measured in
 * docs/reproduction-justice.md#workload.
 */
export const PAPER_WORKLOAD: WorkloadParams = {
  jobs: 3000,
  meanInterarrival: 175,
  pSingle: 0.58,
  pSmall: 0.14,
  pMedium: 0.08,
  pLarge: 0.07,
  maxTasks: 4500,
  taskMedian: 10,
  taskSigma: 1.1,
  taskSizeExponent: 0.6,
};

export interface GeneratedJob {
  id: string;
  arrival: number;
  requestedTasks: number;
  compTime: number;
}

export function generateJobs(rng: Rng, p: WorkloadParams = DEFAULT_WORKLOAD): GeneratedJob[] {
  const n = checkInt("jobs", p.jobs, 1);
  checkPositive("meanInterarrival", p.meanInterarrival);
  for (const k of ["pSingle", "pSmall", "pMedium", "pLarge"] as const) {
    if (p[k] !== 0) checkFraction(k, p[k]);
  }
  if (p.pSingle + p.pSmall + p.pMedium + p.pLarge > 1 + 1e-12) {
    throw new InputError("pSingle", "pSingle + pSmall + pMedium + pLarge must be <= 1");
  }
  const maxTasks = checkInt("maxTasks", p.maxTasks, 1000);
  checkPositive("taskMedian", p.taskMedian);
  checkPositive("taskSigma", p.taskSigma);
  const exponent = p.taskSizeExponent ?? 0;
  if (typeof exponent !== "number" || !Number.isFinite(exponent) || exponent < 0 || exponent > 2) {
    throw new InputError("taskSizeExponent", `must be a number in [0, 2] (got ${describeValue(exponent)})`);
  }
  const logUniformInt = (lo: number, hi: number) => Math.min(hi, Math.floor(Math.exp(rng.uniform(Math.log(lo), Math.log(hi + 1)))));
  const scale = p.sizeScale ?? 1;
  if (typeof scale !== "number" || !Number.isSafeInteger(scale) || scale < 1 || scale > 100) {
    throw new InputError("sizeScale", `must be an integer in [1, 100] (got ${describeValue(scale)})`);
  }
  const out: GeneratedJob[] = [];
  let t = 0;
  for (let i = 0; i < n; i++) {
    t += rng.exponential(p.meanInterarrival);
    const u = rng.next();
    let tasks: number;
    if (u < p.pSingle) tasks = 1;
    else if (u < p.pSingle + p.pSmall) tasks = logUniformInt(2, 9);
    else if (u < p.pSingle + p.pSmall + p.pMedium) tasks = logUniformInt(10, 99);
    else if (u < p.pSingle + p.pSmall + p.pMedium + p.pLarge) tasks = logUniformInt(100, 999);
    else tasks = logUniformInt(1000, maxTasks);
    const d = rng.lognormal(Math.log(p.taskMedian) + exponent * Math.log(tasks), p.taskSigma);
    // round to milliseconds so traces print cleanly; at least 1 s per task
    const dur = Math.max(1, Math.round(d * 1000) / 1000);
    const n = tasks >= 100 && scale > 1 ? Math.max(1, Math.round(tasks / scale)) : tasks;
    out.push({ id: `j${i}`, arrival: Math.round(t * 1000) / 1000, requestedTasks: n, compTime: n * dur });
  }
  return out;
}

/** Offered load in CPUs: total computation time over the arrival span. */
export function offeredLoad(jobs: readonly GeneratedJob[]): number {
  if (jobs.length === 0) return 0;
  let total = 0, first = Infinity, last = -Infinity;
  for (const j of jobs) {
    total += j.compTime;
    first = Math.min(first, j.arrival);
    last = Math.max(last, j.arrival);
  }
  return total / Math.max(last - first, 1);
}

/** The capacity at which the stream's offered load is `loadFactor` times the capacity. */
export function capacityForLoad(jobs: readonly GeneratedJob[], loadFactor: number): number {
  checkPositive("loadFactor", loadFactor);
  return Math.max(1, Math.round(offeredLoad(jobs) / loadFactor));
}

/** Shape statistics, to check the stream against the paper's Table 1 and Fig. 1. */
export function workloadStats(jobs: readonly GeneratedJob[]) {
  const n = jobs.length || 1;
  let total = 0, big = 0, single = 0, singleTime = 0, under10 = 0, under100 = 0, over1000 = 0, short = 0;
  for (const j of jobs) {
    total += j.compTime;
    if (j.requestedTasks === 1) { single++; singleTime += j.compTime; }
    if (j.requestedTasks < 10) under10++;
    if (j.requestedTasks < 100) under100++;
    if (j.requestedTasks >= 1000) { over1000++; big += j.compTime; }
    if (j.compTime < 1000) short++;
  }
  return {
    jobs: jobs.length,
    totalCpuHours: total / 3600,
    singleTaskPct: (100 * single) / n,
    singleTaskTimePct: total > 0 ? (100 * singleTime) / total : 0,
    under10TasksPct: (100 * under10) / n,
    under100TasksPct: (100 * under100) / n,
    over1000TasksPct: (100 * over1000) / n,
    over1000TasksTimePct: total > 0 ? (100 * big) / total : 0,
    compTimeUnder1000Pct: (100 * short) / n,
  };
}
