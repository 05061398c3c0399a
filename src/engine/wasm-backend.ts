import type { CrvStage, DrfStage, KernelBackend, LtrfStage, SrptStage } from "../kernels/backend.js";
import { Status, type KernelStatus, STATUS_OK } from "../kernels/status.js";
import { Layout, WasmArena } from "./arena.js";

/** The raw exports of build/fairsched.wasm (see assembly/index.ts). */
export interface FairschedExports {
  memory: WebAssembly.Memory;
  heapBase(): number;
  drf(n: number, k: number, cap: number, dem: number, w: number, o: number, lam: number, alloc: number, ds: number, scratch: number): number;
  drfScratchBytes(n: number, k: number): number;
  floorSum(len: number, ptr: number): number;
  srpt(n: number, k: number, cap: number, avail: number, want: number, rate: number, rem: number, lam: number, alloc: number, scratch: number): number;
  srptScratchBytes(n: number, k: number): number;
  ltrf(n: number, k: number, free: number, task: number, pend: number, use: number, w: number, inc: number, flags: number, cnt: number, useOut: number, freeOut: number, scratch: number): number;
  ltrfScratchBytes(n: number): number;
  crvReorder(q: number, t: number, off: number, score: number, rt: number, slack: number, mode: number, thr: number, order: number, slackOut: number, scratch: number): number;
  crvScratchBytes(t: number): number;
}

interface CrvLayout {
  q: number; t: number; buffer: ArrayBuffer;
  off: number; score: number; rt: number; slack: number; mode: number; order: number; slackOut: number; scratch: number;
  stage: CrvStage;
}

interface LtrfLayout {
  n: number; k: number; buffer: ArrayBuffer;
  free: number; task: number; pend: number; use: number; w: number; inc: number; cnt: number; useOut: number; freeOut: number; scratch: number;
  stage: LtrfStage;
}

interface SrptLayout {
  n: number; k: number; buffer: ArrayBuffer;
  cap: number; avail: number; want: number; rate: number; rem: number; lam: number; alloc: number; scratch: number;
  stage: SrptStage;
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
  private srptLayout: SrptLayout | null = null;
  private ltrfLayout: LtrfLayout | null = null;
  private crvLayout: CrvLayout | null = null;

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

  // SRPT stages at the arena base like DRF: calls never interleave (the engine stages,
  // runs and copies results out in one method), so the regions may overlap.
  stageSrpt(n: number, k: number): SrptStage {
    const cached = this.srptLayout;
    if (cached && cached.n === n && cached.k === k && cached.buffer === this.arena.buffer) return cached.stage;
    const nk = n * k;
    const L = new Layout();
    const cap = L.f64(k), avail = L.f64(k), want = L.f64(nk), rate = L.f64(nk), rem = L.f64(nk);
    const lam = L.f64(n), alloc = L.f64(nk);
    const scratchBytes = nk > 2 ** 27 ? Infinity : this.x.srptScratchBytes(n, k);
    const scratch = L.raw(scratchBytes);
    this.arena.reserve(L.bytes, "demands", `N=${n}, K=${k}`);
    const buffer = this.arena.buffer;
    const b = this.arena.base;
    const v = (at: number, len: number) => new Float64Array(buffer, b + at, len);
    const stage: SrptStage = {
      capacity: v(cap, k), available: v(avail, k), demands: v(want, nk), rates: v(rate, nk),
      remaining: v(rem, nk), lambda: v(lam, n), allocation: v(alloc, nk),
    };
    this.srptLayout = { n, k, buffer, cap, avail, want, rate, rem, lam, alloc, scratch, stage };
    return stage;
  }

  runSrpt(n: number, k: number): KernelStatus {
    const l = this.srptLayout;
    if (!l || l.n !== n || l.k !== k) throw new Error("runSrpt without a matching stageSrpt");
    const b = this.arena.base;
    const code = this.x.srpt(
      n, k, b + l.cap, b + l.avail, b + l.want, b + l.rate, b + l.rem, b + l.lam, b + l.alloc, b + l.scratch,
    ) as Status;
    if (code === Status.OK) return STATUS_OK;
    return { code, index: new Int32Array(this.arena.buffer, b + l.scratch, 1)[0] };
  }

  // LTRF stages at the arena base too (calls never interleave).
  stageLtrf(n: number, k: number): LtrfStage {
    const cached = this.ltrfLayout;
    if (cached && cached.n === n && cached.k === k && cached.buffer === this.arena.buffer) return cached.stage;
    const nk = n * k;
    const L = new Layout();
    const free = L.f64(k), task = L.f64(nk), pend = L.f64(n), use = L.f64(n), w = L.f64(n), inc = L.f64(n);
    const cnt = L.f64(n), useOut = L.f64(n), freeOut = L.f64(k);
    const scratchBytes = n > 2 ** 28 ? Infinity : this.x.ltrfScratchBytes(n);
    this.arena.reserve(L.bytes + scratchBytes, "tasks", `N=${n}, K=${k}`); // before L.raw, whose & would wrap a size >= 2^31
    const scratch = L.raw(scratchBytes);
    this.arena.reserve(L.bytes, "tasks", `N=${n}, K=${k}`);
    const buffer = this.arena.buffer;
    const b = this.arena.base;
    const v = (at: number, len: number) => new Float64Array(buffer, b + at, len);
    const stage: LtrfStage = {
      free: v(free, k), tasks: v(task, nk), pending: v(pend, n), usage: v(use, n), weights: v(w, n),
      increments: v(inc, n), count: v(cnt, n), usageOut: v(useOut, n), freeOut: v(freeOut, k),
    };
    this.ltrfLayout = { n, k, buffer, free, task, pend, use, w, inc, cnt, useOut, freeOut, scratch, stage };
    return stage;
  }

  runLtrf(n: number, k: number, useWeights: boolean, flags: number): KernelStatus {
    const l = this.ltrfLayout;
    if (!l || l.n !== n || l.k !== k) throw new Error("runLtrf without a matching stageLtrf");
    const b = this.arena.base;
    const code = this.x.ltrf(
      n, k, b + l.free, b + l.task, b + l.pend, b + l.use, useWeights ? b + l.w : 0, b + l.inc, flags,
      b + l.cnt, b + l.useOut, b + l.freeOut, b + l.scratch,
    ) as Status;
    if (code === Status.OK) return STATUS_OK;
    return { code, index: new Int32Array(this.arena.buffer, b + l.scratch, 1)[0] };
  }

  // Phoenix reordering stages at the arena base too (calls never interleave).
  stageCrv(q: number, t: number): CrvStage {
    const cached = this.crvLayout;
    if (cached && cached.q === q && cached.t === t && cached.buffer === this.arena.buffer) return cached.stage;
    const L = new Layout();
    const score = L.f64(t), rt = L.f64(t);
    const off = L.raw((q + 1) * 4), slack = L.raw(t * 4), order = L.raw(t * 4), slackOut = L.raw(t * 4), mode = L.raw(q);
    const scratchBytes = t > 2 ** 28 ? Infinity : this.x.crvScratchBytes(t);
    const scratch = L.raw(scratchBytes);
    this.arena.reserve(L.bytes, "runtime", `Q=${q}, T=${t}`);
    const buffer = this.arena.buffer;
    const b = this.arena.base;
    const stage: CrvStage = {
      offsets: new Uint32Array(buffer, b + off, q + 1), score: new Float64Array(buffer, b + score, t),
      runtime: new Float64Array(buffer, b + rt, t), slack: new Int32Array(buffer, b + slack, t),
      mode: new Uint8Array(buffer, b + mode, q), order: new Uint32Array(buffer, b + order, t),
      slackOut: new Int32Array(buffer, b + slackOut, t),
    };
    this.crvLayout = { q, t, buffer, off, score, rt, slack, mode, order, slackOut, scratch, stage };
    return stage;
  }

  runCrv(q: number, t: number, slackThreshold: number): KernelStatus & { reordered: number } {
    const l = this.crvLayout;
    if (!l || l.q !== q || l.t !== t) throw new Error("runCrv without a matching stageCrv");
    const b = this.arena.base;
    const code = this.x.crvReorder(
      q, t, b + l.off, b + l.score, b + l.rt, b + l.slack, b + l.mode, slackThreshold, b + l.order, b + l.slackOut, b + l.scratch,
    ) as Status;
    const info = new Int32Array(this.arena.buffer, b + l.scratch, 2);
    if (code === Status.OK) return { code, index: -1, reordered: info[1] };
    return { code, index: info[0], reordered: 0 };
  }

  floorSum(len: number): number {
    const l = this.drfLayout;
    if (!l) throw new Error("floorSum without a staged problem");
    return this.x.floorSum(len, this.arena.base + l.dem);
  }
}
