// The live scheduler's binding of its policy: the policy object built for the current queue set
// (rebuilt lazily after a queue-set change, its history carried over), each queue's admission,
// and the events the policy hears. docs/live-scheduler.md, "Queue-set changes" and "Policy state".
import type { Engine } from "../engine/engine.js";
import { Rng } from "../random/rng.js";
import type { Dispatcher } from "../dispatch/dispatcher.js";
import type { Admission, Policy, PolicyActions, PolicyFactory, PolicyState, SimEvent } from "../policy/policy.js";
import type { LiveQueue, LiveState } from "./live-state.js";
import type { TimerList } from "./timers.js";

export class PolicyBinding {
  policy: Policy;
  /** The queue set changed since the policy was built (it is rebuilt before its next use). */
  stale = true;
  /** The policy has been built for some queue set (its history can be exported). */
  built = false;
  /** A policy state to take over at the next build (restoreScheduler). */
  carried: PolicyState | null = null;
  /** The policy hears events (onEvent). */
  readonly events: boolean;
  rng: Rng;
  private readonly admissions = new Map<LiveQueue, Admission>();

  constructor(
    readonly policyName: string,
    private readonly factory: PolicyFactory,
    readonly policyOptions: Record<string, unknown> | undefined,
    private readonly engine: Engine,
    readonly seed: number,
    private readonly state: LiveState,
    private readonly timers: TimerList,
    private readonly dispatcher: Dispatcher,
    private readonly actions: PolicyActions,
  ) {
    this.rng = new Rng(seed);
    this.policy = factory.create(policyOptions); // checks the options now (an InputError naming them)
    this.events = typeof this.policy.onEvent === "function";
  }

  /** A fresh policy object with the scheduler's options (not bound to any queue set). */
  fresh(): Policy {
    return this.factory.create(this.policyOptions);
  }

  /**
   * Builds the policy for the current queue set: admission, then its history carried over
   * (exportState of the previous build, or the snapshot's; docs/live-scheduler.md, "Policy
   * state"); a policy without exportable state is told the active jobs and open bursts again.
   */
  bind(): void {
    const st = this.state;
    const old = this.policy;
    const carried = this.carried ?? (this.built && typeof old.exportState === "function" ? old.exportState() : null);
    const p = this.factory.create(this.presentOptions());
    p.init?.({
      engine: this.engine, random: () => this.rng.next(),
      workload: { name: "live", resources: [...st.resources], capacity: Array.from(st.capacity), queues: st.queues.map((q) => q.spec), jobs: [], params: {}, seed: this.seed },
    });
    const imported = carried !== null && typeof p.importState === "function";
    if (imported) p.importState!(carried, "snapshot.policyState", this.actions);
    this.policy = p;
    this.carried = null;
    this.built = true;
    this.stale = false;
    // the wake-ups the policy asked for are its history too: kept when it is carried over
    if (!imported) this.timers.filter((t) => t.queue !== null);
    for (const q of st.queues) this.takeAdmission(q);
    if (!this.events || imported) return;
    for (const q of st.queues) {
      if (q.hasJobs) for (const [job, j] of q.jobs) this.emit({ type: "arrival", time: j.arrival, queue: q.index, job });
      if (q.openBurst) this.emit({ type: "burstStart", time: q.openBurst.start, queue: q.index, burst: q.openBurst.index });
    }
  }

  /** Rebuilds the policy now for a queue-set change that must answer the admission; undoes the change when the policy refuses the set. */
  bindOrUndo(undo: () => void): void {
    try {
      this.bind();
    } catch (e) {
      undo();
      this.stale = true;
      this.bind();
      throw e;
    }
  }

  /** What a rebuild now would carry over (the policy's history), or null. */
  exportState(): PolicyState | null {
    return this.carried ?? (this.built && typeof this.policy.exportState === "function" ? this.policy.exportState() : null);
  }

  /** The policy hears event `ev` (policies without events hear nothing). */
  emit(ev: SimEvent): void {
    if (this.events) this.policy.onEvent!(ev, this.state, this.actions);
  }

  /** Queue q's admission from the built policy (every queue is admitted by a policy without admission control). */
  takeAdmission(q: LiveQueue): void {
    const a = this.policy.admission?.(q.index);
    this.admissions.set(q, a ? { class: a.class, reason: a.reason } : this.admitsAll());
    q.rejected = a?.class === "rejected";
    this.dispatcher.touch(this.state, q.index);
  }

  /** Forgets queue q's admission (the queue is gone). */
  dropAdmission(q: LiveQueue): void {
    this.admissions.delete(q);
  }

  /** A copy of queue q's admission, for the caller. */
  admissionOf(q: LiveQueue): Admission {
    return { ...(this.admissions.get(q) ?? this.admitsAll()) };
  }

  /** The admission of a policy without admission control. */
  private admitsAll(): Admission {
    return { class: "admitted", reason: `${this.policyName} admits every queue` };
  }

  /** The policy options with H-LTRF's groupWeights narrowed to the groups the current queues have. */
  private presentOptions(): Record<string, unknown> | undefined {
    const o = this.policyOptions;
    const gw = o?.groupWeights as Record<string, number> | undefined;
    if (!o || gw === null || typeof gw !== "object") return o;
    const present = new Set<string>();
    for (const q of this.state.queues) (q.spec.path ?? []).forEach((_, i, path) => present.add(path.slice(0, i + 1).join("/")));
    return { ...o, groupWeights: Object.fromEntries(Object.entries(gw).filter(([key]) => present.has(key))) };
  }
}
