// Moved to src/policy/model.ts (the workload model policies and simulators share); re-exported for existing imports.
export type { StageSpec, JobSpec, BurstSpec, QueueKind, QueueSpec, Workload, JobOutcome, JobRecord } from "../policy/model.js";
