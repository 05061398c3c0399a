import type { DrfStage, KernelBackend } from "../kernels/backend.js";
import { DrfScratch, drfKernel, floorSum } from "../kernels/js/drf.js";
import { Status, type KernelStatus, STATUS_OK } from "../kernels/status.js";
import { InputError } from "./errors.js";

const MAX_ELEMENTS = 2 ** 29; // 4 GiB of f64: beyond it, the same limit as the WASM backend

/** The pure-TypeScript reference backend: the same kernels, for differential tests, benchmarks and hosts without WASM. */
export class JsBackend implements KernelBackend {
  readonly kind = "js" as const;
  private stage: DrfStage | null = null;
  private n = -1;
  private k = -1;
  private readonly scratch = new DrfScratch();

  stageDrf(n: number, k: number): DrfStage {
    if (this.stage && this.n === n && this.k === k) return this.stage;
    const nk = n * k;
    if (!(nk * 2 + n * 4 + k <= MAX_ELEMENTS)) {
      throw new InputError("demands", `problem too large for memory (N=${n}, K=${k})`);
    }
    try {
      this.stage = {
        capacity: new Float64Array(k), demands: new Float64Array(nk), weights: new Float64Array(n),
        offsets: new Float64Array(n), lambda: new Float64Array(n), allocation: new Float64Array(nk),
        dominantShare: new Float64Array(n),
      };
      this.scratch.ensure(n, k);
      this.scratch.radix.ensure(n);
    } catch {
      this.stage = null;
      throw new InputError("demands", `problem too large for memory (N=${n}, K=${k})`);
    }
    this.n = n;
    this.k = k;
    return this.stage;
  }

  runDrf(n: number, k: number, useWeights: boolean, useOffsets: boolean): KernelStatus {
    const s = this.stage;
    if (!s || this.n !== n || this.k !== k) throw new Error("runDrf without a matching stageDrf");
    const code = drfKernel(
      n, k, s.capacity, s.demands, useWeights ? s.weights : null, useOffsets ? s.offsets : null,
      s.lambda, s.allocation, s.dominantShare, this.scratch,
    );
    return code === Status.OK ? STATUS_OK : { code, index: this.scratch.errIndex };
  }

  floorSum(len: number): number {
    if (!this.stage) throw new Error("floorSum without a staged problem");
    return floorSum(len, this.stage.demands);
  }
}
