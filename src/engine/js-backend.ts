import type { CrvStage, DrfStage, KernelBackend, LtrfStage, SrptStage } from "../kernels/backend.js";
import { DrfScratch, drfKernel, floorSum } from "../kernels/js/drf.js";
import { SrptScratch, srptKernel } from "../kernels/js/srpt.js";
import { LtrfScratch, ltrfKernel } from "../kernels/js/ltrf.js";
import { CrvScratch, crvReorderKernel } from "../kernels/js/crv.js";
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
  private srpt: { n: number; k: number; stage: SrptStage } | null = null;
  private readonly srptScratch = new SrptScratch();
  private ltrf: { n: number; k: number; stage: LtrfStage } | null = null;
  private readonly ltrfScratch = new LtrfScratch();
  private crv: { q: number; t: number; stage: CrvStage } | null = null;
  private readonly crvScratch = new CrvScratch();

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

  stageSrpt(n: number, k: number): SrptStage {
    if (this.srpt && this.srpt.n === n && this.srpt.k === k) return this.srpt.stage;
    const nk = n * k;
    if (!(nk * 4 + n + k * 2 <= MAX_ELEMENTS)) {
      throw new InputError("demands", `problem too large for memory (N=${n}, K=${k})`);
    }
    try {
      const stage: SrptStage = {
        capacity: new Float64Array(k), available: new Float64Array(k), demands: new Float64Array(nk),
        rates: new Float64Array(nk), remaining: new Float64Array(nk), lambda: new Float64Array(n),
        allocation: new Float64Array(nk),
      };
      this.srptScratch.ensure(n, k);
      this.srpt = { n, k, stage };
      return stage;
    } catch {
      this.srpt = null;
      throw new InputError("demands", `problem too large for memory (N=${n}, K=${k})`);
    }
  }

  runSrpt(n: number, k: number): KernelStatus {
    const l = this.srpt;
    if (!l || l.n !== n || l.k !== k) throw new Error("runSrpt without a matching stageSrpt");
    const s = l.stage;
    const code = srptKernel(n, k, s.capacity, s.available, s.demands, s.rates, s.remaining, s.lambda, s.allocation, this.srptScratch);
    return code === Status.OK ? STATUS_OK : { code, index: this.srptScratch.errIndex };
  }

  stageLtrf(n: number, k: number): LtrfStage {
    if (this.ltrf && this.ltrf.n === n && this.ltrf.k === k) return this.ltrf.stage;
    const nk = n * k;
    if (!(nk + n * 9 + k * 2 <= MAX_ELEMENTS)) {
      throw new InputError("tasks", `problem too large for memory (N=${n}, K=${k})`);
    }
    try {
      const f = (len: number) => new Float64Array(len);
      const stage: LtrfStage = {
        free: f(k), tasks: f(nk), pending: f(n), usage: f(n), weights: f(n), increments: f(n),
        count: f(n), usageOut: f(n), freeOut: f(k),
      };
      this.ltrfScratch.ensure(n);
      this.ltrf = { n, k, stage };
      return stage;
    } catch {
      this.ltrf = null;
      throw new InputError("tasks", `problem too large for memory (N=${n}, K=${k})`);
    }
  }

  runLtrf(n: number, k: number, useWeights: boolean, flags: number): KernelStatus {
    const l = this.ltrf;
    if (!l || l.n !== n || l.k !== k) throw new Error("runLtrf without a matching stageLtrf");
    const s = l.stage;
    const code = ltrfKernel(
      n, k, s.free, s.tasks, s.pending, s.usage, useWeights ? s.weights : null, s.increments, flags,
      s.count, s.usageOut, s.freeOut, this.ltrfScratch,
    );
    return code === Status.OK ? STATUS_OK : { code, index: this.ltrfScratch.errIndex };
  }

  stageCrv(q: number, t: number): CrvStage {
    if (this.crv && this.crv.q === q && this.crv.t === t) return this.crv.stage;
    if (!(t * 4 + q <= MAX_ELEMENTS)) throw new InputError("runtime", `problem too large for memory (Q=${q}, T=${t})`);
    try {
      const stage: CrvStage = {
        offsets: new Uint32Array(q + 1), score: new Float64Array(t), runtime: new Float64Array(t),
        slack: new Int32Array(t), mode: new Uint8Array(q), order: new Uint32Array(t), slackOut: new Int32Array(t),
      };
      this.crvScratch.ensure(t);
      this.crv = { q, t, stage };
      return stage;
    } catch {
      this.crv = null;
      throw new InputError("runtime", `problem too large for memory (Q=${q}, T=${t})`);
    }
  }

  runCrv(q: number, t: number, slackThreshold: number): KernelStatus & { reordered: number } {
    const l = this.crv;
    if (!l || l.q !== q || l.t !== t) throw new Error("runCrv without a matching stageCrv");
    const s = l.stage;
    const code = crvReorderKernel(q, t, s.offsets, s.score, s.runtime, s.slack, s.mode, slackThreshold, s.order, s.slackOut, this.crvScratch);
    return code === Status.OK ? { code, index: -1, reordered: this.crvScratch.reordered } : { code, index: this.crvScratch.errIndex, reordered: 0 };
  }

  floorSum(len: number): number {
    if (!this.stage) throw new Error("floorSum without a staged problem");
    return floorSum(len, this.stage.demands);
  }
}
