// The simulator's job model (docs/policies/simulator.md). Plain data, JSON-serialisable, so workloads can be
// generated, loaded from traces, saved and replayed.

/** A stage: `tasks` identical tasks (same demand vector) that run when all parent stages are done. */
export interface StageSpec {
  /** Number of tasks (>= 1). */
  tasks: number;
  /** Demand vector of one task, length K, in resource units. */
  demand: number[];
  /** Duration of each task in seconds: one number for all, or one per task. */
  duration: number | number[];
  /** Indices (into the job's `stages`) of the stages that must finish first. */
  parents?: number[];
}

export interface JobSpec {
  /** Unique id within the workload. */
  id: string;
  /** Name of the queue it is submitted to. */
  queue: string;
  /** Submission time in seconds. */
  arrival: number;
  stages: StageSpec[];
  /** Relative deadline in seconds (LQ bursts: the burst's window t_i(n)). */
  deadline?: number;
  /** Index of the burst this job is, for LQ jobs. */
  burst?: number;
}

/** One LQ burst (docs/policies/bopf.md): arrives at `start`, must finish within `window`, total `volume` (resource·seconds per resource). */
export interface BurstSpec {
  start: number;
  window: number;
  volume: number[];
}

export type QueueKind = "LQ" | "TQ";

export interface QueueSpec {
  name: string;
  /** LQ: latency-sensitive with bursts; TQ: throughput (batch). */
  kind: QueueKind;
  weight?: number;
  /** The bursts an LQ reports for admission (docs/policies/bopf.md). May differ from the real jobs (estimation error, uncertainty). */
  bursts?: BurstSpec[];
  /** Group path for hierarchical policies (H-LTRF), e.g. ["org", "teamA"]. */
  path?: string[];
  /** Free-form per-queue parameters for policies (min/max shares, warps, ...). */
  params?: Record<string, number | string | boolean>;
}

export interface Workload {
  name: string;
  /** Resource names, length K. */
  resources: string[];
  capacity: number[];
  queues: QueueSpec[];
  /** Jobs, any order (the simulator orders them by arrival, then by position). */
  jobs: JobSpec[];
  /** The generator's parameters, echoed into every report. */
  params: Record<string, unknown>;
  seed: number;
}

/** How every job ends (docs/policies/simulator.md): each job gets exactly one outcome. */
export type JobOutcome =
  | { status: "finished"; finish: number }
  | { status: "rejected"; reason: string }
  | { status: "dropped"; time: number; reason: string };

export interface JobRecord {
  id: string;
  queue: string;
  queueIndex: number;
  kind: QueueKind;
  arrival: number;
  deadline?: number;
  burst?: number;
  outcome: JobOutcome;
  /** finish - arrival, for finished jobs. */
  completionTime?: number;
  tasks: number;
}
