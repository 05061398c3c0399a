import type { BackendKind, KernelBackend } from "../kernels/backend.js";
import { Status } from "../kernels/status.js";
import { InputError, describeValue } from "./errors.js";
import { drfError, srptError } from "./kernel-errors.js";
import { matrixRows, vectorLength, writeMatrix, writeVector, type Matrix, type Vector } from "./marshal.js";
import { PreparedCrv, PreparedDrf, PreparedLtrf, PreparedSrpt, type PrepareCrvOptions, type PrepareDrfOptions, type PrepareLtrfOptions } from "./prepared.js";
import { copyResults, type CallOptions } from "./results.js";
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
 * misuse). One engine is single-threaded; make one per worker.
 *
 * Three contracts, from simplest to fastest (see bench/drf.ts for what each costs):
 *  - `engine.drf(input)`: results are fresh arrays owned by the caller;
 *  - `engine.drf(input, { into })`: results are copied into the caller's arrays (validated:
 *    type and exact length), so steady-state calls allocate nothing;
 *  - `engine.prepareDrf(n, k)`: a prepared problem whose inputs and results are views of the
 *    engine's own memory (no copy at all); see PreparedDrf for the lifetime rules.
 */
export class Engine {
  readonly backend: BackendKind;
  /** The kernel backend (flat-array level), for benchmarks and advanced embedding. */
  readonly kernels: KernelBackend;

  constructor(kernels: KernelBackend) {
    this.kernels = kernels;
    this.backend = kernels.kind;
  }

  /**
   * DRF progressive filling with weights, demand caps and offsets (SPEC §2). With
   * `options.into`, results are written into the given arrays (fraction and dominantShare:
   * Float64Array(N), allocation: Float64Array(N*K)) and `into` itself is returned when it holds
   * all three.
   */
  drf(input: DrfInput, options?: CallOptions<DrfResult>): DrfResult {
    if (input === null || typeof input !== "object") throw new InputError("input", `expected an object, got ${describeValue(input)}`);
    const { capacity, demands, weights, offsets } = input;
    const k = vectorLength("capacity", capacity);
    if (k === 0) throw new InputError("capacity", "must list at least one resource");
    const n = matrixRows("demands", demands, k);
    if (weights !== undefined) checkLength("weights", weights, n);
    if (offsets !== undefined) checkLength("offsets", offsets, n);
    const block = this.kernels.stage("drf", n, k);
    const s = block.views();
    writeVector("capacity", capacity, s.capacity, k);
    writeMatrix("demands", demands, s.demands, n, k);
    if (weights !== undefined) writeVector("weights", weights, s.weights, n);
    if (offsets !== undefined) writeVector("offsets", offsets, s.offsets, n);
    const code = block.run(weights !== undefined ? 1 : 0, offsets !== undefined ? 1 : 0);
    if (code !== Status.OK) throw drfError(code, block.errorIndex(), k, s);
    return copyResults("drf", s, options?.into);
  }

  /**
   * A DRF problem of n queues and k resources prepared in the engine's memory, for a hot
   * loop: write inputs into its views, solve() in place, read results as views. See PreparedDrf.
   */
  prepareDrf(n: number, k: number, options?: PrepareDrfOptions): PreparedDrf {
    return new PreparedDrf(this.kernels, n, k, options);
  }

  /** LTRF task-level selection (SPEC §5, the paper's Algorithm 1; algorithm in assembly/ltrf.ts): how many tasks each queue starts now. */
  ltrf(input: LtrfInput, options?: CallOptions<LtrfResult>): LtrfResult {
    return runLtrf(this.kernels, input, options?.into);
  }

  /** An LTRF selection problem of n queues and k resources prepared in the engine's memory. See PreparedLtrf. */
  prepareLtrf(n: number, k: number, options?: PrepareLtrfOptions): PreparedLtrf {
    return new PreparedLtrf(this.kernels, n, k, options);
  }

  /**
   * Phoenix CRV/SRPT reordering of many worker queues in one kernel call (SPEC §7): returns
   * the new order, the updated slack and the number of reordered tasks.
   */
  crvReorder(input: CrvReorderInput, options?: CallOptions<CrvReorderResult>): CrvReorderResult {
    return runCrvReorder(this.kernels, input, options?.into);
  }

  /** A reorder problem of q worker queues and t tasks prepared in the engine's memory. See PreparedCrv. */
  prepareCrv(q: number, t: number, options?: PrepareCrvOptions): PreparedCrv {
    return new PreparedCrv(this.kernels, q, t, options);
  }

  /** SRPT among BoPF soft-guarantee LQs (SPEC §4.3 step 2; algorithm in assembly/srpt.ts). */
  srpt(input: SrptInput, options?: CallOptions<SrptResult>): SrptResult {
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
    const block = this.kernels.stage("srpt", n, k);
    const s = block.views();
    writeVector("capacity", input.capacity, s.capacity, k);
    writeVector("available", input.available, s.available, k);
    writeMatrix("demands", input.demands, s.demands, n, k);
    writeMatrix("rates", input.rates, s.rates, n, k);
    writeMatrix("remaining", input.remaining, s.remaining, n, k);
    const code = block.run(0, 0);
    if (code !== Status.OK) throw srptError(code, block.errorIndex(), k, s);
    return copyResults("srpt", s, options?.into);
  }

  /** An SRPT problem of n soft LQs and k resources prepared in the engine's memory. See PreparedSrpt. */
  prepareSrpt(n: number, k: number): PreparedSrpt {
    return new PreparedSrpt(this.kernels, n, k);
  }
}

export function checkLength(field: string, v: unknown, n: number): void {
  const len = vectorLength(field, v);
  if (len !== n) throw new InputError(field, `has length ${len}, expected N=${n} (one per queue)`);
}
