// engine.prepareLtrf: an LTRF selection problem whose inputs and results live in the engine's memory.
import type { KernelBackend } from "../backend.js";
import { InputError, describeValue } from "../../errors.js";
import { matrixRows } from "../marshal.js";
import { PreparedProblem, checkDim, checkPreparedLength } from "../prepared-problem.js";
import type { Into } from "../results.js";
import { DEFAULT_MAX_STARTS, checkMaxStarts, writeLtrfInputs, type LtrfInput, type LtrfResult } from "./call.js";
import { ltrfError } from "./errors.js";

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
    checkPreparedLength("free", free, k, "K");
    const rows = matrixRows("tasks", tasks, k);
    if (rows !== n) throw new InputError("tasks", `has ${rows} rows, expected N=${n} (the prepared size)`);
    checkPreparedLength("pending", pending, n, "N");
    if (usage !== undefined) checkPreparedLength("usage", usage, n, "N");
    if (increments !== undefined) checkPreparedLength("increments", increments, n, "N");
    if (weights !== undefined) {
      if (!this.hasWeights) throw new InputError("weights", "this problem was prepared without weights: use prepareLtrf(n, k, { weights: true })");
      checkPreparedLength("weights", weights, n, "N");
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
    return this.solveWith({ useWeights: this.hasWeights, blocking: this.blocking, partial: this.limit !== undefined }, (code, i, s) => ltrfError(code, i, this.k, s));
  }
  override get results(): LtrfResult {
    return super.results;
  }
  override copyResults(into?: Into<LtrfResult>): LtrfResult {
    return super.copyResults(into);
  }
}
