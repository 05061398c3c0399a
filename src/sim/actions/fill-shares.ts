// Action "fill shares" (share policies): the shared dispatch (src/dispatch/dispatcher.ts) —
// guaranteed queues up to their per-resource targets, then online DRF on what is free — the
// same code the live scheduler runs. When nothing more starts and preemption is on, the
// preempt action may free room, bounded by the number of tasks running when the point began.
import { Dispatcher } from "../../dispatch/dispatcher.js";
import type { Policy } from "../../policy/policy.js";
import type { SimRun } from "../sim-run.js";
import { preemptOne } from "./preempt.js";

export class FillShares {
  private readonly dispatcher: Dispatcher;
  private readonly start: (q: number) => void;

  constructor(private readonly run: SimRun, private readonly preemption: boolean, reservation = false) {
    const cl = run.cl;
    this.dispatcher = new Dispatcher(run.k, { reservation });
    this.dispatcher.reset(cl.queues.length);
    cl.onChange = (q) => this.dispatcher.touch(cl, q.index);
    for (const q of cl.queues) this.dispatcher.touch(cl, q.index);
    this.start = (q) => run.startTask(cl.queues[q]);
  }

  /** One scheduling point under `policy` (which implements `shares`). */
  apply(policy: Policy): void {
    const cl = this.run.cl;
    let preemptBudget = cl.queues.reduce((a, q) => a + q.runningTasks, 0);
    this.dispatcher.apply(cl, policy, this.start, this.preemption);
    // bounded: each point preempts at most as many tasks as were running when it began
    while (this.preemption && preemptBudget-- > 0 && preemptOne(this.run, this.dispatcher.shareDom)) {
      this.dispatcher.apply(cl, policy, this.start, true);
    }
  }
}
