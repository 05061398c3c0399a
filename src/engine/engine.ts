// The engine: one method per kernel call and prepared problem, each a thin front over its
// kernel's folder (src/kernels/<kernel>/: validation, staging, error mapping, prepared class).
import type { BackendKind, KernelBackend } from "../kernels/backend.js";
import { runCrvReorder, type CrvReorderInput, type CrvReorderResult } from "../kernels/crv/call.js";
import { PreparedCrv, type PrepareCrvOptions } from "../kernels/crv/prepared.js";
import { runDrf, type DrfInput, type DrfResult } from "../kernels/drf/call.js";
import { PreparedDrf, type PrepareDrfOptions } from "../kernels/drf/prepared.js";
import { runLtrf, type LtrfInput, type LtrfResult } from "../kernels/ltrf/call.js";
import { PreparedLtrf, type PrepareLtrfOptions } from "../kernels/ltrf/prepared.js";
import type { CallOptions } from "../kernels/results.js";
import { runSrpt, type SrptInput, type SrptResult } from "../kernels/srpt/call.js";
import { PreparedSrpt } from "../kernels/srpt/prepared.js";

export type { DrfInput, DrfResult, SrptInput, SrptResult };

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
   * DRF progressive filling with weights, demand caps and offsets (docs/policies/drf.md). With
   * `options.into`, results are written into the given arrays (fraction and dominantShare:
   * Float64Array(N), allocation: Float64Array(N*K)) and `into` itself is returned when it holds
   * all three.
   */
  drf(input: DrfInput, options?: CallOptions<DrfResult>): DrfResult {
    return runDrf(this.kernels, input, options?.into);
  }

  /**
   * A DRF problem of n queues and k resources prepared in the engine's memory, for a hot
   * loop: write inputs into its views, solve() in place, read results as views. See PreparedDrf.
   */
  prepareDrf(n: number, k: number, options?: PrepareDrfOptions): PreparedDrf {
    return new PreparedDrf(this.kernels, n, k, options);
  }

  /** LTRF task-level selection (docs/policies/ltrf.md, the paper's Algorithm 1; algorithm in assembly/ltrf.ts): how many tasks each queue starts now. */
  ltrf(input: LtrfInput, options?: CallOptions<LtrfResult>): LtrfResult {
    return runLtrf(this.kernels, input, options?.into);
  }

  /** An LTRF selection problem of n queues and k resources prepared in the engine's memory. See PreparedLtrf. */
  prepareLtrf(n: number, k: number, options?: PrepareLtrfOptions): PreparedLtrf {
    return new PreparedLtrf(this.kernels, n, k, options);
  }

  /**
   * Phoenix CRV/SRPT reordering of many worker queues in one kernel call (docs/policies/phoenix.md): returns
   * the new order, the updated slack and the number of reordered tasks.
   */
  crvReorder(input: CrvReorderInput, options?: CallOptions<CrvReorderResult>): CrvReorderResult {
    return runCrvReorder(this.kernels, input, options?.into);
  }

  /** A reorder problem of q worker queues and t tasks prepared in the engine's memory. See PreparedCrv. */
  prepareCrv(q: number, t: number, options?: PrepareCrvOptions): PreparedCrv {
    return new PreparedCrv(this.kernels, q, t, options);
  }

  /** SRPT among BoPF soft-guarantee LQs (docs/policies/bopf.md, allocation step 2; algorithm in assembly/srpt.ts). */
  srpt(input: SrptInput, options?: CallOptions<SrptResult>): SrptResult {
    return runSrpt(this.kernels, input, options?.into);
  }

  /** An SRPT problem of n soft LQs and k resources prepared in the engine's memory. See PreparedSrpt. */
  prepareSrpt(n: number, k: number): PreparedSrpt {
    return new PreparedSrpt(this.kernels, n, k);
  }
}
