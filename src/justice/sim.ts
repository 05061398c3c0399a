// The deterministic discrete-event loop of Justice's job-level deadline mode.
//
// A set of handlers on the discrete-event core (src/des/environment.ts; the run's state and
// handlers are in deadline-run.ts): events are ordered by
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
import type { Allocator } from "./allocator.js";
import { RUNTIME_MODELS, type DeadlineJob, type JobOutcome, type RuntimeModel } from "./model.js";
import { JobState, type JobUsage } from "./job-state.js";
import { DeadlineSimRun } from "./deadline-run.js";
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

/** Runs a job list under one allocator to completion. Deterministic: no randomness inside. */
export function runDeadlineSim(jobsIn: readonly DeadlineJob[], allocator: Allocator, opts: RunOptions): DeadlineRun {
  const jobs = validateJobs(jobsIn);
  const C = checkInt("capacity", opts?.capacity, 1);
  const runtime: RuntimeModel = opts.runtime ?? "waves";
  if (!RUNTIME_MODELS.includes(runtime)) {
    throw new InputError("runtime", `must be one of ${RUNTIME_MODELS.join(", ")} (got ${describeValue(runtime)})`);
  }
  if (allocator.mode !== "fixed" && allocator.mode !== "shared") {
    throw new InputError("allocator.mode", `must be "fixed" or "shared"`);
  }
  const states = jobs.map((j, i) => new JobState(i, j));
  const run = new DeadlineSimRun(states, allocator, C, runtime);
  run.run();

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
    stats: { events: run.events, schedulingPoints: run.points },
    allocatorReport: allocator.report?.(),
  };
}
