// BoPF and N-BoPF as simulator policies: admission control at init, then at every scheduling point the allocation at an instant (allocate.ts) from
// each queue's class, current demand and open guarantee.
//
// An LQ's guarantee for burst n starts when the burst's job arrives (T_i(n)) and lasts for
// its reported window t_i(n) or until it has consumed its reported volume d_i(n), whichever
// comes first; its rate is the reported r_i(n) = d_i(n) / t_i(n). So a queue that
// under-reports gets too small a rate and misses its deadline, and one that over-reports is
// still capped by what its tasks really need (docs/policies/bopf.md, misreported bursts).
//
// Dispatch (src/dispatch/dispatcher.ts): queues with a live guarantee are guaranteed (hard, then
// soft) up to their target; everything else competes by online DRF for what is free, as in the
// authors' simulator. The old "reservation" step (hold unguaranteed queues while a guarantee is
// unmet) is the dispatcher's `reservation` option, off by default.
//
// Admission order: queues are admitted as they show up — by their first job's arrival,
// ties in workload order (TQs queued at t = 0 are "already in the system" when an LQ
// arrives, as in the paper's setup; queues without jobs come last).
//
// `expiry` decides when an unfinished guarantee ends:
//   'deadline' (docs/policies/bopf.md, allocation, read literally): at arrival + t_i(n), or once d_i(n) is consumed.
//   'volume' (default): only once d_i(n) is consumed (or the queue has nothing left to run,
//   or its next burst arrives). In a non-preemptive cluster a burst that arrives while
//   long batch tasks hold the resources cannot get its rate at once; under 'deadline' it
//   then loses its priority after t_i(n) and waits behind every TQ, which is not what the
//   paper measures (BoPF within a few seconds of SP, Tables 3-4). The prioritised volume
//   per burst is still at most d_i(n) <= C·gap/(M+1), so long-term fairness is unchanged.
import type { Engine } from "../engine/engine.js";
import { InputError, describeValue } from "../errors.js";
import type { Workload } from "../policy/model.js";
import type { ClusterState, Policy, PolicyActions, PolicyContext, SimEvent } from "../policy/policy.js";
import { BopfAdmissionControl, type BopfAdmission, type BopfClass } from "./admission.js";
import { allocateInstant, type InstantQueue } from "./allocate.js";
import type { BurstSeries } from "./bursts.js";
import { UsageSampler } from "./usage-sampler.js";
import { HARD, SOFT } from "../dispatch/dispatcher.js";

export interface BopfPolicyOptions {
  variant?: "bopf" | "nbopf";
  /** When an unfinished burst guarantee ends: 'volume' (default) or 'deadline' (see above). */
  expiry?: "volume" | "deadline";
}

interface OpenGuarantee {
  burst: number;
  /** Guarantee ends at arrival + reported window. */
  until: number;
  rate: Float64Array;
  volume: Float64Array;
  /** The queue's consumed volume when the burst arrived (null until the next consultation reads it). */
  base: Float64Array | null;
}

export class BopfPolicy implements Policy {
  readonly name: string;
  private readonly variant: "bopf" | "nbopf";
  private engine!: Engine;
  private workload!: Workload;
  private admissions: BopfAdmission[] = [];
  private series: Array<BurstSeries | null> = [];
  private open: Array<OpenGuarantee | null> = [];
  private sampler!: UsageSampler;
  private readonly classCount = { hard: 0, soft: 0, elastic: 0, rejected: 0 };
  private guaranteedBursts = 0;

  private readonly expiry: "volume" | "deadline";

  constructor(options: BopfPolicyOptions = {}) {
    this.variant = options.variant ?? "bopf";
    const e = options.expiry ?? "volume";
    if (e !== "volume" && e !== "deadline") throw new InputError("options.expiry", `must be 'volume' or 'deadline' (got ${describeValue(e)})`);
    this.expiry = e;
    this.name = this.variant;
  }

  init(ctx: PolicyContext): void {
    this.engine = ctx.engine;
    this.workload = ctx.workload;
    const w = ctx.workload;
    const ac = new BopfAdmissionControl(w.capacity, { variant: this.variant, resources: w.resources });
    const first = new Float64Array(w.queues.length).fill(Infinity);
    const index = new Map(w.queues.map((q, i) => [q.name, i]));
    for (const j of w.jobs) {
      const i = index.get(j.queue);
      if (i !== undefined) first[i] = Math.min(first[i], j.arrival);
    }
    const order = w.queues.map((_, i) => i).sort((a, b) => (first[a] === first[b] ? a - b : first[a] < first[b] ? -1 : 1));
    this.admissions = new Array(w.queues.length);
    for (const i of order) {
      const q = w.queues[i];
      const a = ac.admit({ name: q.name, kind: q.kind, bursts: q.bursts ?? [] }, `queues[${i}]`);
      // a plain object (detail included) so reports can spread and serialise it
      this.admissions[i] = { class: a.class, reason: a.reason, detail: a.detail };
    }
    this.series = w.queues.map((q) => (q.kind === "LQ" ? ac.seriesOf(q.name) : null));
    this.open = w.queues.map(() => null);
    this.sampler = new UsageSampler(w.queues.length, w.capacity.length);
    for (const a of this.admissions) this.classCount[a.class]++;
  }

  admission(queue: number): BopfAdmission {
    return this.admissions[queue];
  }

  onEvent(ev: SimEvent, _state: ClusterState, actions: PolicyActions): void {
    this.sampler.attach(actions);
    if (ev.type === "burstStart") {
      const s = this.series[ev.queue];
      const cls = this.admissions[ev.queue].class;
      if (!s || ev.burst >= s.count || (cls !== "hard" && cls !== "soft")) return;
      const b = s.burst(ev.burst);
      const volume = Float64Array.from(b.volume);
      const until = this.expiry === "deadline" ? ev.time + b.window : Infinity;
      this.open[ev.queue] = { burst: ev.burst, until, rate: volume.map((v) => v / b.window), volume, base: null };
      this.guaranteedBursts++;
      if (until < Infinity) actions.wakeAt(until); // the guarantee's end is a scheduling point
    } else if (ev.type === "burstEnd" && this.expiry === "deadline") {
      const g = this.open[ev.queue];
      if (g && g.burst === ev.burst) this.open[ev.queue] = null;
    }
  }

  shares(state: ClusterState, out: Float64Array): void {
    const k = state.capacity.length;
    const t = state.time;
    let anyOpen = false;
    for (let i = 0; i < this.open.length; i++) {
      const g = this.open[i];
      if (g && (t >= g.until || state.queues[i].activeJobs === 0)) this.open[i] = null;
      else if (g) anyOpen = true;
    }
    this.sampler.advance(state, anyOpen);
    const queues: InstantQueue[] = state.queues.map((q, i) => {
      const cls: BopfClass = this.admissions[i].class;
      const iq: InstantQueue = { class: cls, want: q.demand, weight: q.spec.weight ?? 1 };
      const g = this.open[i];
      if (g) {
        const used = this.sampler.volume.subarray(i * k, i * k + k);
        g.base ??= Float64Array.from(used);
        const remaining = g.volume.map((v, r) => Math.max(0, v - (used[r] - g.base![r])));
        if (remaining.every((x) => x === 0)) this.open[i] = null; // consumed: competes as elastic from now on
        else iq.guarantee = { rate: g.rate, remaining };
      }
      return iq;
    });
    const res = allocateInstant(this.engine, state.capacity, queues);
    out.set(res.allocation);
  }

  /** Queues with a live guarantee (after the last `shares`) are guaranteed: hard or soft by their class. */
  guaranteed(_state: ClusterState, out: Uint8Array): void {
    for (let i = 0; i < this.open.length; i++) {
      if (!this.open[i]) continue;
      const cls = this.admissions[i].class;
      out[i] = cls === "hard" ? HARD : cls === "soft" ? SOFT : 0;
    }
  }

  report(): Record<string, unknown> {
    return {
      variant: this.variant,
      expiry: this.expiry,
      classes: { ...this.classCount },
      guaranteedBursts: this.guaranteedBursts,
      admissions: this.workload.queues.map((q, i) => ({ queue: q.name, ...this.admissions[i] })),
    };
  }
}
