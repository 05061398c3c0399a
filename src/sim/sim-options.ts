// The queue-level simulator's options and result, and the checks of the options' values.
import type { Engine } from "../engine/engine.js";
import { InputError, describeValue } from "../errors.js";
import type { JobRecord } from "../policy/model.js";
import type { Admission, Policy } from "../policy/policy.js";
import type { RunMetrics } from "./metrics.js";

export interface SimOptions {
  /** A policy object or a registered policy name. */
  policy: Policy | string;
  policyOptions?: Record<string, unknown>;
  engine: Engine;
  seed?: number;
  /** Also consult the policy every `updateInterval` seconds (0 = only at events). Default 0. */
  updateInterval?: number;
  /** Allow preempting tasks of queues above their share (restarted later from scratch). Default false. */
  preemption?: boolean;
  /**
   * Share policies: hold queues that are not guaranteed while a guaranteed one is below its target
   * (the old BoPF reservation step; breaks work conservation). Default false.
   */
  reservation?: boolean;
  /**
   * Share policies: the online-DRF phase compares dominant shares rounded to this many decimal
   * places at the start of each pass, as the authors' simulator IRFsim does (2); an integer 0..15.
   * Default: exact shares (docs/policies/simulator.md, "Dispatch").
   */
  shareDecimals?: number;
  /**
   * Share policies: the dispatch's starvation guard (src/dispatch/head-reservation.ts): when the
   * head of the elastic phase's DRF order does not fit, queues behind it start only tasks that
   * leave room for it on the resources it needs. Default false: the simulator reproduces the
   * papers' work-conserving online DRF (docs/policies/simulator.md, "Starvation guard"); the
   * live scheduler guards by default.
   */
  starvationGuard?: boolean;
  /** Length of one time-series point: each is the average dominant share over its interval. Default: about 200 points. */
  sampleInterval?: number;
  /** Stop at this time (jobs not ended by then are dropped with reason 'horizon'). Default: run to completion. */
  horizon?: number;
}

export interface SimResult {
  policy: string;
  seed: number;
  jobs: JobRecord[];
  metrics: RunMetrics;
  /** Per-queue admission decisions, when the policy does admission control. */
  admissions: Array<Admission | undefined>;
  /** Per-queue usage time series: dominantShare[queue][j] is the average over [t[j], t[j] + interval). */
  series: { t: number[]; dominantShare: number[][] };
  policyReport?: Record<string, unknown>;
  stats: SimStats;
  /** With `preemption: true`: every task killed by preemption, in order (revived ones are not). */
  preempted?: PreemptionRecord[];
}

/** One preemption: the task of `queue` killed at `time` (it had run since `started`) to make room for queue `for`. */
export interface PreemptionRecord {
  time: number;
  queue: string;
  job: string;
  stage: number;
  task: number;
  started: number;
  for: string;
}

export interface SimStats {
  events: number;
  schedulingPoints: number;
  tasksStarted: number;
  preemptions: number;
}

/** Series buckets or policy ticks at most in one run (far beyond the ~200 points of the default). */
export const MAX_STEPS = 2 ** 24;

/**
 * The options' values, named on failure: a string horizon compared as a string (jobs never
 * ended), a NaN one ended nothing, a tiny sampleInterval or updateInterval meant billions
 * of buckets or ticks.
 */
export function checkSimOptions(opts: SimOptions): void {
  if (opts === null || typeof opts !== "object") throw new InputError("options", `expected {policy, engine, ...}, got ${describeValue(opts)}`);
  const { horizon, sampleInterval, seed, preemption, policyOptions } = opts;
  if (horizon !== undefined && !(typeof horizon === "number" && horizon >= 0)) throw new InputError("horizon", `must be a number >= 0 or Infinity (got ${describeValue(horizon)})`);
  if (sampleInterval !== undefined && !(typeof sampleInterval === "number" && sampleInterval > 0 && Number.isFinite(sampleInterval))) {
    throw new InputError("sampleInterval", `must be a finite number > 0 (got ${describeValue(sampleInterval)})`);
  }
  if (seed !== undefined && !(typeof seed === "number" && Number.isFinite(seed))) throw new InputError("seed", `must be a finite number (got ${describeValue(seed)})`);
  if (opts.reservation !== undefined && typeof opts.reservation !== "boolean") throw new InputError("reservation", `must be true or false (got ${describeValue(opts.reservation)})`);
  const d = opts.shareDecimals;
  if (d !== undefined && !(Number.isInteger(d) && d >= 0 && d <= 15)) throw new InputError("shareDecimals", `must be an integer from 0 to 15 (got ${describeValue(d)})`);
  if (opts.starvationGuard !== undefined && typeof opts.starvationGuard !== "boolean") throw new InputError("starvationGuard", `must be true or false (got ${describeValue(opts.starvationGuard)})`);
  if (preemption !== undefined && typeof preemption !== "boolean") throw new InputError("preemption", `must be true or false (got ${describeValue(preemption)})`);
  if (policyOptions !== undefined && (policyOptions === null || typeof policyOptions !== "object")) throw new InputError("policyOptions", `expected an object, got ${describeValue(policyOptions)}`);
}

/** updateInterval: a finite number >= 0 (0 = no ticks). */
export function checkUpdateInterval(updateInterval: unknown): number {
  if (typeof updateInterval !== "number" || !(updateInterval >= 0 && Number.isFinite(updateInterval))) throw new InputError("updateInterval", `must be a finite number >= 0 (got ${describeValue(updateInterval)})`);
  return updateInterval;
}
