// Action "fill shares" (share policies): the policy writes a target allocation per queue;
// then, while some queue is under its target's dominant share and its next task fits, the
// queue furthest below (lowest usage / target) starts its next task. A task that needs no
// resource always starts. When nothing more starts and preemption is on, the preempt action
// may free room, bounded by the number of tasks running when the point began.
import type { Policy } from "../../policy/policy.js";
import type { QueueRt } from "../runtime.js";
import type { SimRun } from "../sim-run.js";
import { preemptOne, SHARE_EPS } from "./preempt.js";

export class FillShares {
  private readonly shares: Float64Array;
  /** Dominant share of each queue's target at this point. */
  readonly shareDom: Float64Array;

  constructor(private readonly run: SimRun, private readonly preemption: boolean) {
    const n = run.cl.queues.length;
    this.shares = new Float64Array(n * run.k);
    this.shareDom = new Float64Array(n);
  }

  /** One scheduling point under `policy` (which implements `shares`). */
  apply(policy: Policy): void {
    const { cl, k } = this.run;
    const n = cl.queues.length;
    const shares = this.shares, shareDom = this.shareDom;
    let preemptBudget = cl.queues.reduce((a, q) => a + q.runningTasks, 0);
    shares.fill(0);
    policy.shares!(cl, shares);
    for (let q = 0; q < n; q++) {
      let s = 0;
      for (let r = 0; r < k; r++) s = Math.max(s, shares[q * k + r] / cl.capacity[r]);
      shareDom[q] = s;
    }
    for (;;) {
      let best: QueueRt | null = null;
      let bestRatio = Infinity;
      for (const q of cl.queues) {
        if (q.rejected || q.runnableTasks === 0) continue;
        const next = q.nextTask;
        if (!next) continue;
        // a task that needs no resource always runs (no share can be owed for it)
        const free = next.every((d) => d === 0);
        const sd = shareDom[q.index];
        if (!free && (!(sd > 0) || q.useDom >= sd * (1 - SHARE_EPS) || !cl.fits(next))) continue;
        const ratio = free ? -1 : q.useDom / sd;
        if (ratio < bestRatio) { bestRatio = ratio; best = q; }
      }
      if (best) { this.run.startTask(best); continue; }
      // bounded: each point preempts at most as many tasks as were running when it began
      if (!this.preemption || preemptBudget-- <= 0 || !preemptOne(this.run, shareDom)) break;
    }
  }
}
