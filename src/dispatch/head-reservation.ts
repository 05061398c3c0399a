// The elastic phase's starvation guard (docs/policies/simulator.md, "Dispatch"): a reservation
// for the head of the DRF order. When the queue with the smallest weighted dominant share is
// set aside because its next task does not fit, that task is reserved for the rest of the
// point: a queue behind it may start a task only if, on every resource both tasks need, the
// reserved task still fits next to it (so on a resource the reserved task is short of, only
// tasks that do not use it start). Resources the reserved task does not need stay work
// conserving. Without it, a queue of small tasks refills every gap before a large task fits
// (test/bopf/bopf-policy.test.ts, the long-term fairness counterexample).
// Stateless across points: each point reserves for its own head, so the reservation ends as
// soon as the head's task starts or another queue becomes the head, and a restored live
// scheduler decides as the original without any guard state to carry over.
import type { ClusterState } from "../policy/policy.js";

const FIT_EPS = 1e-12;

export class HeadReservation {
  /** The reserved task's demand this point, or null when nothing is reserved. */
  private task: ArrayLike<number> | null = null;
  /** The queue the task is reserved for (-1: none). */
  queue = -1;

  /** Starts a point's elastic phase with nothing reserved. */
  clear(): void {
    this.task = null;
    this.queue = -1;
  }

  /** The head's next task does not fit: reserve it (only the first such queue of a point is the head). */
  blocked(q: number, task: ArrayLike<number>): void {
    if (this.task !== null) return;
    this.task = task;
    this.queue = q;
  }

  /** True when `task` may start now: nothing is reserved, or the reserved task fits next to it on every resource both need. */
  allows(state: ClusterState, task: ArrayLike<number>): boolean {
    const held = this.task;
    if (held === null) return true;
    for (let r = 0; r < task.length; r++) {
      if (task[r] > 0 && held[r] > 0 && state.used[r] + task[r] + held[r] > state.capacity[r] * (1 + FIT_EPS)) return false;
    }
    return true;
  }

  /** Room held on resource r for a task that needs r (0 when nothing is reserved or the reserved task does not need r). */
  heldOn(r: number): number {
    const held = this.task;
    return held !== null && held[r] > 0 ? held[r] : 0;
  }
}
