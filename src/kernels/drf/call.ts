// engine.drf: the caller's arrays checked for shape, written into a DRF block, the kernel run,
// its status turned into an InputError naming field and index, the results copied out.
import type { KernelBackend } from "../backend.js";
import { Status } from "../status.js";
import { InputError, describeValue } from "../../errors.js";
import { matrixRows, vectorLength, writeMatrix, writeVector, type Matrix, type Vector } from "../marshal.js";
import { copyResults } from "../results.js";
import { keepViews } from "../util/keep-views.js";
import { drfArgs } from "./contract.js";
import { drfError } from "./errors.js";

export interface DrfInput {
  /** Capacity per resource, length K, every entry > 0. */
  capacity: Vector;
  /** Outstanding demand per queue: N rows of K (or a flat queue-major array of N*K), entries >= 0. */
  demands: Matrix;
  /** Weight per queue (> 0), default 1. */
  weights?: Vector;
  /** Offset per queue (>= 0) in dominant share per unit weight, default 0: long-term fairness (docs/policies/ltrf.md). */
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

/** `into`: optional caller arrays for the results (see CallOptions in src/kernels/results.ts). */
export function runDrf(kernels: KernelBackend, input: DrfInput, into?: unknown): DrfResult {
  if (input === null || typeof input !== "object") throw new InputError("input", `expected an object, got ${describeValue(input)}`);
  let { capacity, demands, weights, offsets } = input;
  const k = vectorLength("capacity", capacity);
  if (k === 0) throw new InputError("capacity", "must list at least one resource");
  const n = matrixRows("demands", demands, k);
  if (weights !== undefined) checkLength("weights", weights, n);
  if (offsets !== undefined) checkLength("offsets", offsets, n);
  // views of the engine's memory among the arrays stay readable if staging grows it
  const keep = kernels.stageGrows("drf", n, k) ? keepViews(kernels, [capacity, demands, weights, offsets, into]) : null;
  const block = kernels.stage("drf", n, k);
  if (keep !== null) [capacity, demands, weights, offsets, into] = keep();
  const s = block.views();
  writeVector("capacity", capacity, s.capacity, k);
  writeMatrix("demands", demands, s.demands, n, k);
  if (weights !== undefined) writeVector("weights", weights, s.weights, n);
  if (offsets !== undefined) writeVector("offsets", offsets, s.offsets, n);
  const code = block.run(drfArgs(weights !== undefined, offsets !== undefined));
  if (code !== Status.OK) throw drfError(code, block.errorIndex(), k, s);
  return copyResults("drf", s, into);
}

/** A per-queue vector's length checked against N. */
export function checkLength(field: string, v: unknown, n: number): void {
  const len = vectorLength(field, v);
  if (len !== n) throw new InputError(field, `has length ${len}, expected N=${n} (one per queue)`);
}
