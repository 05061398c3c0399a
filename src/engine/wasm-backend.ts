// The WASM backend: each kernel's export (src/kernels/<kernel>/contract.ts) called over its
// regions laid out in linear memory (the staging arena, arena.ts).
import type { KernelArgs, KernelBackend, KernelBlock, KernelName, KernelViews } from "../kernels/backend.js";
import type { BopfExports } from "../kernels/bopf/contract.js";
import type { Ptrs } from "../kernels/contract.js";
import { CONTRACTS } from "../kernels/contracts.js";
import { stageCount } from "../kernels/util/stage-count.js";
import type { CrvExports } from "../kernels/crv/contract.js";
import type { DrfExports } from "../kernels/drf/contract.js";
import type { LtrfExports } from "../kernels/ltrf/contract.js";
import { MAX_BYTES, regionBytes, type Region } from "../kernels/region-table.js";
import { regionTable, regionsOf } from "../kernels/regions.js";
import type { SrptExports } from "../kernels/srpt/contract.js";
import { WasmArena } from "./arena.js";

/** The raw exports of build/fairsched.wasm (see assembly/index.ts): each kernel's, and the heap base. */
export type FairschedExports = { memory: WebAssembly.Memory; heapBase(): number } & DrfExports & SrptExports & LtrfExports & CrvExports & BopfExports;

/** Every export the backend calls: a module without them is not fairsched's. */
export const REQUIRED_EXPORTS: readonly string[] = ["heapBase", ...Object.values(CONTRACTS).flatMap((c) => c.wasm.exports)];

type WasmCall<K extends KernelName> = (x: FairschedExports, p: Ptrs, a: number, b: number, args: KernelArgs[K]) => number;
interface WasmGlue {
  scratchBytes(x: FairschedExports, a: number, b: number): number;
  call: WasmCall<KernelName>;
}
const glue = (kernel: KernelName): WasmGlue => CONTRACTS[kernel].wasm as unknown as WasmGlue;

/** A kernel's regions at a fixed address of linear memory; views follow memory growth. */
class WasmBlock<K extends KernelName> implements KernelBlock<K> {
  private readonly call: WasmCall<K>;
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
    this.call = glue(kernel).call as unknown as WasmCall<K>;
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

  run(args: KernelArgs[K]): number {
    if (!this.valid()) throw new Error(`${this.kernel}: running a released or moved block`);
    return this.call(this.owner.x, this.ptrs, this.a, this.b, args);
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

export class WasmBackend implements KernelBackend {
  readonly kind = "wasm" as const;
  readonly x: FairschedExports;
  readonly arena: WasmArena;
  readonly memory: WebAssembly.Memory;
  private readonly transient: { [K in KernelName]?: WasmBlock<K> } = {};

  constructor(exports: FairschedExports) {
    this.x = exports;
    this.memory = exports.memory;
    this.arena = new WasmArena(exports.memory, exports.heapBase());
  }

  // Every kernel stages at the arena's top: calls never interleave (the engine stages, runs
  // and copies results out in one method), so the kernels' transient regions may overlap.
  stage<K extends KernelName>(kernel: K, a: number, b: number): KernelBlock<K> {
    stageCount.n++;
    const cached = this.transient[kernel] as WasmBlock<K> | undefined;
    if (cached && cached.a === a && cached.b === b && cached.valid()) return cached;
    const block = this.place(kernel, a, b, true);
    (this.transient as Record<string, unknown>)[kernel] = block;
    return block;
  }

  prepare<K extends KernelName>(kernel: K, a: number, b: number): KernelBlock<K> {
    return this.place(kernel, a, b, false);
  }

  stageGrows(kernel: KernelName, a: number, b: number): boolean {
    const cached = this.transient[kernel];
    if (cached && cached.a === a && cached.b === b && cached.valid()) return false;
    const { bytes } = regionsOf(kernel, a, b);
    const end = this.arena.top + bytes + this.scratchBytes(kernel, a, b);
    // beyond 4 GiB the stage is an InputError that grows nothing
    return end > this.memory.buffer.byteLength && end <= MAX_BYTES;
  }

  memoryBuffer(): ArrayBuffer {
    return this.memory.buffer;
  }

  /** The kernel's scratch bytes as the module reports them. */
  private scratchBytes(kernel: KernelName, a: number, b: number): number {
    // queried only once the regions fit in 4 GiB, so the module's i32 size arithmetic is in range
    // usize sizes come back as i32 (>>> 0 makes them unsigned); drf, srpt and ltrf return an
    // exact f64 so a size beyond the 32-bit address space is caught by the arena, not wrapped
    const reported = glue(kernel).scratchBytes(this.x, a, b);
    return reported < 0 ? reported >>> 0 : reported;
  }

  /** Lays the kernel's regions out (inputs, outputs, scratch) and reserves their memory. */
  private place<K extends KernelName>(kernel: K, a: number, b: number, transient: boolean): WasmBlock<K> {
    const { regions, bytes } = regionsOf(kernel, a, b);
    const total = bytes + this.scratchBytes(kernel, a, b);
    const t = regionTable(kernel);
    const field = t.field, what = t.describe(a, b);
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
}
