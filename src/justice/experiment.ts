// One cell of the evaluation grid: a job stream, a capacity, a deadline type, an allocator ->
// the run and its metrics. Deadlines are drawn from `deadlineSeed`, so every allocator (and
// every capacity) sees the same expansion factors for the same seed and type.
import { Rng } from "../random/rng.js";
import { assignDeadlines, type DeadlineBasis, type DeadlineType } from "./deadlines.js";
import { computeMetrics, type DeadlineMetrics } from "./metrics.js";
import type { DeadlineJob, RuntimeModel } from "./model.js";
import { createAllocator } from "./registry.js";
import { runDeadlineSim, type DeadlineRun } from "./sim.js";
import type { GeneratedJob } from "./workload.js";

export interface CellOptions {
  jobs: readonly GeneratedJob[];
  capacity: number;
  deadlineType: DeadlineType;
  deadlineSeed: number;
  allocator: string;
  allocatorParams?: Record<string, unknown>;
  /** Runtime model (default "waves"). */
  runtime?: RuntimeModel;
  /** What T_i is (deadlines.ts); default "capacity" (feasible deadlines). */
  deadlineBasis?: DeadlineBasis;
  /** Metric interval, s (default 60). */
  interval?: number;
}

export interface CellResult {
  jobs: DeadlineJob[];
  run: DeadlineRun;
  metrics: DeadlineMetrics;
}

export function withDeadlines(
  jobs: readonly GeneratedJob[], type: DeadlineType, capacity: number, seed: number,
  runtime: RuntimeModel = "waves", basis: DeadlineBasis = "capacity",
): DeadlineJob[] {
  return assignDeadlines(jobs, type, capacity, new Rng(seed), runtime, basis).map(({ id, arrival, requestedTasks, compTime, deadline }) =>
    ({ id, arrival, requestedTasks, compTime, deadline }));
}

export function runCell(o: CellOptions): CellResult {
  const runtime = o.runtime ?? "waves";
  const jobs = withDeadlines(o.jobs, o.deadlineType, o.capacity, o.deadlineSeed, runtime, o.deadlineBasis ?? "capacity");
  const alloc = createAllocator(o.allocator, { capacity: o.capacity, params: o.allocatorParams, runtime });
  const run = runDeadlineSim(jobs, alloc, { capacity: o.capacity, runtime });
  return { jobs, run, metrics: computeMetrics(jobs, run, o.interval ?? 60) };
}
