import type { KernelBlock, KernelName, KernelViews } from "../kernels/backend.js";
import { WasmArena } from "./arena.js";
import { BlockBackend } from "./block-backend.js";
import { REGIONS, regionBytes, regionsOf, type Region } from "./regions.js";

/** The raw exports of build/fairsched.wasm (see assembly/index.ts). */
export interface FairschedExports {
  memory: WebAssembly.Memory;
  heapBase(): number;
  drf(n: number, k: number, cap: number, dem: number, w: number, o: number, lam: number, alloc: number, ds: number, scratch: number): number;
  drfScratchBytes(n: number, k: number): number;
  floorSum(len: number, ptr: number): number;
  /** the scalar four-accumulator pass (bench only: the earlier floor) */
  floorSumScalar(len: number, ptr: number): number;
  srpt(n: number, k: number, cap: number, avail: number, want: number, rate: number, rem: number, lam: number, alloc: number, scratch: number): number;
  srptScratchBytes(n: number, k: number): number;
  ltrf(n: number, k: number, free: number, task: number, pend: number, use: number, w: number, inc: number, limit: number, flags: number, cnt: number, useOut: number, freeOut: number, scratch: number): number;
  ltrfScratchBytes(n: number): number;
  crvReorder(q: number, t: number, off: number, score: number, rt: number, slack: number, mode: number, thr: number, order: number, slackOut: number, scratch: number): number;
  crvScratchBytes(t: number): number;
  bopfAdmit(n: number, k: number, flags: number, cap: number, bound: number, hard: number, state: number, kind: number, start: number, period: number, window: number, count: number, volume: number, want: number, cls: number, reason: number, id: number, rate: number, tol: number, bind: number, clsById: number, kindById: number, gkey: number, gid: number, alloc: number, scratch: number): number;
  bopfAllocate(n: number, k: number, flags: number, cap: number, cls: number, hasG: number, kind: number, id: number, state: number, want: number, rate: number, rem: number, weight: number, alloc: number, scratch: number): number;
  bopfScratchBytes(n: number, k: number): number;
}

/** Absolute addresses of a block's regions (by region name) and of its scratch. */
type Ptrs = Record<string, number> & { scratch: number };

/**
 * Each kernel's export called over a block: the only per-kernel code of this backend.
 * `u`, `v` are KernelBlock.run's scalar arguments. Every kernel stores the offending index
 * as the first i32 of scratch on error (crv: the reordered count as the second on success).
 */
const CALLS: { readonly [K in KernelName]: (x: FairschedExports, p: Ptrs, a: number, b: number, u: number, v: number) => number } = {
  drf: (x, p, n, k, w, o) =>
    x.drf(n, k, p.capacity, p.demands, w ? p.weights : 0, o ? p.offsets : 0, p.lambda, p.allocation, p.dominantShare, p.scratch),
  srpt: (x, p, n, k) =>
    x.srpt(n, k, p.capacity, p.available, p.demands, p.rates, p.remaining, p.lambda, p.allocation, p.scratch),
  ltrf: (x, p, n, k, w, flags) =>
    x.ltrf(n, k, p.free, p.tasks, p.pending, p.usage, w ? p.weights : 0, p.increments, p.maxStarts, flags, p.count, p.usageOut, p.freeOut, p.scratch),
  crv: (x, p, q, t, thr) =>
    x.crvReorder(q, t, p.offsets, p.score, p.runtime, p.slack, p.mode, thr, p.order, p.slackOut, p.scratch),
  // mode 0 admission (flags bit 0: no summary rows, bit 1: and the round), 1 allocation (flags bit 1: remaining volumes are the admission's burst volumes)
  bopf: (x, p, n, k, mode, flags) => mode === 0
    ? x.bopfAdmit(n, k, flags, p.capacity, p.bound, p.hard, p.state, p.kind, p.start, p.period, p.window, p.count, p.volume, p.want, p.cls, p.reason, p.id, p.rate, p.tol, p.bind, p.clsById, p.kindById, p.gkey, p.gid, p.allocation, p.scratch)
    : x.bopfAllocate(n, k, flags, p.capacity, p.cls, p.hasGuarantee, p.kind, p.id, p.state, p.want, p.rate, flags & 2 ? p.volume : p.remaining, p.weight, p.allocation, p.scratch),
};

/** Scratch bytes from the module itself, so the layout cannot drift from the kernel's. */
const SCRATCH: { readonly [K in KernelName]: (x: FairschedExports, a: number, b: number) => number } = {
  drf: (x, n, k) => x.drfScratchBytes(n, k),
  srpt: (x, n, k) => x.srptScratchBytes(n, k),
  ltrf: (x, n) => x.ltrfScratchBytes(n),
  crv: (x, _q, t) => x.crvScratchBytes(t),
  bopf: (x, n, k) => x.bopfScratchBytes(n, k),
};

/** A kernel's regions at a fixed address of linear memory; views follow memory growth. */
class WasmBlock<K extends KernelName> implements KernelBlock<K> {
  private readonly call: (x: FairschedExports, p: Ptrs, a: number, b: number, u: number, v: number) => number;
  private viewsBuffer: ArrayBuffer | null = null;
  private cached: KernelViews[K] | null = null;
  private live = true;

  constructor(
    private readonly owner: WasmBackend,
    readonly kernel: K,
    readonly a: number,
    readonly b: number,
    /** Address of the first region. */
    readonly at: number,
    private readonly regions: Record<string, Region>,
    private readonly ptrs: Ptrs,
    /** Transient blocks live at the arena's top; prepared ones own their memory. */
    readonly transient: boolean,
  ) {
    this.call = CALLS[kernel];
  }

  views(): KernelViews[K] {
    // memory.grow detaches the old buffer (byteLength 0): a cheap test on every call, where
    // reading memory.buffer (a host getter) would cost more than the rest of a small call
    if (this.cached !== null && this.viewsBuffer !== null && this.viewsBuffer.byteLength !== 0) return this.cached;
    const buffer = this.owner.memory.buffer;
    const views: Record<string, ArrayBufferView> = {};
    for (const name in this.regions) {
      const [ctor, len] = this.regions[name];
      views[name] = new ctor(buffer, this.ptrs[name], len);
    }
    this.cached = views as unknown as KernelViews[K];
    this.viewsBuffer = buffer;
    return this.cached;
  }

  valid(): boolean {
    return this.live && (!this.transient || this.owner.arena.top === this.at);
  }

  run(u: number, v: number): number {
    if (!this.valid()) throw new Error(`${this.kernel}: running a released or moved block`);
    return this.call(this.owner.x, this.ptrs, this.a, this.b, u, v);
  }

  errorIndex(): number {
    return new Int32Array(this.owner.memory.buffer, this.ptrs.scratch, 1)[0];
  }

  reordered(): number {
    return new Int32Array(this.owner.memory.buffer, this.ptrs.scratch, 2)[1];
  }

  release(): void {
    if (!this.live) return;
    this.live = false;
    this.cached = null;
    if (!this.transient) this.owner.arena.release(this.at);
  }
}

export class WasmBackend extends BlockBackend {
  readonly kind = "wasm" as const;
  readonly x: FairschedExports;
  readonly arena: WasmArena;
  readonly memory: WebAssembly.Memory;
  private readonly transient: { [K in KernelName]?: WasmBlock<K> } = {};

  constructor(exports: FairschedExports) {
    super();
    this.x = exports;
    this.memory = exports.memory;
    this.arena = new WasmArena(exports.memory, exports.heapBase());
  }

  protected lastStaged<K extends KernelName>(kernel: K): KernelBlock<K> | null {
    return (this.transient[kernel] as WasmBlock<K> | undefined) ?? null;
  }

  // Every kernel stages at the arena's top: calls never interleave (the engine stages, runs
  // and copies results out in one method), so the kernels' transient regions may overlap.
  stage<K extends KernelName>(kernel: K, a: number, b: number): KernelBlock<K> {
    const cached = this.transient[kernel] as WasmBlock<K> | undefined;
    if (cached && cached.a === a && cached.b === b && cached.valid()) return cached;
    const block = this.place(kernel, a, b, true);
    (this.transient as Record<string, WasmBlock<KernelName>>)[kernel] = block;
    return block;
  }

  prepare<K extends KernelName>(kernel: K, a: number, b: number): KernelBlock<K> {
    return this.place(kernel, a, b, false);
  }

  /** Lays the kernel's regions out (inputs, outputs, scratch) and reserves their memory. */
  private place<K extends KernelName>(kernel: K, a: number, b: number, transient: boolean): WasmBlock<K> {
    const { regions, bytes } = regionsOf(kernel, a, b);
    // queried only once the regions fit in 4 GiB, so the module's i32 size arithmetic is in range
    // usize sizes come back as i32 (>>> 0 makes them unsigned); drf, srpt and ltrf return an
    // exact f64 so a size beyond the 32-bit address space is caught by the arena, not wrapped
    const reported = SCRATCH[kernel](this.x, a, b);
    const scratchBytes = reported < 0 ? reported >>> 0 : reported;
    const total = bytes + scratchBytes;
    const field = REGIONS[kernel].field, what = REGIONS[kernel].describe(a, b);
    const at = transient ? this.arena.reserveTransient(total, field, what) : this.arena.allocate(total, field, what);
    const ptrs = { scratch: 0 } as Ptrs;
    let p = at;
    for (const name in regions) {
      ptrs[name] = p;
      p += regionBytes(regions[name]);
    }
    ptrs.scratch = p;
    return new WasmBlock(this, kernel, a, b, at, regions, ptrs, transient);
  }

  floorSum(len: number): number {
    const s = this.transient.drf;
    if (!s || !s.valid()) throw new Error("floorSum without a staged problem");
    return this.x.floorSum(len, s.views().demands.byteOffset);
  }
}
