import type { DrfStage, KernelBackend } from "../kernels/backend.js";
import { Status, type KernelStatus, STATUS_OK } from "../kernels/status.js";
import { Layout, WasmArena } from "./arena.js";

/** The raw exports of build/fairsched.wasm (see assembly/index.ts). */
export interface FairschedExports {
  memory: WebAssembly.Memory;
  heapBase(): number;
  drf(n: number, k: number, cap: number, dem: number, w: number, o: number, lam: number, alloc: number, ds: number, scratch: number): number;
  drfScratchBytes(n: number, k: number): number;
  floorSum(len: number, ptr: number): number;
}

interface DrfLayout {
  n: number; k: number; buffer: ArrayBuffer;
  cap: number; dem: number; w: number; o: number; lam: number; alloc: number; ds: number; scratch: number;
  stage: DrfStage;
}

export class WasmBackend implements KernelBackend {
  readonly kind = "wasm" as const;
  private readonly x: FairschedExports;
  private readonly arena: WasmArena;
  private drfLayout: DrfLayout | null = null;

  constructor(exports: FairschedExports) {
    this.x = exports;
    this.arena = new WasmArena(exports.memory, exports.heapBase());
  }

  stageDrf(n: number, k: number): DrfStage {
    const cached = this.drfLayout;
    if (cached && cached.n === n && cached.k === k && cached.buffer === this.arena.buffer) return cached.stage;
    const nk = n * k;
    const L = new Layout();
    const cap = L.f64(k), dem = L.f64(nk), w = L.f64(n), o = L.f64(n);
    const lam = L.f64(n), alloc = L.f64(nk), ds = L.f64(n);
    // the scratch size comes from the module itself so the layout cannot drift
    const scratchBytes = nk > 2 ** 28 ? Infinity : this.x.drfScratchBytes(n, k);
    const scratch = L.raw(scratchBytes);
    this.arena.reserve(L.bytes, "demands", `N=${n}, K=${k}`);
    const buffer = this.arena.buffer;
    const b = this.arena.base;
    const v = (at: number, len: number) => new Float64Array(buffer, b + at, len);
    const stage: DrfStage = {
      capacity: v(cap, k), demands: v(dem, nk), weights: v(w, n), offsets: v(o, n),
      lambda: v(lam, n), allocation: v(alloc, nk), dominantShare: v(ds, n),
    };
    this.drfLayout = { n, k, buffer, cap, dem, w, o, lam, alloc, ds, scratch, stage };
    return stage;
  }

  runDrf(n: number, k: number, useWeights: boolean, useOffsets: boolean): KernelStatus {
    const l = this.drfLayout;
    if (!l || l.n !== n || l.k !== k) throw new Error("runDrf without a matching stageDrf");
    const b = this.arena.base;
    const code = this.x.drf(
      n, k, b + l.cap, b + l.dem, useWeights ? b + l.w : 0, useOffsets ? b + l.o : 0,
      b + l.lam, b + l.alloc, b + l.ds, b + l.scratch,
    ) as Status;
    if (code === Status.OK) return STATUS_OK;
    return { code, index: new Int32Array(this.arena.buffer, b + l.scratch, 1)[0] };
  }

  floorSum(len: number): number {
    const l = this.drfLayout;
    if (!l) throw new Error("floorSum without a staged problem");
    return this.x.floorSum(len, this.arena.base + l.dem);
  }
}
