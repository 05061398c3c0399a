// BopfAdmissionControl's column store: one row per admission id (ids count every
// admission from 0 and are not reused; a left queue's row stays, marked GONE, because an
// earlier decision's detail may name it). A row holds the queue's class, its bursts'
// summary (tolerance, binding resource, K max rates), and its bursts: the series of an
// explicit list (its own copy), or a periodic spec copied into the p* columns (from admit()'s
// object or from the batch's columns), from which the series is built when first asked for.
//
// Batch rows are summarised lazily: admitBatch leaves the rate, tol and bind rows of ids
// [lazyLo, lazyHi) to be derived from the kept specs (summaryRow, the kernel's divisions)
// when first read, so a batch whose summaries nobody reads never writes them.
import type { AdmissionBatch, BatchOutcome } from "./admission-batch.js";
import { KIND_LQ, KIND_TQ } from "./admission-batch.js";
import { PeriodicSeries, type BurstSeries, type PeriodicBursts } from "./bursts.js";
import { BopfScratch, summaryRow } from "../kernels/bopf/twin.js";

/** Class codes of a row (the batch outcome's 0-3, and GONE once the queue left). */
export const HARD = 0, SOFT = 1, ELASTIC = 2, REJECTED = 3, GONE = 4;
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
  /** the next admission id (rows [0, nextId) are in use) */
  nextId = 0;
  /**
   * Set when an Admission whose detail reads these rows (safety, fairness) was handed out:
   * the control's reset() then starts a new store instead of overwriting this one, so the
   * detail, read later, still names the queues of its own decision.
   */
  detailPending = false;
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
    this.origin.fill(0, 0, this.nextId);
    this.nextId = 0;
    this.lazyLo = this.lazyHi = 0;
  }

  /** Whether `id` is an admitted queue that has not left. */
  isLive(id: number): boolean {
    return Number.isInteger(id) && id >= 0 && id < this.nextId && this.cls[id] !== GONE;
  }

  /** Doubles the rows, or makes room for `atLeast` rows at once (one copy for a whole batch). */
  grow(atLeast = 0): void {
    const n = Math.max(this.cls.length * 2, atLeast);
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
   * Row `id` (its rate row already written) admitted by name with class `c`: with its
   * bursts' series (an explicit list, its own copy), or with a periodic spec `p`, copied
   * into the p* columns (the caller may change its object afterwards).
   */
  keepNamed(id: number, c: number, tolerance: number, bind: number, name: string, series: BurstSeries | null, p: PeriodicBursts | null): void {
    this.nextId = id + 1;
    this.cls[id] = c;
    this.tol[id] = tolerance;
    this.bind[id] = bind;
    this.qname[id] = name;
    this.series[id] = series;
    if (p === null) {
      this.origin[id] = NAMED;
      return;
    }
    this.origin[id] = NAMED_PERIODIC;
    this.pStart[id] = p.start;
    this.pPeriod[id] = p.period;
    this.pWindow[id] = p.window;
    this.pCount[id] = p.count;
    const k = this.k, vol = p.volume;
    for (let r = 0; r < k; r++) this.pVolume[id * k + r] = vol[r];
  }

  /**
   * The rows of admitBatch's j admitted queues beyond what the kernel wrote (class and batch
   * kind by id): their specs kept (the caller may reuse the columns), their summaries left
   * to derive when read.
   */
  keepBatch(b: AdmissionBatch, out: BatchOutcome, id0: number, j: number): void {
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
    if (j > 0) {
      if (this.lazyHi === this.lazyLo) this.lazyLo = id0;
      this.lazyHi = id0 + j;
    }
  }

  /** The specs of batch rows [lo, hi) into ids id0 + lo.. (the columns kept for seriesOf and the summary rows). */
  private copySpecs(b: AdmissionBatch, lo: number, hi: number, id0: number): void {
    const k = this.k, at = id0 + lo;
    this.pStart.set(b.start.subarray(lo, hi), at);
    this.pPeriod.set(b.period.subarray(lo, hi), at);
    this.pWindow.set(b.window.subarray(lo, hi), at);
    this.pCount.set(b.count.subarray(lo, hi), at);
    this.pVolume.set(b.volume.subarray(lo * k, hi * k), at * k);
  }

  /** Writes the rate, tol and bind rows keepBatch left to derive (lazyLo..lazyHi). */
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

  /** Row `id`'s burst series (built once, on request, for a periodic spec); null for a TQ. */
  seriesById(id: number): BurstSeries | null {
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

  /** A queue's name for the details; batch queues by their admission id. */
  nameOf(id: number): string {
    const o = this.origin[id];
    return o === BATCH_LQ || o === BATCH_TQ ? `queue #${id} (batch)` : this.qname[id];
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
      const id = ids[j];
      for (let r = 0; r < k; r++) hard[r] += this.rate[id * k + r];
    }
  }
}
