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
//   'window-or-volume' (default, the authors' simulator's "compensation"): once the burst is
//   past its window t_i(n) AND has consumed d_i(n) (or the queue has nothing left to run,
//   or its next burst arrives): the rate holds while either is not yet done.
//   'volume': once d_i(n) is consumed, even inside the window.
//   'deadline' (docs/policies/bopf.md, allocation, read literally): at arrival + t_i(n), or
//   once d_i(n) is consumed. In a non-preemptive cluster a burst that arrives while long
//   batch tasks hold the resources cannot get its rate at once; under 'deadline' it then
//   loses its priority after t_i(n) and waits behind every TQ, which is not what the paper
//   measures (BoPF within a few seconds of SP, Tables 3-4). The prioritised volume per burst
//   is still at most d_i(n) <= C·gap/(M+1) (plus, inside the window, the rate's unused
//   part), so long-term fairness is unchanged.
// `postBurst: 'reduced-rate'` (the authors' simulator, off by default): after the guarantee
// ends, until the next burst, the LQ keeps beta = max(0, C·gap/M - received) / (gap - t_i(n)),
// received being what it consumed since the burst arrived and M the admitted queues.
// `resourceCondition: 'exact-overlap'` (the authors' simulator, off by default): an LQ that
// passes safety and fairness is hard if its rate fits next to the hard queues' rates at every
// instant of its windows (window-overlap.ts), not only next to their summed peak rates.
import type { Engine } from "../engine/engine.js";
import { InputError, describeValue } from "../errors.js";
import type { BurstSpec, QueueSpec, Workload } from "../policy/model.js";
import type { ClusterState, Policy, PolicyActions, PolicyContext, PolicyExplanation, SimEvent } from "../policy/policy.js";
import { BopfAdmissionControl, type BopfAdmission, type BopfClass } from "./admission.js";
import { allocateInstant, type InstantQueue } from "./allocate.js";
import type { BurstSeries } from "./bursts.js";
import { UsageSampler } from "./usage-sampler.js";
import { stateByQueue, stateNumber, stateNumberOrInfinity, stateObject, stateVector } from "../policy/state-check.js";
import { windowsFit } from "./window-overlap.js";

export type BopfExpiry = "volume" | "deadline" | "window-or-volume";
export type BopfPostBurst = "none" | "reduced-rate";
import { ELASTIC, HARD, SOFT } from "../kernels/guarantee-class.js";

export interface BopfPolicyOptions {
  variant?: "bopf" | "nbopf";
  /** When an unfinished burst guarantee ends (see above). */
  expiry?: BopfExpiry;
  /** What a guaranteed LQ gets between the end of its burst's guarantee and its next burst (see above). Default 'none'. */
  postBurst?: BopfPostBurst;
  /** The resource condition: 'max-rate' (default, the admission control's) or 'exact-overlap' (see above). */
  resourceCondition?: "max-rate" | "exact-overlap";
}

interface OpenGuarantee {
  burst: number;
  /** Arrival + reported window. */
  windowEnd: number;
  /** Arrival of the next burst (arrival + gap). */
  nextStart: number;
  gap: number;
  window: number;
  rate: Float64Array;
  volume: Float64Array;
  /** The queue's consumed volume when the burst arrived (null until the next consultation reads it). */
  base: Float64Array | null;
  /** 'burst': the burst's guarantee; 'post': the reduced-rate stage after it. */
  stage: "burst" | "post";
}

const EXPIRIES: readonly BopfExpiry[] = ["volume", "deadline", "window-or-volume"];
const POST_BURSTS: readonly BopfPostBurst[] = ["none", "reduced-rate"];

/** The default `expiry` (docs/policies/bopf.md says why). */
export const DEFAULT_EXPIRY: BopfExpiry = "window-or-volume";

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

  private readonly expiry: BopfExpiry;
  private readonly postBurst: BopfPostBurst;
  private readonly resourceCondition: "max-rate" | "exact-overlap";
  private admitted = 0;
  /** The admission control after admitting the queues in order, and the hard LQs' bursts (appendQueue goes on from them). */
  private control!: BopfAdmissionControl;
  private hardBursts: Array<readonly BurstSpec[]> = [];

  constructor(options: BopfPolicyOptions = {}) {
    this.variant = options.variant ?? "bopf";
    const e = options.expiry ?? DEFAULT_EXPIRY;
    if (!EXPIRIES.includes(e)) throw new InputError("options.expiry", `must be one of ${EXPIRIES.map((x) => `'${x}'`).join(", ")} (got ${describeValue(e)})`);
    const rc = options.resourceCondition ?? "max-rate";
    if (rc !== "max-rate" && rc !== "exact-overlap") throw new InputError("options.resourceCondition", `must be 'max-rate' or 'exact-overlap' (got ${describeValue(rc)})`);
    this.resourceCondition = rc;
    const p = options.postBurst ?? "none";
    if (!POST_BURSTS.includes(p)) throw new InputError("options.postBurst", `must be 'none' or 'reduced-rate' (got ${describeValue(p)})`);
    this.expiry = e;
    this.postBurst = p;
    this.name = this.variant;
  }

  init(ctx: PolicyContext): void {
    this.engine = ctx.engine;
    // its own queue list, which appendQueue extends
    this.workload = { ...ctx.workload, queues: [...ctx.workload.queues] };
    const w = ctx.workload;
    const ac = new BopfAdmissionControl(w.capacity, { variant: this.variant, resources: w.resources });
    const first = new Float64Array(w.queues.length).fill(Infinity);
    const index = new Map(w.queues.map((q, i) => [q.name, i]));
    for (const j of w.jobs) {
      const i = index.get(j.queue);
      if (i !== undefined) first[i] = Math.min(first[i], j.arrival);
    }
    const order = w.queues.map((_, i) => i).sort((a, b) => (first[a] === first[b] ? a - b : first[a] < first[b] ? -1 : 1));
    this.control = ac;
    this.hardBursts = [];
    this.admissions = new Array(w.queues.length);
    for (const i of order) this.admissions[i] = this.admit(w.queues[i], i);
    this.series = w.queues.map((q) => (q.kind === "LQ" ? ac.seriesOf(q.name) : null));
    this.open = w.queues.map(() => null);
    this.sampler = new UsageSampler(w.queues.length, w.capacity.length);
    for (const a of this.admissions) this.classCount[a.class]++;
    this.admitted = this.admissions.length - this.classCount.rejected;
  }

  /** Admits queue `q` (index i) after the ones admitted so far; a refused input changes nothing. */
  private admit(q: QueueSpec, i: number): BopfAdmission {
    const a = this.control.admit({ name: q.name, kind: q.kind, bursts: q.bursts ?? [] }, `queues[${i}]`);
    // a plain object (detail included) so reports can spread and serialise it
    let out: BopfAdmission = { class: a.class, reason: a.reason, detail: a.detail };
    if (this.resourceCondition === "exact-overlap" && q.kind === "LQ" && (a.class === "hard" || a.reason === "resource")) {
      out = this.exactOverlap(this.workload.capacity, this.hardBursts, q.bursts ?? []);
    }
    if (out.class === "hard") this.hardBursts.push(q.bursts ?? []);
    return out;
  }

  /**
   * A queue joins last (the live scheduler's addQueue): admitted after the others, as a rebuild
   * would (the admission order of queues with no jobs is the queue order), with no open guarantee
   * and nothing consumed.
   */
  appendQueue(spec: QueueSpec): void {
    const i = this.workload.queues.length;
    const a = this.admit(spec, i);
    this.workload.queues.push(spec);
    this.admissions.push(a);
    this.series.push(spec.kind === "LQ" ? this.control.seriesOf(spec.name) : null);
    this.open.push(null);
    this.sampler.addQueue();
    this.classCount[a.class]++;
    if (a.class !== "rejected") this.admitted++;
  }

  /**
   * Safety and fairness held (the admission control said hard, or failed only the resource
   * condition): the class from the exact overlap of windows instead. It refuses nothing the
   * max-rate condition accepts, so only resource-failed LQs can move (to hard).
   */
  private exactOverlap(capacity: number[], hard: ReadonlyArray<readonly BurstSpec[]>, bursts: readonly BurstSpec[]): BopfAdmission {
    if (windowsFit(capacity, hard, bursts)) return { class: "hard", reason: "all-held", detail: "safety, fairness and resource conditions hold (resource: exact overlap of windows)" };
    return { class: this.variant === "bopf" ? "soft" : "elastic", reason: "resource", detail: "its rate does not fit next to the hard queues' rates in some instant of its windows (exact overlap)" };
  }

  admission(queue: number): BopfAdmission {
    return this.admissions[queue];
  }

  /** An LQ's admission class and its open burst. */
  explain(state: ClusterState, queue: number): PolicyExplanation {
    const q = state.queues[queue];
    if (q.rejected || q.spec.kind !== "LQ") return {};
    const b = q.openBurst;
    return { notes: [`admitted ${this.admissions[queue]?.class ?? "elastic"}${b ? `, burst ${b.index} open until t=${b.deadline}` : ", no burst open"}`] };
  }

  onEvent(ev: SimEvent, state: ClusterState, actions: PolicyActions): void {
    this.sampler.attach(actions);
    if (ev.type === "taskEnd") this.sampler.advance(state, false);
    if (ev.type === "burstStart") {
      const s = this.series[ev.queue];
      const cls = this.admissions[ev.queue].class;
      if (!s || ev.burst >= s.count || (cls !== "hard" && cls !== "soft")) return;
      const b = s.burst(ev.burst);
      const volume = Float64Array.from(b.volume);
      const gap = s.gap(ev.burst);
      this.open[ev.queue] = {
        burst: ev.burst, windowEnd: ev.time + b.window, nextStart: ev.time + gap, gap, window: b.window,
        rate: volume.map((v) => v / b.window), volume, base: null, stage: "burst",
      };
      this.guaranteedBursts++;
      // the window's end may end the guarantee: a scheduling point
      if (this.expiry !== "volume") actions.wakeAt(ev.time + b.window);
    }
  }

  shares(state: ClusterState, out: Float64Array): void {
    const k = state.capacity.length;
    const t = state.time;
    let anyOpen = false;
    for (let i = 0; i < this.open.length; i++) {
      const g = this.open[i];
      if (g && state.queues[i].activeJobs === 0) this.open[i] = null;
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
        const guarantee = this.guaranteeNow(g, used, t, state.capacity);
        if (guarantee) iq.guarantee = guarantee;
        else this.open[i] = null; // over: competes as elastic from now on
      }
      return iq;
    });
    const res = allocateInstant(this.engine, state.capacity, queues);
    out.set(res.allocation);
  }

  /**
   * The guarantee of an open burst at time t, or null once it is over. 'volume' and 'deadline':
   * the burst's rate for its unconsumed volume. 'window-or-volume': also, inside its window,
   * what the rate still delivers there, so the guarantee lasts while the burst is inside its
   * window or has not received its volume. Then, with `postBurst: 'reduced-rate'`, until the
   * next burst: beta = max(0, C·gap/M - received) / (gap - window).
   */
  private guaranteeNow(g: OpenGuarantee, used: Float64Array, t: number, capacity: ArrayLike<number>): { rate: Float64Array; remaining: Float64Array } | null {
    const received = g.volume.map((_, r) => used[r] - g.base![r]);
    if (g.stage === "burst") {
      const inWindow = this.expiry === "window-or-volume" ? Math.max(0, g.windowEnd - t) : 0;
      const remaining = g.volume.map((v, r) => Math.max(0, v - received[r], g.rate[r] * inWindow));
      const live = this.expiry !== "deadline" || t < g.windowEnd;
      if (live && remaining.some((x) => x > 0)) return { rate: g.rate, remaining };
      if (this.postBurst === "none" || !(g.gap > g.window) || !(t < g.nextStart)) return null;
      g.stage = "post";
    }
    if (!(t < g.nextStart)) return null;
    const rate = received.map((x, r) => Math.max(0, (capacity[r] * g.gap) / this.admitted - x) / (g.gap - g.window));
    const remaining = rate.map((x) => x * (g.nextStart - t));
    return remaining.some((x) => x > 0) ? { rate, remaining } : null;
  }

  /** Queues with a live guarantee (after the last `shares`) are guaranteed: hard or soft by their class. */
  guaranteed(_state: ClusterState, out: Uint8Array): void {
    for (let i = 0; i < this.open.length; i++) {
      if (!this.open[i]) continue;
      const cls = this.admissions[i].class;
      out[i] = cls === "hard" ? HARD : cls === "soft" ? SOFT : ELASTIC;
    }
  }

  /**
   * By queue name: the open guarantee (burst, window, rate, volume and what the queue had consumed
   * when it arrived) and the sampler's consumed volumes. Admission is not state: `init` admits the
   * current queue set again in order (docs/live-scheduler.md, "Policy state"); a survivor keeps its
   * open guarantee while its class is still hard or soft (else it competes as elastic, as a burst
   * of an elastic LQ does), and a newcomer has none until its first burst.
   */
  exportState(): Record<string, unknown> {
    const names = this.workload.queues.map((q) => q.name);
    const open = Object.create(null) as Record<string, unknown>;
    this.open.forEach((g, i) => {
      if (g) open[names[i]] = { burst: g.burst, windowEnd: g.windowEnd, nextStart: g.nextStart, gap: g.gap, window: g.window, rate: Array.from(g.rate), volume: Array.from(g.volume), base: g.base ? Array.from(g.base) : null, stage: g.stage };
    });
    return { guaranteedBursts: this.guaranteedBursts, sampler: this.sampler.exportState(names), open };
  }

  importState(state: unknown, field: string, actions: PolicyActions): void {
    const o = stateObject(state, field);
    const k = this.workload.capacity.length;
    const names = this.workload.queues.map((q) => q.name);
    const guaranteedBursts = stateNumber(o.guaranteedBursts, `${field}.guaranteedBursts`, 0);
    const open = stateByQueue(o.open, `${field}.open`, (v, f): OpenGuarantee => {
      const g = stateObject(v, f);
      if (!(Number.isInteger(g.burst) && (g.burst as number) >= 0)) throw new InputError(`${f}.burst`, `expected an integer >= 0, got ${describeValue(g.burst)}`);
      if (g.stage !== "burst" && g.stage !== "post") throw new InputError(`${f}.stage`, `expected 'burst' or 'post', got ${describeValue(g.stage)}`);
      const gap = stateNumberOrInfinity(g.gap, `${f}.gap`, 0), window = stateNumber(g.window, `${f}.window`, 0);
      if (!(window > 0)) throw new InputError(`${f}.window`, `expected a number > 0, got ${describeValue(window)}`);
      return {
        burst: g.burst as number, windowEnd: stateNumberOrInfinity(g.windowEnd, `${f}.windowEnd`), nextStart: stateNumberOrInfinity(g.nextStart, `${f}.nextStart`), gap, window,
        rate: stateVector(g.rate, k, `${f}.rate`, 0), volume: stateVector(g.volume, k, `${f}.volume`, 0),
        base: g.base === null ? null : stateVector(g.base, k, `${f}.base`, 0), stage: g.stage,
      };
    });
    const sampler = new UsageSampler(names.length, k);
    sampler.importState(o.sampler, names, `${field}.sampler`, actions);
    this.sampler = sampler;
    this.guaranteedBursts = guaranteedBursts;
    this.open = names.map((name, i) => {
      const g = open.get(name);
      const cls = this.admissions[i].class;
      return g && (cls === "hard" || cls === "soft") ? g : null;
    });
  }

  report(): Record<string, unknown> {
    return {
      variant: this.variant,
      expiry: this.expiry,
      postBurst: this.postBurst,
      resourceCondition: this.resourceCondition,
      classes: { ...this.classCount },
      guaranteedBursts: this.guaranteedBursts,
      admissions: this.workload.queues.map((q, i) => ({ queue: q.name, ...this.admissions[i] })),
    };
  }
}
