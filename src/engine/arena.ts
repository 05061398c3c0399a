import { InputError } from "../errors.js";
import { MAX_BYTES, formatBytes } from "../kernels/region-table.js";

const PAGE = 65536;
const ALIGN = 16; // v128 loads in the kernels like 16-byte aligned regions

const align = (x: number) => Math.ceil(x / ALIGN) * ALIGN;

/**
 * The staging arena in WASM linear memory above the module's heap base. It holds
 *  - blocks: the memory of prepared problems, each kept until released (first fit, so a
 *    released block's gap is reused), and
 *  - above the highest block, the transient staging area every one-shot call reuses (calls
 *    never interleave: an engine method stages, runs and copies out before it returns).
 * Memory only grows. Growing detaches every view of the old buffer, so views are always
 * re-derived from `memory.buffer` when it changed (addresses stay valid across growth).
 *
 * Example: heap base 1000 -> base 1008; allocate(100) -> 1008 (top 1120); allocate(50) ->
 * 1120 (top 1184); release(1008); allocate(64) -> 1008 (the gap); the transient area starts
 * at 1184. Edge values: allocate(0) is a valid empty block; beyond 4 GiB is an InputError.
 */
export class WasmArena {
  private readonly memory: WebAssembly.Memory;
  readonly base: number;
  /** Live blocks, sorted by address: [address, bytes]. */
  private readonly blocks: Array<[number, number]> = [];
  private topCache: number;

  constructor(memory: WebAssembly.Memory, heapBase: number) {
    this.memory = memory;
    this.base = align(heapBase);
    this.topCache = this.base;
  }

  get buffer(): ArrayBuffer {
    return this.memory.buffer;
  }

  /** Where the transient area starts: above every live block. Moves on allocate/release. */
  get top(): number {
    return this.topCache;
  }

  /** Makes [top, top + bytes) addressable for a one-shot call; returns top. */
  reserveTransient(bytes: number, field: string, what: string): number {
    this.ensure(this.topCache, bytes, field, what);
    return this.topCache;
  }

  /** A block of its own for a prepared problem; returns its address. */
  allocate(bytes: number, field: string, what: string): number {
    let at = this.base;
    let i = 0;
    for (; i < this.blocks.length; i++) {
      const [start, size] = this.blocks[i];
      if (start - at >= bytes) break;
      at = align(start + size);
    }
    this.ensure(at, bytes, field, what);
    this.blocks.splice(i, 0, [at, bytes]);
    this.updateTop();
    return at;
  }

  release(address: number): void {
    const i = this.blocks.findIndex(([start]) => start === address);
    if (i < 0) throw new Error(`no arena block at ${address}`);
    this.blocks.splice(i, 1);
    this.updateTop();
  }

  private updateTop(): void {
    const last = this.blocks[this.blocks.length - 1];
    this.topCache = last ? align(last[0] + last[1]) : this.base;
  }

  /** Grows memory so [at, at + bytes) is addressable; beyond 4 GiB is an InputError on `field`. */
  private ensure(at: number, bytes: number, field: string, what: string): void {
    const end = at + bytes;
    if (!(end <= MAX_BYTES)) {
      throw new InputError(field, `problem too large for memory (${what} needs ${formatBytes(bytes)}, the WASM limit is 4 GiB)`);
    }
    const have = this.memory.buffer.byteLength;
    if (end <= have) return;
    try {
      this.memory.grow(Math.ceil((end - have) / PAGE));
    } catch {
      throw new InputError(field, `problem too large for memory (${what} needs ${formatBytes(bytes)}; memory.grow failed)`);
    }
  }
}
