// Action "fill shares" (share policies): the shared dispatch (src/dispatch/dispatcher.ts) —
// guaranteed queues up to their per-resource targets, then online DRF on what is free — the
// same code the live scheduler runs. With preemption on, between the guaranteed phases and the
// elastic phase the preempt action frees room for owed guaranteed queues and serves them from
// it, the guaranteed phases run again, and killed tasks that fit again are revived; only then
// may the elastic phase use what is left. Kills per point are bounded by the tasks running when
// it began.
import { Dispatcher, type DispatchOptions } from "../../dispatch/dispatcher.js";
import type { Policy } from "../../policy/policy.js";
import type { TaskRt } from "../runtime.js";
import type { SimRun } from "../sim-run.js";
import { preemptForOwed, reviveFitting } from "./preempt.js";

export class FillShares {
  private readonly dispatcher: Dispatcher;
  private readonly start: (q: number) => void;
  private budget = 0;
  private readonly preempt: (() => void) | undefined;

  constructor(private readonly run: SimRun, preemption: boolean, dispatch: DispatchOptions = {}) {
    const cl = run.cl;
    this.dispatcher = new Dispatcher(run.k, dispatch);
    this.dispatcher.reset(cl.queues.length);
    cl.onChange = (q) => this.dispatcher.touch(cl, q.index);
    for (const q of cl.queues) this.dispatcher.touch(cl, q.index);
    this.start = (q) => run.startTask(cl.queues[q]);
    this.preempt = preemption ? () => this.preemptAll() : undefined;
  }

  /** One scheduling point under `policy` (which implements `shares`). */
  apply(policy: Policy): void {
    this.budget = this.run.cl.queues.reduce((a, q) => a + q.runningTasks, 0);
    this.dispatcher.apply(this.run.cl, policy, this.start, this.preempt);
  }

  /** Preemptions of one point (inside the dispatch, before its elastic phase). */
  private preemptAll(): void {
    const killed: TaskRt[] = [];
    for (let n; this.budget > 0 && (n = preemptForOwed(this.run, this.dispatcher, this.budget, killed)) > 0; this.budget -= n) {
      this.dispatcher.applyAfterPreemption(this.run.cl, this.start);
    }
    if (killed.length > 0) reviveFitting(this.run, killed);
  }
}
