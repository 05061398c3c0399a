// The live scheduler's scheduling point (schedule()): queues below their min share first, then the
// policy through the shared dispatch (src/dispatch/dispatcher.ts) or its own picks, starting tasks
// while they fit; a wake-up due at the same instant is another point, as in the simulator.
import { fits } from "../dispatch/fit.js";
import type { ClusterState, QueueState } from "../policy/policy.js";
import type { LiveCore } from "./core.js";
import { SHARE_EPS } from "./ledger.js";
import { dominantShare } from "../policy/dominant-share.js";
import { type LiveQueue, type LiveState, RUNNING } from "./live-state.js";
import { checkVector } from "./validate.js";

/** Points in one schedule() call asked for by wake-ups at the same instant (a policy reading usage after its starts asks once). */
const MAX_POINTS = 64;

export class PointRunner {
  /** Slots started at the current schedule call, in start order. */
  startedSlots = new Int32Array(16);
  startedCount = 0;
  // the current point: its time and, under schedule(free), the shifted usage
  private pointTime = 0;
  private shifted: Float64Array | null = null;
  private readonly startFn = (qi: number): void => this.start(qi);

  constructor(private readonly core: LiveCore) {}

  /** Runs the scheduling point(s) of a schedule call: the started slots in startedSlots[0, startedCount). */
  run(free: number[] | undefined): void {
    const core = this.core;
    const st = core.state;
    let view: ClusterState = st;
    this.shifted = null;
    if (free !== undefined) {
      const f = checkVector("free", free, core.k);
      // the policy sees `used` shifted by (capacity - limit), so what fits is what is free
      const shifted = new Float64Array(core.k);
      for (let r = 0; r < core.k; r++) shifted[r] = st.used[r] + (st.capacity[r] - Math.min(st.capacity[r], st.used[r] + f[r]));
      this.shifted = shifted;
      view = new LimitedView(st, shifted);
    }
    const time = core.now();
    core.begin(time, true);
    this.startedCount = 0;
    this.pointTime = time;
    this.point(view);
    // a wake-up at this instant asked for during the point is another point (as in the simulator)
    for (let n = 1; n < MAX_POINTS && core.timers.length > 0 && core.timers.next()! <= time; n++) {
      core.begin(time, true);
      this.point(view);
    }
    this.shifted = null;
  }

  /** One scheduling point: min shares first, then the policy through the shared dispatch or its picks. */
  private point(view: ClusterState): void {
    const core = this.core;
    if (core.minQueues.length > 0) this.minSharePhase(view);
    const policy = core.binding.policy;
    if (policy.shares) core.dispatcher.apply(view, policy, this.startFn);
    else if (policy.pickNext) {
      for (;;) {
        const qi = policy.pickNext(view);
        if (qi < 0) break;
        const next = core.state.queues[qi]?.nextTask;
        if (!next || !fits(view, next)) break;
        this.start(qi);
      }
    }
  }

  /** Queues below their min share start tasks first, the smallest dominant share / min share first. */
  private minSharePhase(view: ClusterState): void {
    const cap = this.core.state.capacity;
    for (;;) {
      let best: LiveQueue | null = null;
      let bestRatio = 1 - SHARE_EPS;
      for (const q of this.core.minQueues) {
        const next = q.nextTask;
        if (q.rejected || !next) continue;
        const ratio = dominantShare(q.usage, cap) / (q.spec.params!.minShare as number);
        // ties go to the first queue in queue order (as after a restore), whatever order the list has
        if ((ratio < bestRatio || (ratio === bestRatio && best !== null && q.index < best.index)) && fits(view, next)) { bestRatio = ratio; best = q; }
      }
      if (!best) return;
      this.start(best.index);
    }
  }

  /** Starts queue qi's next task (the dispatch's and the pick loop's start). */
  private start(qi: number): void {
    const core = this.core;
    const st = core.state;
    const slots = st.slots;
    const q = st.queues[qi];
    const s = q.shift();
    const time = this.pointTime;
    core.ledger.settle(q, time);
    slots.state[s] = RUNNING;
    slots.started[s] = time;
    slots.startSeq[s] = core.ledger.starts++;
    q.runningCount++;
    const d = slots.demand[s]!;
    const none = q.waitingCount === 0;
    const pending = st.pendingRows, usage = st.usageRows, demand = st.demandRows, used = st.used, shifted = this.shifted;
    const k = core.k, o = qi * k;
    for (let r = 0; r < k; r++) {
      const p = none ? 0 : pending[o + r] - d[r];
      const pr = p > 0 ? p : 0;
      pending[o + r] = pr;
      const u = usage[o + r] + d[r];
      usage[o + r] = u;
      demand[o + r] = u + pr;
      used[r] += d[r];
      if (shifted) shifted[r] += d[r];
    }
    if (q.maxShare < 1) core.ledger.refreshCap(q);
    core.dispatcher.touch(st, qi);
    if (this.startedCount === this.startedSlots.length) {
      const more = new Int32Array(2 * this.startedSlots.length);
      more.set(this.startedSlots);
      this.startedSlots = more;
    }
    this.startedSlots[this.startedCount++] = s;
  }
}

/**
 * The state with `used` replaced (schedule(free)): capacities, and so dominant shares, stay. A
 * plain object with the ClusterState members (not a Proxy: the dispatch and the policy read it
 * on every step of the point).
 */
class LimitedView implements ClusterState {
  constructor(private readonly state: LiveState, readonly used: Float64Array) {}
  get time(): number { return this.state.time; }
  get capacity(): Float64Array { return this.state.capacity; }
  get resources(): readonly string[] { return this.state.resources; }
  get queues(): readonly QueueState[] { return this.state.queues; }
  get demands(): Float64Array { return this.state.demands; }
  get usages(): Float64Array { return this.state.usages; }
}
