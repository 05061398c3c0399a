// Integrates each queue's real resource usage over time for policies that need what a
// queue has consumed (BoPF: a burst's remaining volume; M-BVT: virtual time).
//
// Usage only changes at scheduling points (task ends, then task starts), so it is constant
// between two consecutive ones. A policy sees the state *before* the starts of a point, so
// the sampler asks the simulator for a wake-up at the same instant (once per instant): the
// policy is consulted again after the starts, and that reading is the usage that holds
// until the next point. Integrate with `advance` at every consultation.
import type { ClusterState, PolicyActions } from "../policy/policy.js";

export class UsageSampler {
  /** Resource·seconds consumed per queue, queue-major N*K. */
  readonly volume: Float64Array;
  /** Integral of dominant share (of capacity) per queue: share·seconds. */
  readonly domTime: Float64Array;
  private readonly last: Float64Array;
  private readonly n: number;
  private readonly k: number;
  private lastTime = 0;
  private wokenAt = -Infinity;
  private actions: PolicyActions | null = null;

  constructor(n: number, k: number) {
    this.n = n;
    this.k = k;
    this.volume = new Float64Array(n * k);
    this.domTime = new Float64Array(n);
    this.last = new Float64Array(n * k);
  }

  /** Remember the simulator's actions (they arrive with the first event). */
  attach(actions: PolicyActions): void {
    this.actions = actions;
  }

  /** Adds the usage held since the previous consultation, then re-reads it. `needWake`: sample again after this point's starts. */
  advance(state: ClusterState, needWake: boolean): void {
    const dt = state.time - this.lastTime;
    const { n, k, last } = this;
    if (dt > 0) {
      for (let i = 0; i < n; i++) {
        let dom = 0;
        for (let r = 0; r < k; r++) {
          const u = last[i * k + r];
          this.volume[i * k + r] += u * dt;
          dom = Math.max(dom, u / state.capacity[r]);
        }
        this.domTime[i] += dom * dt;
      }
      this.lastTime = state.time;
    }
    last.set(state.usages.subarray(0, n * k));
    if (needWake && this.actions && this.wokenAt !== state.time) {
      this.wokenAt = state.time;
      this.actions.wakeAt(state.time);
    }
  }
}
