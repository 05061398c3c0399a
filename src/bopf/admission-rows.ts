// BopfAdmissionControl's column store: one row (a slot) per admitted queue. Admission ids
// count every admission from 0 and are never reused (a stale id never names another queue),
// but the store is proportional to the live queues: a left queue's slot is marked GONE, and
// once GONE slots outnumber the live ones (and 64), compact() moves the live slots down in
// order. Ids map to slots by arithmetic for the ids admitted since the last compaction (they
// are contiguous) and by binary search in `idOf` below that. A row holds the queue's class,
// its bursts' summary (tolerance, binding resource, K max rates), and its bursts: the series
// of an explicit list (its own copy), or a periodic spec copied into the p* columns (from
// admit()'s object or from the batch's columns), from which the series is built when first
// asked for.
//
// Example: admit a, b, c (ids 0, 1, 2, slots 0, 1, 2); leave a and b; after enough churn
// compact() keeps c in slot 0 (idOf[0] = 2); admit d: id 3, slot 1.
//
// Batch rows are summarised lazily: admitBatch leaves the rate, tol and bind rows of ids
// [lazyLo, lazyHi) to be derived from the kept specs (summaryRow, the kernel's divisions)
// when first read, so a batch whose summaries nobody reads never writes them.
import type { AdmissionBatch, BatchOutcome } from "./admission-batch.js";
import { KIND_LQ, KIND_TQ } from "./admission-batch.js";
import { PeriodicSeries, type BurstSeries, type PeriodicBursts } from "./bursts.js";
import { BopfScratch, summaryRow } from "../kernels/bopf/twin.js";
import { lowerBound } from "./lower-bound.js";

/** A row's class once its queue left (beside the guarantee classes 0-3, src/kernels/guarantee-class.ts). */
export const GONE = 4;
/**
 * origin codes: admitted by name with its bursts kept as a series (NAMED: an explicit list,
 * or none), by name with a periodic spec (NAMED_PERIODIC: the spec copied into the p*
 * columns), or by admitBatch as an LQ (spec in the p* columns) or as a TQ.
 */
export const NAMED = 0, BATCH_LQ = 1, BATCH_TQ = 2, NAMED_PERIODIC = 3;
/** keepSpecs: LQ runs copied one by one before the rest is copied whole. */
const RUNS = 64;

export class AdmissionRows {
  cls = new Uint8Array(64);
  tol = new Float64Array(64);
  bind = new Int32Array(64);
  /** K max rates per row (zeros for a TQ) */
  rate: Float64Array;
  qname: string[] = [];
  series: Array<BurstSeries | null> = [];
  /** how the row was admitted (NAMED, NAMED_PERIODIC, BATCH_LQ, BATCH_TQ) */
  origin = new Uint8Array(64);
  pStart = new Float64Array(64);
  pPeriod = new Float64Array(64);
  pWindow = new Float64Array(64);
  pCount = new Float64Array(64);
  pVolume: Float64Array;
  /** the next admission id */
  nextId = 0;
  /** slots in use [0, used): live rows and GONE ones not yet compacted */
  used = 0;
  /** GONE slots among the used ones */
  gone = 0;
  /** ids of slots [0, slotBase) (ascending); slots from slotBase hold ids from idBase on, contiguously */
  idOf = new Int32Array(64);
  private slotBase = 0;
  private idBase = 0;
  /** Slots moved by compact() since this store was made (a work counter: tests bound it). */
  compactMoves = 0;
  private lazyLo = 0;
  private lazyHi = 0;
  private readonly scratch = new BopfScratch();

  constructor(readonly capacity: Float64Array, readonly k: number) {
    this.rate = new Float64Array(64 * k);
    this.pVolume = new Float64Array(64 * k);
  }

  /** Forgets every row (ids restart at 0), keeping the arrays. */
  reset(): void {
    this.qname.length = 0;
    this.series.length = 0;
    this.origin.fill(0, 0, this.used);
    this.nextId = this.used = this.gone = this.slotBase = this.idBase = 0;
    this.lazyLo = this.lazyHi = 0;
  }

  /** The slot of admission id `id`, or -1 when it is not stored (never admitted, or compacted away). */
  slotOf(id: number): number {
    if (!Number.isInteger(id) || id < 0 || id >= this.nextId) return -1;
    if (id >= this.idBase) return id - this.idBase + this.slotBase;
    const lo = lowerBound(this.idOf, this.slotBase, id);
    return lo < this.slotBase && this.idOf[lo] === id ? lo : -1;
  }

  /** The admission id of a used slot. */
  idAt(slot: number): number {
    return slot < this.slotBase ? this.idOf[slot] : slot - this.slotBase + this.idBase;
  }

  /** The slot of `id` when it is an admitted queue that has not left, else -1. */
  liveSlot(id: number): number {
    const s = this.slotOf(id);
    return s >= 0 && this.cls[s] !== GONE ? s : -1;
  }

  /** Whether `id` is an admitted queue that has not left. */
  isLive(id: number): boolean {
    return this.liveSlot(id) >= 0;
  }

  /** Marks a slot GONE (its queue left); compacts when GONE slots outnumber the live ones. */
  drop(slot: number): void {
    this.cls[slot] = GONE;
    this.series[slot] = null;
    this.gone++;
    if (this.gone > 64 && this.gone > this.used - this.gone) this.compact();
  }

  /**
   * Moves the live slots down over the GONE ones, in order (ids stay ascending by slot), so
   * the store holds the live queues only. O(used), once per as many leaves: amortised O(1).
   */
  compact(): void {
    this.summarize();
    const k = this.k;
    let to = 0;
    for (let from = 0; from < this.used; from++) {
      if (this.cls[from] === GONE) continue;
      const id = this.idAt(from);
      if (to !== from) {
        this.cls[to] = this.cls[from];
        this.tol[to] = this.tol[from];
        this.bind[to] = this.bind[from];
        this.rate.copyWithin(to * k, from * k, from * k + k);
        this.qname[to] = this.qname[from];
        this.series[to] = this.series[from];
        this.origin[to] = this.origin[from];
        this.pStart[to] = this.pStart[from];
        this.pPeriod[to] = this.pPeriod[from];
        this.pWindow[to] = this.pWindow[from];
        this.pCount[to] = this.pCount[from];
        this.pVolume.copyWithin(to * k, from * k, from * k + k);
      }
      this.idOf[to] = id;
      to++;
    }
    this.compactMoves += this.used;
    this.qname.length = to;
    this.series.length = to;
    this.origin.fill(0, to, this.used);
    this.used = this.slotBase = to;
    this.idBase = this.nextId;
    this.gone = 0;
  }

  /** Doubles the rows, or makes room for `atLeast` rows at once (one copy for a whole batch). */
  grow(atLeast = 0): void {
    const n = Math.max(this.cls.length * 2, atLeast);
    const idOf = new Int32Array(n); idOf.set(this.idOf); this.idOf = idOf;
    const cls = new Uint8Array(n); cls.set(this.cls); this.cls = cls;
    const tol = new Float64Array(n); tol.set(this.tol); this.tol = tol;
    const bind = new Int32Array(n); bind.set(this.bind); this.bind = bind;
    const rate = new Float64Array(n * this.k); rate.set(this.rate); this.rate = rate;
    const fb = new Uint8Array(n); fb.set(this.origin); this.origin = fb;
    const ps = new Float64Array(n); ps.set(this.pStart); this.pStart = ps;
    const pp = new Float64Array(n); pp.set(this.pPeriod); this.pPeriod = pp;
    const pw = new Float64Array(n); pw.set(this.pWindow); this.pWindow = pw;
    const pc = new Float64Array(n); pc.set(this.pCount); this.pCount = pc;
    const pv = new Float64Array(n * this.k); pv.set(this.pVolume); this.pVolume = pv;
  }

  /**
   * Slot `slot` (the next one, its rate row already written) admitted by name with class `c`: with its
   * bursts' series (an explicit list, its own copy), or with a periodic spec `p`, copied
   * into the p* columns (the caller may change its object afterwards).
   */
  keepNamed(slot: number, c: number, tolerance: number, bind: number, name: string, series: BurstSeries | null, p: PeriodicBursts | null): void {
    // the next id goes to the next slot (ids since the last compaction are contiguous)
    this.nextId++;
    this.used++;
    this.cls[slot] = c;
    this.tol[slot] = tolerance;
    this.bind[slot] = bind;
    this.qname[slot] = name;
    this.series[slot] = series;
    if (p === null) {
      this.origin[slot] = NAMED;
      return;
    }
    this.origin[slot] = NAMED_PERIODIC;
    this.pStart[slot] = p.start;
    this.pPeriod[slot] = p.period;
    this.pWindow[slot] = p.window;
    this.pCount[slot] = p.count;
    const k = this.k, vol = p.volume;
    for (let r = 0; r < k; r++) this.pVolume[slot * k + r] = vol[r];
  }

  /**
   * The rows of admitBatch's j admitted queues beyond what the kernel wrote (class and batch
   * kind by id): their specs kept (the caller may reuse the columns), their summaries left
   * to derive when read.
   */
  keepBatch(b: AdmissionBatch, out: BatchOutcome, id0: number, j: number): void {
    const n = b.n, k = this.k;
    const oid = out.id;
    // ids id0.. go to slots s0.. (contiguous since the last compaction)
    const s0 = this.used, shift = s0 - id0;
    if (j === n) {
      // every row admitted (row i is id id0 + i): the LQ rows' specs, run by run (a TQ's are
      // never read); past RUNS runs, the rest whole (a run costs five subarray copies)
      const kind = b.kind;
      let lo = kind.indexOf(KIND_LQ);
      for (let runs = 0; lo !== -1 && lo < n; runs++) {
        let hi = runs < RUNS ? kind.indexOf(KIND_TQ, lo) : n;
        if (hi === -1 || hi > n) hi = n;
        this.copySpecs(b, lo, hi, s0);
        lo = hi < n ? kind.indexOf(KIND_LQ, hi) : -1;
      }
    } else {
      const { start, period, window, count, volume } = b;
      for (let i = 0; i < n; i++) {
        if (oid[i] < 0) continue;
        const at = oid[i] + shift;
        this.pStart[at] = start[i];
        this.pPeriod[at] = period[i];
        this.pWindow[at] = window[i];
        this.pCount[at] = count[i];
        for (let r = 0; r < k; r++) this.pVolume[at * k + r] = volume[i * k + r];
      }
    }
    this.nextId = id0 + j;
    this.used = s0 + j;
    if (j > 0) {
      if (this.lazyHi === this.lazyLo) this.lazyLo = s0;
      this.lazyHi = s0 + j;
    }
  }

  /** The specs of batch rows [lo, hi) into slots s0 + lo.. (the columns kept for seriesOf and the summary rows). */
  private copySpecs(b: AdmissionBatch, lo: number, hi: number, s0: number): void {
    const k = this.k, at = s0 + lo;
    this.pStart.set(b.start.subarray(lo, hi), at);
    this.pPeriod.set(b.period.subarray(lo, hi), at);
    this.pWindow.set(b.window.subarray(lo, hi), at);
    this.pCount.set(b.count.subarray(lo, hi), at);
    this.pVolume.set(b.volume.subarray(lo * k, hi * k), at * k);
  }

  /** Writes the rate, tol and bind rows keepBatch left to derive (slots lazyLo..lazyHi). */
  summarize(): void {
    const hi = this.lazyHi, k = this.k, s = this.scratch;
    if (hi === this.lazyLo) return;
    s.ensure(0, k);
    for (let id = this.lazyLo; id < hi; id++) {
      const fb = this.origin[id];
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

  /** Slot `id`'s burst series (built once, on request, for a periodic spec); null for a TQ. */
  seriesBySlot(id: number): BurstSeries | null {
    this.summarize();
    const s = this.series[id];
    if (s) return s;
    const o = this.origin[id];
    if (o !== BATCH_LQ && o !== NAMED_PERIODIC) return null;
    // a periodic spec from the columns kept at admission, with the summary admission computed
    const k = this.k;
    const b: PeriodicBursts = {
      start: this.pStart[id], period: this.pPeriod[id], window: this.pWindow[id], count: this.pCount[id], volume: Array.from(this.pVolume.subarray(id * k, id * k + k)),
    };
    const p = new PeriodicSeries(b, this.rate.slice(id * k, id * k + k), this.tol[id], this.bind[id]);
    this.series[id] = p;
    return p;
  }

  /** The name of slot `slot`'s queue for the details; batch queues by their admission id. */
  nameOfSlot(slot: number): string {
    const o = this.origin[slot];
    return o === BATCH_LQ || o === BATCH_TQ ? `queue #${this.idAt(slot)} (batch)` : this.qname[slot];
  }

  /** Rows visited by hardSum since this store was made (a work counter: tests bound it by the live hard queues). */
  hardSumVisits = 0;

  /**
   * sum of the rate rows of the live HARD rows `ids` (ascending: the order the running sum
   * was built in) into `hard`. O(live hard queues * K), not O(every id ever admitted).
   */
  hardSum(hard: Float64Array, ids: Int32Array, count: number): void {
    this.summarize();
    const k = this.k;
    hard.fill(0);
    this.hardSumVisits += count;
    for (let j = 0; j < count; j++) {
      const at = this.slotOf(ids[j]) * k;
      for (let r = 0; r < k; r++) hard[r] += this.rate[at + r];
    }
  }
}
