// Justice's CPU estimator: Algorithm 1 (TRACK_JOB), Algorithm 2 (CALCULATE_ALLOC_FRACTION),
// Algorithm 3 (CORRECT_ALLOC_FRACTION, VALIDATE_FRACTION) and ESTIMATE_REQ of Algorithm 4
// (the Justice paper), with the resolutions of docs/policies/justice.md.
//
// State (the paper's names): minReqRateList, MinCPUFrac, MaxCPUFrac, LastCPUFrac, LastSuccess,
// fractionErrorList, plus the number of completed jobs.
//
// TRACK_JOB(compTime, requestedTasks, deadline, cpusAllocated, metDeadline), at every completion:
//   deadlineCPUs = compTime / deadline                 (CPUs that would have finished just in time)
//   maxCPUs      = min(requestedTasks, capacity)
//   minReqRate   = deadlineCPUs / maxCPUs              -> appended to minReqRateList
//   MinCPUFrac   = min(minReqRateList), MaxCPUFrac = max(minReqRateList)
//   LastCPUFrac  = cpusAllocated / maxCPUs, LastSuccess = metDeadline
//   fractionErrorList.append(minReqRate - LastCPUFrac)
//
// ESTIMATE_REQ(requestedTasks, deadline, timeInQueue):
//   maxCpus = min(requestedTasks, capacity)
//   bootstrap (fewer than 2 completed jobs): reqCpus = maxCpus
//   otherwise:
//     fraction  = (LastCPUFrac + (LastSuccess ? MinCPUFrac : MaxCPUFrac)) / 2          (Alg. 2)
//     fraction += CALC_SMOOTHED_AVG(fractionErrorList)                                  (Alg. 3)
//     fraction  = clamp(fraction, MinCPUFrac, 1)                              (VALIDATE_FRACTION)
//     fraction *= deadline / (deadline - timeInQueue)                      (queue-time correction)
//     reqCpus   = max(ceil(fraction * maxCpus), 1)
//   feasible iff timeInQueue < deadline and reqCpus <= maxCpus (Alg. 4 line 5).
//
// Worked example (capacity 100, exponential smoothing 0.5):
//   track(compTime 400,  tasks 10, deadline  80, cpus 10, met)    rate 5/10 = 0.5,  err 0.5-1.0 = -0.5
//   track(compTime 300,  tasks  4, deadline 100, cpus  4, met)    rate 3/4  = 0.75, err -0.25
//   track(compTime 1800, tasks 20, deadline 100, cpus 10, missed) rate 18/20 = 0.9, err 0.9-0.5 = 0.4
//   state: MinCPUFrac 0.5, MaxCPUFrac 0.9, LastCPUFrac 0.5, LastSuccess false
//   estimate(tasks 20, deadline 50, queue 0): (0.5 + 0.9)/2 = 0.7; smoothed error
//     -0.5 -> -0.375 -> 0.0125, so 0.7125; within [0.5, 1]; ceil(0.7125 * 20) = 15 CPUs.
//     Equal weights instead: mean error -0.11667, fraction 0.58333, 12 CPUs.
//   estimate(tasks 20, deadline 50, queue 10): 0.7125 * 50/40 = 0.890625 -> 18 CPUs.
//   estimate(tasks 20, deadline 50, queue 30): 0.7125 * 50/20 = 1.78 -> 36 > 20: infeasible.
//
// Edge values: a minReqRate above 1 (a job that could not have met its deadline even with every
// CPU it asked for) is kept in the list as the paper does, but VALIDATE_FRACTION's upper bound 1
// wins over MinCPUFrac, so the fraction never exceeds 1 before the queue-time correction.
// timeInQueue >= deadline: infeasible, no request (cpus null). A fraction that is an integer
// multiple of 1/maxCpus up to float error (1e-9) is not rounded up one extra CPU.
import { InputError } from "../errors.js";
import { maxCpus as maxCpusOf } from "./model.js";
import { SmoothedAverage, type ErrorWeighting } from "./smoothing.js";
import { checkBoolean, checkInt, checkNonNegative, checkPositive } from "./validate.js";

export interface EstimatorOptions {
  /** Cluster capacity in CPUs (integer >= 1). */
  capacity: number;
  /** Exponential smoothing factor of the error correction, in (0, 1]. Default 0.5. */
  smoothing?: number;
  /** "exponential" (default) or "equal" weights for past errors. */
  errorWeighting?: ErrorWeighting;
  /**
   * VALIDATE_FRACTION's lower bound: true (default, the paper) clamps to MinCPUFrac, the lowest
   * minReqRate ever seen; false clamps to 0 only (an ablation, docs/reproduction-justice.md).
   */
  clampToMin?: boolean;
}

export interface TrackedJob {
  /** Total computation time, CPU·s (> 0). */
  compTime: number;
  requestedTasks: number;
  /** Relative deadline, s (> 0). */
  deadline: number;
  /** CPUs the job ran with (integer in [1, min(requestedTasks, capacity)]). */
  cpusAllocated: number;
  metDeadline: boolean;
}

export interface EstimateQuery {
  requestedTasks: number;
  /** The job's relative deadline as submitted (s). */
  deadline: number;
  /** Seconds it has waited since submission (>= 0). */
  timeInQueue: number;
}

export interface CpuEstimate {
  /** reqCpus of ESTIMATE_REQ (may exceed maxCpus when infeasible); null when no time is left. */
  cpus: number | null;
  /** min(requestedTasks, capacity). */
  maxCpus: number;
  feasible: boolean;
  /** True while fewer than two jobs have completed (the request is maxCpus). */
  bootstrap: boolean;
  /** The fraction of maxCpus after every step (1 in bootstrap; Infinity when no time is left). */
  fraction: number;
  /** Intermediate values, for explanations: Alg. 2 result, the smoothed error, Alg. 3 result. */
  base: number | null;
  correction: number | null;
  corrected: number | null;
  /** Why it is infeasible. */
  reason?: string;
}

/** A read-only copy of the estimator's state, with the paper's names. */
export interface EstimatorState {
  completedJobs: number;
  minReqRateList: number[];
  MinCPUFrac: number | null;
  MaxCPUFrac: number | null;
  LastCPUFrac: number | null;
  LastSuccess: boolean | null;
  fractionErrorList: number[];
  /** CALC_SMOOTHED_AVG(fractionErrorList) right now. */
  smoothedError: number;
}

const ROUND_TOL = 1e-9;

export class JusticeEstimator {
  readonly capacity: number;
  readonly smoothing: number;
  readonly errorWeighting: ErrorWeighting;
  readonly clampToMin: boolean;

  private readonly rates: number[] = [];
  private readonly errors: number[] = [];
  private minFrac: number | null = null;
  private maxFrac: number | null = null;
  private lastFrac: number | null = null;
  private lastSuccess: boolean | null = null;
  private readonly errorAvg: SmoothedAverage;
  /** Sum of fractionErrorList (the equal-weight average's numerator), to refuse an overflow before it happens. */
  private errorSum = 0;

  constructor(opts: EstimatorOptions) {
    if (opts === null || typeof opts !== "object") throw new InputError("options", "expected an object");
    this.capacity = checkInt("capacity", opts.capacity, 1);
    this.smoothing = opts.smoothing ?? 0.5;
    this.errorWeighting = opts.errorWeighting ?? "exponential";
    this.errorAvg = new SmoothedAverage(this.errorWeighting, this.smoothing);
    this.clampToMin = opts.clampToMin === undefined ? true : checkBoolean("clampToMin", opts.clampToMin);
  }

  /** Algorithm 1, TRACK_JOB: learn from a completed job (met or missed deadline). */
  trackJob(job: TrackedJob): void {
    if (job === null || typeof job !== "object") throw new InputError("job", "expected an object");
    const compTime = checkPositive("compTime", job.compTime);
    const tasks = checkInt("requestedTasks", job.requestedTasks, 1);
    const deadline = checkPositive("deadline", job.deadline);
    const maxCPUs = maxCpusOf(tasks, this.capacity);
    const cpus = checkInt("cpusAllocated", job.cpusAllocated, 1);
    if (cpus > maxCPUs) {
      throw new InputError("cpusAllocated", `must be <= min(requestedTasks, capacity) = ${maxCPUs} (got ${cpus})`);
    }
    const met = checkBoolean("metDeadline", job.metDeadline);

    const deadlineCPUs = compTime / deadline;
    const minReqRate = deadlineCPUs / maxCPUs;
    const lastFrac = cpus / maxCPUs;
    const err = minReqRate - lastFrac;
    // Every value this job adds to the state must stay finite: one Infinity (compTime
    // Number.MAX_VALUE over a deadline below 1) would be kept in MaxCPUFrac and the error
    // average for good, and every later estimate would be NaN or Infinity. Checked before
    // anything is written, so a refused job leaves the estimator as it was.
    const nextAvg = this.errorAvg.count === 0 ? err : this.errorWeighting === "equal" ? (this.errorSum + err) / (this.errorAvg.count + 1) : this.smoothing * err + (1 - this.smoothing) * this.errorAvg.average;
    if (!Number.isFinite(minReqRate) || !Number.isFinite(err) || !Number.isFinite(this.errorSum + err) || !Number.isFinite(nextAvg)) {
      throw new InputError("compTime", `the job's rate compTime / deadline / min(requestedTasks, capacity) = ${String(minReqRate)} (compTime ${compTime}, deadline ${deadline}) takes the estimator's state beyond f64; rescale the units`);
    }
    this.rates.push(minReqRate);
    this.minFrac = this.minFrac === null ? minReqRate : Math.min(this.minFrac, minReqRate);
    this.maxFrac = this.maxFrac === null ? minReqRate : Math.max(this.maxFrac, minReqRate);
    this.lastFrac = lastFrac;
    this.lastSuccess = met;
    this.errors.push(err);
    this.errorSum += err;
    this.errorAvg.add(err);
  }

  /** Algorithm 2, CALCULATE_ALLOC_FRACTION (null during bootstrap). */
  allocFraction(): number | null {
    if (this.rates.length < 2) return null;
    const target = this.lastSuccess ? (this.minFrac as number) : (this.maxFrac as number);
    return ((this.lastFrac as number) + target) / 2;
  }

  /** Algorithm 3, VALIDATE_FRACTION: clamp into [MinCPUFrac, 1] (1 wins if MinCPUFrac > 1). */
  validateFraction(fraction: number): number {
    const lo = this.clampToMin ? this.minFrac ?? 0 : 0;
    return Math.min(1, Math.max(lo, fraction));
  }

  /** Algorithm 3, CORRECT_ALLOC_FRACTION. */
  correctFraction(fraction: number): number {
    return this.validateFraction(fraction + this.errorAvg.average);
  }

  /** ESTIMATE_REQ of Algorithm 4 plus its feasibility test (line 5). */
  estimateCpus(q: EstimateQuery): CpuEstimate {
    if (q === null || typeof q !== "object") throw new InputError("query", "expected an object");
    const tasks = checkInt("requestedTasks", q.requestedTasks, 1);
    const deadline = checkPositive("deadline", q.deadline);
    const queued = checkNonNegative("timeInQueue", q.timeInQueue);
    const maxCpus = maxCpusOf(tasks, this.capacity);
    if (queued >= deadline) {
      return {
        cpus: null, maxCpus, feasible: false, bootstrap: this.rates.length < 2, fraction: Infinity,
        base: null, correction: null, corrected: null,
        reason: `no time left: waited ${fmt(queued)} s of a ${fmt(deadline)} s deadline`,
      };
    }
    const base = this.allocFraction();
    if (base === null) {
      return { cpus: maxCpus, maxCpus, feasible: true, bootstrap: true, fraction: 1, base: null, correction: null, corrected: null };
    }
    const correction = this.errorAvg.average;
    const corrected = this.validateFraction(base + correction);
    const fraction = corrected * (deadline / (deadline - queued));
    const cpus = Math.max(Math.ceil(fraction * maxCpus - ROUND_TOL), 1);
    const feasible = cpus <= maxCpus;
    const out: CpuEstimate = { cpus, maxCpus, feasible, bootstrap: false, fraction, base, correction, corrected };
    if (!feasible) {
      out.reason =
        `needs ${cpus} CPUs (fraction ${fmt(corrected)} x ${fmt(deadline)}/${fmt(deadline - queued)} s left = ${fmt(fraction)}` +
        ` of ${maxCpus}) but can use at most ${maxCpus}`;
    }
    return out;
  }

  get completedJobs(): number {
    return this.rates.length;
  }

  state(): EstimatorState {
    return {
      completedJobs: this.rates.length,
      minReqRateList: [...this.rates],
      MinCPUFrac: this.minFrac,
      MaxCPUFrac: this.maxFrac,
      LastCPUFrac: this.lastFrac,
      LastSuccess: this.lastSuccess,
      fractionErrorList: [...this.errors],
      smoothedError: this.errorAvg.average,
    };
  }
}

function fmt(x: number): string {
  return Number.isInteger(x) ? String(x) : x.toPrecision(4);
}
