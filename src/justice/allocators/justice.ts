// Justice (the Justice paper Algorithm 4, docs/policies/justice.md): admission control with a learned fraction.
//
// At every scheduling point (job submission or completion, and after a kill, which frees CPUs):
//   for each queued job j (time in queue q = now - arrival, TTD = deadline - q):
//     reqCpus = ESTIMATE_REQ(j, q)                                   (estimator.ts)
//     infeasible (reqCpus > min(tasks, capacity), or q >= deadline)  -> DROP_JOB(j) with the reason
//     otherwise ADD2HEAP(reqCpus / TTD, j)          (fewer CPUs and more time to deadline first)
//   CREATE_OFFERS: in heap order, a job gets all of reqCpus if that many are free, else nothing
//   (and a later, smaller job may still fit). Unadmitted feasible jobs stay queued and are
//   re-estimated at the next scheduling point. Admitted jobs keep their CPUs until they end.
// At a running job's deadline, if it is unfinished and requestedTasks > dropThreshold, it is
// killed (dropped); smaller late jobs run to completion so the estimator learns from misses.
// TRACK_JOB runs at every completion (met or missed), not for killed jobs.
//
// Worked example (capacity 10, after learning MinCPUFrac = LastCPUFrac = 0.5 from met jobs, no
// error correction): job A (4 tasks, deadline 100 s) asks ceil(0.5 * 4) = 2 CPUs, priority
// 2/100 = 0.02; job B (10 tasks, deadline 50 s) asks 5 CPUs, priority 0.1. With 6 CPUs free,
// A gets 2, then B's 5 does not fit in the 4 left: B waits. If B waited 25 s, its fraction
// becomes 0.5 * 50/25 = 1.0 (10 CPUs); after 26 s it would need 0.5 * 50/24 > 1: dropped.
import type { Allocator, AllocatorContext, AllocatorFactory, JobView } from "../allocator.js";
import { JusticeEstimator } from "../estimator.js";
import { Heap } from "../../collections/heap.js";
import type { ErrorWeighting } from "../smoothing.js";
import { checkBoolean, checkInt } from "../validate.js";
import { readParams } from "./params.js";

export interface JusticeParams {
  /** Running jobs past their deadline with more tasks than this are killed. Default 10. */
  dropThreshold?: number;
  /** Exponential smoothing factor of the error correction. Default 0.5. */
  smoothing?: number;
  /** "exponential" (default) or "equal" weights for past errors. */
  errorWeighting?: ErrorWeighting;
  /** VALIDATE_FRACTION clamps to the lowest fraction ever seen (default true, the paper). */
  clampToMin?: boolean;
  /** TRACK_JOB learns from 1-task jobs too (default true, the paper). */
  trackSingleTask?: boolean;
}

const DEFAULTS = { dropThreshold: 10, smoothing: 0.5, errorWeighting: "exponential" as ErrorWeighting, clampToMin: true, trackSingleTask: true };

interface Offer {
  job: JobView;
  cpus: number;
  priority: number;
}

export const justiceAllocator: AllocatorFactory = {
  name: "justice",
  description: "Justice: learned CPU fraction, admission control by reqCpus/TTD, all-or-nothing offers",
  defaults: DEFAULTS,
  create({ capacity, params }) {
    const p = readParams("justice", params, Object.keys(DEFAULTS)) as JusticeParams;
    const dropThreshold = checkInt("params.dropThreshold", p.dropThreshold ?? DEFAULTS.dropThreshold, 0);
    const estimator = new JusticeEstimator({
      capacity,
      smoothing: p.smoothing ?? DEFAULTS.smoothing,
      errorWeighting: p.errorWeighting ?? DEFAULTS.errorWeighting,
      clampToMin: p.clampToMin ?? DEFAULTS.clampToMin,
    });
    const trackSingleTask = checkBoolean("params.trackSingleTask", p.trackSingleTask ?? DEFAULTS.trackSingleTask);
    let admitted = 0;
    const alloc: Allocator & { estimator: JusticeEstimator } = {
      name: "justice",
      mode: "fixed",
      estimator,
      schedule(ctx: AllocatorContext) {
        const heap = new Heap<Offer>((a, b) => a.priority !== b.priority ? a.priority < b.priority : a.job.index < b.job.index);
        for (const j of ctx.queued) {
          const q = ctx.now - j.spec.arrival;
          const est = estimator.estimateCpus({ requestedTasks: j.spec.requestedTasks, deadline: j.spec.deadline, timeInQueue: q });
          if (!est.feasible) {
            ctx.drop(j, q === 0 ? "infeasible-at-submission" : "infeasible-in-queue", `Justice estimate: ${est.reason}`);
          } else {
            heap.push({ job: j, cpus: est.cpus as number, priority: (est.cpus as number) / (j.spec.deadline - q) });
          }
        }
        for (let o = heap.pop(); o !== undefined && ctx.freeCpus > 0; o = heap.pop()) {
          if (o.cpus <= ctx.freeCpus) {
            ctx.admit(o.job, o.cpus);
            admitted++;
          }
        }
      },
      onComplete(job: JobView, met: boolean) {
        if (!trackSingleTask && job.spec.requestedTasks === 1) return;
        estimator.trackJob({
          compTime: job.spec.compTime,
          requestedTasks: job.spec.requestedTasks,
          deadline: job.spec.deadline,
          cpusAllocated: job.cpus,
          metDeadline: met,
        });
      },
      killAtDeadline(job: JobView) {
        return job.spec.requestedTasks > dropThreshold;
      },
      report() {
        const s = estimator.state();
        return {
          admitted,
          completedJobs: s.completedJobs,
          MinCPUFrac: s.MinCPUFrac,
          MaxCPUFrac: s.MaxCPUFrac,
          LastCPUFrac: s.LastCPUFrac,
          LastSuccess: s.LastSuccess,
          smoothedError: s.smoothedError,
          dropThreshold,
        };
      },
    };
    return alloc;
  },
};
