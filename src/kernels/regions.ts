// The arrays each kernel reads and writes, in ONE table shared by both backends: the WASM
// backend lays them out back to back in linear memory (then the kernel's scratch), the JS
// backend allocates one typed array per region. A kernel is an entry here plus its call in
// each backend (wasm-backend.ts, js-backend.ts); staging, caching, size limits and prepared
// problems are generic over this table.
//
// Example (DRF, N=2 queues, K=3 resources): capacity 3 f64, demands 6, weights 2, offsets 2,
// lambda 2, allocation 6, dominantShare 2 = 23 f64 = 184 bytes, then drfScratchBytes(2, 3).
// Edge values: N=0 gives zero-length regions (the kernels return at once); a problem whose
// regions exceed 4 GiB is an InputError on `field` before anything is allocated.
import type { KernelName, KernelViews } from "../kernels/backend.js";
import { InputError } from "./errors.js";

export type ViewCtor = Float64ArrayConstructor | Uint32ArrayConstructor | Int32ArrayConstructor | Uint8ArrayConstructor;
/** One region: its element type and length. */
export type Region = readonly [ctor: ViewCtor, length: number];

export interface RegionTable<V> {
  /** The input field an out-of-memory InputError names. */
  readonly field: string;
  /** The problem size for messages, e.g. "N=3, K=2". */
  describe(a: number, b: number): string;
  /** Every region, inputs first, in layout order. */
  regions(a: number, b: number): { readonly [F in keyof V]: Region };
  /** The regions the caller writes (the rest are kernel outputs). */
  readonly inputs: readonly (keyof V & string)[];
}

const f64 = (len: number): Region => [Float64Array, len];
const nk = (a: number, b: number) => `N=${a}, K=${b}`;

export const REGIONS: { readonly [K in KernelName]: RegionTable<KernelViews[K]> } = {
  drf: {
    field: "demands",
    describe: nk,
    regions: (n, k) => ({
      capacity: f64(k), demands: f64(n * k), weights: f64(n), offsets: f64(n),
      lambda: f64(n), allocation: f64(n * k), dominantShare: f64(n),
    }),
    inputs: ["capacity", "demands", "weights", "offsets"],
  },
  srpt: {
    field: "demands",
    describe: nk,
    regions: (n, k) => ({
      capacity: f64(k), available: f64(k), demands: f64(n * k), rates: f64(n * k), remaining: f64(n * k),
      lambda: f64(n), allocation: f64(n * k),
    }),
    inputs: ["capacity", "available", "demands", "rates", "remaining"],
  },
  ltrf: {
    field: "tasks",
    describe: nk,
    regions: (n, k) => ({
      free: f64(k), tasks: f64(n * k), pending: f64(n), usage: f64(n), weights: f64(n), increments: f64(n), maxStarts: f64(1),
      count: f64(n), usageOut: f64(n), freeOut: f64(k),
    }),
    inputs: ["free", "tasks", "pending", "usage", "weights", "increments", "maxStarts"],
  },
  crv: {
    field: "runtime",
    describe: (q, t) => `Q=${q}, T=${t}`,
    // f64 regions first; every region starts 8-byte aligned anyway (see regionBytes)
    regions: (q, t) => ({
      score: f64(t), runtime: f64(t), offsets: [Uint32Array, q + 1], slack: [Int32Array, t],
      order: [Uint32Array, t], slackOut: [Int32Array, t], mode: [Uint8Array, q],
    }),
    inputs: ["offsets", "score", "runtime", "slack", "mode"],
  },
  bopf: {
    field: "volume",
    describe: nk,
    regions: (n, k) => ({
      capacity: f64(k), bound: f64(k), hard: f64(k), state: f64(8),
      start: f64(n), period: f64(n), window: f64(n), count: f64(n), volume: f64(n * k),
      want: f64(n * k), rate: f64(n * k), remaining: f64(n * k), weight: f64(n), tol: f64(n), allocation: f64(n * k), gkey: f64(n),
      id: [Int32Array, n], bind: [Int32Array, n], gid: [Int32Array, n],
      kind: [Uint8Array, n], cls: [Uint8Array, n], reason: [Uint8Array, n], hasGuarantee: [Uint8Array, n],
      clsById: [Uint8Array, n], kindById: [Uint8Array, n],
    }),
    inputs: ["capacity", "bound", "hard", "state", "start", "period", "window", "count", "volume", "kind", "want", "rate", "remaining", "weight", "cls", "hasGuarantee"],
  },
};

/** The wasm32 address space: no problem may need more (the JS backend keeps the same limit). */
export const MAX_BYTES = 2 ** 32;

/** Bytes of one region, rounded up to 8 so the next one stays f64-aligned (float math: no i32 wrap). */
export function regionBytes([ctor, len]: Region): number {
  return Math.ceil((len * ctor.BYTES_PER_ELEMENT) / 8) * 8;
}

/**
 * The regions of a problem and their total size in bytes; an InputError on the table's field
 * when they alone exceed 4 GiB (checked in floating point, before any i32 size arithmetic).
 */
export function regionsOf<K extends KernelName>(kernel: K, a: number, b: number): { regions: Record<string, Region>; bytes: number } {
  const t = REGIONS[kernel] as RegionTable<KernelViews[K]>;
  const regions = t.regions(a, b) as unknown as Record<string, Region>;
  let bytes = 0;
  for (const name in regions) bytes += regionBytes(regions[name]);
  if (!(bytes <= MAX_BYTES)) tooLarge(kernel, a, b, bytes);
  return { regions, bytes };
}

export function tooLarge(kernel: KernelName, a: number, b: number, bytes: number, why = "the limit is 4 GiB"): never {
  const t = REGIONS[kernel] as RegionTable<unknown>;
  throw new InputError(t.field, `problem too large for memory (${t.describe(a, b)} needs ${formatBytes(bytes)}; ${why})`);
}

export function formatBytes(n: number): string {
  if (n >= 2 ** 30) return `${(n / 2 ** 30).toFixed(1)} GiB`;
  if (n >= 2 ** 20) return `${(n / 2 ** 20).toFixed(1)} MiB`;
  return `${n} bytes`;
}
