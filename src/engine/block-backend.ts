// What both backends share above their blocks: the per-kernel stage/run methods of
// KernelBackend, written once over the generic stage() (one transient block per kernel).
import type {
  BackendKind, CrvStage, DrfStage, KernelBackend, KernelBlock, KernelName, LtrfStage, SrptStage,
} from "../kernels/backend.js";
import { Status, STATUS_OK, type KernelStatus } from "../kernels/status.js";

export abstract class BlockBackend implements KernelBackend {
  abstract readonly kind: BackendKind;
  abstract stage<K extends KernelName>(kernel: K, a: number, b: number): KernelBlock<K>;
  abstract prepare<K extends KernelName>(kernel: K, a: number, b: number): KernelBlock<K>;
  abstract floorSum(len: number): number;
  /** The last transient block staged for this kernel, or null. */
  protected abstract lastStaged<K extends KernelName>(kernel: K): KernelBlock<K> | null;

  /** The staged block of this size, or an Error: running what was not staged is a bug in the caller. */
  private staged<K extends KernelName>(kernel: K, a: number, b: number, what: string): KernelBlock<K> {
    const s = this.lastStaged(kernel);
    if (!s || s.a !== a || s.b !== b || !s.valid()) throw new Error(`${what} without a matching stage (stage it again after prepare/release)`);
    return s;
  }

  protected static status(block: KernelBlock, code: number): KernelStatus {
    return code === Status.OK ? STATUS_OK : { code: code as Status, index: block.errorIndex() };
  }

  stageDrf(n: number, k: number): DrfStage {
    return this.stage("drf", n, k).views();
  }
  runDrf(n: number, k: number, useWeights: boolean, useOffsets: boolean): KernelStatus {
    const s = this.staged("drf", n, k, "runDrf");
    return BlockBackend.status(s, s.run(useWeights ? 1 : 0, useOffsets ? 1 : 0));
  }
  stageSrpt(n: number, k: number): SrptStage {
    return this.stage("srpt", n, k).views();
  }
  runSrpt(n: number, k: number): KernelStatus {
    const s = this.staged("srpt", n, k, "runSrpt");
    return BlockBackend.status(s, s.run(0, 0));
  }
  stageLtrf(n: number, k: number): LtrfStage {
    return this.stage("ltrf", n, k).views();
  }
  runLtrf(n: number, k: number, useWeights: boolean, flags: number): KernelStatus {
    const s = this.staged("ltrf", n, k, "runLtrf");
    return BlockBackend.status(s, s.run(useWeights ? 1 : 0, flags));
  }
  stageCrv(q: number, t: number): CrvStage {
    return this.stage("crv", q, t).views();
  }
  runCrv(q: number, t: number, slackThreshold: number): KernelStatus & { reordered: number } {
    const s = this.staged("crv", q, t, "runCrv");
    const code = s.run(slackThreshold, 0);
    return code === Status.OK ? { code, index: -1, reordered: s.reordered() } : { code, index: s.errorIndex(), reordered: 0 };
  }
}
