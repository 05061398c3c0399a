// The elastic phase's starvation guard (docs/policies/simulator.md, "Starvation guard"): a
// reservation for the head of the DRF order. When the queue with the smallest weighted dominant
// share (in the lowest tier) is set aside because its next task does not fit, that task is
// reserved: a queue behind it may start a task only if, on every resource both tasks need, the
// reserved task still fits next to it (so on a resource the reserved task is short of, only
// tasks that do not use it start). Resources the reserved task does not need stay work
// conserving. Without it, a queue of small tasks refills every gap before a large task fits
// (test/bopf/bopf-policy.test.ts, the long-term fairness counterexample).
// The reservation lasts across points until the reserved queue starts a task or another queue
// has a strictly smaller weighted dominant share (a tie keeps it): otherwise, when several
// queues' tasks end at one instant and their shares tie again, the tie order (queue index)
// would let the others refill the room at every point.
import type { IndexedHeap } from "../collections/indexed-heap.js";
import type { ClusterState } from "../policy/policy.js";
import { exceeds } from "./fit.js";

export class HeadReservation {
  /** The reserved task's demand this point, or null when nothing is reserved yet. */
  private task: ArrayLike<number> | null = null;
  /** The queue reserved for (kept from one point to the next), -1: none. */
  queue = -1;
  /** During a point: the queue reserved for at the last point, until the phase reaches its tier's head. */
  private carried = -1;

  /** Starts a point's elastic phase (all its tiers' passes) with nothing reserved yet. */
  begin(): void {
    this.task = null;
    this.carried = this.queue;
    this.queue = -1;
  }

  /**
   * The queue to serve in place of `head` (the top of the dispatch's heap, of tier `tier` when
   * `tiers` is given): the queue reserved for at the last point when it ties with the head (same
   * weighted dominant share, same tier), else the head. Decided once a point, at the first head of
   * the reserved queue's tier: a strictly smaller share there ends the reservation.
   */
  prefer(heap: IndexedHeap, head: number, tiers: Uint8Array | null, tier: number): number {
    const c = this.carried;
    if (c < 0 || (tiers !== null && (c >= tiers.length || tiers[c] !== tier))) return head;
    this.carried = -1;
    return c !== head && c < heap.key.length && heap.has(c) && heap.key[c] <= heap.key[head] ? c : head;
  }

  /** The head's next task does not fit: reserve it (only the first such queue of a point is the head). */
  blocked(q: number, task: ArrayLike<number>): void {
    if (this.task !== null) return;
    this.task = task;
    this.queue = q;
  }

  /** Ends a point's elastic phase: the reserved queue (if any) is kept for the next point, its task is not. */
  end(): void {
    // a reservation the phase never reached (it stopped before the reserved queue's tier) stays
    if (this.queue < 0) this.queue = this.carried;
    this.task = null;
    this.carried = -1;
  }

  /** True when `task` may start now: nothing is reserved, or the reserved task fits next to it on every resource both need. */
  allows(state: ClusterState, task: ArrayLike<number>): boolean {
    const held = this.task;
    if (held === null) return true;
    for (let r = 0; r < task.length; r++) {
      if (task[r] > 0 && held[r] > 0 && exceeds(state.used[r] + task[r], held[r], state.capacity[r])) return false;
    }
    return true;
  }

  /** Room held on resource r for a task that needs r (0 when nothing is reserved or the reserved task does not need r). */
  heldOn(r: number): number {
    const held = this.task;
    return held !== null && held[r] > 0 ? held[r] : 0;
  }

  /** Queue `i` left and later queues moved down one index (live scheduler): the reservation follows its queue. */
  removed(i: number): void {
    if (this.queue === i) this.queue = -1;
    else if (this.queue > i) this.queue--;
  }
}
