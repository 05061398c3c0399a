// How a kernel's arrays are described: one region per array (element type and length), in
// layout order. Each kernel folder holds its own table (e.g. src/kernels/drf/contract.ts);
// the WASM backend lays the regions out back to back in linear memory (then the kernel's
// scratch), the JS backend allocates one typed array per region.
//
// Example (DRF, N=2 queues, K=3 resources): capacity 3 f64, demands 6, weights 2, offsets 2,
// lambda 2, allocation 6, dominantShare 2 = 23 f64 = 184 bytes, then drfScratchBytes(2, 3).
// Edge values: N=0 gives zero-length regions (the kernels return at once); a problem whose
// regions exceed 4 GiB is an InputError on `field` before anything is allocated.
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

export const f64 = (len: number): Region => [Float64Array, len];
export const nk = (a: number, b: number): string => `N=${a}, K=${b}`;

/** The wasm32 address space: no problem may need more (the JS backend keeps the same limit). */
export const MAX_BYTES = 2 ** 32;

/** Bytes of one region, rounded up to 8 so the next one stays f64-aligned (float math: no i32 wrap). */
export function regionBytes([ctor, len]: Region): number {
  return Math.ceil((len * ctor.BYTES_PER_ELEMENT) / 8) * 8;
}

export function formatBytes(n: number): string {
  if (n >= 2 ** 30) return `${(n / 2 ** 30).toFixed(1)} GiB`;
  if (n >= 2 ** 20) return `${(n / 2 ** 20).toFixed(1)} MiB`;
  return `${n} bytes`;
}
