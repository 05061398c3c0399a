// The allocator interface of the job-level deadline mode. The event loop (sim.ts) knows
// nothing about any particular allocator; allocators are registered by name (registry.ts).
import type { DeadlineJob, DropKind, RuntimeModel } from "./model.js";

/** What an allocator sees of one job. Live view: read it during the call, don't keep it. */
export interface JobView {
  /** Position in the input job list. */
  readonly index: number;
  readonly spec: DeadlineJob;
  /** "queued": submitted, not admitted. "running": admitted (fair share: may hold 0 CPUs). "waiting": not submitted yet; "ended": finished or dropped (allocators only see the last two in callbacks). */
  readonly status: "waiting" | "queued" | "running" | "ended";
  /** Absolute deadline: arrival + deadline. */
  readonly deadlineAt: number;
  /** Tasks not started yet. */
  readonly pendingTasks: number;
  /** Tasks running now. */
  readonly runningTasks: number;
  /** Fixed mode: the CPUs it was admitted with (0 while queued). Shared mode: its current share. */
  readonly cpus: number;
}

export interface AllocatorContext {
  readonly now: number;
  readonly capacity: number;
  /** The run's runtime model (model.ts). */
  readonly runtime: RuntimeModel;
  /** Fixed mode: capacity minus reserved CPUs. Shared mode: capacity minus running tasks. */
  readonly freeCpus: number;
  /** Submitted, not admitted, not dropped; in arrival order (fixed mode only; empty in shared mode). */
  readonly queued: readonly JobView[];
  /** Admitted and not ended, in arrival order. */
  readonly running: readonly JobView[];
  /** Fixed mode: admit a queued job with `cpus` CPUs, kept until it ends (all-or-nothing offer). */
  admit(job: JobView, cpus: number): void;
  /** Drop a queued job (an expected outcome; `reason` carries the numbers). */
  drop(job: JobView, kind: DropKind, reason: string): void;
  /** Shared mode: set a running job's share (target CPUs) for the coming interval. */
  setShare(job: JobView, cpus: number): void;
}

export interface Allocator {
  readonly name: string;
  /**
   * "fixed": jobs wait in a queue until the allocator admits them with a CPU count that never
   * changes while they run (Justice, Oracle). "shared": every job is admitted at submission and
   * runs tasks up to a share the allocator re-divides at every event (fair share).
   */
  readonly mode: "fixed" | "shared";
  /** Called at every scheduling point (after the arrivals, completions and kills of an instant). */
  schedule(ctx: AllocatorContext): void;
  /** A job ran to completion (met or missed its deadline). */
  onComplete?(job: JobView, met: boolean, now: number): void;
  /** A running job reached its deadline unfinished: return true to kill it. */
  killAtDeadline?(job: JobView): boolean;
  /** Allocator-specific summary for the report (JSON-serialisable). */
  report?(): Record<string, unknown>;
}

export interface AllocatorOptions {
  capacity: number;
  /** The runtime model of the run (the Oracle needs it). Default "waves". */
  runtime?: RuntimeModel;
  /** Allocator parameters (e.g. Justice's `dropThreshold`, `smoothing`). */
  params?: Record<string, unknown>;
}

export interface AllocatorFactory {
  readonly name: string;
  readonly description: string;
  /** The parameters it accepts with their defaults (echoed into reports). */
  readonly defaults: Record<string, unknown>;
  create(opts: AllocatorOptions): Allocator;
}
