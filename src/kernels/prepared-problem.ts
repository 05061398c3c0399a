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
import type { KernelArgs, KernelBackend, KernelBlock, KernelName, KernelViews } from "./backend.js";
import { Status } from "./status.js";
import { InputError, describeValue } from "../errors.js";
import { vectorLength } from "./marshal.js";
import { RESULT_FIELDS, copyResults, type Into, type ResultArrays } from "./results.js";

/** A problem dimension: a whole number within the kernels' i32 range. */
export function checkDim(field: string, v: unknown, min: number): number {
  if (typeof v !== "number" || !Number.isInteger(v) || v < min || v > 2 ** 31 - 1) {
    throw new InputError(field, `must be a whole number >= ${min} (got ${describeValue(v)})`);
  }
  return v;
}

/** Shape checks of load(), before anything is written. */
export function checkPreparedLength(field: string, v: unknown, len: number, dim: string): void {
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

  protected solveWith(args: KernelArgs[K], error: (code: number, index: number, views: KernelViews[K]) => Error): ResultArrays<K> {
    const block = this.live();
    if (this.partlyLoaded) throw new InputError("input", "the last load() failed part way, so the inputs mix old and new values; load() again before solve()");
    const views = block.views() as unknown as Record<string, ArrayBufferView>;
    for (const name in this.given) {
      if (this.given[name] !== views[name]) {
        throw new InputError(name, `the view you read from this prepared problem was detached: the engine's memory grew since (a larger call or prepare). Writes through it were lost; read .${name} again and refill it before solve()`);
      }
    }
    this.solved = false;
    const code = block.run(args);
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
