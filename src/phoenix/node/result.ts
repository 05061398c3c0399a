// The result of a node-level run: per-job outcomes, counters and utilization.
import type { NodeModel } from "./model.js";

export interface JobOutcome {
  arrival: number;
  /** End of the last task, or NaN when rejected. */
  end: number;
  response: number;
  long: boolean;
  constrained: boolean;
  /** Set when the job could not run, e.g. no worker satisfies its hard constraints. */
  rejected?: string;
  relaxedSoft: number;
}

export interface NodeSimResult {
  policy: string;
  workers: number;
  jobs: JobOutcome[];
  /** Tasks moved ahead of a task that was ahead of them, over all reordering rounds. */
  reorderedTasks: number;
  /** Of those, in queues reordered in CRV mode (the paper's Table III "Reordered tasks"). */
  crvReorderedTasks: number;
  reorderRounds: number;
  /** Worker-queue reorderings in CRV mode (queue x round). */
  crvQueueRounds: number;
  /** Monitor rounds (heartbeats) in which some constraint's CRV exceeded its threshold. */
  hotHeartbeats: number;
  /** Sum over monitor rounds of the workers in CRV mode (E[W] above Qwait_threshold while hot). */
  crvWorkerBeats: number;
  stolenProbes: number;
  cancelledProbes: number;
  /** Short probes that reached a worker holding long work (queued or running), as Eagle's STATS_SH_QUEUED_BEHIND_BIG. */
  probesBehindLong: number;
  /** Short probes rejected by a worker holding long work and re-sent (succinct state sharing). */
  resentProbes: number;
  /**
   * Soft constraints relaxed, by cause: no worker satisfies the job's constraints
   * (unsatisfiable), their CRV was above threshold at arrival (congested, relax-congested-soft),
   * no eligible worker had capacity (negotiated, negotiate-soft). Their sum is the sum of the
   * jobs' relaxedSoft.
   */
  relaxations: { unsatisfiable: number; congested: number; negotiated: number };
  /** Busy task-seconds / (workers x (last end - first arrival)). */
  utilization: number;
  /**
   * Busy task-seconds inside [first arrival, last arrival] / (workers x that span): the load the
   * cluster carried while jobs kept arriving, without the drain after the last arrival (one long
   * straggler stretches the makespan and drags `utilization` down). Example: 10 workers, jobs
   * arriving over 0..100 s, 600 busy task-seconds inside that window -> 0.6.
   */
  arrivalUtilization: number;
  makespan: number;
  events: number;
  /**
   * Busy fraction of the workers per window of busyWindow seconds from the first arrival to the
   * last task end (empty when busyWindow is 0; the last window is partial and divided by its
   * full width). Example: 10 workers, window 100 s, tasks busy 600 worker-seconds in [0, 100)
   * -> busyProfile[0] = 0.6.
   */
  busyProfile: Float64Array;
}

export function nodeResult(m: NodeModel, policy: string): NodeSimResult {
  const outcomes: JobOutcome[] = m.jobs.map((j) => ({
    arrival: j.spec.arrival,
    end: j.end,
    response: j.end - j.spec.arrival,
    long: j.long,
    constrained: j.spec.constraints.length > 0,
    ...(j.rejected ? { rejected: j.rejected } : {}),
    relaxedSoft: j.relaxed,
  }));
  for (const [i, j] of m.jobs.entries()) {
    if (!j.rejected && j.done !== j.n) throw new Error(`phoenix simulator: job ${i} ended with ${j.done}/${j.n} tasks done`);
  }
  // a loop, not Math.max(...ends): spreading ~125k arguments overflows the call stack
  let lastEnd = -Infinity;
  for (const x of outcomes) if (x.end > lastEnd) lastEnd = x.end;
  const makespan = lastEnd - m.firstArrival;
  const W = m.workers, s = m.stats, busy = m.busy;
  const { firstArr, lastArr } = m;
  return {
    policy, workers: W, jobs: outcomes,
    reorderedTasks: s.reorderedTasks, crvReorderedTasks: s.crvReorderedTasks,
    reorderRounds: s.reorderRounds, crvQueueRounds: s.crvQueueRounds,
    hotHeartbeats: s.hotHeartbeats, crvWorkerBeats: s.crvWorkerBeats,
    stolenProbes: s.stolenProbes, cancelledProbes: s.cancelledProbes,
    probesBehindLong: s.probesBehindLong, resentProbes: s.resentProbes,
    relaxations: { unsatisfiable: s.relaxedUnsatisfiable, congested: s.relaxedCongested, negotiated: s.relaxedNegotiated },
    utilization: makespan > 0 ? busy.total / (W * makespan) : 0,
    arrivalUtilization: lastArr > firstArr ? busy.inArrivals / (W * (lastArr - firstArr)) : 0, makespan, events: s.events,
    busyProfile: Float64Array.from(busy.profile, (b) => b / (W * m.o.busyWindow)),
  };
}
