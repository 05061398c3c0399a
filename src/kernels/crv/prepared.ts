// engine.prepareCrv: a Phoenix reorder problem whose inputs and results live in the engine's memory.
import type { KernelBackend } from "../backend.js";
import { InputError, describeValue } from "../../errors.js";
import type { Status } from "../status.js";
import { PreparedProblem, checkDim } from "../prepared-problem.js";
import type { Into } from "../results.js";
import { crvShape, slackThresholdOf, writeCrvInputs, type CrvReorderInput, type CrvReorderResult } from "./call.js";
import type { CrvArgs } from "./contract.js";
import { crvError } from "./errors.js";

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
  private readonly args: CrvArgs;
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
    this.args = { slackThreshold: thr };
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
    this.solveWith(this.args, (code, i, s) => crvError(code as Status, i, s, this.tasks));
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
