// Pure-TS twin of assembly/util/radix.ts: sorting indices by non-negative f64 keys into
// the total order (key, index). sortRangeByKey is the same insertion sort / LSD byte radix
// with the same skips; bucketByKey buckets by the keys' high 32 bits the same way.

// insertion sort up to here: below it the radix passes (8 KiB histogram) cost more than the moves
const SMALL = 64;
const MAX_BUCKETS = 1 << 15;

export class RadixScratch {
  ka = new Float64Array(0);
  kb = new Float64Array(0);
  ia = new Uint32Array(0);
  ib = new Uint32Array(0);
  readonly hist = new Uint32Array(8 * 256);
  ensure(n: number): void {
    if (this.ka.length >= n) return;
    const cap = Math.max(n, this.ka.length * 2);
    this.ka = new Float64Array(cap);
    this.kb = new Float64Array(cap);
    this.ia = new Uint32Array(cap);
    this.ib = new Uint32Array(cap);
  }
}

/** Writes into `outIdx` the indices 0..n-1 ordered by keys[i] (then by i). */
export function sortIndicesByKey(n: number, keys: Float64Array, outIdx: Uint32Array, s: RadixScratch): void {
  for (let i = 0; i < n; i++) outIdx[i] = i;
  sortRangeByKey(outIdx, 0, n, keys, s);
}

/** Sorts idx[from .. from+len) (ascending on entry) by keys[idx[j]], stably, in place. */
export function sortRangeByKey(idx: Uint32Array, from: number, len: number, keys: Float64Array, s: RadixScratch): void {
  if (len <= SMALL) {
    const end = from + len;
    for (let j = from + 1; j < end; j++) {
      const x = idx[j];
      const kx = keys[x];
      let p = j - 1;
      while (p >= from && keys[idx[p]] > kx) {
        idx[p + 1] = idx[p];
        p--;
      }
      idx[p + 1] = x;
    }
    return;
  }
  s.ensure(len);
  let ka = s.ka, kb = s.kb, ia = s.ia, ib = s.ib;
  const hist = s.hist;
  hist.fill(0);
  for (let j = 0; j < len; j++) {
    const x = idx[from + j];
    ka[j] = keys[x];
    ia[j] = x;
  }
  let bytesA = new Uint8Array(ka.buffer, ka.byteOffset, len * 8);
  for (let j = 0; j < len; j++) {
    const o = j * 8;
    for (let d = 0; d < 8; d++) hist[(d << 8) + bytesA[o + d]]++;
  }
  const first = new Uint8Array(ka.buffer, ka.byteOffset, 8).slice();
  for (let d = 0; d < 8; d++) {
    const h = d << 8;
    if (hist[h + first[d]] === len) continue; // all keys share this digit
    let sum = 0;
    for (let b = 0; b < 256; b++) {
      const c = hist[h + b];
      hist[h + b] = sum;
      sum += c;
    }
    bytesA = new Uint8Array(ka.buffer, ka.byteOffset, len * 8);
    for (let j = 0; j < len; j++) {
      const b = h + bytesA[j * 8 + d];
      const pos = hist[b]++;
      kb[pos] = ka[j];
      ib[pos] = ia[j];
    }
    const t = ka; ka = kb; kb = t;
    const u = ia; ia = ib; ib = u;
  }
  idx.set(ia.subarray(0, len), from);
}

/** Bucket count bucketByKey uses for m keys: about 8 keys per bucket, a power of two. */
export function bucketCountFor(m: number): number {
  let b = 1;
  while (b < MAX_BUCKETS && b * 8 < m) b *= 2;
  return b;
}

/**
 * Distributes list[0..m) (ascending indices) into `order` so that buckets are in key order
 * and each keeps index order. Bucket b is order[bounds[b] .. bounds[b+1]); returns the
 * bucket count. Keys must be finite and >= 0.
 */
export function bucketByKey(m: number, list: Uint32Array, keys: Float64Array, order: Uint32Array, bounds: Uint32Array): number {
  const nb = bucketCountFor(m);
  bounds.fill(0, 0, nb + 1);
  if (m === 0) return nb;
  // high words of the keys (little-endian: word 2i+1 of key i)
  const words = new Uint32Array(keys.buffer, keys.byteOffset, keys.length * 2);
  let lo = 0xffffffff, hi = 0;
  for (let j = 0; j < m; j++) {
    const h = words[list[j] * 2 + 1];
    if (h < lo) lo = h;
    if (h > hi) hi = h;
  }
  let shift = 0;
  while ((hi - lo) >>> shift >= nb) shift++;
  for (let j = 0; j < m; j++) bounds[((words[list[j] * 2 + 1] - lo) >>> shift) + 1]++;
  for (let b = 0; b < nb; b++) bounds[b + 1] += bounds[b];
  // scatter with bounds[b] as the write cursor, then restore the starts by shifting back
  for (let j = 0; j < m; j++) {
    const x = list[j];
    order[bounds[(words[x * 2 + 1] - lo) >>> shift]++] = x;
  }
  bounds.copyWithin(1, 0, nb);
  bounds[0] = 0;
  return nb;
}
