// M-BVT (docs/policies/bopf.md, M-BVT; BoPF paper §2.3): borrowed virtual time extended to many resources.
//
// Every queue has an actual virtual time A_i = ∫ ds(usage_i) / w_i dt (its dominant-share
// progress). While an LQ's burst is open its effective virtual time is E_i = A_i - W_i
// (W_i: its warp); otherwise E_i = A_i. The queues with the smallest E share by DRF, and as
// A_i advances at the DRF progress rate the warped LQ falls back to the others' level.
//
// The fluid form used here: at each scheduling point, DRF with offsets o_i = (E_i - min E)
// / lag over the demanding queues (the same kernel as LTRF, docs/policies/ltrf.md). A queue only starts
// receiving once the common level has passed its lead over the most-behind queue, spread
// over `lag` seconds: with lag -> 0 this is strict priority by E with DRF among ties, and
// every unallocated resource still goes to the next queues (work conserving).
// As in BVT, a queue that was idle re-enters at max(A_i, min A of the active queues), so
// sleeping (an LQ's OFF period) earns no credit — only the warp does.
//
// Worked example: two queues, one resource, lag 10 s. A TQ has A = 50 share·s, an LQ
// arrives with A = 50 and warp 20: E_LQ = 30, so o_LQ = 0 and o_TQ = 20 / 10 = 2: the LQ
// gets everything it can use (dominant share <= 1 < 2). After 20 s at share 1 its A is 70,
// E = 50 = E_TQ (if the TQ did not progress), and from then on they share by DRF.
// Edge values: warp 0 -> plain DRF with long-term memory; all queues idle -> nothing.
//
// Virtual times move with the clock, so the leader can change with no event at all. With
// preemption and periodic ticks that made two queues take turns killing each other's tasks
// forever (issue 21, finding 2). Like BVT's context-switch allowance, a leader change that
// comes from time alone (a point after only ticks or wake-ups) does not take resources back:
// there a queue holding more than its DRF target gets its usage as target (it starts nothing
// more and is no preemption victim); the others keep their DRF targets for free resources.
// Preemption happens at events (arrivals, task ends, bursts), so it is bounded by them.
import type { Engine } from "../engine/engine.js";
import type { ClusterState, Policy, PolicyActions, PolicyContext, SimEvent } from "../policy/policy.js";
import { InputError, describeValue } from "../errors.js";
import { UsageSampler } from "./usage-sampler.js";
import { byQueueName, stateByQueue, stateNumber, stateObject } from "../policy/state-check.js";

export interface MbvtOptions {
  /** Warp of every LQ in dominant-share·seconds (a queue's params.warp wins); default: its largest reported burst's dominant-share volume. */
  warp?: number;
  /** Seconds over which a virtual-time lead is spread (offset = lead / lag); default 10. */
  lag?: number;
}

export class MbvtPolicy implements Policy {
  readonly name = "mbvt";
  private engine!: Engine;
  private sampler!: UsageSampler;
  private warp!: Float64Array;
  private weights!: Float64Array;
  /** Credit adjustments (BVT's wake-up rule), added to the integrated progress. */
  private bump!: Float64Array;
  private wasActive!: Uint8Array;
  private readonly lag: number;
  private readonly warpOption: number | undefined;
  /** An event other than a tick since the last consultation (false: the point comes from time alone). */
  private changed = true;
  private names: string[] = [];

  constructor(options: MbvtOptions = {}) {
    const lag = options.lag ?? 10;
    if (!(lag > 0 && Number.isFinite(lag))) throw new InputError("options.lag", `must be a finite number > 0 (got ${describeValue(lag)})`);
    if (options.warp !== undefined && !(options.warp >= 0 && Number.isFinite(options.warp))) {
      throw new InputError("options.warp", `must be a finite number >= 0 (got ${describeValue(options.warp)})`);
    }
    this.lag = lag;
    this.warpOption = options.warp;
  }

  init(ctx: PolicyContext): void {
    const w = ctx.workload;
    const n = w.queues.length;
    this.engine = ctx.engine;
    this.names = w.queues.map((q) => q.name);
    this.sampler = new UsageSampler(n, w.capacity.length);
    this.weights = Float64Array.from(w.queues, (q) => q.weight ?? 1);
    this.bump = new Float64Array(n);
    this.wasActive = new Uint8Array(n);
    this.warp = Float64Array.from(w.queues, (q, i) => {
      const p = q.params?.warp;
      if (p !== undefined) {
        if (typeof p !== "number" || !(p >= 0) || !Number.isFinite(p)) throw new InputError(`queues[${i}].params.warp`, `must be a finite number >= 0 (got ${describeValue(p)})`);
        return p;
      }
      if (q.kind !== "LQ") return 0;
      if (this.warpOption !== undefined) return this.warpOption;
      let best = 0;
      for (const b of q.bursts ?? []) best = Math.max(best, ...b.volume.map((v, r) => v / w.capacity[r]));
      return best;
    });
  }

  onEvent(ev: SimEvent, state: ClusterState, actions: PolicyActions): void {
    this.sampler.attach(actions);
    if (ev.type === "taskEnd") this.sampler.advance(state, false);
    if (ev.type !== "tick") this.changed = true;
  }

  /**
   * Virtual times by queue name: the sampler's integrals, the wake-up credit adjustments and who was
   * active. A newcomer starts with no progress and inactive, so when it becomes active BVT's
   * wake-up rule lifts it to the active queues' minimum (docs/live-scheduler.md, "Policy state").
   */
  exportState(): Record<string, unknown> {
    return {
      changed: this.changed,
      sampler: this.sampler.exportState(this.names),
      queues: byQueueName(this.names, (i) => ({ bump: this.bump[i], active: this.wasActive[i] === 1 })),
    };
  }

  importState(state: unknown, field: string, actions: PolicyActions): void {
    const o = stateObject(state, field);
    if (typeof o.changed !== "boolean") throw new InputError(`${field}.changed`, `expected true or false, got ${describeValue(o.changed)}`);
    const queues = stateByQueue(o.queues, `${field}.queues`, (v, f) => {
      const q = stateObject(v, f);
      if (typeof q.active !== "boolean") throw new InputError(`${f}.active`, `expected true or false, got ${describeValue(q.active)}`);
      return { bump: stateNumber(q.bump, `${f}.bump`), active: q.active };
    });
    const sampler = new UsageSampler(this.names.length, this.sampler.k);
    sampler.importState(o.sampler, this.names, `${field}.sampler`, actions);
    this.sampler = sampler;
    this.changed = o.changed;
    this.names.forEach((name, i) => {
      const q = queues.get(name);
      if (!q) return;
      this.bump[i] = q.bump;
      this.wasActive[i] = q.active ? 1 : 0;
    });
  }

  shares(state: ClusterState, out: Float64Array): void {
    const n = state.queues.length;
    const timeOnly = !this.changed;
    this.changed = false;
    this.sampler.advance(state, true);
    const actual = new Float64Array(n);
    let minActive = Infinity;
    for (let i = 0; i < n; i++) {
      actual[i] = this.sampler.domTime[i] / this.weights[i] + this.bump[i];
      if (this.wasActive[i] && active(state, i)) minActive = Math.min(minActive, actual[i]);
    }
    // BVT wake-up: a queue becoming active cannot bring credit from its idle time
    for (let i = 0; i < n; i++) {
      const on = active(state, i);
      if (on && !this.wasActive[i] && minActive < Infinity && actual[i] < minActive) {
        this.bump[i] += minActive - actual[i];
        actual[i] = minActive;
      }
      this.wasActive[i] = on ? 1 : 0;
    }
    const eff = new Float64Array(n);
    let minE = Infinity;
    for (let i = 0; i < n; i++) {
      eff[i] = actual[i] - (state.queues[i].openBurst ? this.warp[i] : 0);
      if (active(state, i)) minE = Math.min(minE, eff[i]);
    }
    if (minE === Infinity) return;
    const offsets = eff.map((e, i) => (active(state, i) ? Math.max(0, e - minE) / this.lag : 0));
    let r: ReturnType<Engine["drf"]>;
    try {
      r = this.engine.drf({ capacity: state.capacity, demands: state.demands, weights: this.weights, offsets });
    } catch (e) {
      // the engine's rows are the queues (state order = workload order): name the queue
      const row = e instanceof InputError ? /^(demands|offsets|weights)\[(\d+)\]/.exec(e.field) : null;
      if (row) throw new InputError(`queues[${row[2]}]`, `MBVT's DRF step (virtual-time offsets ${describeValue(offsets[+row[2]])}): ${e instanceof Error ? e.message : e}; a burst volume, warp or weight is out of scale`);
      throw e;
    }
    out.set(r.allocation);
    if (timeOnly) keepHeld(state, out);
  }
}

/** Targets below what a queue holds become what it holds (dominant shares, as the simulator compares them). */
function keepHeld(state: ClusterState, out: Float64Array): void {
  const k = state.capacity.length;
  for (let i = 0; i < state.queues.length; i++) {
    let held = 0, target = 0;
    for (let r = 0; r < k; r++) {
      held = Math.max(held, state.usages[i * k + r] / state.capacity[r]);
      target = Math.max(target, out[i * k + r] / state.capacity[r]);
    }
    if (held > target) out.set(state.usages.subarray(i * k, i * k + k), i * k);
  }
}

/** A queue competes when it has something it could hold (running or runnable). */
function active(state: ClusterState, i: number): boolean {
  const q = state.queues[i];
  return !q.rejected && (q.runnableTasks > 0 || q.runningTasks > 0);
}
