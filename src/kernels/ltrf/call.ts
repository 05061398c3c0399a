// The engine-level wrapper of the LTRF kernel (assembly/ltrf.ts and its JS twin): shape
// checks, staging, and kernel status -> InputError naming field and index.
import type { KernelBackend, LtrfStage } from "../kernels/backend.js";
import { Status, type KernelStatus } from "../kernels/status.js";
import { InputError, describeValue } from "../engine/errors.js";
import { matrixRows, vectorLength, writeMatrix, writeVector, type Matrix, type Vector } from "../engine/marshal.js";
import { copyResults } from "../engine/results.js";

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

/** Kernel flags: bit 0 blocking, bit 1 partial results at the start limit (assembly/ltrf.ts). */
export function ltrfFlags(blocking: boolean, partial: boolean): number {
  return (blocking ? 1 : 0) | (partial ? 2 : 0);
}

export interface LtrfResult {
  /** Tasks started per queue. */
  count: Float64Array;
  /** U_i after the starts. */
  usage: Float64Array;
  /** Free resources left, length K. */
  free: Float64Array;
}

/** `into`: optional caller arrays for the results (see CallOptions in src/engine/results.ts). */
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
  const s = kernels.stageLtrf(n, k);
  writeLtrfInputs(input, s, n, k);
  const st = kernels.runLtrf(n, k, weights !== undefined, ltrfFlags(blocking === true, maxStarts !== undefined));
  if (st.code !== Status.OK) throw ltrfError(st, k, s);
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

/** A call that reached the default start limit (engine.ltrf and HLtrf): `next` names who was next. */
export function startLimitError(limit: number, next: string): InputError {
  return new InputError("maxStarts", `this call would start more than ${limit} tasks one by one (${next} was next; LTRF takes one step per task started): give maxStarts to take them in resumable parts (or Infinity to wait for all)`);
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

export function ltrfError(st: KernelStatus, k: number, s: LtrfStage): InputError {
  const i = st.index;
  const got = (a: Float64Array) => `(got ${describeValue(a[i])})`;
  switch (st.code) {
    case Status.Available:
      return new InputError(`free[${i}]`, `must be a finite number >= 0 ${got(s.free)}`);
    case Status.Demand:
      return new InputError(`tasks[${Math.floor(i / k)}][${i % k}]`, `must be a finite number >= 0 ${got(s.tasks)}`);
    case Status.Weight:
      return new InputError(`weights[${i}]`, `must be a finite number > 0 ${got(s.weights)}`);
    case Status.Usage:
      return new InputError(`usage[${i}]`, `must be a finite number >= 0 ${got(s.usage)}`);
    case Status.Increment:
      return new InputError(`increments[${i}]`, `must be a finite number >= 0 ${got(s.increments)}`);
    case Status.Pending:
      return new InputError(`pending[${i}]`, `must be a whole number between 0 and 2^53 ${got(s.pending)}`);
    case Status.ShareOverflow:
      return new InputError(`usage[${i}]`, "usage / weight overflows f64; rescale the units or use time windows");
    case Status.StartLimit:
      return startLimitError(s.maxStarts[0], `queue ${i}`);
    case Status.MaxStarts:
      return new InputError("maxStarts", `must be a whole number >= 0 or Infinity ${got(s.maxStarts)}`);
    default:
      return new InputError("input", `kernel returned unknown status ${st.code as number}`);
  }
}
