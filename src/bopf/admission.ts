// BoPF admission control (SPEC §4.2): classes hard (H), soft (S), elastic (E), or rejected.
//
// With M queues admitted before the new one:
//   (1) safety    every guaranteed queue j in H ∪ S keeps d_j(n) <= C * gap_j(n) / (M + 1)
//   (2) fairness  the new LQ's own bursts satisfy d_i(n) <= C * gap_i(n) / (M + 1)
//   (3) resource  sum_{j in H} max_n r_j(n) + max_n r_i(n) <= C      (conservative form)
// LQ: (1) fails -> rejected; (2) fails -> E; (3) holds -> H; else S.
// TQ: (1) holds -> E; else rejected. N-BoPF has no S: (2) and (3) -> H, else E.
//
// Each queue's bursts are summarised once (bursts.ts) into the largest queue count it
// tolerates, so (1) is "the smallest tolerance among H ∪ S is >= M + 1": a heap peek, O(1)
// per admission however many bursts the queues have; (2) is one comparison; (3) is O(K)
// against a running sum of the hard rates. Leaving releases the guarantee (heap entry marked
// dead, rate subtracted) and lowers M.
//
// Worked example (the shape of the paper's Fig. 10; capacity 1 on every resource): one TQ
// admitted first, then three LQs with equal bursts of volume 25 resource·s in a 25 s window
// (rate 1: the whole cluster while ON) and periods 150, 110 and 60 s.
//   TQ-0: no guaranteed queue yet -> elastic (M becomes 1).
//   LQ-0: M+1 = 2. Tolerance floor(150 / 25) = 6 >= 2; hard rates 0 + 1 <= 1 -> hard.
//   LQ-1: M+1 = 3. Safety: min tolerance 6 >= 3. Own tolerance floor(110 / 25) = 4 >= 3;
//         hard rates 1 + 1 > 1 -> soft (reason 'resource').
//   LQ-2: M+1 = 4. Safety: min(6, 4) >= 4. Own tolerance floor(60 / 25) = 2 < 4 -> elastic
//         (reason 'fairness': 25 > 60 / 4 = 15).
//   A fifth queue: M+1 = 5 > LQ-1's tolerance 4 -> rejected (reason 'safety').
// Edge values: a queue with no bursts (or zero volume) tolerates any count and has rate 0,
// so it is hard and never binds; a burst larger than C * gap fails (2) even alone.
import type { BurstSpec, QueueKind } from "../sim/model.js";
import { InputError, describeValue } from "../engine/errors.js";
import { burstSeries, type BurstSeries, type BurstsInput } from "./bursts.js";
import { LazyMinHeap } from "./min-heap.js";

export type BopfClass = "hard" | "soft" | "elastic" | "rejected";
/** The condition that decided the class, or 'all-held' when every condition checked held. */
export type BopfReason = "safety" | "fairness" | "resource" | "all-held";

export interface BopfAdmission {
  class: BopfClass;
  reason: BopfReason;
  /** A sentence with the numbers that decided it. */
  detail: string;
}

export interface BopfQueueInput {
  /** Unique among the queues currently admitted. */
  name: string;
  kind: QueueKind;
  /** LQ only: the bursts it reports (explicit list or periodic spec). */
  bursts?: BurstsInput | readonly BurstSpec[];
}

export interface AdmissionOptions {
  /** 'bopf' (default) or 'nbopf' (no soft class). */
  variant?: "bopf" | "nbopf";
  /** Resource names for the details; default r0, r1, ... */
  resources?: readonly string[];
  /** Relative slack on the resource condition's sums (float accumulation), default 1e-9. */
  tolerance?: number;
}

interface Entry {
  id: number;
  name: string;
  kind: QueueKind;
  cls: BopfClass;
  series: BurstSeries | null;
}

export class BopfAdmissionControl {
  readonly capacity: Float64Array;
  readonly variant: "bopf" | "nbopf";
  private readonly names: readonly string[];
  private readonly eps: number;
  private readonly entries = new Map<string, Entry>();
  private readonly guaranteed = new LazyMinHeap();
  private readonly byId = new Map<number, Entry>();
  private readonly hardRate: Float64Array;
  private nextId = 0;
  private admitted = 0;

  constructor(capacity: ArrayLike<number>, options: AdmissionOptions = {}) {
    if (!Array.isArray(capacity) && !ArrayBuffer.isView(capacity)) throw new InputError("capacity", `expected an array of numbers, got ${describeValue(capacity)}`);
    if (capacity.length === 0) throw new InputError("capacity", "must list at least one resource");
    for (let r = 0; r < capacity.length; r++) {
      const c = capacity[r];
      if (typeof c !== "number" || !Number.isFinite(c) || !(c > 0)) throw new InputError(`capacity[${r}]`, `must be a finite number > 0 (got ${describeValue(c)})`);
    }
    const v = options.variant ?? "bopf";
    if (v !== "bopf" && v !== "nbopf") throw new InputError("options.variant", `must be 'bopf' or 'nbopf', got ${describeValue(v)}`);
    this.variant = v;
    this.capacity = Float64Array.from(capacity);
    this.names = options.resources ?? Array.from(capacity, (_, r) => `r${r}`);
    this.eps = options.tolerance ?? 1e-9;
    this.hardRate = new Float64Array(capacity.length);
  }

  /** M: the number of queues currently admitted (H + S + E). */
  get admittedCount(): number {
    return this.admitted;
  }

  classOf(name: string): BopfClass | undefined {
    return this.entries.get(name)?.cls;
  }

  /** The summary of an admitted LQ's bursts (rates, tolerance), for the allocator. */
  seriesOf(name: string): BurstSeries | null {
    return this.entries.get(name)?.series ?? null;
  }

  /**
   * Decides the class of a new queue and, unless rejected, admits it. `field` names the
   * queue in errors (e.g. `queues[3]`). Misuse (bad bursts, duplicate name) is an InputError;
   * a rejection is a result.
   */
  admit(q: BopfQueueInput, field = "queue"): BopfAdmission {
    if (q === null || typeof q !== "object") throw new InputError(field, `expected a queue {name, kind, bursts?}, got ${describeValue(q)}`);
    if (typeof q.name !== "string") throw new InputError(`${field}.name`, `must be a string (got ${describeValue(q.name)})`);
    if (q.kind !== "LQ" && q.kind !== "TQ") throw new InputError(`${field}.kind`, `must be 'LQ' or 'TQ' (got ${describeValue(q.kind)})`);
    if (this.entries.has(q.name)) throw new InputError(`${field}.name`, `queue '${q.name}' is already admitted`);
    const series = q.kind === "LQ" ? burstSeries(q.bursts ?? [], this.capacity, `${field}.bursts`) : null;
    const m1 = this.admitted + 1;

    const safety = this.checkSafety(m1);
    let result: BopfAdmission;
    if (safety !== null) {
      result = { class: "rejected", reason: "safety", detail: safety };
    } else if (series === null) {
      result = { class: "elastic", reason: "all-held", detail: `TQ: safety (1) holds with ${m1} queue(s)` };
    } else {
      result = this.classifyLQ(series, m1);
    }
    if (result.class !== "rejected") this.insert(q.name, q.kind, result.class, series);
    return result;
  }

  /** Removes an admitted queue and releases its guarantee. Returns false when unknown. */
  leave(name: string): boolean {
    const e = this.entries.get(name);
    if (!e) return false;
    this.entries.delete(name);
    this.byId.delete(e.id);
    this.admitted--;
    if (e.cls === "hard" || e.cls === "soft") this.guaranteed.remove(e.id);
    if (e.cls === "hard") this.recomputeHardRate();
    return true;
  }

  /** Null when (1) holds for m1 queues, else why not. */
  private checkSafety(m1: number): string | null {
    const top = this.guaranteed.peek();
    if (top === null || top.key >= m1) return null;
    const e = this.byId.get(top.id)!;
    const b = e.series!.binding!;
    const burst = e.series!.burst(b.burst);
    const fair = (this.capacity[b.resource] * e.series!.gap(b.burst)) / m1;
    return `would break ${e.cls} ${e.name}: its burst ${b.burst} needs ${fmt(burst.volume[b.resource])} ${this.names[b.resource]}·s > ` +
      `C·gap/(M+1) = ${fmt(fair)} with ${m1} queues (it tolerates ${top.key})`;
  }

  private classifyLQ(s: BurstSeries, m1: number): BopfAdmission {
    if (!(s.tolerance >= m1)) {
      const b = s.binding!;
      const fair = (this.capacity[b.resource] * s.gap(b.burst)) / m1;
      return {
        class: "elastic", reason: "fairness",
        detail: `burst ${b.burst} needs ${fmt(s.burst(b.burst).volume[b.resource])} ${this.names[b.resource]}·s > ` +
          `fair share C·gap/(M+1) = ${fmt(fair)} with ${m1} queues`,
      };
    }
    for (let r = 0; r < this.capacity.length; r++) {
      const need = this.hardRate[r] + s.maxRate[r];
      if (need > this.capacity[r] * (1 + this.eps)) {
        const detail = `${this.names[r]}: hard rates ${fmt(this.hardRate[r])} + its rate ${fmt(s.maxRate[r])} > C = ${fmt(this.capacity[r])}`;
        return this.variant === "bopf"
          ? { class: "soft", reason: "resource", detail }
          : { class: "elastic", reason: "resource", detail: `${detail} (N-BoPF has no soft class)` };
      }
    }
    return { class: "hard", reason: "all-held", detail: `safety, fairness (tolerates ${s.tolerance} queues) and resource conditions hold` };
  }

  private insert(name: string, kind: QueueKind, cls: BopfClass, series: BurstSeries | null): void {
    const e: Entry = { id: this.nextId++, name, kind, cls, series };
    this.entries.set(name, e);
    this.byId.set(e.id, e);
    this.admitted++;
    if (cls === "hard" || cls === "soft") this.guaranteed.push(series!.tolerance, e.id);
    if (cls === "hard") for (let r = 0; r < this.hardRate.length; r++) this.hardRate[r] += series!.maxRate[r];
  }

  /** From scratch on a hard leave, so subtraction never leaves float residue behind. */
  private recomputeHardRate(): void {
    this.hardRate.fill(0);
    for (const e of this.entries.values()) {
      if (e.cls === "hard") for (let r = 0; r < this.hardRate.length; r++) this.hardRate[r] += e.series!.maxRate[r];
    }
  }
}

function fmt(x: number): string {
  return Number.isInteger(x) ? String(x) : x.toPrecision(4);
}
