// BoPF admission control (docs/policies/bopf.md, admission): classes hard (H), soft (S),
// elastic (E), or rejected.
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
// One classifier: admit() summarises the queue's bursts into its row, then decides with
// classifyQueue, the comparisons every row of the batch kernel makes (src/kernels/bopf/twin.ts,
// the twin of assembly/bopf.ts); admitBatch decides a whole batch given as columns in one
// kernel call. Within a batch nobody leaves, so the heap's top is a running minimum there.
// The control's parts: admission-validate.ts (its inputs), admission-rows.ts (the column
// store by admission id), admission-detail.ts (the decision's explanation).
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
import { InputError } from "../errors.js";
import { PeriodicSeries, burstSeries, isPeriodic, periodicSummary, type BurstSeries, type BurstsInput, type PeriodicBursts, type SummaryOut } from "./bursts.js";
import { LazyMinHeap } from "./min-heap.js";
import { lowerBound } from "./lower-bound.js";
import { validateBatchShape, type AdmissionBatch, type BatchOutcome } from "./admission-batch.js";
import { EngineAdmissionBatch, admitError, admitOnBlock, blockFor, columnsOf, copyIn, ownBlock } from "../kernels/bopf/batch.js";
import { keepViews } from "../kernels/util/keep-views.js";
import type { Engine } from "../engine/engine.js";
import { Status } from "../kernels/status.js";
import { BopfScratch, bopfAdmitKernel, classifyQueue } from "../kernels/bopf/twin.js";
import type { AdmissionOptions, BopfAdmission, BopfClass, BopfQueueInput } from "./admission-types.js";
import { checkQueue, checkSettings, type QueueHead } from "./admission-validate.js";
import { AdmissionRows, GONE, NAMED, NAMED_PERIODIC } from "./admission-rows.js";
import { HARD, REJECTED, SOFT } from "../kernels/guarantee-class.js";
import { Admission, type DetailQueue, CLASS_NAMES, D_FAIRNESS, D_HARD, D_RESOURCE, D_SAFETY, D_TQ } from "./admission-detail.js";

export type { AdmissionOptions, BopfAdmission, BopfClass, BopfQueueInput, BopfReason } from "./admission-types.js";

// classifyQueue's reason codes (the batch outcome's)
const R_SAFETY = 0, R_FAIRNESS = 1, R_RESOURCE = 2;

export class BopfAdmissionControl {
  readonly capacity: Float64Array;
  readonly variant: "bopf" | "nbopf";
  /** resource names for the details */
  readonly names: readonly string[];
  /** the column store: a slot per admitted queue, found by admission id (admission-rows.ts) */
  private rows: AdmissionRows;
  private readonly k: number;
  /** name -> admission id of the queues currently admitted */
  private readonly entries = new Map<string, number>();
  private readonly guaranteed = new LazyMinHeap();
  private hardRate: Float64Array;
  /** C * (1 + tolerance) per resource: the resource condition's bound, computed once */
  private readonly capSlack: Float64Array;
  /** classifyQueue's hard[r] + rate[r] of the last queue it checked: a hard queue's new hard sums */
  private need: Float64Array;
  /** periodicSummary's binding resource, reused across admits */
  private readonly summary: SummaryOut = { binding: -1 };
  /** checkQueue's result, reused across admits */
  private readonly head: QueueHead = { name: "", kind: "TQ" };
  /** admitBatch's kernel state (M, smallest guaranteed tolerance, variant, id0; rows admitted) and the twin's scratch */
  private readonly kstate = new Float64Array(8);
  private readonly kscratch = new BopfScratch();
  /** the twin's guaranteed lists (tolerances and ids of a batch's hard and soft queues) */
  private kgkey = new Float64Array(0);
  private kgid = new Int32Array(0);
  private admitted = 0;
  /** ids of the live HARD queues, ascending (leave re-sums the hard rates over these only) */
  private hardIds = new Int32Array(16);
  private hardCount = 0;
  /** Set by decide(): the detail's ingredients of the last decision. */
  private dWhat = 0;
  private dId = 0;
  /** decide(): the bursts of a new queue refused by fairness (its detail names them) */
  private dSeries: BurstSeries | null = null;
  private dRes = 0;
  private dA = 0;
  private dB = 0;
  private dC = 0;

  constructor(capacity: ArrayLike<number>, options: AdmissionOptions = {}) {
    const s = checkSettings(capacity, options);
    this.variant = s.variant;
    this.capacity = s.capacity;
    this.k = s.capacity.length;
    this.names = s.names;
    this.hardRate = new Float64Array(this.k);
    this.need = new Float64Array(this.k);
    const slack = 1 + s.eps;
    this.capSlack = Float64Array.from(this.capacity, (c) => c * slack);
    this.rows = new AdmissionRows(this.capacity, this.k);
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
    this.hardCount = 0;
    this.rows.reset(); // details handed out hold their own deciding queue (DetailQueue)
    this.admitted = 0;
  }

  /** M: the number of queues currently admitted (H + S + E). */
  get admittedCount(): number {
    return this.admitted;
  }

  classOf(name: string): BopfClass | undefined {
    const id = this.entries.get(name);
    return id === undefined ? undefined : CLASS_NAMES[this.rows.cls[this.rows.slotOf(id)]];
  }

  /** The class of the queue admitted with id `id`, undefined once it left (or never admitted). */
  classOfId(id: number): BopfClass | undefined {
    const slot = this.rows.liveSlot(id);
    return slot >= 0 ? CLASS_NAMES[this.rows.cls[slot]] : undefined;
  }

  /** seriesOf by admission id (for queues admitted by admitBatch, which have no name). */
  seriesOfId(id: number): BurstSeries | null {
    const slot = this.rows.liveSlot(id);
    return slot >= 0 ? this.rows.seriesBySlot(slot) : null;
  }

  /** The summary of an admitted LQ's bursts (rates, tolerance), for the allocator. */
  seriesOf(name: string): BurstSeries | null {
    const id = this.entries.get(name);
    return id === undefined ? null : this.rows.seriesBySlot(this.rows.slotOf(id));
  }

  /**
   * Decides the class of a new queue and, unless rejected, admits it. `field` names the
   * queue in errors (e.g. `queues[3]`). Misuse (bad bursts, duplicate name) is an InputError;
   * a rejection is a result.
   */
  admit(q: BopfQueueInput, field = "queue"): BopfAdmission {
    const c = this.decide(q, field);
    const what = this.dWhat;
    return new Admission(CLASS_NAMES[c], what === D_SAFETY || what === D_FAIRNESS ? this.detailQueue(what, c) : null, this.names, what, this.admitted + (c === REJECTED ? 1 : 0), this.dRes, this.dA, this.dB, this.dC);
  }

  /** The deciding queue of the last safety or fairness decision, captured now (admission-detail.ts). */
  private detailQueue(what: number, c: number): DetailQueue {
    const rows = this.rows;
    if (what === D_SAFETY || c !== REJECTED) {
      // safety: a live guaranteed queue; fairness: the new queue, kept in the last slot
      const slot = what === D_SAFETY ? rows.slotOf(this.dId) : rows.used - 1;
      return { series: rows.seriesBySlot(slot)!, name: rows.nameOfSlot(slot), cls: what === D_SAFETY ? rows.cls[slot] : -1, capacity: this.capacity };
    }
    // a new queue refused by fairness (not kept): its series from the decision
    return { series: this.dSeries!, name: this.head.name, cls: -1, capacity: this.capacity };
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
    return this.rows.nextId - 1;
  }

  /**
   * The per-resource rates max_n r(n) of every id up to lastId (K numbers from id * K; zeros
   * for TQs and for queues that left): a fresh array, O(lastId * K), for inspection. A
   * scheduler reads one queue's with rateOf(id).
   */
  get rates(): Float64Array {
    const rows = this.rows, k = this.k;
    rows.summarize();
    const out = new Float64Array(rows.nextId * k);
    for (let slot = 0; slot < rows.used; slot++) {
      if (rows.cls[slot] === GONE) continue;
      out.set(rows.rate.subarray(slot * k, slot * k + k), rows.idAt(slot) * k);
    }
    return out;
  }

  /** The K max rates of the live queue with admission id `id` (a view, zeros for a TQ), or null. */
  rateOf(id: number): Float64Array | null {
    const rows = this.rows, slot = rows.liveSlot(id);
    if (slot < 0) return null;
    rows.summarize();
    return rows.rate.subarray(slot * this.k, slot * this.k + this.k);
  }

  /** Removes an admitted queue and releases its guarantee. Returns false when unknown. */
  leave(name: string): boolean {
    const id = this.entries.get(name);
    return id === undefined ? false : this.leaveId(id);
  }

  /** leave() by admission id (any queue, named or from a batch). Returns false when not admitted. */
  leaveId(id: number): boolean {
    const rows = this.rows;
    const slot = rows.liveSlot(id);
    if (slot < 0) return false;
    const o = rows.origin[slot];
    if (o === NAMED || o === NAMED_PERIODIC) this.entries.delete(rows.qname[slot]);
    this.admitted--;
    const c = rows.cls[slot];
    rows.drop(slot); // GONE; the store compacts once GONE slots outnumber the live ones
    if (c === HARD || c === SOFT) this.guaranteed.remove(id);
    // from scratch on a hard leave, so subtraction never leaves float residue behind
    if (c === HARD) {
      this.dropHardId(id);
      rows.hardSum(this.hardRate, this.hardIds, this.hardCount);
    }
    return true;
  }

  /** Validates, summarises, classifies and (unless rejected) admits; leaves the detail's numbers in d*. */
  private decide(q: BopfQueueInput, field: string): number {
    const head = this.head;
    checkQueue(q, field, head);
    const name = head.name;
    if (this.entries.has(name)) throw new InputError(`${field}.name`, `queue '${name}' is already admitted`);
    const rows = this.rows;
    const id = rows.nextId, slot = rows.used;
    if (slot >= rows.cls.length) rows.grow();
    const k = this.k;
    this.dSeries = null;
    // the new queue's summary goes straight into its slot (kept only if admitted)
    let tolerance = Infinity;
    let bind = -1;
    let series: BurstSeries | null = null;
    let periodic: PeriodicBursts | null = null;
    const input = head.kind === "LQ" ? (q.bursts ?? []) : null;
    if (input !== null) {
      if (typeof input === "object" && isPeriodic(input as BurstsInput)) {
        periodic = input as PeriodicBursts;
        tolerance = periodicSummary(input as PeriodicBursts, this.capacity, field, rows.rate, slot * k, this.summary, ".bursts");
        bind = this.summary.binding;
      } else {
        series = burstSeries(input as BurstsInput, this.capacity, `${field}.bursts`);
        tolerance = series.tolerance;
        bind = series.binding ? series.binding.resource : -1;
        rows.rate.set(series.maxRate, slot * k);
      }
    } else {
      rows.rate.fill(0, slot * k, slot * k + k);
    }
    const c = this.classify(slot, id, input !== null, tolerance);
    if (c === REJECTED) {
      // a detail refused by fairness names this queue's bursts: kept for detailQueue
      if (this.dWhat === D_FAIRNESS) this.dSeries = series ?? new PeriodicSeries({ ...periodic!, volume: Array.from(periodic!.volume) }, rows.rate.slice(slot * k, slot * k + k), tolerance, bind);
      return c;
    }
    rows.keepNamed(slot, c, tolerance, bind, name, series, periodic);
    this.admitted++;
    if (c === HARD || c === SOFT) this.guaranteed.push(tolerance, id);
    if (c === HARD) {
      this.pushHardId(id);
      // classifyQueue just computed hard[r] + rate[r] for every r (a hard queue passed them
      // all): those are the new sums, and the old ones are its next scratch
      const sums = this.need;
      this.need = this.hardRate;
      this.hardRate = sums;
    }
    this.entries.set(name, id);
    return c;
  }

  /**
   * classifyQueue for a new queue (admission id `id`) whose rates are already in slot
   * `slot` (K zeros for a TQ): the class code, with the detail's ingredients left in d*.
   */
  private classify(slot: number, id: number, isLQ: boolean, tolerance: number): number {
    const m1 = this.admitted + 1;
    const rate = this.rows.rate, base = slot * this.k;
    const d = classifyQueue(m1, this.guaranteed.peekKey(), isLQ, tolerance, this.k, this.hardRate, rate, base, this.capSlack, this.need, this.variant === "nbopf");
    const c = d & 3, why = (d >> 2) & 3;
    if (why === R_SAFETY) {
      this.dWhat = D_SAFETY; this.dId = this.guaranteed.peekId(); this.dA = this.guaranteed.peekKey();
    } else if (!isLQ) {
      this.dWhat = D_TQ;
    } else if (why === R_FAIRNESS) {
      this.dWhat = D_FAIRNESS; this.dId = id;
    } else if (why === R_RESOURCE) {
      const r = d >> 4;
      this.dWhat = D_RESOURCE; this.dRes = r; this.dA = this.hardRate[r]; this.dB = rate[base + r]; this.dC = this.capacity[r];
    } else {
      this.dWhat = D_HARD; this.dA = tolerance;
    }
    return c;
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
    const k = this.k, rows = this.rows;
    // an EngineAdmissionBatch: refused when released or read through stale views; its own
    // block when it lives in this engine; its columns read without counting as handed out
    if (b instanceof EngineAdmissionBatch) b.checkFresh(field);
    const own = engine !== null && ownBlock(engine, b, k);
    const batch = b;
    b = columnsOf(b);
    validateBatchShape(b, k, field);
    const n = b.n;
    if (out === null || typeof out !== "object" || !(out.cls instanceof Uint8Array) || !(out.reason instanceof Uint8Array) || !(out.id instanceof Int32Array) ||
      out.cls.length < n || out.reason.length < n || out.id.length < n) {
      throw new InputError("out", `expected {cls: Uint8Array, reason: Uint8Array, id: Int32Array} of at least N = ${n} entries`);
    }
    const id0 = rows.nextId, s0 = rows.used;
    if (s0 + n > rows.cls.length) rows.grow(s0 + n);
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
      // columns that are views of the engine's memory stay readable if staging grows it
      const keep = !own && engine.kernels.stageGrows("bopf", n, k) ? keepViews(engine.kernels, [b, want]) : null;
      const block = blockFor(engine, batch, k);
      if (keep !== null) [b, want] = keep();
      j = admitOnBlock(block, b, k, this.capacity, this.capSlack, this.hardRate, st, field, want);
      if (want !== null) round = st[7];
      const v = block.views();
      copyIn(out.cls, v.cls, n);
      copyIn(out.reason, v.reason, n);
      if (out.id !== v.id) out.id.set(v.id.subarray(0, n));
      // the caller's last word (decideRound: the round's cells) before any state changes: it may throw
      if (beforeCommit !== null) beforeCommit(round);
      rows.cls.set(v.clsById.subarray(0, j), s0);
      rows.origin.set(v.kindById.subarray(0, j), s0);
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
        out.cls, out.reason, out.id, NO_F64, NO_F64, NO_I32, rows.cls.subarray(s0), rows.origin.subarray(s0), this.kgkey, this.kgid, NO_F64, this.kscratch);
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
    rows.keepBatch(b, out, id0, j);
    for (let i = 0; i < j; i++) if (rows.cls[s0 + i] === HARD) this.pushHardId(id0 + i);
    this.admitted += j;
    return round;
  }

  /** Appends a new HARD id (ids only grow, so the list stays ascending). */
  private pushHardId(id: number): void {
    if (this.hardCount === this.hardIds.length) {
      const a = new Int32Array(this.hardIds.length * 2);
      a.set(this.hardIds);
      this.hardIds = a;
    }
    this.hardIds[this.hardCount++] = id;
  }

  /** Removes a HARD id (binary search, then one shift of the tail). */
  private dropHardId(id: number): void {
    const ids = this.hardIds;
    const lo = lowerBound(ids, this.hardCount, id);
    if (lo < this.hardCount && ids[lo] === id) {
      ids.copyWithin(lo, lo + 1, this.hardCount);
      this.hardCount--;
    }
  }
}

const NO_F64 = new Float64Array(0), NO_I32 = new Int32Array(0);
