import type { BackendKind, KernelBackend, SrptStage } from "../kernels/backend.js";
import { Status, type KernelStatus } from "../kernels/status.js";
import { InputError, describeValue } from "./errors.js";
import { matrixRows, vectorLength, writeMatrix, writeVector, type Matrix, type Vector } from "./marshal.js";
import { runLtrf, type LtrfInput, type LtrfResult } from "../ltrf/kernel-call.js";
import { runCrvReorder, type CrvReorderInput, type CrvReorderResult } from "../phoenix/crv-call.js";

export interface DrfInput {
  /** Capacity per resource, length K, every entry > 0. */
  capacity: Vector;
  /** Outstanding demand per queue: N rows of K (or a flat queue-major array of N*K), entries >= 0. */
  demands: Matrix;
  /** Weight per queue (> 0), default 1. */
  weights?: Vector;
  /** Offset per queue (>= 0) in dominant share per unit weight, default 0: long-term fairness (SPEC §5). */
  offsets?: Vector;
}

export interface DrfResult {
  /** lambda_i: fraction of queue i's demand granted, in [0, 1]. */
  fraction: Float64Array;
  /** A[i][k] = lambda_i * D[i][k], queue-major N*K. */
  allocation: Float64Array;
  /** lambda_i * delta_i: the dominant share queue i receives. */
  dominantShare: Float64Array;
}

export interface SrptInput {
  /** Capacity per resource, length K, every entry > 0: scales the remaining volume into a dominant share. */
  capacity: Vector;
  /** What is left for the soft LQs (C minus the hard guarantees), length K, entries >= 0. */
  available: Vector;
  /** What each soft LQ could hold now: N rows of K (or flat N*K), entries >= 0. */
  demands: Matrix;
  /** Each LQ's burst rate r_i(n) = d_i(n) / t_i(n): the cap of its guarantee, N x K, entries >= 0. */
  rates: Matrix;
  /** Each LQ's remaining burst volume d_i(n) - consumed, N x K, entries >= 0: the SRPT key. */
  remaining: Matrix;
}

export interface SrptResult {
  /** Fraction of each LQ's demand granted, in [0, 1]. */
  fraction: Float64Array;
  /** fraction[i] * demands[i], queue-major N*K. */
  allocation: Float64Array;
}

/**
 * A loaded fairsched engine. Every method validates its input (throwing InputError for
 * misuse) and returns arrays owned by the caller. One engine is single-threaded; make one
 * per worker.
 */
export class Engine {
  readonly backend: BackendKind;
  /** The kernel backend (flat-array level), for benchmarks and advanced embedding. */
  readonly kernels: KernelBackend;

  constructor(kernels: KernelBackend) {
    this.kernels = kernels;
    this.backend = kernels.kind;
  }

  /** DRF progressive filling with weights, demand caps and offsets (SPEC §2). */
  drf(input: DrfInput): DrfResult {
    if (input === null || typeof input !== "object") throw new InputError("input", `expected an object, got ${describeValue(input)}`);
    const { capacity, demands, weights, offsets } = input;
    const k = vectorLength("capacity", capacity);
    if (k === 0) throw new InputError("capacity", "must list at least one resource");
    const n = matrixRows("demands", demands, k);
    if (weights !== undefined) checkLength("weights", weights, n);
    if (offsets !== undefined) checkLength("offsets", offsets, n);
    const s = this.kernels.stageDrf(n, k);
    writeVector("capacity", capacity, s.capacity, k);
    writeMatrix("demands", demands, s.demands, n, k);
    if (weights !== undefined) writeVector("weights", weights, s.weights, n);
    if (offsets !== undefined) writeVector("offsets", offsets, s.offsets, n);
    const st = this.kernels.runDrf(n, k, weights !== undefined, offsets !== undefined);
    if (st.code !== Status.OK) throw drfError(st, k, this.kernels.stageDrf(n, k));
    return {
      fraction: s.lambda.slice(),
      allocation: s.allocation.slice(),
      dominantShare: s.dominantShare.slice(),
    };
  }

  /** LTRF task-level selection (SPEC §5, the paper's Algorithm 1; algorithm in assembly/ltrf.ts): how many tasks each queue starts now. */
  /**
   * Phoenix CRV/SRPT reordering of many worker queues in one kernel call (SPEC §7): returns
   * the new order, the updated slack and the number of reordered tasks.
   */
  crvReorder(input: CrvReorderInput): CrvReorderResult {
    return runCrvReorder(this.kernels, input);
  }

  ltrf(input: LtrfInput): LtrfResult {
    return runLtrf(this.kernels, input);
  }

  /** SRPT among BoPF soft-guarantee LQs (SPEC §4.3 step 2; algorithm in assembly/srpt.ts). */
  srpt(input: SrptInput): SrptResult {
    if (input === null || typeof input !== "object") throw new InputError("input", `expected an object, got ${describeValue(input)}`);
    const k = vectorLength("capacity", input.capacity);
    if (k === 0) throw new InputError("capacity", "must list at least one resource");
    const n = matrixRows("demands", input.demands, k);
    for (const f of ["rates", "remaining"] as const) {
      const m = matrixRows(f, input[f], k);
      if (m !== n) throw new InputError(f, `has ${m} rows, expected N=${n} (one per LQ, like demands)`);
    }
    const ka = vectorLength("available", input.available);
    if (ka !== k) throw new InputError("available", `has length ${ka}, expected K=${k} (the capacity's length)`);
    const s = this.kernels.stageSrpt(n, k);
    writeVector("capacity", input.capacity, s.capacity, k);
    writeVector("available", input.available, s.available, k);
    writeMatrix("demands", input.demands, s.demands, n, k);
    writeMatrix("rates", input.rates, s.rates, n, k);
    writeMatrix("remaining", input.remaining, s.remaining, n, k);
    const st = this.kernels.runSrpt(n, k);
    if (st.code !== Status.OK) throw srptError(st, k, s);
    return { fraction: s.lambda.slice(), allocation: s.allocation.slice() };
  }
}

function srptError(st: KernelStatus, k: number, s: SrptStage): InputError {
  const i = st.index;
  const cell = (f: string, a: Float64Array) => new InputError(`${f}[${Math.floor(i / k)}][${i % k}]`, `must be a finite number >= 0 (got ${describeValue(a[i])})`);
  switch (st.code) {
    case Status.Capacity:
      return new InputError(`capacity[${i}]`, `must be a finite number > 0 (got ${describeValue(s.capacity[i])})`);
    case Status.Available:
      return new InputError(`available[${i}]`, `must be a finite number >= 0 (got ${describeValue(s.available[i])})`);
    case Status.Demand:
      return cell("demands", s.demands);
    case Status.Rate:
      return cell("rates", s.rates);
    case Status.Volume:
      return cell("remaining", s.remaining);
    default:
      return new InputError("input", `kernel returned unknown status ${st.code as number}`);
  }
}

function checkLength(field: string, v: unknown, n: number): void {
  const len = vectorLength(field, v);
  if (len !== n) throw new InputError(field, `has length ${len}, expected N=${n} (one per queue)`);
}

function drfError(st: KernelStatus, k: number, s: { capacity: Float64Array; demands: Float64Array; weights: Float64Array; offsets: Float64Array }): InputError {
  const i = st.index;
  switch (st.code) {
    case Status.Capacity:
      return new InputError(`capacity[${i}]`, `must be a finite number > 0 (got ${describeValue(s.capacity[i])})`);
    case Status.Demand:
      return new InputError(`demands[${Math.floor(i / k)}][${i % k}]`, `must be a finite number >= 0 (got ${describeValue(s.demands[i])})`);
    case Status.Weight:
      return new InputError(`weights[${i}]`, `must be a finite number > 0 (got ${describeValue(s.weights[i])})`);
    case Status.Offset:
      return new InputError(`offsets[${i}]`, `must be a finite number >= 0 (got ${describeValue(s.offsets[i])})`);
    case Status.ShareOverflow:
      return new InputError(`demands[${i}]`, "demand / capacity / weight (or the offset range) is beyond f64 precision; rescale the units");
    default:
      return new InputError("input", `kernel returned unknown status ${st.code as number}`);
  }
}
