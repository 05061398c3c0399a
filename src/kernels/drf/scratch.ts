// The DRF kernel's JS scratch (both paths' working arrays, grown on demand) and the level
// grid's size, shared by the event path (twin.ts) and the level path (levels.ts).
import { RadixScratch, bucketCountFor } from "../util/radix.js";

const GRID_CELLS = 4096;

/** Buckets of the level grid for m keys and k resources (a power of two, >= 1). */
export function gridBuckets(m: number, k: number): number {
  let limit = 1;
  while (limit * 2 * k <= GRID_CELLS) limit *= 2;
  return Math.min(bucketCountFor(m), limit);
}

export class DrfScratch {
  errIndex = -1;
  /** Work counter of the event path: elements visited by live-list compactions and slope re-sums (tests bound it; never reset by the kernel). */
  work = 0;
  rate = new Float64Array(0);
  delta = new Float64Array(0);
  startKey = new Float64Array(0);
  endKey = new Float64Array(0);
  endOrder = new Uint32Array(0);
  startOrder = new Uint32Array(0);
  liveList = new Uint32Array(0);
  bounds = new Uint32Array(1);
  state = new Uint8Array(0);
  used = new Float64Array(0);
  slope = new Float64Array(0);
  satAt = new Float64Array(0);
  cnt = new Uint32Array(0);
  invCap = new Float64Array(0);
  sat = new Uint8Array(0);
  // level path (no offsets)
  mask = new Uint32Array(0);
  endKeyWords = new Uint32Array(0);
  grid = new Float64Array(0);
  fbase = new Float64Array(0);
  base = new Float64Array(0);
  cur = new Float64Array(0);
  s1 = new Float64Array(0);
  levels = new Float64Array(0);
  readonly table = new Float64Array(256);
  readonly exact = new Float64Array(3);
  readonly radix = new RadixScratch();
  ensure(n: number, k: number): void {
    if (this.rate.length < n) {
      const c = Math.max(n, this.rate.length * 2);
      this.rate = new Float64Array(c);
      this.delta = new Float64Array(c);
      this.startKey = new Float64Array(c);
      this.endKey = new Float64Array(c);
      this.endOrder = new Uint32Array(c);
      this.startOrder = new Uint32Array(c);
      this.liveList = new Uint32Array(c);
      this.bounds = new Uint32Array(bucketCountFor(c) + 1);
      this.state = new Uint8Array(c);
      this.mask = new Uint32Array(c);
      this.endKeyWords = new Uint32Array(this.endKey.buffer, this.endKey.byteOffset, c * 2);
    }
    const cells = gridBuckets(n, k) * k * 2;
    if (this.grid.length < cells) this.grid = new Float64Array(Math.max(cells, this.grid.length * 2));
    if (this.used.length < k) {
      this.used = new Float64Array(k);
      this.slope = new Float64Array(k);
      this.satAt = new Float64Array(k);
      this.cnt = new Uint32Array(k);
      this.invCap = new Float64Array(k);
      this.sat = new Uint8Array(k);
      this.fbase = new Float64Array(k);
      this.base = new Float64Array(k);
      this.cur = new Float64Array(k);
      this.s1 = new Float64Array(k);
      this.levels = new Float64Array(k);
    }
  }
}
