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
// admitBatch decides a whole batch of queues given as columns in one kernel call
// (assembly/bopf.ts, or its JS twin src/kernels/js/bopf.ts), with the same comparisons:
// within a batch nobody leaves, so the heap's top is a running minimum there.
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
import { isNonNumericView } from "../kernels/marshal.js";
import {
  burstSeries, isPeriodic, periodicSummary, PeriodicSeries, type BurstSeries, type BurstsInput, type PeriodicBursts, type SummaryOut,
} from "./bursts.js";
import { LazyMinHeap } from "./min-heap.js";
import { KIND_LQ, KIND_TQ, validateBatchShape, type AdmissionBatch, type BatchOutcome } from "./admission-batch.js";
import { admitError, admitOnBlock, blockFor, copyIn } from "../kernels/bopf/batch.js";
import type { Engine } from "../engine/engine.js";
import { Status } from "../kernels/status.js";
import { BopfScratch, bopfAdmitKernel, summaryRow } from "../kernels/bopf/twin.js";

export type BopfClass = "hard" | "soft" | "elastic" | "rejected";
/** The condition that decided the class, or 'all-held' when every condition checked held. */
export type BopfReason = "safety" | "fairness" | "resource" | "all-held";

export interface BopfAdmission {
  class: BopfClass;
  reason: BopfReason;
  /** A sentence with the numbers that decided it (formatted on first access). */
  readonly detail: string;
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

// Class codes of the struct-of-arrays state (index = admission id).
const HARD = 0, SOFT = 1, ELASTIC = 2, REJECTED = 3, GONE = 4;
// fromBatch codes: admitted by admitBatch as an LQ (spec in the p* columns) or as a TQ
const BATCH_LQ = 1, BATCH_TQ = 2;
const CLASS_NAMES: readonly BopfClass[] = ["hard", "soft", "elastic", "rejected"];

// What a result's detail sentence is made of (formatted only when read).
const D_SAFETY = 0, D_TQ = 1, D_FAIRNESS = 2, D_RESOURCE = 3, D_HARD = 4;

/**
 * One admission decision. `detail` is a getter: the numbers are kept and the sentence is
 * formatted on first access (formatting 20,000 sentences would cost more than deciding).
 * JSON.stringify includes it (toJSON); object spread does not, so copy it explicitly.
 */
class Admission implements BopfAdmission {
  readonly class: BopfClass;
  readonly reason: BopfReason;
  private text: string | undefined;
  private readonly ac: BopfAdmissionControl;
  private readonly what: number;
  private readonly m1: number;
  /** the deciding queue's id (safety: the guaranteed queue that would break; else the new queue) */
  private readonly id: number;
  private readonly res: number;
  private readonly a: number;
  private readonly b: number;
  private readonly c: number;

  constructor(cls: BopfClass, reason: BopfReason, ac: BopfAdmissionControl, what: number, m1: number, id: number, res: number, a: number, b: number, c: number) {
    this.class = cls;
    this.reason = reason;
    this.text = undefined;
    this.ac = ac;
    this.what = what;
    this.m1 = m1;
    this.id = id;
    this.res = res;
    this.a = a;
    this.b = b;
    this.c = c;
  }

  get detail(): string {
    return (this.text ??= this.ac.formatDetail(this.what, this.m1, this.id, this.res, this.a, this.b, this.c, this.class));
  }

  toJSON(): { class: BopfClass; reason: BopfReason; detail: string } {
    return { class: this.class, reason: this.reason, detail: this.detail };
  }
}

export class BopfAdmissionControl {
  readonly capacity: Float64Array;
  readonly variant: "bopf" | "nbopf";
  private readonly names: readonly string[];
  private readonly eps: number;
  private readonly k: number;
  /** name -> admission id of the queues currently admitted */
  private readonly entries = new Map<string, number>();
  private readonly guaranteed = new LazyMinHeap();
  private hardRate: Float64Array;
  /** C * (1 + tolerance) per resource: the resource condition's bound, computed once */
  private readonly capSlack: Float64Array;
  /** classify's hard[r] + rate[r] of the last queue it checked: a hard queue's new hard sums */
  private need: Float64Array;
  /** periodicSummary's binding resource, reused across admits */
  private readonly summary: SummaryOut = { binding: -1 };
  /** admitBatch's kernel state (M, smallest guaranteed tolerance, variant, id0; rows admitted) and the twin's scratch */
  private readonly kstate = new Float64Array(8);
  private readonly kscratch = new BopfScratch();
  /** the twin's guaranteed lists (tolerances and ids of a batch's hard and soft queues) */
  private kgkey = new Float64Array(0);
  private kgid = new Int32Array(0);
  // struct of arrays by admission id (ids are never reused; rows of left queues stay, marked GONE)
  private cls = new Uint8Array(64);
  private tol = new Float64Array(64);
  private bind = new Int32Array(64);
  private rate: Float64Array;
  private qname: string[] = [];
  private bursts: Array<BurstsInput | null> = [];
  private series: Array<BurstSeries | null> = [];
  /** BATCH_LQ / BATCH_TQ for a row admitted by admitBatch (no name; an LQ's periodic spec is in the p* columns), else 0 */
  private fromBatch = new Uint8Array(64);
  private pStart = new Float64Array(64);
  private pPeriod = new Float64Array(64);
  private pWindow = new Float64Array(64);
  private pCount = new Float64Array(64);
  private pVolume: Float64Array;
  private nextId = 0;
  private admitted = 0;
  /**
   * Ids [lazyLo, lazyHi) may hold batch rows whose rate, tol and bind rows are not written
   * yet: admitBatch leaves them to be derived from the kept specs (summaryRow, the kernel's
   * divisions) when first read — rates, seriesOfId, a hard leave — so a batch whose
   * summaries nobody reads never writes them.
   */
  private lazyLo = 0;
  private lazyHi = 0;
  /** Set by decide(): the detail's ingredients of the last decision. */
  private dWhat = 0;
  private dId = 0;
  private dRes = 0;
  private dA = 0;
  private dB = 0;
  private dC = 0;

  constructor(capacity: ArrayLike<number>, options: AdmissionOptions = {}) {
    if (!Array.isArray(capacity) && !(ArrayBuffer.isView(capacity) && !isNonNumericView(capacity))) throw new InputError("capacity", `expected an array of numbers, got ${describeValue(capacity)}`);
    if (capacity.length === 0) throw new InputError("capacity", "must list at least one resource");
    for (let r = 0; r < capacity.length; r++) {
      const c = capacity[r];
      if (typeof c !== "number" || !Number.isFinite(c) || !(c > 0)) throw new InputError(`capacity[${r}]`, `must be a finite number > 0 (got ${describeValue(c)})`);
    }
    // options: an object (null or a number would be read as one and throw a TypeError)
    if (options === null || typeof options !== "object") throw new InputError("options", `expected an object {variant?, resources?, tolerance?}, got ${describeValue(options)}`);
    const v = options.variant ?? "bopf";
    if (v !== "bopf" && v !== "nbopf") throw new InputError("options.variant", `must be 'bopf' or 'nbopf', got ${describeValue(v)}`);
    this.variant = v;
    this.capacity = Float64Array.from(capacity);
    this.k = capacity.length;
    const names = options.resources;
    if (names !== undefined && !(Array.isArray(names) && names.length === capacity.length && names.every((x) => typeof x === "string"))) {
      throw new InputError("options.resources", `expected ${capacity.length} resource names (strings), got ${describeValue(names)}`);
    }
    this.names = names ?? Array.from(capacity, (_, r) => `r${r}`);
    // a NaN tolerance would make every resource check "need > NaN" false: every LQ hard
    const eps = options.tolerance ?? 1e-9;
    if (typeof eps !== "number" || !(eps >= 0) || !Number.isFinite(eps)) throw new InputError("options.tolerance", `must be a finite number >= 0 (got ${describeValue(eps)})`);
    this.eps = eps;
    this.hardRate = new Float64Array(capacity.length);
    this.need = new Float64Array(capacity.length);
    const slack = 1 + this.eps;
    this.capSlack = Float64Array.from(this.capacity, (c) => c * slack);
    this.rate = new Float64Array(64 * this.k);
    this.pVolume = new Float64Array(64 * this.k);
  }

  /**
   * Forgets every queue: afterwards the control decides exactly as a new one with the same
   * capacity and options (ids restart at 0), but it keeps its rows, so a scheduler that
   * re-runs admission from scratch (or a benchmark repeating it) does not allocate and
   * first-touch megabytes of fresh state every time.
   */
  reset(): void {
    this.entries.clear();
    this.guaranteed.clear();
    this.hardRate.fill(0);
    this.qname.length = 0;
    this.bursts.length = 0;
    this.series.length = 0;
    this.fromBatch.fill(0, 0, this.nextId);
    this.nextId = 0;
    this.admitted = 0;
    this.lazyLo = this.lazyHi = 0;
  }

  /** M: the number of queues currently admitted (H + S + E). */
  get admittedCount(): number {
    return this.admitted;
  }

  classOf(name: string): BopfClass | undefined {
    const id = this.entries.get(name);
    return id === undefined ? undefined : CLASS_NAMES[this.cls[id]];
  }

  /** The class of the queue admitted with id `id`, undefined once it left (or never admitted). */
  classOfId(id: number): BopfClass | undefined {
    return Number.isInteger(id) && id >= 0 && id < this.nextId && this.cls[id] !== GONE ? CLASS_NAMES[this.cls[id]] : undefined;
  }

  /** seriesOf by admission id (for queues admitted by admitBatch, which have no name). */
  seriesOfId(id: number): BurstSeries | null {
    return this.classOfId(id) === undefined ? null : this.seriesById(id);
  }

  /** The summary of an admitted LQ's bursts (rates, tolerance), for the allocator. */
  seriesOf(name: string): BurstSeries | null {
    const id = this.entries.get(name);
    return id === undefined ? null : this.seriesById(id);
  }

  /**
   * Decides the class of a new queue and, unless rejected, admits it. `field` names the
   * queue in errors (e.g. `queues[3]`). Misuse (bad bursts, duplicate name) is an InputError;
   * a rejection is a result.
   */
  admit(q: BopfQueueInput, field = "queue"): BopfAdmission {
    const c = this.decide(q, field);
    return new Admission(CLASS_NAMES[c], REASONS[this.dWhat], this, this.dWhat, this.admitted + (c === REJECTED ? 1 : 0), this.dId, this.dRes, this.dA, this.dB, this.dC);
  }

  /**
   * The same decision as admit() (and the same state change), returning only the class and
   * allocating nothing per queue: for callers admitting many queues at once. The admission
   * id of an admitted queue is `lastId`.
   */
  admitClass(q: BopfQueueInput, field = "queue"): BopfClass {
    return CLASS_NAMES[this.decide(q, field)];
  }

  /** Admission id of the queue admitted last (ids count every admission, from 0). */
  get lastId(): number {
    return this.nextId - 1;
  }

  /** Row `id` of the per-resource rates max_n r(n) (K numbers from id * K; zeros for TQs). */
  get rates(): Float64Array {
    this.summarize();
    return this.rate;
  }

  /** Writes the rate, tol and bind rows admitBatch left to derive (lazyLo..lazyHi). */
  private summarize(): void {
    const hi = this.lazyHi, k = this.k, s = this.kscratch;
    if (hi === this.lazyLo) return;
    s.ensure(0, k);
    for (let id = this.lazyLo; id < hi; id++) {
      const fb = this.fromBatch[id];
      if (fb === BATCH_LQ) {
        this.tol[id] = summaryRow(k, this.capacity, this.pVolume, id * k, this.pWindow[id], this.pPeriod[id], this.pCount[id], this.rate, id * k, s);
        this.bind[id] = s.bind;
      } else if (fb === BATCH_TQ) {
        this.rate.fill(0, id * k, id * k + k);
        this.tol[id] = Infinity;
        this.bind[id] = -1;
      }
    }
    this.lazyLo = this.lazyHi = 0;
  }

  /** Removes an admitted queue and releases its guarantee. Returns false when unknown. */
  leave(name: string): boolean {
    const id = this.entries.get(name);
    return id === undefined ? false : this.leaveId(id);
  }

  /** leave() by admission id (any queue, named or from a batch). Returns false when not admitted. */
  leaveId(id: number): boolean {
    if (this.classOfId(id) === undefined) return false;
    if (this.fromBatch[id] === 0) this.entries.delete(this.qname[id]);
    this.admitted--;
    const c = this.cls[id];
    this.cls[id] = GONE; // its row stays: an earlier decision's detail may name it
    if (c === HARD || c === SOFT) this.guaranteed.remove(id);
    if (c === HARD) this.recomputeHardRate();
    return true;
  }

  /** Validates, classifies and (unless rejected) admits; leaves the detail's numbers in d*. */
  private decide(q: BopfQueueInput, field: string): number {
    if (q === null || typeof q !== "object") throw new InputError(field, `expected a queue {name, kind, bursts?}, got ${describeValue(q)}`);
    const name = q.name;
    if (typeof name !== "string") throw new InputError(`${field}.name`, `must be a string (got ${describeValue(name)})`);
    const kind = q.kind;
    if (kind !== "LQ" && kind !== "TQ") throw new InputError(`${field}.kind`, `must be 'LQ' or 'TQ' (got ${describeValue(kind)})`);
    if (this.entries.has(name)) throw new InputError(`${field}.name`, `queue '${name}' is already admitted`);
    const id = this.nextId;
    if (id >= this.cls.length) this.grow();
    const k = this.k;
    // the new queue's summary goes straight into row `id` (kept only if admitted)
    let tolerance = Infinity;
    let bind = -1;
    let series: BurstSeries | null = null;
    const input = kind === "LQ" ? (q.bursts ?? []) : null;
    if (input !== null) {
      if (typeof input === "object" && isPeriodic(input as BurstsInput)) {
        tolerance = periodicSummary(input as PeriodicBursts, this.capacity, field, this.rate, id * k, this.summary, ".bursts");
        bind = this.summary.binding;
      } else {
        series = burstSeries(input as BurstsInput, this.capacity, `${field}.bursts`);
        tolerance = series.tolerance;
        bind = series.binding ? series.binding.resource : -1;
        this.rate.set(series.maxRate, id * k);
      }
    } else {
      this.rate.fill(0, id * k, id * k + k);
    }
    const c = this.classify(id, input !== null, tolerance);
    if (c === REJECTED) return c;
    this.commit(id, c, tolerance, bind);
    this.fromBatch[id] = 0;
    this.qname[id] = name;
    this.bursts[id] = input as BurstsInput | null;
    this.series[id] = series;
    this.entries.set(name, id);
    return c;
  }

  /**
   * Conditions (1)-(3) for a new queue whose rates are already in row `id` (K zeros for a
   * TQ): the class code, with the detail's ingredients left in d*. Shared by admit() and
   * admitBatch(), so both decide by the same comparisons.
   */
  private classify(id: number, isLQ: boolean, tolerance: number): number {
    const m1 = this.admitted + 1;
    // (1) safety: the smallest tolerance among H ∪ S must be >= M + 1
    const top = this.guaranteed.peekKey();
    if (top < m1) {
      this.dWhat = D_SAFETY; this.dId = this.guaranteed.peekId(); this.dA = top;
      return REJECTED;
    }
    if (!isLQ) {
      this.dWhat = D_TQ;
      return ELASTIC;
    }
    if (!(tolerance >= m1)) {
      // (2) fairness
      this.dWhat = D_FAIRNESS; this.dId = id;
      return ELASTIC;
    }
    this.dWhat = D_HARD; this.dA = tolerance;
    // (3) resource
    const k = this.k, rate = this.rate, base = id * k, cap = this.capacity, hard = this.hardRate, bound = this.capSlack, sums = this.need;
    for (let r = 0; r < k; r++) {
      const need = hard[r] + rate[base + r];
      sums[r] = need;
      if (need > bound[r]) {
        this.dWhat = D_RESOURCE; this.dRes = r; this.dA = hard[r]; this.dB = rate[base + r]; this.dC = cap[r];
        return this.variant === "bopf" ? SOFT : ELASTIC;
      }
    }
    return HARD;
  }

  /** Admits row `id` with class `c` (not REJECTED): the state every later decision reads. */
  private commit(id: number, c: number, tolerance: number, bind: number): void {
    this.nextId = id + 1;
    this.cls[id] = c;
    this.tol[id] = tolerance;
    this.bind[id] = bind;
    this.admitted++;
    if (c === HARD || c === SOFT) this.guaranteed.push(tolerance, id);
    if (c === HARD) {
      // classify just computed hard[r] + rate[r] for every r (a hard queue passed them
      // all): those are the new sums, and the old ones are its next scratch
      const sums = this.need;
      this.need = this.hardRate;
      this.hardRate = sums;
    }
  }

  /**
   * Decides and admits the batch's N queues in row order: the same decisions, reasons and
   * state as N admit() calls with the same specs (test/bopf.batch.test.ts checks this over
   * random sequences). Every row is validated first; a bad row throws an InputError naming
   * `${field}.<column>[i]` and admits nothing. Batch queues have no name: they are known by
   * their admission id (outcome.id; classOfId, leaveId, seriesOfId). No allocation per
   * queue: a periodic spec is summarised in closed form (bursts.ts), never expanded.
   * The per-queue work is one kernel call (assembly/bopf.ts): on `engine` (WASM, or its JS
   * twin) when given — the columns are copied into its memory unless they already live
   * there (EngineAdmissionBatch) — else the JS twin runs over this control's own arrays.
   */
  admitBatch(b: AdmissionBatch, out: BatchOutcome, field = "batch", engine: Engine | null = null): void {
    this.admitRows(b, out, field, engine, null);
  }

  /**
   * admitBatch on `engine`, and with `want` (N*K, checked by the caller) the allocation
   * round right after it in the same kernel pass (decideRound): returns that round's status
   * (Status.OK: the allocation is in the engine block's `allocation`; else BopfGeneral: the
   * caller runs the general path), or Status.OK without `want`.
   * @internal decision.ts
   */
  admitRows(b: AdmissionBatch, out: BatchOutcome, field: string, engine: Engine | null, want: Float64Array | null, beforeCommit: ((round: number) => void) | null = null): number {
    const k = this.k;
    validateBatchShape(b, k, field);
    const n = b.n;
    if (out === null || typeof out !== "object" || !(out.cls instanceof Uint8Array) || !(out.reason instanceof Uint8Array) || !(out.id instanceof Int32Array) ||
      out.cls.length < n || out.reason.length < n || out.id.length < n) {
      throw new InputError("out", `expected {cls: Uint8Array, reason: Uint8Array, id: Int32Array} of at least N = ${n} entries`);
    }
    const id0 = this.nextId;
    if (id0 + n > this.cls.length) this.grow(id0 + n);
    if (engine === null && this.kgkey.length < n) {
      this.kgkey = new Float64Array(n);
      this.kgid = new Int32Array(n);
    }
    // the kernel's state: M, the smallest guaranteed tolerance (no queue leaves during a
    // batch, so the heap is a running minimum there), the variant, the first id
    const st = this.kstate;
    st[0] = this.admitted;
    st[1] = this.guaranteed.peekKey();
    const topId = this.guaranteed.peekIdOrNone();
    st[2] = this.variant === "nbopf" ? 1 : 0;
    st[3] = id0;
    st[4] = 0;
    let j: number;
    let gkey: Float64Array, gid: Int32Array;
    let round = Status.OK;
    if (engine !== null) {
      const block = blockFor(engine, b, k);
      j = admitOnBlock(block, b, k, this.capacity, this.capSlack, this.hardRate, st, field, want);
      if (want !== null) round = st[7];
      const v = block.views();
      copyIn(out.cls, v.cls, n);
      copyIn(out.reason, v.reason, n);
      if (out.id !== v.id) out.id.set(v.id.subarray(0, n));
      // the caller's last word (decideRound: the round's cells) before any state changes: it may throw
      if (beforeCommit !== null) beforeCommit(round);
      this.cls.set(v.clsById.subarray(0, j), id0);
      this.fromBatch.set(v.kindById.subarray(0, j), id0);
      this.hardRate.set(v.hard);
      gkey = v.gkey;
      gid = v.gid;
    } else {
      // in place: the rows from id0 on are free; the hard sums go to `need` (scratch) and
      // become the state only on success
      const sums = this.need;
      sums.set(this.hardRate);
      if (want !== null) throw new Error("admitRows: the fused round needs an engine");
      const code = bopfAdmitKernel(n, k, 1, this.capacity, this.capSlack, sums, st, b.kind, b.start, b.period, b.window, b.count, b.volume, NO_F64,
        out.cls, out.reason, out.id, NO_F64, NO_F64, NO_I32, this.cls.subarray(id0), this.fromBatch.subarray(id0), this.kgkey, this.kgid, NO_F64, this.kscratch);
      if (code !== Status.OK) throw admitError(b, code, this.kscratch.errIndex, k, field);
      j = st[4];
      this.need = this.hardRate;
      this.hardRate = sums;
      gkey = this.kgkey;
      gid = this.kgid;
    }
    // the guaranteed ones into the heap, ordered when first needed (the kernel kept the
    // running minimum: the new one's id, or the old top when none went below it)
    const g = st[5];
    if (g > 0) this.guaranteed.appendUnordered(gkey, gid, g, st[1], st[6] >= 0 ? st[6] : topId >= 0 ? topId : gid[0]);
    this.commitBatch(b, out, id0, j);
    // the summary rows of ids id0.. are derived when read
    if (j > 0) {
      if (this.lazyHi === this.lazyLo) this.lazyLo = id0;
      this.lazyHi = id0 + j;
    }
    return round;
  }

  /**
   * The object state of admitBatch's j admitted rows beyond what the kernel wrote (rate,
   * tol, bind, class and batch kind by id, the heap's entries): their specs kept (the
   * caller may reuse the columns), the counters.
   */
  private commitBatch(b: AdmissionBatch, out: BatchOutcome, id0: number, j: number): void {
    const n = b.n, k = this.k;
    const oid = out.id;
    if (j === n) {
      // every row admitted (row i is id id0 + i): the LQ rows' specs, run by run (a TQ's are
      // never read); past RUNS runs, the rest whole (a run costs five subarray copies)
      const kind = b.kind;
      let lo = kind.indexOf(KIND_LQ);
      for (let runs = 0; lo !== -1 && lo < n; runs++) {
        let hi = runs < RUNS ? kind.indexOf(KIND_TQ, lo) : n;
        if (hi === -1 || hi > n) hi = n;
        this.copySpecs(b, lo, hi, id0);
        lo = hi < n ? kind.indexOf(KIND_LQ, hi) : -1;
      }
    } else {
      const { start, period, window, count, volume } = b;
      for (let i = 0; i < n; i++) {
        const id = oid[i];
        if (id < 0) continue;
        this.pStart[id] = start[i];
        this.pPeriod[id] = period[i];
        this.pWindow[id] = window[i];
        this.pCount[id] = count[i];
        for (let r = 0; r < k; r++) this.pVolume[id * k + r] = volume[i * k + r];
      }
    }
    this.nextId = id0 + j;
    this.admitted += j;
  }

  /** The specs of batch rows [lo, hi) into ids id0 + lo.. (the columns kept for seriesOfId and the summary rows). */
  private copySpecs(b: AdmissionBatch, lo: number, hi: number, id0: number): void {
    const k = this.k, at = id0 + lo;
    this.pStart.set(b.start.subarray(lo, hi), at);
    this.pPeriod.set(b.period.subarray(lo, hi), at);
    this.pWindow.set(b.window.subarray(lo, hi), at);
    this.pCount.set(b.count.subarray(lo, hi), at);
    this.pVolume.set(b.volume.subarray(lo * k, hi * k), at * k);
  }

  /** Doubles the rows, or makes room for `atLeast` rows at once (one copy for a whole batch). */
  private grow(atLeast = 0): void {
    const n = Math.max(this.cls.length * 2, atLeast);
    const cls = new Uint8Array(n); cls.set(this.cls); this.cls = cls;
    const tol = new Float64Array(n); tol.set(this.tol); this.tol = tol;
    const bind = new Int32Array(n); bind.set(this.bind); this.bind = bind;
    const rate = new Float64Array(n * this.k); rate.set(this.rate); this.rate = rate;
    const fb = new Uint8Array(n); fb.set(this.fromBatch); this.fromBatch = fb;
    const ps = new Float64Array(n); ps.set(this.pStart); this.pStart = ps;
    const pp = new Float64Array(n); pp.set(this.pPeriod); this.pPeriod = pp;
    const pw = new Float64Array(n); pw.set(this.pWindow); this.pWindow = pw;
    const pc = new Float64Array(n); pc.set(this.pCount); this.pCount = pc;
    const pv = new Float64Array(n * this.k); pv.set(this.pVolume); this.pVolume = pv;
  }

  private seriesById(id: number): BurstSeries | null {
    this.summarize();
    const s = this.series[id];
    if (s) return s;
    let b = this.bursts[id];
    if (this.fromBatch[id] === BATCH_LQ) {
      // a batch LQ: its spec from the columns kept at admission (the caller's may have changed)
      const k = this.k;
      b = { start: this.pStart[id], period: this.pPeriod[id], window: this.pWindow[id], count: this.pCount[id], volume: Array.from(this.pVolume.subarray(id * k, id * k + k)) };
    }
    if (!b) return null;
    // periodic: the summary admission computed, as a series (built once, on request)
    const k = this.k;
    const p = new PeriodicSeries(b as PeriodicBursts, this.rate.slice(id * k, id * k + k), this.tol[id], this.bind[id]);
    this.series[id] = p;
    return p;
  }

  /** The sentence of a decision (Admission.detail), from the numbers kept at decision time. */
  formatDetail(what: number, m1: number, id: number, res: number, a: number, b: number, c: number, cls: BopfClass): string {
    switch (what) {
      case D_SAFETY: {
        const s = this.seriesById(id)!;
        const bd = s.binding!;
        const burst = s.burst(bd.burst);
        const fair = (this.capacity[bd.resource] * s.gap(bd.burst)) / m1;
        const jc = this.cls[id] === GONE ? "guaranteed" : CLASS_NAMES[this.cls[id]];
        return `would break ${jc} ${this.nameOf(id)}: its burst ${bd.burst} needs ${fmt(burst.volume[bd.resource])} ${this.names[bd.resource]}·s > ` +
          `C·gap/(M+1) = ${fmt(fair)} with ${m1} queues (it tolerates ${a})`;
      }
      case D_TQ:
        return `TQ: safety (1) holds with ${m1} queue(s)`;
      case D_FAIRNESS: {
        const s = this.seriesById(id)!;
        const bd = s.binding!;
        const fair = (this.capacity[bd.resource] * s.gap(bd.burst)) / m1;
        return `burst ${bd.burst} needs ${fmt(s.burst(bd.burst).volume[bd.resource])} ${this.names[bd.resource]}·s > ` +
          `fair share C·gap/(M+1) = ${fmt(fair)} with ${m1} queues`;
      }
      case D_RESOURCE: {
        const detail = `${this.names[res]}: hard rates ${fmt(a)} + its rate ${fmt(b)} > C = ${fmt(c)}`;
        return cls === "soft" ? detail : `${detail} (N-BoPF has no soft class)`;
      }
      default:
        return `safety, fairness (tolerates ${a} queues) and resource conditions hold`;
    }
  }

  /** A queue's name for the details; batch queues by their admission id. */
  private nameOf(id: number): string {
    return this.fromBatch[id] !== 0 ? `queue #${id} (batch)` : this.qname[id];
  }

  /** From scratch on a hard leave, so subtraction never leaves float residue behind. */
  private recomputeHardRate(): void {
    this.summarize();
    const hard = this.hardRate, k = this.k;
    hard.fill(0);
    // ids ascend in admission order, the order the running sum was built in
    for (let id = 0; id < this.nextId; id++) {
      if (this.cls[id] === HARD) for (let r = 0; r < k; r++) hard[r] += this.rate[id * k + r];
    }
  }
}

const NO_F64 = new Float64Array(0), NO_I32 = new Int32Array(0);
/** commitBatch: LQ runs copied one by one before the rest is copied whole. */
const RUNS = 64;

const REASONS: readonly BopfReason[] = ["safety", "all-held", "fairness", "resource", "all-held"];
/** The same reasons as codes of BATCH_REASONS (safety, fairness, resource, all-held), by D_*. */
const BATCH_REASON_CODE = Uint8Array.of(0, 3, 1, 2, 3);

function fmt(x: number): string {
  return Number.isInteger(x) ? String(x) : x.toPrecision(4);
}
