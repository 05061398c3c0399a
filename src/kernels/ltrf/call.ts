// engine.ltrf: the caller's arrays checked for shape, written into an LTRF block, the kernel
// (assembly/ltrf.ts, twin ./twin.ts) run, its status turned into an InputError naming field
// and index, the results copied out.
import type { KernelBackend } from "../backend.js";
import { Status } from "../status.js";
import { InputError, describeValue } from "../../errors.js";
import { matrixRows, vectorLength, writeMatrix, writeVector, type Matrix, type Vector } from "../marshal.js";
import { keepViews } from "../util/keep-views.js";
import { copyResults } from "../results.js";
import type { LtrfStage } from "./contract.js";
import { ltrfError } from "./errors.js";

export { startLimitError } from "./errors.js";

export interface LtrfInput {
  /** Resources free now, length K, entries >= 0. */
  free: Vector;
  /** Demand of one task of each queue (its next task): N rows of K, or flat N*K; entries >= 0. */
  tasks: Matrix;
  /** Tasks waiting per queue: whole numbers >= 0. */
  pending: Vector;
  /** Accumulated usage U_i per queue (>= 0); default 0 (every queue starts even). */
  usage?: Vector;
  /** Weight per queue (> 0); default 1. */
  weights?: Vector;
  /** Usage a started task adds to U_i (>= 0), e.g. dominant share x assumed duration; default 1. */
  increments?: Vector;
  /** Stop at the first smallest-usage queue whose task does not fit (Algorithm 1 literally). Default false: set it aside and go on (work-conserving). */
  blocking?: boolean;
  /**
   * Most tasks this call starts one by one (a whole number >= 0, or Infinity for no limit;
   * tasks needing nothing start up front and do not count). Algorithm 1 costs O(tasks
   * started), which pending alone does not bound (10^9 tiny tasks: about a minute). Given,
   * the call stops after maxStarts starts: the result is an exact prefix of Algorithm 1's
   * order, and calling again with pending - count and the result's usage and free continues
   * it (same bits as one call without a limit); counts summing to maxStarts mean it may have
   * stopped early. Omitted, the limit is DEFAULT_MAX_STARTS (2^24) and reaching it is an
   * InputError naming maxStarts.
   */
  maxStarts?: number;
}

/** The start limit of a call that names none (reaching it is an error, see LtrfInput.maxStarts). */
export const DEFAULT_MAX_STARTS = 2 ** 24;

export interface LtrfResult {
  /** Tasks started per queue. */
  count: Float64Array;
  /** U_i after the starts. */
  usage: Float64Array;
  /** Free resources left, length K. */
  free: Float64Array;
}

/** `into`: optional caller arrays for the results (see CallOptions in src/kernels/results.ts). */
export function runLtrf(kernels: KernelBackend, input: LtrfInput, into?: unknown): LtrfResult {
  if (input === null || typeof input !== "object") throw new InputError("input", `expected an object, got ${describeValue(input)}`);
  const { free, tasks, pending, usage, weights, increments, blocking, maxStarts } = input;
  const k = vectorLength("free", free);
  if (k === 0) throw new InputError("free", "must list at least one resource");
  const n = matrixRows("tasks", tasks, k);
  checkLength("pending", pending, n);
  if (usage !== undefined) checkLength("usage", usage, n);
  if (weights !== undefined) checkLength("weights", weights, n);
  if (increments !== undefined) checkLength("increments", increments, n);
  if (blocking !== undefined && typeof blocking !== "boolean") throw new InputError("blocking", `must be a boolean, got ${describeValue(blocking)}`);
  if (maxStarts !== undefined) checkMaxStarts(maxStarts);
  // views of the engine's memory among the arrays stay readable if staging grows it
  const keep = kernels.stageGrows("ltrf", n, k) ? keepViews(kernels, [input, into]) : null;
  const block = kernels.stage("ltrf", n, k);
  if (keep !== null) [input, into] = keep();
  const s = block.views();
  writeLtrfInputs(input, s, n, k);
  const code = block.run({ useWeights: weights !== undefined, blocking: blocking === true, partial: maxStarts !== undefined });
  if (code !== Status.OK) throw ltrfError(code, block.errorIndex(), k, s);
  return copyResults("ltrf", s, into);
}

/**
 * Copies a checked input into staged views: omitted usage becomes 0 and increments 1; weights
 * are written only when given (the caller says whether the kernel reads them).
 */
export function writeLtrfInputs(input: LtrfInput, s: LtrfStage, n: number, k: number): void {
  const { free, tasks, pending, usage, weights, increments } = input;
  writeVector("free", free, s.free, k);
  writeMatrix("tasks", tasks, s.tasks, n, k);
  writeVector("pending", pending, s.pending, n);
  if (usage !== undefined) writeVector("usage", usage, s.usage, n);
  else s.usage.fill(0);
  if (weights !== undefined) writeVector("weights", weights, s.weights, n);
  if (increments !== undefined) writeVector("increments", increments, s.increments, n);
  else s.increments.fill(1);
  s.maxStarts[0] = input.maxStarts ?? DEFAULT_MAX_STARTS;
}

/** maxStarts: a whole number >= 0 or +Infinity. */
export function checkMaxStarts(x: unknown): number {
  if (typeof x !== "number" || !(x >= 0) || (x !== Infinity && !Number.isInteger(x))) {
    throw new InputError("maxStarts", `must be a whole number >= 0 or Infinity (got ${describeValue(x)})`);
  }
  return x;
}

function checkLength(field: string, v: unknown, n: number): void {
  const len = vectorLength(field, v);
  if (len !== n) throw new InputError(field, `has length ${len}, expected N=${n} (one per queue, like tasks)`);
}
