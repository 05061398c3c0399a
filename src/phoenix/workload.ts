// Jobs of the node-level mode: trace jobs with synthetic constraints, and the cluster size
// that gives a target utilization. Offered load = total task-seconds / (workers x arrival
// span). Example: YH2_sub.tr has 1.489e8 task-seconds over 39,716 s of arrivals, so 4,165
// one-slot workers are 90% loaded and 9,370 workers 40%.
import type { Rng } from "../random/rng.js";
import { InputError, describeValue } from "../errors.js";
import type { Constraint } from "./constraints.js";
import { ConstraintGenerator, type ConstraintGenOptions } from "./constraint-gen.js";
import type { TraceJob } from "../traces/eagle.js";

export interface PhoenixJob {
  arrival: number;
  durations: Float64Array;
  /** The schedulers' runtime estimate per task (the trace's mean, as in Eagle). */
  estimate: number;
  constraints: Constraint[];
}

export function attachConstraints(trace: readonly TraceJob[], rng: Rng, opts?: ConstraintGenOptions): PhoenixJob[] {
  if (!Array.isArray(trace)) throw new InputError("trace", `expected an array of trace jobs, got ${describeValue(trace)}`);
  trace.forEach((j, i) => {
    if (j === null || typeof j !== "object" || !(j.durations instanceof Float64Array)) throw new InputError(`trace[${i}]`, `expected a trace job {arrival, durations: Float64Array, meanDuration}, got ${describeValue(j)}`);
  });
  const gen = new ConstraintGenerator(rng, opts);
  return trace.map((j) => ({ arrival: j.arrival, durations: j.durations, estimate: j.meanDuration, constraints: gen.next() }));
}

export function totalWork(jobs: readonly { durations: Float64Array }[]): number {
  let w = 0;
  for (const j of jobs) for (const d of j.durations) w += d;
  return w;
}

export function arrivalSpan(jobs: readonly { arrival: number }[]): number {
  if (jobs.length < 2) return 0;
  return jobs[jobs.length - 1].arrival - jobs[0].arrival;
}

/** Workers for a target offered load u in (0, 1]. */
export function workersForUtilization(jobs: readonly PhoenixJob[], u: number): number {
  // u = 0 gave Infinity workers, NaN gave NaN
  if (typeof u !== "number" || !(u > 0) || !Number.isFinite(u)) throw new InputError("u", `must be a finite number > 0 (got ${describeValue(u)})`);
  if (!Array.isArray(jobs)) throw new InputError("jobs", `expected an array of jobs, got ${describeValue(jobs)}`);
  jobs.forEach((j, i) => {
    if (j === null || typeof j !== "object" || !(j.durations instanceof Float64Array)) throw new InputError(`jobs[${i}].durations`, "must be a Float64Array");
    if (typeof j.arrival !== "number" || !Number.isFinite(j.arrival)) throw new InputError(`jobs[${i}].arrival`, `must be finite (got ${describeValue(j.arrival)})`);
    for (let t = 0; t < j.durations.length; t++) {
      const d = j.durations[t];
      if (!(d >= 0) || !Number.isFinite(d)) throw new InputError(`jobs[${i}].durations[${t}]`, `must be a finite number >= 0 (got ${describeValue(d)})`);
    }
  });
  const span = arrivalSpan(jobs);
  const w = Math.max(1, Math.round(totalWork(jobs) / (Math.max(span, 1) * u)));
  // simulateNodes' bound (a subnormal u, or work beyond f64, asks for Infinity workers)
  if (!(w <= 2 ** 24)) throw new InputError("u", `gives ${w} workers for this workload, beyond simulateNodes' 2^24; raise u`);
  return w;
}

export function offeredLoad(jobs: readonly PhoenixJob[], workers: number): number {
  return totalWork(jobs) / (Math.max(arrivalSpan(jobs), 1) * workers);
}
