// engine.prepareDrf: a DRF problem whose inputs and results live in the engine's memory.
import type { KernelBackend } from "../backend.js";
import { InputError, describeValue } from "../../errors.js";
import { matrixRows, writeMatrix, writeVector } from "../marshal.js";
import { PreparedProblem, checkDim, checkPreparedLength } from "../prepared-problem.js";
import type { Into } from "../results.js";
import type { DrfInput, DrfResult } from "./call.js";
import { drfArgs } from "./contract.js";
import { drfError } from "./errors.js";

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
 * bit-identical to engine.drf on the same input. Read the lifetime rules in src/kernels/prepared-problem.ts:
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
    checkPreparedLength("capacity", capacity, k, "K");
    const rows = matrixRows("demands", demands, k);
    if (rows !== n) throw new InputError("demands", `has ${rows} rows, expected N=${n} (the prepared size)`);
    if (weights !== undefined && !this.hasWeights) throw new InputError("weights", "this problem was prepared without weights: use prepareDrf(n, k, { weights: true })");
    if (offsets !== undefined && !this.hasOffsets) throw new InputError("offsets", "this problem was prepared without offsets: use prepareDrf(n, k, { offsets: true })");
    if (weights !== undefined) checkPreparedLength("weights", weights, n, "N");
    if (offsets !== undefined) checkPreparedLength("offsets", offsets, n, "N");
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
    return this.solveWith(drfArgs(this.hasWeights, this.hasOffsets), (code, i, s) => drfError(code, i, this.k, s));
  }
  override get results(): DrfResult {
    return super.results;
  }
  override copyResults(into?: Into<DrfResult>): DrfResult {
    return super.copyResults(into);
  }
}
