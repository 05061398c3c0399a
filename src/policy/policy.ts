// The policy interface (strategy objects registered by name, like YARN's SchedulingPolicy
// or Volcano plugins). It sits below every driver: it names only the workload model and the
// engine, never a simulator's run-time classes or event queue, so the queue-level simulator
// (src/sim/simulator.ts, whose actions fill shares, preempt and pick) and a live scheduler
// can run the same policy objects. A driver keeps a ClusterState current, calls onEvent for
// what happened, then shares or pickNext at each scheduling point.
import type { Engine } from "../engine/engine.js";
import type { QueueSpec, Workload } from "./model.js";

/** What a policy sees of one queue at a scheduling point. Arrays are live views: read, don't keep. */
export interface QueueState {
  readonly index: number;
  readonly spec: QueueSpec;
  /**
   * What it could use right now (docs/policies/model.md): usage + pending, length K. This is the demand
   * vector to hand to DRF-like allocators (a share is a target for the queue's total use).
   */
  readonly demand: Float64Array;
  /** Demand of its runnable tasks that have not started yet, length K. */
  readonly pending: Float64Array;
  /** Resources its running tasks hold now, length K. */
  readonly usage: Float64Array;
  /** Demand of the next task it would start (head of its FIFO), or null when none is runnable. */
  readonly nextTask: Float64Array | null;
  readonly runnableTasks: number;
  /** Arrival time of the job whose task the queue would start next (FIFO head), Infinity when none. */
  readonly nextArrival: number;
  /**
   * Id of the job whose task the queue would start next, null when none; undefined when the
   * driver does not track jobs (a policy then tells jobs apart by nextArrival).
   */
  readonly nextJob?: string | null;
  readonly runningTasks: number;
  /** Jobs submitted and not yet ended. */
  readonly activeJobs: number;
  /** The burst currently open (arrived, not past its deadline), for LQs; else null. */
  readonly openBurst: { index: number; start: number; deadline: number; submittedTasks: number; finishedTasks: number } | null;
  /** Set when the policy rejected the queue at admission. */
  readonly rejected: boolean;
}

export interface ClusterState {
  readonly time: number;
  readonly capacity: Float64Array;
  readonly resources: readonly string[];
  /** Sum of all usage, length K. */
  readonly used: Float64Array;
  readonly queues: readonly QueueState[];
  /** Queue-major N*K of every queue's `demand` (usage + pending), ready for engine.drf. */
  readonly demands: Float64Array;
  /** Queue-major N*K of every queue's usage. */
  readonly usages: Float64Array;
}

export type SimEvent =
  | { type: "arrival"; time: number; queue: number; job: string }
  | { type: "taskEnd"; time: number; queue: number; job: string; stage: number; task: number; started: number }
  | { type: "jobEnd"; time: number; queue: number; job: string }
  | { type: "burstStart"; time: number; queue: number; burst: number }
  | { type: "burstEnd"; time: number; queue: number; burst: number }
  | { type: "tick"; time: number };

/** Admission (BoPF and friends): expected outcomes are values with a reason, not exceptions. */
export interface Admission {
  class: string; // e.g. 'hard' | 'soft' | 'elastic' | 'rejected' for BoPF, 'admitted' otherwise
  reason: string;
}

export interface PolicyContext {
  readonly workload: Workload;
  readonly engine: Engine;
  /** Deterministic random numbers in [0, 1) from the run's seed. */
  readonly random: () => number;
  /**
   * The driver reads `report()` at the end of a run (the simulator). Without it a policy keeps
   * nothing that only its report shows (LTRF's fairness series): a live host runs indefinitely.
   */
  readonly report?: boolean;
}

/** Actions a policy may take on the simulation besides allocating. */
export interface PolicyActions {
  /** Ends a job now as dropped with a reason (its running tasks are killed and their resources freed). */
  dropJob(jobId: string, reason: string): void;
  /** Asks for a scheduling point at `time` (>= now), e.g. for windows or virtual-time updates. */
  wakeAt(time: number): void;
}

/**
 * A scheduling policy. Implement either `shares` (a target allocation per queue; the
 * simulator starts tasks for queues under their target while tasks fit) or `pickNext`
 * (task-level: which queue starts its next task now). Both are consulted at every
 * scheduling point (arrivals, task ends, burst starts/ends, ticks).
 */
export interface Policy {
  readonly name: string;
  /** Called once before the run, with every queue: admission control happens here. */
  init?(ctx: PolicyContext): void;
  /** Admission decision per queue (called in queue order by init-capable policies; shown in reports). */
  admission?(queue: number): Admission | undefined;
  /** Share-based: write the target allocation (queue-major N*K, resource units) into `out` (zeroed before). */
  shares?(state: ClusterState, out: Float64Array): void;
  /**
   * Share-based: which queues are guaranteed their target now (src/dispatch/dispatcher.ts), called
   * after `shares`: write HARD or SOFT (src/kernels/guarantee-class.ts) per guaranteed queue into
   * `out`, which arrives filled with ELASTIC.
   * A share policy without it has every queue guaranteed up to its target.
   */
  guaranteed?(state: ClusterState, out: Uint8Array): void;
  /**
   * Share-based, optional: priority tiers of the dispatch's online-DRF (elastic) phase
   * (src/dispatch/dispatcher.ts), called at every scheduling point: write a tier per queue into
   * `out` (zeroed = tier 0). Online DRF serves the lowest tier first; a queue of a higher tier
   * starts a task only when no queue of a lower tier can start one (SP: LQs before TQs).
   */
  tier?(state: ClusterState, out: Uint8Array): void;
  /**
   * Share-based: true when the dispatch has no guaranteed phase, so drivers start tasks by
   * online DRF alone (in the policy's `tier`s) and need not call `shares` (DRF, SP). With
   * preemption the targets still count: `guaranteed`, if given, then says which queues a
   * preemption may serve (all of them without it).
   */
  readonly elasticOnly?: boolean;
  /**
   * Task-level: the queue whose next task should start now, or -1 to stop starting tasks
   * at this point. The policy is responsible for choosing a task that fits in the free
   * capacity: the simulator starts it and its invariant check catches an over-allocation.
   */
  pickNext?(state: ClusterState): number;
  /** Notification of every event before the scheduling point that follows it. */
  onEvent?(event: SimEvent, state: ClusterState, actions: PolicyActions): void;
  /** Extra per-policy output for reports (e.g. admission classes). */
  report?(): Record<string, unknown>;
  /**
   * Stateful policies: what they remember of the past (ledgers, virtual times, open guarantees),
   * as plain JSON with per-queue parts keyed by queue name, never by index, so it survives a
   * queue-set change and JSON. The live scheduler carries it across rebuilds and snapshots
   * (docs/live-scheduler.md, "Policy state").
   */
  exportState?(): PolicyState;
  /**
   * Called after `init` (before any event): takes over a state from `exportState` of the same
   * policy with the same options. Queues it names that are gone are dropped; queues it does not
   * name start as the policy defines for a newcomer. A malformed state is an InputError naming
   * the field, and the policy is left as `init` made it. `actions`: the driver's, for a policy
   * that had them from an event before the export.
   */
  importState?(state: unknown, field: string, actions: PolicyActions): void;
  /**
   * Optional, for policies that answer `admission` (the live scheduler's addQueue): queue `spec`
   * joins as the last queue, a newcomer with no history, in O(1) amortised admission work. After
   * it the policy must be exactly what a rebuild for the new queue set would give (`init`, then
   * `importState` of this one's state). A queue refused as input is an InputError naming the
   * field, and the policy is left as it was. Without it the live scheduler rebuilds the policy,
   * O(N) per queue added.
   */
  appendQueue?(spec: QueueSpec): void;
  /**
   * Optional: a policy that cannot go on to time `time` (a bounded history, e.g. LTRF's fairness
   * series) throws an InputError naming the option that bounds it, and changes nothing. A driver
   * asks before it changes anything for a call at a later time, so the refused call changes nothing.
   */
  checkTime?(time: number): void;
  /**
   * Optional: true when the policy applies QueueSpec.params minShare / maxShare itself (LTRF's
   * ranking). Otherwise a driver that offers min/max shares applies them around the policy (the
   * live scheduler: queues below their min share first, none above its max share).
   */
  readonly ownShareRules?: boolean;
  /**
   * Optional: the policy's words for queue `queue` now (a driver's explain()). `order` replaces
   * the driver's default sentence on the queue's place in the order (its weighted dominant share's
   * rank), used only while the queue has a waiting task; `notes` are added after the driver's own.
   */
  explain?(state: ClusterState, queue: number): PolicyExplanation;
}

/** A policy's answer to explain(): see Policy.explain. */
export interface PolicyExplanation {
  order?: string;
  notes?: string[];
}

/** A policy's exported state: plain JSON (numbers, strings, booleans, null, arrays, objects). */
export type PolicyState = { readonly [key: string]: unknown };

export interface PolicyFactory {
  readonly name: string;
  /** One line for `fairsched list`. */
  readonly description: string;
  create(options?: Record<string, unknown>): Policy;
}
