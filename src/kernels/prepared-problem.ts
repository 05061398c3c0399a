// Prepared problems: zero-copy calls for a hot loop. A prepared problem owns a block of the
// engine's memory (WASM: linear memory, JS backend: plain typed arrays) holding its inputs,
// its outputs and the kernel's scratch; the caller writes inputs straight into its views,
// solve() runs the kernel in place, and the results are views too. Nothing is copied or
// allocated per call.
//
// Lifetime rules (WASM; the JS backend's arrays never move, but follow the same rules):
//  - the block lives until dispose(); other engine calls (one-shot or other prepared
//    problems) never overwrite it, and solve() never grows memory;
//  - ANY engine call that needs more memory (a bigger one-shot problem, another prepare)
//    may grow the WASM memory, which DETACHES every view handed out before: a detached view
//    reads as empty and silently drops writes. Read the getters again after any other call
//    on the engine (they re-derive the views and cost nothing otherwise). solve() refuses
//    (InputError) to run when an input view you read before a growth was not read again,
//    since writes through it were lost;
//  - result views (solve()'s return, `results`) are overwritten by the next solve() of the
//    same problem: copy what you keep (copyResults(into)).
//
// Example: const p = engine.prepareDrf(2, 2); p.capacity.set([9, 18]);
// p.demands.set([9, 36, 27, 9]); p.solve().allocation -> [3, 12, 6, 2] (a view).
// Edge values: n = 0 is a valid empty problem; k = 0, a negative or fractional size, or one
// beyond the 4 GiB memory limit is an InputError; every call after dispose() is an InputError.
import type { KernelBackend, KernelBlock, KernelName, KernelViews } from "../kernels/backend.js";
import { Status } from "../kernels/status.js";
import type { DrfInput, DrfResult, SrptInput, SrptResult } from "./engine.js";
import { InputError, describeValue } from "./errors.js";
import { drfError, srptError } from "./kernel-errors.js";
import { matrixRows, vectorLength, writeMatrix, writeVector } from "./marshal.js";
import { RESULT_FIELDS, copyResults, type Into, type ResultArrays } from "./results.js";
import { DEFAULT_MAX_STARTS, checkMaxStarts, ltrfError, ltrfFlags, writeLtrfInputs, type LtrfInput, type LtrfResult } from "../ltrf/kernel-call.js";
import { crvError, crvShape, slackThresholdOf, writeCrvInputs, type CrvReorderInput, type CrvReorderResult } from "../phoenix/crv-call.js";

/** A problem dimension: a whole number within the kernels' i32 range. */
function checkDim(field: string, v: unknown, min: number): number {
  if (typeof v !== "number" || !Number.isInteger(v) || v < min || v > 2 ** 31 - 1) {
    throw new InputError(field, `must be a whole number >= ${min} (got ${describeValue(v)})`);
  }
  return v;
}

/** Shape checks of load(), before anything is written. */
function checkLength(field: string, v: unknown, len: number, dim: string): void {
  const got = vectorLength(field, v);
  if (got !== len) throw new InputError(field, `has length ${got}, expected ${dim}=${len} (the prepared size)`);
}

/** What every prepared problem shares: the block, the detached-view guard, results and disposal. */
export abstract class PreparedProblem<K extends KernelName> {
  private block: KernelBlock<K> | null;
  /** Input views handed out by the getters, to catch writes lost to memory growth. */
  private readonly given: Record<string, ArrayBufferView> = {};
  private solved = false;
  /** A load() failed part way: the inputs mix old and new values until a load() succeeds. */
  protected partlyLoaded = false;
  private resultViews: KernelViews[K] | null = null;
  private resultCache: ResultArrays<K> | null = null;

  protected constructor(kernels: KernelBackend, readonly kernel: K, a: number, b: number) {
    this.block = kernels.prepare(kernel, a, b);
    // WASM blocks may reuse memory of earlier calls: start from zeros, like fresh arrays
    const views = this.block.views() as unknown as Record<string, { fill(x: number): void }>;
    for (const name in views) views[name].fill(0);
  }

  /** True once dispose() was called. */
  get disposed(): boolean {
    return this.block === null;
  }

  /** Frees the problem's memory for reuse by later prepared problems. Idempotent. */
  dispose(): void {
    this.block?.release();
    this.block = null;
    this.resultCache = null;
    this.resultViews = null;
  }

  protected live(): KernelBlock<K> {
    if (this.block === null) throw new InputError("prepared", `this prepared ${this.kernel} problem was disposed; prepare a new one`);
    return this.block;
  }

  /** The current view of an input region, remembered so solve() can tell if it was detached since. */
  protected input<F extends keyof KernelViews[K] & string>(name: F): KernelViews[K][F] {
    const v = this.live().views()[name];
    this.given[name] = v as ArrayBufferView;
    return v;
  }

  /** Current views for internal writes (not handed out). */
  protected views(): KernelViews[K] {
    return this.live().views();
  }

  protected solveWith(u: number, v: number, error: (code: number, index: number, views: KernelViews[K]) => Error): ResultArrays<K> {
    const block = this.live();
    if (this.partlyLoaded) throw new InputError("input", "the last load() failed part way, so the inputs mix old and new values; load() again before solve()");
    const views = block.views() as unknown as Record<string, ArrayBufferView>;
    for (const name in this.given) {
      if (this.given[name] !== views[name]) {
        throw new InputError(name, `the view you read from this prepared problem was detached: the engine's memory grew since (a larger call or prepare). Writes through it were lost; read .${name} again and refill it before solve()`);
      }
    }
    this.solved = false;
    const code = block.run(u, v);
    if (code !== Status.OK) throw error(code, block.errorIndex(), block.views());
    this.solved = true;
    return this.results;
  }

  /**
   * The results of the last successful solve() as views of the engine's memory: overwritten by
   * the next solve() of this problem, detached by memory growth (read this getter again).
   */
  get results(): ResultArrays<K> {
    const views = this.live().views();
    if (!this.solved) throw new InputError("results", "no results: call solve() first (the last solve failed or none ran since prepare)");
    if (views !== this.resultViews || this.resultCache === null) {
      const fields = RESULT_FIELDS[this.kernel] as unknown as Record<string, readonly [string, string]>;
      const r: Record<string, unknown> = {};
      for (const f in fields) r[f] = (views as unknown as Record<string, unknown>)[fields[f][0]];
      this.resultCache = r as ResultArrays<K>;
      this.resultViews = views;
    }
    return this.resultCache;
  }

  /** Copies the last results out: into the given arrays (validated like the calls' `into`), else fresh arrays. */
  copyResults(into?: Into<ResultArrays<K>>): ResultArrays<K> {
    this.results; // throws when there are none
    return copyResults(this.kernel, this.live().views(), into);
  }
}

export interface PrepareDrfOptions {
  /** The problem has per-queue weights (p.weights, initially 1). Default false: all weights 1. */
  weights?: boolean;
  /** The problem has per-queue offsets (p.offsets, initially 0). Default false: no offsets. */
  offsets?: boolean;
}

/**
 * A DRF problem prepared in the engine's memory (engine.prepareDrf): write the inputs into
 * `capacity` (K), `demands` (N*K, queue-major), `weights`/`offsets` (N, when prepared with
 * them), call solve(): the results are `fraction`, `allocation`, `dominantShare` views,
 * bit-identical to engine.drf on the same input. Read the lifetime rules in src/engine/prepared.ts:
 * views are detached by memory growth (re-read the getters after other engine calls) and
 * results are overwritten by the next solve().
 */
export class PreparedDrf extends PreparedProblem<"drf"> {
  readonly n: number;
  readonly k: number;
  readonly hasWeights: boolean;
  readonly hasOffsets: boolean;

  constructor(kernels: KernelBackend, n: number, k: number, options: PrepareDrfOptions = {}) {
    if (options === null || typeof options !== "object") throw new InputError("options", `expected an object, got ${describeValue(options)}`);
    checkDim("n", n, 0);
    checkDim("k", k, 1);
    super(kernels, "drf", n, k);
    this.n = n;
    this.k = k;
    this.hasWeights = options.weights === true;
    this.hasOffsets = options.offsets === true;
    this.views().weights.fill(1);
  }

  /** Capacity per resource (K, > 0). */
  get capacity(): Float64Array {
    return this.input("capacity");
  }
  /** Demands, queue-major N*K (>= 0). */
  get demands(): Float64Array {
    return this.input("demands");
  }
  /** Weights (N, > 0, initially 1); only when prepared with { weights: true }. */
  get weights(): Float64Array {
    if (!this.hasWeights) throw new InputError("weights", "this problem was prepared without weights: use prepareDrf(n, k, { weights: true })");
    return this.input("weights");
  }
  /** Offsets (N, >= 0, initially 0); only when prepared with { offsets: true }. */
  get offsets(): Float64Array {
    if (!this.hasOffsets) throw new InputError("offsets", "this problem was prepared without offsets: use prepareDrf(n, k, { offsets: true })");
    return this.input("offsets");
  }

  /**
   * Copies a whole engine.drf input in (shapes must match the prepared N and K; omitted
   * weights/offsets become 1/0). For callers whose data is not already in the views. If it
   * throws part way (a bad row or element), solve() refuses until a load() succeeds.
   */
  load(input: DrfInput): this {
    if (input === null || typeof input !== "object") throw new InputError("input", `expected an object, got ${describeValue(input)}`);
    const { capacity, demands, weights, offsets } = input;
    const { n, k } = this;
    checkLength("capacity", capacity, k, "K");
    const rows = matrixRows("demands", demands, k);
    if (rows !== n) throw new InputError("demands", `has ${rows} rows, expected N=${n} (the prepared size)`);
    if (weights !== undefined && !this.hasWeights) throw new InputError("weights", "this problem was prepared without weights: use prepareDrf(n, k, { weights: true })");
    if (offsets !== undefined && !this.hasOffsets) throw new InputError("offsets", "this problem was prepared without offsets: use prepareDrf(n, k, { offsets: true })");
    if (weights !== undefined) checkLength("weights", weights, n, "N");
    if (offsets !== undefined) checkLength("offsets", offsets, n, "N");
    const s = this.views();
    this.partlyLoaded = true; // until every input is written (an element type error stops part way)
    writeVector("capacity", capacity, s.capacity, k);
    writeMatrix("demands", demands, s.demands, n, k);
    if (weights !== undefined) writeVector("weights", weights, s.weights, n);
    else s.weights.fill(1);
    if (offsets !== undefined) writeVector("offsets", offsets, s.offsets, n);
    else s.offsets.fill(0);
    this.partlyLoaded = false;
    return this;
  }

  /** Runs DRF in place on the current inputs; returns the result views (see `results`). InputError on bad values. */
  solve(): DrfResult {
    return this.solveWith(this.hasWeights ? 1 : 0, this.hasOffsets ? 1 : 0, (code, i, s) => drfError(code, i, this.k, s));
  }
  override get results(): DrfResult {
    return super.results;
  }
  override copyResults(into?: Into<DrfResult>): DrfResult {
    return super.copyResults(into);
  }
}

/**
 * An SRPT problem (BoPF soft LQs) prepared in the engine's memory (engine.prepareSrpt): inputs
 * `capacity`, `available` (K), `demands`, `rates`, `remaining` (N*K); solve() gives `fraction`
 * and `allocation` views. Same lifetime rules as PreparedDrf.
 */
export class PreparedSrpt extends PreparedProblem<"srpt"> {
  readonly n: number;
  readonly k: number;

  constructor(kernels: KernelBackend, n: number, k: number) {
    checkDim("n", n, 0);
    checkDim("k", k, 1);
    super(kernels, "srpt", n, k);
    this.n = n;
    this.k = k;
  }

  get capacity(): Float64Array {
    return this.input("capacity");
  }
  get available(): Float64Array {
    return this.input("available");
  }
  get demands(): Float64Array {
    return this.input("demands");
  }
  get rates(): Float64Array {
    return this.input("rates");
  }
  get remaining(): Float64Array {
    return this.input("remaining");
  }

  /** Copies a whole engine.srpt input in (shapes must match the prepared N and K). */
  load(input: SrptInput): this {
    if (input === null || typeof input !== "object") throw new InputError("input", `expected an object, got ${describeValue(input)}`);
    const { n, k } = this;
    checkLength("capacity", input.capacity, k, "K");
    checkLength("available", input.available, k, "K");
    for (const f of ["demands", "rates", "remaining"] as const) {
      const rows = matrixRows(f, input[f], k);
      if (rows !== n) throw new InputError(f, `has ${rows} rows, expected N=${n} (the prepared size)`);
    }
    const s = this.views();
    this.partlyLoaded = true;
    writeVector("capacity", input.capacity, s.capacity, k);
    writeVector("available", input.available, s.available, k);
    writeMatrix("demands", input.demands, s.demands, n, k);
    writeMatrix("rates", input.rates, s.rates, n, k);
    writeMatrix("remaining", input.remaining, s.remaining, n, k);
    this.partlyLoaded = false;
    return this;
  }

  solve(): SrptResult {
    return this.solveWith(0, 0, (code, i, s) => srptError(code, i, this.k, s));
  }
  override get results(): SrptResult {
    return super.results;
  }
  override copyResults(into?: Into<SrptResult>): SrptResult {
    return super.copyResults(into);
  }
}

export interface PrepareLtrfOptions {
  /** The problem has per-queue weights (p.weights, initially 1). Default false: all weights 1. */
  weights?: boolean;
  /** Stop at the first smallest-usage queue whose task does not fit (engine.ltrf's `blocking`). Default false. */
  blocking?: boolean;
}

/**
 * An LTRF selection problem prepared in the engine's memory (engine.prepareLtrf): inputs
 * `free` (K), `tasks` (N*K), `pending`, `usage` (initially 0), `increments` (initially 1) and,
 * when prepared with them, `weights` (N); solve() gives `count`, `usage` and `free` views
 * (results are separate from the inputs: copy `results.usage` into `usage` to carry it over).
 * `maxStarts` is engine.ltrf's start limit (default: 2^24, reaching it an InputError; set a
 * number or Infinity for resumable partial results). Same lifetime rules as PreparedDrf.
 */
export class PreparedLtrf extends PreparedProblem<"ltrf"> {
  readonly n: number;
  readonly k: number;
  readonly hasWeights: boolean;
  readonly blocking: boolean;
  private limit: number | undefined = undefined;

  constructor(kernels: KernelBackend, n: number, k: number, options: PrepareLtrfOptions = {}) {
    if (options === null || typeof options !== "object") throw new InputError("options", `expected an object, got ${describeValue(options)}`);
    checkDim("n", n, 0);
    checkDim("k", k, 1);
    super(kernels, "ltrf", n, k);
    this.n = n;
    this.k = k;
    this.hasWeights = options.weights === true;
    this.blocking = options.blocking === true;
    const s = this.views();
    s.weights.fill(1);
    s.increments.fill(1);
    s.maxStarts[0] = DEFAULT_MAX_STARTS;
  }

  /** engine.ltrf's maxStarts: undefined (default limit, an error when reached), a whole number >= 0 or Infinity (partial results). */
  get maxStarts(): number | undefined {
    return this.limit;
  }
  set maxStarts(x: number | undefined) {
    if (x !== undefined) checkMaxStarts(x);
    this.views().maxStarts[0] = x ?? DEFAULT_MAX_STARTS;
    this.limit = x;
  }

  get free(): Float64Array {
    return this.input("free");
  }
  get tasks(): Float64Array {
    return this.input("tasks");
  }
  get pending(): Float64Array {
    return this.input("pending");
  }
  get usage(): Float64Array {
    return this.input("usage");
  }
  get increments(): Float64Array {
    return this.input("increments");
  }
  get weights(): Float64Array {
    if (!this.hasWeights) throw new InputError("weights", "this problem was prepared without weights: use prepareLtrf(n, k, { weights: true })");
    return this.input("weights");
  }

  /** Copies a whole engine.ltrf input in (shapes must match; omitted usage/increments/weights become 0/1/1; `blocking` must match the prepared option). */
  load(input: LtrfInput): this {
    if (input === null || typeof input !== "object") throw new InputError("input", `expected an object, got ${describeValue(input)}`);
    const { n, k } = this;
    const { free, tasks, pending, usage, weights, increments, blocking, maxStarts } = input;
    checkLength("free", free, k, "K");
    const rows = matrixRows("tasks", tasks, k);
    if (rows !== n) throw new InputError("tasks", `has ${rows} rows, expected N=${n} (the prepared size)`);
    checkLength("pending", pending, n, "N");
    if (usage !== undefined) checkLength("usage", usage, n, "N");
    if (increments !== undefined) checkLength("increments", increments, n, "N");
    if (weights !== undefined) {
      if (!this.hasWeights) throw new InputError("weights", "this problem was prepared without weights: use prepareLtrf(n, k, { weights: true })");
      checkLength("weights", weights, n, "N");
    }
    if (blocking !== undefined && blocking !== this.blocking) throw new InputError("blocking", `is ${String(blocking)}, but the problem was prepared with blocking: ${this.blocking}`);
    if (maxStarts !== undefined) checkMaxStarts(maxStarts);
    const s = this.views();
    this.partlyLoaded = true;
    writeLtrfInputs(input, s, n, k);
    if (weights === undefined) s.weights.fill(1);
    this.limit = maxStarts;
    this.partlyLoaded = false;
    return this;
  }

  solve(): LtrfResult {
    return this.solveWith(this.hasWeights ? 1 : 0, ltrfFlags(this.blocking, this.limit !== undefined), (code, i, s) => ltrfError({ code: code as Status, index: i }, this.k, s));
  }
  override get results(): LtrfResult {
    return super.results;
  }
  override copyResults(into?: Into<LtrfResult>): LtrfResult {
    return super.copyResults(into);
  }
}

export interface PrepareCrvOptions {
  /** A task whose slack reached this is never bypassed again (whole number >= 0). Default 5. */
  slackThreshold?: number;
}

/**
 * A Phoenix reorder problem (Q worker queues, T tasks) prepared in the engine's memory
 * (engine.prepareCrv): inputs `queueOffsets` (Q+1, Uint32Array), `crv`, `runtime` (T,
 * Float64Array), `slack` (T, Int32Array), `mode` (Q, Uint8Array: 0 fifo, 1 srpt, 2 crv);
 * solve() gives `order` and `slack` views plus `reordered`, bit-identical to engine.crvReorder
 * on the same input. The kernel validates every element (an InputError naming it). Results are
 * separate from the inputs: copy `results.slack` into `slack` to carry it into the next round.
 * Same lifetime rules as PreparedDrf.
 */
export class PreparedCrv extends PreparedProblem<"crv"> {
  readonly queues: number;
  readonly tasks: number;
  readonly slackThreshold: number;
  private reorderedCount = 0;

  constructor(kernels: KernelBackend, q: number, t: number, options: PrepareCrvOptions = {}) {
    if (options === null || typeof options !== "object") throw new InputError("options", `expected an object, got ${describeValue(options)}`);
    checkDim("q", q, 0);
    checkDim("t", t, 0);
    const thr = slackThresholdOf(options.slackThreshold);
    super(kernels, "crv", q, t);
    this.queues = q;
    this.tasks = t;
    this.slackThreshold = thr;
    // an empty, valid problem until the caller writes: every queue ends at T (no tasks yet
    // would be offsets all 0, which is invalid for T > 0), mode FIFO
    this.views().offsets[q] = t;
  }

  /** Q+1 task offsets: queue j holds tasks queueOffsets[j] .. queueOffsets[j+1]-1, head first. */
  get queueOffsets(): Uint32Array {
    return this.input("offsets");
  }
  /** Per task: CRV score (max over its constraints of demand/supply; 0 = unconstrained). */
  get crv(): Float64Array {
    return this.input("score");
  }
  /** Per task: estimated (remaining) runtime, the SRPT key. */
  get runtime(): Float64Array {
    return this.input("runtime");
  }
  /** Per task: times bypassed so far (>= 0). */
  get slack(): Int32Array {
    return this.input("slack");
  }
  /** Per queue: 0 FIFO (keep), 1 SRPT, 2 CRV. */
  get mode(): Uint8Array {
    return this.input("mode");
  }

  /** Copies a whole engine.crvReorder input in (Q and T must match; its slackThreshold, if given, must equal the prepared one). */
  load(input: CrvReorderInput): this {
    const { q, t } = crvShape(input);
    if (q !== this.queues) throw new InputError("queueOffsets", `holds Q=${q} queues, expected Q=${this.queues} (the prepared size)`);
    if (t !== this.tasks) throw new InputError("crv", `has length ${t}, expected T=${this.tasks} (the prepared size)`);
    if (input.slackThreshold !== undefined && slackThresholdOf(input.slackThreshold) !== this.slackThreshold) {
      throw new InputError("slackThreshold", `is ${String(input.slackThreshold)}, but the problem was prepared with slackThreshold: ${this.slackThreshold}`);
    }
    this.partlyLoaded = true;
    writeCrvInputs(input, this.views(), q, t);
    this.partlyLoaded = false;
    return this;
  }

  /** Reorders every queue in place; returns `order`, `slack` (views) and `reordered`. InputError on bad values. */
  solve(): CrvReorderResult {
    this.solveWith(this.slackThreshold, 0, (code, i, s) => crvError(code as Status, i, s, this.tasks));
    this.reorderedCount = this.live().reordered();
    return this.results;
  }
  /** The last solve()'s results: views (see PreparedProblem.results) and the reordered count. */
  override get results(): CrvReorderResult {
    const r = super.results as CrvReorderResult;
    r.reordered = this.reorderedCount;
    return r;
  }
  override copyResults(into?: Into<CrvReorderResult>): CrvReorderResult {
    return { ...super.copyResults(into), reordered: this.reorderedCount };
  }
}
