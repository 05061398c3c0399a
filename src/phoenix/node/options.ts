// Numeric settings of the node-level model, their defaults and their validation (each bad
// value is an InputError naming the field).
import { InputError, describeValue } from "../../errors.js";
import { validateConstraint } from "../constraints.js";
import type { PhoenixJob } from "../workload.js";

export interface NodeSimSettings {
  workers: number;
  seed: number;
  /** Long-job cutoff on the mean task duration, seconds (src/traces/eagle.ts EAGLE_CUTOFFS). */
  cutoff: number;
  /** Probes per task. Default 2. */
  probeRatio?: number;
  /**
   * Minimum probes per short job, whatever its task count. Default 0 (none: the probe ratio
   * alone, docs/policies/phoenix.md). Eagle's simulator uses max(probeRatio x tasks, 20) (its
   * MIN_NR_PROBES); kept as an option to measure that difference.
   */
  minProbes?: number;
  /** Round trip of a probe's task request, seconds. Default 0.0005. */
  networkDelay?: number;
  /** Heartbeat of the CRV monitor, seconds. Default 9. */
  heartbeat?: number;
  /** Times a task may be bypassed. Default 5. */
  slackThreshold?: number;
  /**
   * CRV_threshold of every constraint when tableIIThresholds is off, and of constraints without
   * a Table II row (memory) when it is on. Default 1 (more waiting tasks than workers).
   */
  crvThreshold?: number;
  /**
   * Per-constraint CRV_threshold = the constraint's Table II relative slowdown (crv-threshold.ts,
   * docs/policies/phoenix.md). Default true; false = crvThreshold for all (ablation).
   */
  tableIIThresholds?: boolean;
  /** Fixed E[W] limit in seconds, used only when qwaitLoad is 0. Default 90 (one Yahoo cutoff). */
  qwaitThreshold?: number;
  /**
   * Qwait_threshold as a load: a worker is congested when its E[W] exceeds the E[W] it would
   * have at load qwaitLoad with its own service moments (monitor.ts waitAtLoad), i.e. when its
   * measured load exceeds qwaitLoad. A fixed limit in seconds would flag every worker that
   * recently ran a long task (its E[S^2] / 2E[S] alone is minutes). Default 0.9 (the peak load
   * below which SRPT is best); 0 = the fixed qwaitThreshold (ablation).
   */
  qwaitLoad?: number;
  /** Fraction of workers reserved for short tasks (when the policy partitions). Default 0.02. */
  shortOnlyFraction?: number;
  /** Victims an idle worker contacts per stealing attempt (Hawk). Default 10. */
  stealAttempts?: number;
  /**
   * Which idle workers may steal (work-stealing plugin): "short-only" = the short-only partition
   * only (the model as first written); "any" = any idle worker with an empty queue, as Hawk's
   * simulator does (issue 19). Default "any" (Hawk's simulator; docs/reproduction-phoenix.md has
   * both measured over 20 seeds).
   */
  stealers?: "short-only" | "any";
  /**
   * CRV demand of centrally placed (long) tasks leaves when the task starts, as a probed task's
   * does when it is bound (issue 19: without it long-job demand only grows). Default true; false
   * keeps the former accounting (an ablation; docs/reproduction-phoenix.md).
   */
  releaseLongDemand?: boolean;
  /**
   * Refresh period in seconds of the schedulers' copy of the succinct-state bit vector (which
   * workers hold long work; succinct-state plugin). 0 = always current (Eagle's simulator, the
   * default); X > 0 = a snapshot taken at most every X seconds, so re-sent probes may go to a
   * worker that took long work since (they queue behind it) and miss one that has freed.
   */
  sssRefresh?: number;
  /** Tasks per worker in the E[W] history. Default 16. */
  historyLength?: number;
  /**
   * Width in seconds of the windows of the busy profile (result.busyProfile); 0 = no profile.
   * Default 0. Example: 1000 -> busyProfile[k] = busy fraction of the workers over
   * [first arrival + 1000k, first arrival + 1000(k+1)).
   */
  busyWindow?: number;
}

export type ResolvedNodeSettings = Required<NodeSimSettings>;

/** Windows of the busy profile at most (busyWindow against the run's span). */
export const MAX_WINDOWS = 2 ** 24;

/** Workers beyond this would allocate gigabytes of per-worker state (the papers' clusters have ~10^4). */
export const MAX_WORKERS = 2 ** 24;

export function checkOptions(opts: NodeSimSettings): ResolvedNodeSettings {
  if (opts === null || typeof opts !== "object") throw new InputError("options", `expected an object, got ${describeValue(opts)}`);
  const r: ResolvedNodeSettings = {
    workers: opts.workers, seed: opts.seed, cutoff: opts.cutoff,
    probeRatio: opts.probeRatio ?? 2, minProbes: opts.minProbes ?? 0, networkDelay: opts.networkDelay ?? 0.0005, heartbeat: opts.heartbeat ?? 9,
    slackThreshold: opts.slackThreshold ?? 5, crvThreshold: opts.crvThreshold ?? 1, tableIIThresholds: opts.tableIIThresholds ?? true, qwaitThreshold: opts.qwaitThreshold ?? 90, qwaitLoad: opts.qwaitLoad ?? 0.9,
    shortOnlyFraction: opts.shortOnlyFraction ?? 0.02, stealAttempts: opts.stealAttempts ?? 10, historyLength: opts.historyLength ?? 16,
    busyWindow: opts.busyWindow ?? 0, stealers: opts.stealers ?? "any", releaseLongDemand: opts.releaseLongDemand ?? true, sssRefresh: opts.sssRefresh ?? 0,
  };
  const int = (f: keyof ResolvedNodeSettings, min: number) => {
    const v = r[f];
    if (typeof v !== "number" || !Number.isInteger(v) || v < min) throw new InputError(f, `must be a whole number >= ${min} (got ${describeValue(v)})`);
  };
  const pos = (f: keyof ResolvedNodeSettings, allowZero: boolean) => {
    const v = r[f];
    if (typeof v !== "number" || !Number.isFinite(v) || v < 0 || (!allowZero && v === 0)) throw new InputError(f, `must be a finite number ${allowZero ? ">=" : ">"} 0 (got ${describeValue(v)})`);
  };
  int("workers", 1); int("probeRatio", 1);
  if (r.workers > MAX_WORKERS) throw new InputError("workers", `must be at most 2^24 = ${MAX_WORKERS} (got ${r.workers})`); int("minProbes", 0); int("slackThreshold", 0); int("stealAttempts", 0); int("historyLength", 2);
  if (!Number.isFinite(r.seed)) throw new InputError("seed", `must be a finite number (got ${describeValue(r.seed)})`);
  pos("cutoff", true); pos("networkDelay", true); pos("heartbeat", false); pos("crvThreshold", true); pos("qwaitThreshold", true); pos("busyWindow", true); pos("sssRefresh", true);
  if (!(typeof r.qwaitLoad === "number" && r.qwaitLoad >= 0 && r.qwaitLoad < 1)) throw new InputError("qwaitLoad", `must be in [0, 1) (got ${describeValue(r.qwaitLoad)})`);
  if (r.stealers !== "short-only" && r.stealers !== "any") throw new InputError("stealers", `must be "short-only" or "any" (got ${describeValue(r.stealers)})`);
  if (typeof r.releaseLongDemand !== "boolean") throw new InputError("releaseLongDemand", `must be true or false (got ${describeValue(r.releaseLongDemand)})`);
  if (typeof r.tableIIThresholds !== "boolean") throw new InputError("tableIIThresholds", `must be true or false (got ${describeValue(r.tableIIThresholds)})`);
  if (!(r.shortOnlyFraction >= 0 && r.shortOnlyFraction < 1)) throw new InputError("shortOnlyFraction", `must be in [0, 1) (got ${describeValue(r.shortOnlyFraction)})`);
  return r;
}

/** The most estimated work (estimate x tasks) of one job: keys and their sums stay finite. */
export const MAX_ESTIMATED_WORK = 2 ** 960;

/**
 * One job's fields, named on failure: a NaN or negative duration would schedule its end
 * at NaN or in the past (the event queue's order breaks), a NaN estimate makes the job
 * neither long nor short, and a malformed constraint would throw a TypeError deep in the
 * constraint index.
 */
export function checkJob(spec: unknown, i: number): void {
  if (spec === null || typeof spec !== "object") throw new InputError(`jobs[${i}]`, `expected {arrival, durations, estimate, constraints}, got ${describeValue(spec)}`);
  const j = spec as PhoenixJob;
  if (!(j.durations instanceof Float64Array) || j.durations.length === 0) throw new InputError(`jobs[${i}].durations`, "must be a non-empty Float64Array");
  for (let t = 0; t < j.durations.length; t++) {
    const d = j.durations[t];
    if (!(d >= 0) || !Number.isFinite(d)) throw new InputError(`jobs[${i}].durations[${t}]`, `must be a finite number >= 0 (got ${describeValue(d)})`);
  }
  if (typeof j.arrival !== "number" || !Number.isFinite(j.arrival) || !(j.arrival >= 0)) throw new InputError(`jobs[${i}].arrival`, `must be a finite number >= 0 (got ${describeValue(j.arrival)})`);
  if (typeof j.estimate !== "number" || !(j.estimate >= 0) || !Number.isFinite(j.estimate)) throw new InputError(`jobs[${i}].estimate`, `must be a finite number >= 0 (got ${describeValue(j.estimate)})`);
  // queue orders key a job by its estimated remaining work (estimate x tasks left), and add such keys
  if (j.estimate * j.durations.length > MAX_ESTIMATED_WORK) throw new InputError(`jobs[${i}].estimate`, `${j.estimate} s x ${j.durations.length} tasks is beyond 2^960 s, the most estimated work a queue order can key`);
  if (!Array.isArray(j.constraints)) throw new InputError(`jobs[${i}].constraints`, `expected an array of constraints, got ${describeValue(j.constraints)}`);
  j.constraints.forEach((c, x) => validateConstraint(`jobs[${i}].constraints[${x}]`, c));
}
