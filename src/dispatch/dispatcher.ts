// The authors' dispatch (docs/policies/simulator.md, "Dispatch"), one module for every driver
// (the queue-level simulator and the live scheduler), so both make the same decisions.
// At a scheduling point tasks start class by class with per-resource targets:
//   1. guaranteed queues (BoPF's hard, then soft LQs with a live guarantee; SP's LQs; every
//      queue of a share policy that does not say which are guaranteed) start tasks while they
//      are below their target on every resource the task needs (the policy's `shares`), the
//      queue with the smallest usage/target ratio first;
//   2. then every queue with runnable tasks competes for what is free by task-level online DRF:
//      the smallest weighted dominant share (dominant share / weight, ties by queue index) whose
//      next task fits starts it. This phase is what makes the dispatch work conserving.
// Phase 2 runs on an indexed heap kept current between points (touch() on every change of a
// queue's usage or runnable tasks), so a decision costs O(log N) amortised; a queue whose next
// task does not fit is set aside for the rest of the point.
// A policy with `tier` splits phase 2 into passes, lowest tier first: each pass is online DRF
// over the queues of one tier, so a higher tier gets only what no lower-tier queue could use.
// `reservation` (off by default): while a guaranteed queue is below its target with runnable
// tasks, queues that are not guaranteed start nothing (the old BoPF step; breaks work conservation).
// `starvationGuard` (off unless asked for; the live scheduler asks by default): phase 2 reserves room for the head of its order when the
// head's next task does not fit (head-reservation.ts), so queues of small tasks behind it cannot
// refill every gap before a large task fits.
import { IndexedHeap } from "../collections/indexed-heap.js";
import { HeadReservation } from "./head-reservation.js";
import { exceeds, fits } from "./fit.js";
import { ELASTIC, HARD, SOFT } from "../kernels/guarantee-class.js";
import type { ClusterState, Policy } from "../policy/policy.js";

/** Relative slack when comparing a usage with a target or the capacity. */
export const DISPATCH_EPS = 1e-9;


export interface DispatchOptions {
  /** Hold unguaranteed queues while a guaranteed one is below its target (default false). */
  reservation?: boolean;
  /**
   * Compare dominant shares as the authors' simulator does: at the start of each online-DRF pass
   * every waiting queue's share per resource is rounded to this many decimal places (IRFsim: 2),
   * exact again once it starts a task. Default: exact shares.
   */
  shareDecimals?: number;
  /**
   * Reserve room in the elastic phase for the head of the DRF order when its next task does not
   * fit (head-reservation.ts): work conserving only on resources that task does not need (default false).
   */
  starvationGuard?: boolean;
}

export class Dispatcher {
  private heap: IndexedHeap;
  /**
   * Per resource, the queues of `heap` (and those set aside) keyed by their next task's demand on it:
   * when what is free on some resource is below every such demand, nothing can start (an exact
   * cut-off, so a full cluster costs O(K) per point instead of a pass over the waiting queues;
   * with the starvation guard and priority tiers, plus setting aside the other tiers' queues above
   * the lowest tier's head, which the guard reserves for).
   */
  private mins: IndexedHeap[];
  private targets = new Float64Array(0);
  private classes = new Uint8Array(0);
  private tiers = new Uint8Array(0);
  /** Per tier value, how many waiting queues have it (tieredPhases). */
  private readonly present = new Uint32Array(256);
  /** Dominant share of each queue's target at the last point that computed targets. */
  shareDom = new Float64Array(0);
  private readonly reservation: boolean;
  /** 10^shareDecimals, 0 for exact shares. */
  private readonly shareScale: number;
  /** The starvation guard's reservation (null when the option is off). */
  private readonly hold: HeadReservation | null;
  private readonly aside: number[] = [];
  /** The next-task vector each queue's `mins` keys were taken from. */
  private minsOf: Array<ArrayLike<number> | undefined> = [];

  constructor(private readonly k: number, options: DispatchOptions = {}) {
    this.heap = new IndexedHeap(16);
    this.mins = Array.from({ length: k }, () => new IndexedHeap(16));
    this.reservation = options.reservation === true;
    this.shareScale = options.shareDecimals === undefined ? 0 : 10 ** options.shareDecimals;
    this.hold = options.starvationGuard === true ? new HeadReservation() : null;
  }

  /** Re-keys queue `q` (after a change of its usage, runnable tasks, weight or rejection). */
  touch(state: ClusterState, q: number): void {
    if (q >= this.heap.key.length) this.grow(q + 1);
    const queue = state.queues[q];
    let dom = 0;
    for (let r = 0; r < this.k; r++) {
      const s = queue.usage[r] / state.capacity[r];
      if (s > dom) dom = s;
    }
    this.heap.update(q, dom / (queue.spec.weight ?? 1), q);
    const next = queue.nextTask;
    if (!queue.rejected && queue.runnableTasks > 0 && next) {
      this.heap.insert(q);
      // demand vectors are never changed in place: the same one means the same keys
      if (this.minsOf[q] !== next || !this.mins[0].has(q)) {
        for (let r = 0; r < this.k; r++) { this.mins[r].update(q, next[r], q); this.mins[r].insert(q); }
        this.minsOf[q] = next;
      }
    } else {
      this.heap.remove(q);
      for (let r = 0; r < this.k; r++) this.mins[r].remove(q);
    }
  }

  /**
   * Forgets every queue (call touch for each again after re-indexing); `removed`: the index of a
   * queue that left (later ones moved down one), so the starvation guard's reservation follows its queue.
   */
  reset(n: number, removed = -1): void {
    if (removed >= 0) this.hold?.removed(removed);
    this.heap = new IndexedHeap(Math.max(16, n));
    this.mins = Array.from({ length: this.k }, () => new IndexedHeap(Math.max(16, n)));
    this.minsOf = [];
  }

  /**
   * One scheduling point: `start(q)` starts queue q's next task (and must touch it). With
   * `preempt` (the simulator's preemption), the policy's targets are computed even for an
   * elastic-only policy and `preempt()` runs between the guaranteed phases and the elastic phase,
   * so room it frees reaches the queues it was freed for before the elastic phase may use it.
   * An elastic-only policy that says which queues are guaranteed (SP) has its guaranteed phases
   * only with `preempt` or the reservation option: they serve its guaranteed queues from what is
   * free before a preemption or a reservation is considered.
   */
  apply(state: ClusterState, policy: Policy, start: (q: number) => void, preempt?: () => void): void {
    const n = state.queues.length;
    const k = this.k;
    let guaranteed = false;
    const serve = !policy.elasticOnly || (policy.guaranteed !== undefined && (preempt !== undefined || this.reservation));
    if (policy.shares && (serve || preempt)) {
      if (this.targets.length < n * k) {
        this.targets = new Float64Array(n * k);
        this.classes = new Uint8Array(n).fill(ELASTIC);
        this.shareDom = new Float64Array(n);
      }
      const targets = this.targets.subarray(0, n * k);
      const classes = this.classes.subarray(0, n);
      targets.fill(0);
      policy.shares(state, targets);
      for (let q = 0; q < n; q++) {
        let s = 0;
        for (let r = 0; r < k; r++) s = Math.max(s, targets[q * k + r] / state.capacity[r]);
        this.shareDom[q] = s;
      }
      // without `guaranteed` every queue counts as guaranteed up to its target (for an
      // elastic-only policy: for preemption only)
      if (!policy.guaranteed) classes.fill(HARD);
      else { classes.fill(ELASTIC); policy.guaranteed(state, classes); }
      if (serve) {
        guaranteed = true;
        this.guaranteedPhase(state, HARD, start);
        this.guaranteedPhase(state, SOFT, start);
      }
    }
    preempt?.();
    const guarded = guaranteed && this.reservation && this.belowGuarantee(state);
    // the starvation guard's reservation lasts across the tiers' passes of a point
    this.hold?.begin();
    if (policy.tier) this.tieredPhases(state, policy, start, guarded);
    else this.elasticPhase(state, start, guarded, -1);
    this.hold?.end();
  }

  /** The elastic phase once per tier the policy gives a queue, lowest tier first. */
  private tieredPhases(state: ClusterState, policy: Policy, start: (q: number) => void, guarded: boolean): void {
    const n = state.queues.length;
    if (this.tiers.length < n) this.tiers = new Uint8Array(n);
    const tiers = this.tiers.subarray(0, n);
    tiers.fill(0);
    policy.tier!(state, tiers);
    // only the tiers of queues waiting to start a task need a pass
    const present = this.present.fill(0);
    let levels = 0;
    for (let q = 0; q < n; q++) if (this.heap.has(q) && present[tiers[q]]++ === 0) levels++;
    if (levels <= 1) { this.elasticPhase(state, start, guarded, -1); return; }
    for (let t = 0; t < present.length; t++) if (present[t] > 0) this.elasticPhase(state, start, guarded, t);
  }

  /** The queue the starvation guard reserves for (kept between points), -1 when none (live scheduler snapshots). */
  get reservedQueue(): number {
    return this.hold?.queue ?? -1;
  }

  /** Restores the starvation guard's reservation (a live scheduler snapshot's); ignored with the guard off. */
  set reservedQueue(q: number) {
    if (this.hold) this.hold.queue = q;
  }

  /**
   * Inside apply's `preempt`: the queues a preemption may free room for, in the
   * order the guaranteed phase serves them (hard, then soft; smallest usage/target ratio first):
   * guaranteed queues whose next task is under their target on every resource it needs but does
   * not fit in what is free. An elastic-only policy's queues count as guaranteed here as its
   * `guaranteed` says (all of them without it).
   */
  owedQueues(state: ClusterState): number[] {
    const owed: Array<{ q: number; cls: number; ratio: number }> = [];
    for (let q = 0; q < state.queues.length; q++) {
      const cls = this.classes[q];
      if (cls === ELASTIC) continue;
      const queue = state.queues[q];
      const next = queue.nextTask;
      if (queue.rejected || queue.runnableTasks === 0 || !next || fits(state, next)) continue;
      const ratio = this.quotaRatio(state, q, next);
      if (ratio < Infinity) owed.push({ q, cls, ratio });
    }
    owed.sort((a, b) => a.cls - b.cls || a.ratio - b.ratio || a.q - b.q);
    return owed.map((o) => o.q);
  }

  /**
   * True when the guaranteed phase would start `task` for queue q if q's usage were `usage`
   * (inside apply's `preempt`): a preemption never takes a
   * task from a queue that would take it back at once.
   */
  wouldServe(state: ClusterState, q: number, task: ArrayLike<number>, usage: ArrayLike<number>): boolean {
    return this.classes[q] !== ELASTIC && this.quotaRatio(state, q, task, usage) < Infinity;
  }

  /**
   * Inside apply's `preempt`, after a preemption served the queue it freed room for: the
   * guaranteed phases again, so room left over goes to guaranteed queues first.
   */
  applyAfterPreemption(state: ClusterState, start: (q: number) => void): void {
    this.guaranteedPhase(state, HARD, start);
    this.guaranteedPhase(state, SOFT, start);
  }

  /** Queues of class `cls` start tasks below their per-resource target, smallest usage/target first. */
  private guaranteedPhase(state: ClusterState, cls: number, start: (q: number) => void): void {
    const n = state.queues.length;
    for (;;) {
      let best = -1;
      let bestRatio = Infinity;
      for (let q = 0; q < n; q++) {
        if (this.classes[q] !== cls) continue;
        const queue = state.queues[q];
        if (queue.rejected || queue.runnableTasks === 0) continue;
        const next = queue.nextTask;
        if (!next) continue;
        const ratio = this.quotaRatio(state, q, next);
        if (ratio < bestRatio && fits(state, next)) { bestRatio = ratio; best = q; }
      }
      if (best < 0) return;
      start(best);
    }
  }

  /**
   * Infinity when queue q may not start `task` under its target (at or above it on a resource the
   * task needs); otherwise its usage/target dominant ratio (-1 for a task that needs nothing).
   */
  private quotaRatio(state: ClusterState, q: number, task: ArrayLike<number>, usage: ArrayLike<number> = state.queues[q].usage): number {
    const k = this.k;
    let needs = false;
    let ratio = 0;
    for (let r = 0; r < k; r++) {
      if (!(task[r] > 0)) continue;
      needs = true;
      const t = this.targets[q * k + r];
      if (!(usage[r] < t * (1 - DISPATCH_EPS))) return Infinity;
      ratio = Math.max(ratio, usage[r] / t);
    }
    return needs ? ratio : -1;
  }

  /** True when a guaranteed queue with runnable tasks is below its target (reservation option). */
  private belowGuarantee(state: ClusterState): boolean {
    for (let q = 0; q < state.queues.length; q++) {
      if (this.classes[q] === ELASTIC) continue;
      const queue = state.queues[q];
      if (queue.rejected || queue.runnableTasks === 0 || !queue.nextTask) continue;
      if (this.quotaRatio(state, q, queue.nextTask) < Infinity) return true;
    }
    return false;
  }

  /**
   * Online DRF on what is free: smallest weighted dominant share whose next task fits, again and
   * again; over the queues of tier `tier` only when it is >= 0.
   */
  private elasticPhase(state: ClusterState, start: (q: number) => void, guarded: boolean, tier: number): void {
    const heap = this.heap;
    const aside = this.aside;
    const hold = this.hold;
    const tiers = tier >= 0 ? this.tiers : null;
    if (this.shareScale > 0) this.roundShares(state);
    for (;;) {
      let q = heap.top();
      if (q < 0) break;
      const other = tiers !== null && tiers[q] !== tier;
      // when nothing fits the guard still reserves for this tier's head, so queues of other tiers
      // above it are set aside first: a point that starts nothing leaves the reservation as it was
      if ((hold === null || !other) && this.nothingFits(state)) {
        // the head's task does not fit either (with nothing reserved yet the cut-off is exact)
        if (hold !== null) {
          q = hold.prefer(heap, q, tiers, tier);
          if (!(guarded && this.classes[q] === ELASTIC)) hold.blocked(q, state.queues[q].nextTask!);
        }
        break;
      }
      if (other) {
        heap.remove(q);
        aside.push(q);
        continue;
      }
      // the queue reserved for at the last point goes first while it ties with the head
      if (hold !== null) q = hold.prefer(heap, q, tiers, tier);
      const next = state.queues[q].nextTask!;
      const waits = guarded && this.classes[q] === ELASTIC;
      const fit = !waits && fits(state, next);
      if (!fit || (hold !== null && !hold.allows(state, next))) {
        // the first queue set aside because its task does not fit is the head: reserve for it
        if (!waits && !fit) hold?.blocked(q, next);
        heap.remove(q);
        aside.push(q);
        continue;
      }
      start(q);
    }
    if (aside.length === 0) return; // (setting an empty array's length is a runtime call)
    for (const q of aside) this.touch(state, q);
    aside.length = 0;
  }

  /** Re-keys the waiting queues by their dominant shares rounded per resource (shareDecimals). */
  private roundShares(state: ClusterState): void {
    const scale = this.shareScale;
    for (let q = 0; q < state.queues.length; q++) {
      if (!this.heap.has(q)) continue;
      const queue = state.queues[q];
      let dom = 0;
      for (let r = 0; r < this.k; r++) dom = Math.max(dom, Math.round((queue.usage[r] / state.capacity[r]) * scale) / scale);
      this.heap.update(q, dom / (queue.spec.weight ?? 1), q);
    }
  }

  /**
   * True when on some resource what is free is below every waiting queue's next demand on it
   * (less the room the starvation guard holds there, when every such demand needs the resource).
   */
  private nothingFits(state: ClusterState): boolean {
    for (let r = 0; r < this.k; r++) {
      const m = this.mins[r];
      const top = m.top();
      if (top < 0) continue;
      const min = m.key[top];
      const held = min > 0 && this.hold !== null ? this.hold.heldOn(r) : 0;
      if (exceeds(state.used[r] + min, held, state.capacity[r])) return true;
    }
    return false;
  }

  private grow(n: number): void {
    this.heap = grown(this.heap, n);
    this.mins = this.mins.map((h) => grown(h, n));
  }
}

function grown(old: IndexedHeap, n: number): IndexedHeap {
  const next = new IndexedHeap(Math.max(n, old.key.length * 2));
  next.key.set(old.key);
  next.tie.set(old.tie);
  for (let i = 0; i < old.key.length; i++) if (old.has(i)) next.insert(i);
  return next;
}
