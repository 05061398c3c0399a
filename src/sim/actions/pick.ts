// Action "pick" (task-level policies): the policy names the queue whose next task starts now,
// again and again, until it answers -1. The policy keeps the task within the free capacity;
// the run's over-allocation check catches it when it does not.
import { SimulationError } from "../../errors.js";
import type { Policy } from "../../policy/policy.js";
import type { SimRun } from "../sim-run.js";

export function pickTasks(run: SimRun, policy: Policy): void {
  const cl = run.cl;
  for (;;) {
    const q = policy.pickNext!(cl);
    if (q < 0) break;
    const queue = cl.queues[q];
    if (!queue || queue.rejected) throw new SimulationError(`the policy picked an invalid or rejected queue index ${q}`, { time: cl.time });
    run.startTask(queue);
  }
}
