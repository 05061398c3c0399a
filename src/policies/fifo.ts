// FIFO across the cluster: the earliest-submitted job's next task starts first; when it
// does not fit, nothing behind it starts (head-of-line blocking, like YARN's FIFO scheduler).
import type { ClusterState, Policy, PolicyExplanation, PolicyFactory } from "../policy/policy.js";
import { fits } from "../dispatch/fit.js";

export class FifoPolicy implements Policy {
  readonly name = "fifo";
  pickNext(state: ClusterState): number {
    let best = -1;
    let bestArrival = Infinity;
    for (const q of state.queues) {
      if (q.rejected || q.runnableTasks === 0) continue;
      const a = q.nextArrival;
      if (a < bestArrival) { bestArrival = a; best = q.index; }
    }
    if (best < 0) return -1;
    return fits(state, state.queues[best].nextTask!) ? best : -1;
  }
  /** Its order: the arrival of its next task's job (a queue at its max share shows none: the driver's words then). */
  explain(state: ClusterState, queue: number): PolicyExplanation {
    const a = state.queues[queue].nextArrival;
    return Number.isFinite(a) ? { order: `FIFO: its next task's job arrived at t=${a}` } : {};
  }
}

export const fifoPolicyFactory: PolicyFactory = {
  name: "fifo",
  description: "FIFO over all jobs by submission time, head-of-line blocking",
  create: () => new FifoPolicy(),
};
