// Justice's job-level deadline mode: the public surface.
export * from "./model.js";
export type { Allocator, AllocatorContext, AllocatorFactory, AllocatorOptions, JobView } from "./allocator.js";
export { JusticeEstimator, type CpuEstimate, type EstimateQuery, type EstimatorOptions, type EstimatorState, type TrackedJob } from "./estimator.js";
export { SmoothedAverage, type ErrorWeighting } from "./smoothing.js";
export { runDeadlineSim, type DeadlineRun, type JobUsage, type RunOptions } from "./sim.js";
export { registerAllocator, getAllocator, allocatorNames, createAllocator } from "./registry.js";
export { waterFill } from "./allocators/fairshare.js";
export { DEADLINE_TYPES, assignDeadlines, expansionFactor, type DeadlineBasis, type DeadlineType } from "./deadlines.js";
export { computeMetrics, jainIndex, type DeadlineMetrics } from "./metrics.js";
export { generateJobs, offeredLoad, capacityForLoad, workloadStats, DEFAULT_WORKLOAD, type GeneratedJob, type WorkloadParams } from "./workload.js";
export { runCell, withDeadlines, type CellOptions, type CellResult } from "./experiment.js";
