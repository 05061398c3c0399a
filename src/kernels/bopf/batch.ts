// The BoPF kernel (assembly/bopf.ts, twin ./twin.ts) behind admitBatch and the
// allocation-only round: staging the columns into an engine's "bopf" block, turning its
// statuses into the InputErrors the TS paths have always thrown, and a batch whose columns
// live in the engine's memory (EngineAdmissionBatch: nothing is copied in).
//
// Example: new EngineAdmissionBatch(engine, 2, 6) gives kind, start, ..., volume and want
// as views of a prepared block; fill them (setPeriodicRow works on it), then
// ac.admitBatch(batch, out, "batch", engine) runs the kernel on those views in place.
// Edge values: n = 0 is a no-op; a column that is not the block's own (a caller's array)
// is copied in first; memory growth re-derives the views (read the getters again).
import type { KernelBackend, KernelBlock } from "../backend.js";
import { Status } from "../status.js";
import { InputError, describeValue } from "../../errors.js";
import { batchRowError, type AdmissionBatch } from "./columns.js";
import type { BopfStage } from "./contract.js";

/** What the batch needs of an engine: its kernel backend (an Engine is one). */
export interface KernelHost {
  readonly kernels: KernelBackend;
}

/** An AdmissionBatch (and the round's demands) in a prepared block of the engine's memory. */
export class EngineAdmissionBatch implements AdmissionBatch {
  readonly n: number;
  readonly block: KernelBlock<"bopf">;
  constructor(readonly engine: KernelHost, n: number, k: number) {
    // (the block's own message would name `volume` for a NaN n, and -1 or 1.5 were taken)
    if (typeof n !== "number" || !Number.isInteger(n) || n < 0 || n > 2 ** 31 - 1) throw new InputError("n", `must be a whole number >= 0 (got ${describeValue(n)})`);
    if (typeof k !== "number" || !Number.isInteger(k) || k < 1 || k > 2 ** 31 - 1) throw new InputError("k", `must be a whole number >= 1 (got ${describeValue(k)})`);
    this.n = n;
    this.block = engine.kernels.prepare("bopf", n, k);
    // a WASM block may reuse the memory of a released one: start from zeros (every row a TQ),
    // as the JS backend's fresh arrays do (found by test/engine/stateful.test.ts)
    const v = this.block.views() as unknown as Record<string, { fill(x: number): void }>;
    for (const name in v) v[name].fill(0);
  }
  private released = false;
  /** The column views handed out, to catch writes lost to memory growth (as prepared problems do). */
  private readonly given: Partial<Record<BatchColumn, ArrayBufferView>> = {};
  private col<C extends BatchColumn>(name: C): BopfStage[C] {
    if (this.released) throw new InputError("batch", "this EngineAdmissionBatch was released; make a new one");
    const v = this.block.views()[name];
    this.given[name] = v;
    return v;
  }
  get kind(): Uint8Array { return this.col("kind"); }
  get start(): Float64Array { return this.col("start"); }
  get period(): Float64Array { return this.col("period"); }
  get window(): Float64Array { return this.col("window"); }
  get count(): Float64Array { return this.col("count"); }
  get volume(): Float64Array { return this.col("volume"); }
  /** The allocation round's demands (N*K), read by decideRound. */
  get want(): Float64Array { return this.col("want"); }
  private colsCache: AdmissionBatch | null = null;
  private colsViews: BopfStage | null = null;
  /**
   * The columns as a plain batch of the current views, for the library's own reads: unlike
   * the getters these do not count as views handed out (checkFresh judges the caller's).
   */
  columns(): AdmissionBatch {
    if (this.released) throw new InputError("batch", "this EngineAdmissionBatch was released; make a new one");
    const v = this.block.views();
    if (v !== this.colsViews || this.colsCache === null) {
      this.colsCache = { n: this.n, kind: v.kind, start: v.start, period: v.period, window: v.window, count: v.count, volume: v.volume };
      this.colsViews = v;
    }
    return this.colsCache;
  }
  /** True once release() was called. */
  get isReleased(): boolean {
    return this.released;
  }
  /**
   * An InputError when the batch was released, or when a column view read from it before the
   * engine's memory grew is stale (writes through it were lost: the row would be admitted
   * from zeros, e.g. an LQ as an elastic TQ). Admission calls it before reading anything.
   */
  checkFresh(field: string): void {
    if (this.released) throw new InputError(field, "this EngineAdmissionBatch was released; make a new one");
    const views = this.block.views();
    for (const name of BATCH_COLUMNS) {
      const g = this.given[name];
      if (g !== undefined && g !== views[name]) {
        throw new InputError(`${field}.${name}`, `the view you read from this batch was detached: the engine's memory grew since (a larger call or prepare). Writes through it were lost; read .${name} again and refill it`);
      }
    }
  }
  /** Frees the block; every later use of the batch is an InputError. Idempotent. */
  release(): void {
    this.released = true;
    this.block.release();
  }
}

/** The batch's columns for the library's reads (EngineAdmissionBatch.columns), else the batch itself. */
export function columnsOf(b: AdmissionBatch): AdmissionBatch {
  return b instanceof EngineAdmissionBatch ? b.columns() : b;
}

const BATCH_COLUMNS = ["kind", "start", "period", "window", "count", "volume", "want"] as const;
type BatchColumn = (typeof BATCH_COLUMNS)[number];

/** True when the batch is admitted in its own block (it lives in this engine, with K columns). */
export function ownBlock(engine: KernelHost, b: AdmissionBatch, k: number): b is EngineAdmissionBatch {
  return b instanceof EngineAdmissionBatch && b.engine === engine && b.block.valid() && b.block.b === k;
}

/** The block a batch is admitted in: its own when it lives in this engine, else the staged one. */
export function blockFor(engine: KernelHost, b: AdmissionBatch, k: number): KernelBlock<"bopf"> {
  if (ownBlock(engine, b, k)) return b.block;
  return engine.kernels.stage("bopf", b.n, k);
}

/** dst.set(src) unless src is dst itself (a column already in the block). */
export function copyIn(dst: Float64Array | Uint8Array, src: Float64Array | Uint8Array, len: number): void {
  if (src.buffer === dst.buffer && src.byteOffset === dst.byteOffset) return;
  dst.set(len === src.length ? src : src.subarray(0, len));
}

/**
 * Admission on the engine: the columns copied into `block` (unless they are its views), the
 * kernel run without summary rows (flag bit 0: the caller derives rates, tolerances and
 * binding resources from the specs when read), its state copied back into `state`; returns
 * the number of rows admitted (cls, reason, id by row, class and kind by admission row and
 * the guaranteed lists are in the block's views) or throws the row's InputError. With
 * `want` (N*K), the round right after admission runs in the same pass (flag bit 1): its
 * allocation in the block's `allocation`, its status (OK or BopfGeneral) in state[7].
 */
export function admitOnBlock(
  block: KernelBlock<"bopf">, b: AdmissionBatch, k: number, capacity: Float64Array, bound: Float64Array, hard: Float64Array, state: Float64Array, field: string,
  want: Float64Array | null = null,
): number {
  const n = b.n;
  const v = block.views();
  v.capacity.set(capacity);
  v.bound.set(bound);
  v.hard.set(hard.subarray(0, k));
  v.state.set(state.subarray(0, 8));
  copyIn(v.kind, b.kind, n);
  copyIn(v.start, b.start, n);
  copyIn(v.period, b.period, n);
  copyIn(v.window, b.window, n);
  copyIn(v.count, b.count, n);
  copyIn(v.volume, b.volume, n * k);
  if (want !== null) copyIn(v.want, want, n * k);
  const code = block.run({ pass: "admit", noSummaryRows: true, fusedRound: want !== null });
  if (code !== Status.OK) throw admitError(b, code, block.errorIndex(), k, field);
  state.set(v.state.subarray(0, 8));
  return v.state[4];
}

/** A status of the admission kernel as the InputError admitBatch's checks name (batchRowError). */
export function admitError(b: AdmissionBatch, code: number, index: number, k: number, field: string): Error {
  const row = code === Status.BopfVolume ? Math.floor(index / k) : index;
  const e = row >= 0 && row < b.n ? batchRowError(b, row, k, field) : null;
  return e ?? new Error(`bopf admission kernel: status ${code} at ${index} but the row checks out`);
}

/** An allocation kernel status (not OK, not general) as the row's InputError (`validateRow` throws it). */
export function allocateError(code: number, index: number, k: number, validateRow: (i: number) => void): Error {
  const row = code === Status.BopfClass || code === Status.Weight ? index : Math.floor(index / k);
  validateRow(row);
  return new Error(`bopf allocation kernel: status ${code} at ${index} but the row checks out`);
}
