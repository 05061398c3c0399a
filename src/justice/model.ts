// The job-level deadline model of Justice's simulation mode (docs/policies/justice.md, the Justice paper §2-4).
//
// A job is `requestedTasks` identical tasks (its maximum parallelism) with a total computation
// time `compTime` in CPU·seconds, so each task runs for `d = compTime / requestedTasks` seconds
// on one CPU. It never uses more than `maxCpus = min(requestedTasks, capacity)` CPUs. Two
// runtime models, chosen per run:
//
// "waves" (default): a job given c CPUs runs its tasks in waves of c:
//     runtime(c) = ceil(requestedTasks / c) * d
//   The last wave may be partial: its unused CPUs stay reserved (allocated but idle).
//   Example: 10 tasks, compTime 200 CPU·s (d = 20 s). 10 CPUs: 1 wave, 20 s. 4 CPUs:
//   ceil(10/4) = 3 waves, 60 s (4+4+2 tasks; 2 reserved CPUs idle in the last wave). 5 CPUs: 40 s.
// "fluid": perfect parallelism up to the task count, the assumption behind the paper's
//   Algorithm 1 (numCPUsAllocd * jobET = compTime):
//     runtime(c) = compTime / c
//   Example: the same job with 4 CPUs runs 50 s, with 10 CPUs 20 s.
//
// T_i (the basis of the deadline, docs/policies/justice.md) is runtime(maxCpus) in the run's model: 20 s in both
// models for the example on any cluster of >= 10 CPUs; on 4 CPUs, 60 s (waves) or 50 s (fluid).

export type RuntimeModel = "waves" | "fluid";
export const RUNTIME_MODELS: readonly RuntimeModel[] = ["waves", "fluid"];

/** One job of a deadline workload. Times in seconds, `compTime` in CPU·seconds. */
export interface DeadlineJob {
  /** Unique name, echoed in outcomes. */
  id: string;
  /** Submission time (>= 0). */
  arrival: number;
  /** Number of tasks (integer >= 1): the job's maximum useful parallelism. */
  requestedTasks: number;
  /** Total computation time across tasks, CPU·seconds (> 0). */
  compTime: number;
  /** Relative deadline: the job is worth something only if it ends by `arrival + deadline`. */
  deadline: number;
}

/** Relative tolerance for time comparisons (waves accumulate floating-point error). */
export const TIME_EPS = 1e-9;

/** `a <= b` up to the time tolerance. */
export function timeLeq(a: number, b: number): boolean {
  return a <= b + TIME_EPS * Math.max(1, Math.abs(b));
}

/** Seconds one task of the job runs on one CPU. */
export function taskDuration(job: Pick<DeadlineJob, "compTime" | "requestedTasks">): number {
  return job.compTime / job.requestedTasks;
}

/** The most CPUs the job can use: min(requestedTasks, capacity). */
export function maxCpus(requestedTasks: number, capacity: number): number {
  return Math.min(requestedTasks, capacity);
}

/** Number of waves needed with `cpus` CPUs: ceil(requestedTasks / cpus). */
export function waves(requestedTasks: number, cpus: number): number {
  return Math.ceil(requestedTasks / cpus);
}

/** Runtime with a fixed allocation of `cpus` CPUs. */
export function runtimeWith(job: Pick<DeadlineJob, "compTime" | "requestedTasks">, cpus: number, model: RuntimeModel = "waves"): number {
  return model === "fluid" ? job.compTime / cpus : waves(job.requestedTasks, cpus) * taskDuration(job);
}

/** T_i of docs/policies/justice.md: the runtime with all the CPUs the job can use. */
export function optimalRuntime(job: Pick<DeadlineJob, "compTime" | "requestedTasks">, capacity: number, model: RuntimeModel = "waves"): number {
  return runtimeWith(job, maxCpus(job.requestedTasks, capacity), model);
}

/**
 * The fewest CPUs that finish the job within `time` seconds if it starts now (the Oracle's
 * knowledge), or null when even `maxCpus` cannot.
 * waves: with `k = floor(time / d)` whole waves fitting, `ceil(requestedTasks / k)`.
 *   Example: 10 tasks of 20 s, 45 s left: k = 2, 5 CPUs; 19 s left: null.
 * fluid: `ceil(compTime / time)`. Example: 200 CPU·s, 45 s left: ceil(4.44) = 5 CPUs.
 * Both use a 1e-9 relative tolerance so that exact fits are not rounded up.
 */
export function minCpusWithin(
  job: Pick<DeadlineJob, "compTime" | "requestedTasks">,
  time: number,
  capacity: number,
  model: RuntimeModel = "waves",
): number | null {
  if (!(time > 0)) return null;
  let c: number;
  if (model === "fluid") {
    c = Math.max(1, Math.ceil(job.compTime / time - TIME_EPS * Math.max(1, job.compTime / time)));
  } else {
    const k = Math.floor(time / taskDuration(job) + TIME_EPS);
    if (k < 1) return null;
    // max(1, ..): a task duration far below the time (a subnormal compTime / tasks) gives
    // k = Infinity and tasks / k = 0, and no job runs on 0 CPUs
    c = Math.max(1, Math.ceil(job.requestedTasks / k));
  }
  return c <= maxCpus(job.requestedTasks, capacity) ? c : null;
}

/** How a job ended. */
export type JobFate = "met" | "missed" | "dropped";

/** Why a job was dropped (an expected outcome, never an exception). */
export type DropKind =
  /** Admission control found it infeasible when it was submitted. */
  | "infeasible-at-submission"
  /** It waited in the queue until its remaining time could not fit its estimate. */
  | "infeasible-in-queue"
  /** It was running past its deadline and was killed (Reactive FS; Justice above its task threshold). */
  | "killed-past-deadline";

export interface JobOutcome {
  id: string;
  /** Position in the input job list. */
  index: number;
  fate: JobFate;
  /** Set when fate is "dropped". */
  dropKind?: DropKind;
  /** Human-readable reason with the numbers behind the decision (set for every dropped job). */
  reason?: string;
  arrival: number;
  /** When it first ran a task (null if it never ran). */
  start: number | null;
  /** When it finished, or was dropped. */
  end: number;
  /** Fixed allocations: the CPUs it was given. Fair share: the most CPUs it held at once. 0 if it never ran. */
  cpus: number;
  /** CPU·seconds of task execution it consumed (compTime when it finished). */
  cpuSeconds: number;
}
