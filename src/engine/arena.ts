import { InputError } from "./errors.js";

const PAGE = 65536;
const MAX_BYTES = 65536 * PAGE; // 4 GiB: the wasm32 address space

/**
 * One staging arena in WASM linear memory above the module's heap base, reused across
 * calls. Growing memory detaches every view, so views are re-derived from `memory.buffer`
 * whenever it changed.
 */
export class WasmArena {
  private readonly memory: WebAssembly.Memory;
  readonly base: number;
  constructor(memory: WebAssembly.Memory, heapBase: number) {
    this.memory = memory;
    this.base = (heapBase + 15) & ~15;
  }
  get buffer(): ArrayBuffer {
    return this.memory.buffer;
  }
  /** Makes [base, base + bytes) addressable; a problem beyond 4 GiB is an InputError on `field`. */
  reserve(bytes: number, field: string, what: string): void {
    const end = this.base + bytes;
    if (!(end <= MAX_BYTES)) {
      throw new InputError(field, `problem too large for memory (${what} needs ${formatBytes(bytes)}, the WASM limit is 4 GiB)`);
    }
    const have = this.memory.buffer.byteLength;
    if (end <= have) return;
    const pages = Math.ceil((end - have) / PAGE);
    try {
      this.memory.grow(pages);
    } catch {
      throw new InputError(field, `problem too large for memory (${what} needs ${formatBytes(bytes)}; memory.grow failed)`);
    }
  }
}

export function formatBytes(n: number): string {
  if (n >= 2 ** 30) return `${(n / 2 ** 30).toFixed(1)} GiB`;
  if (n >= 2 ** 20) return `${(n / 2 ** 20).toFixed(1)} MiB`;
  return `${n} bytes`;
}

/** Lays out consecutive 8-byte-aligned regions. */
export class Layout {
  bytes = 0;
  f64(len: number): number {
    const at = this.bytes;
    this.bytes += len * 8;
    return at;
  }
  raw(len: number): number {
    const at = this.bytes;
    this.bytes += (len + 7) & ~7;
    return at;
  }
}
