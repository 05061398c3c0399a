import type { BackendKind, KernelBackend } from "../kernels/backend.js";
import { Status, type KernelStatus } from "../kernels/status.js";
import { InputError, describeValue } from "./errors.js";
import { matrixRows, vectorLength, writeMatrix, writeVector, type Matrix, type Vector } from "./marshal.js";

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
