// Input checks for the Justice mode. Misuse raises InputError naming the field and index
// (e.g. `jobs[3].deadline: must be a finite number > 0 (got -1)`); expected scheduling outcomes
// are never errors.
import { InputError, describeValue } from "../errors.js";
import type { DeadlineJob } from "./model.js";

export function checkPositive(field: string, v: unknown): number {
  if (typeof v !== "number" || !Number.isFinite(v) || v <= 0) {
    throw new InputError(field, `must be a finite number > 0 (got ${describeValue(v)})`);
  }
  return v;
}

export function checkNonNegative(field: string, v: unknown): number {
  if (typeof v !== "number" || !Number.isFinite(v) || v < 0) {
    throw new InputError(field, `must be a finite number >= 0 (got ${describeValue(v)})`);
  }
  return v;
}

export function checkInt(field: string, v: unknown, min: number): number {
  if (typeof v !== "number" || !Number.isSafeInteger(v) || v < min) {
    throw new InputError(field, `must be an integer >= ${min} (got ${describeValue(v)})`);
  }
  return v;
}

export function checkFraction(field: string, v: unknown): number {
  if (typeof v !== "number" || !Number.isFinite(v) || v <= 0 || v > 1) {
    throw new InputError(field, `must be a number in (0, 1] (got ${describeValue(v)})`);
  }
  return v;
}

export function checkBoolean(field: string, v: unknown): boolean {
  if (typeof v !== "boolean") throw new InputError(field, `must be a boolean (got ${describeValue(v)})`);
  return v;
}

/** Tasks over all jobs at most (the default workload's worst case is 4,000,000). */
const MAX_TASKS = 2 ** 24;

/** Validates a job list; returns it unchanged (typed) when every job is well formed. */
export function validateJobs(jobs: unknown, field = "jobs"): readonly DeadlineJob[] {
  if (!Array.isArray(jobs)) throw new InputError(field, `expected an array (got ${describeValue(jobs)})`);
  const ids = new Map<string, number>();
  let tasks = 0;
  let latest = 0, work = 0, longest = 0;
  jobs.forEach((j: unknown, i: number) => {
    const f = `${field}[${i}]`;
    if (j === null || typeof j !== "object") throw new InputError(f, `expected an object (got ${describeValue(j)})`);
    const job = j as Record<string, unknown>;
    if (typeof job.id !== "string") throw new InputError(`${f}.id`, `must be a string (got ${describeValue(job.id)})`);
    const prev = ids.get(job.id);
    if (prev !== undefined) throw new InputError(`${f}.id`, `duplicates ${field}[${prev}].id ${describeValue(job.id)}`);
    ids.set(job.id, i);
    checkNonNegative(`${f}.arrival`, job.arrival);
    tasks += checkInt(`${f}.requestedTasks`, job.requestedTasks, 1);
    // the waves model has one event (and usage point) per wave, up to one per task: 2^31
    // tasks on a small cluster exhausted memory (the worker crashed)
    if (tasks > MAX_TASKS) throw new InputError(`${f}.requestedTasks`, `brings the jobs to ${tasks} tasks, beyond the simulator's 2^24`);
    checkPositive(`${f}.compTime`, job.compTime);
    checkPositive(`${f}.deadline`, job.deadline);
    // every time the run can reach (an arrival, then every job's work one after another, or
    // a deadline) must be a finite f64: otherwise ends, the makespan and the metrics became
    // Infinity (or null in JSON) for finite inputs (issue 21 finding 15)
    latest = Math.max(latest, job.arrival as number);
    work += job.compTime as number;
    longest = Math.max(longest, job.deadline as number);
    if (!Number.isFinite(latest + work + longest)) {
      throw new InputError(`${f}.compTime`, `the jobs' latest arrival + total compTime + longest deadline (${latest} + ${work} + ${longest} s) is beyond f64, so run times would be Infinity; rescale the units`);
    }
  });
  return jobs as DeadlineJob[];
}
