// The named extension points of a node policy, as a Kubernetes scheduler profile fills its
// extension points with plugins (plugins/, composed in policies.ts). The node model
// (node/model.ts, node/handlers/) calls these hooks at fixed points and never asks which policy
// runs. A plugin fills one or more points; a point no plugin fills keeps its default
// (DEFAULT_HOOKS).
import type { Constraint } from "../constraints.js";
import type { Entry, Job } from "./types.js";

/** Queue modes of engine.crvReorder: 0 arrival order, 1 SRPT by key, 2 CRV. */
export type QueueMode = 0 | 1 | 2;

/** How a worker's queue is ordered at each reordering round (engine.crvReorder). */
export interface QueueOrder {
  /** Kernel mode of worker w's queue: 0 arrival order (not reordered), 1 by key (SRPT), 2 CRV. */
  mode(w: number): QueueMode;
  /** Sort key of an entry in mode 1 (and the tie order in mode 2): smaller first. */
  key(e: Entry): number;
  /** CRV score a probe competes with in mode 2 (0 = not promoted). */
  score(job: Job): number;
}

/** The congestion state the CRV monitor last computed (all quiet without a monitor). */
export interface CongestionView {
  /** Some constraint's CRV exceeded its threshold at the last monitor round. */
  readonly hot: boolean;
  /** Worker w's queue is in CRV mode. */
  flagged(w: number): boolean;
  /** Worker w's E[W] at the last hot monitor round, seconds. */
  waitEstimate(w: number): number;
}

export interface NodeHooks {
  /** Partition: how many workers, the first ones, are reserved for short tasks (0 = none). */
  shortOnlyWorkers(workers: number, fraction: number): number;
  /** Admission: the constraints a job is placed with (may relax soft ones; counts on job.relaxed). */
  admit(job: Job, constraints: readonly Constraint[]): readonly Constraint[];
  /** Long-job placement on arrival, over the eligible workers. */
  placeLong(job: Job, eligible: Int32Array): void;
  /** Probe placement: sends `count` probes of a job over its eligible workers. */
  placeProbes(job: Job, eligible: Int32Array, count: number): void;
  /** Queue order: the discipline each queue is reordered by. */
  queueOrder: QueueOrder;
  /** Task end: true keeps the ended task's probe at the head of worker w's queue (sticky probe). */
  keepProbe(w: number, entry: Entry): boolean;
  /** Idle: worker w is idle with an empty queue (work stealing fills its queue here). */
  idle(w: number): void;
  /** Heartbeat: the monitor's round. */
  heartbeat(): void;
  /** A short job arrived (the monitor wakes up if it slept while no short job was active). */
  shortJobArrived(): void;
  /** Congestion as the monitor last saw it, read by plugins that react to it. */
  congestion: CongestionView;
}

const QUIET: CongestionView = { hot: false, flagged: () => false, waitEstimate: () => 0 };

/**
 * Defaults: no partition, constraints as submitted, long jobs placed by the probe placement,
 * arrival-order queues, the probe released at task end, no stealing, no monitor.
 * placeLong and placeProbes are filled in by the model (model.sendProbes, batch sampling).
 */
export const DEFAULT_HOOKS: Omit<NodeHooks, "placeLong" | "placeProbes"> = {
  shortOnlyWorkers: () => 0,
  admit: (_job, cs) => cs,
  queueOrder: { mode: () => 0, key: () => 0, score: () => 0 },
  keepProbe: () => false,
  idle: () => {},
  heartbeat: () => {},
  shortJobArrived: () => {},
  congestion: QUIET,
};
