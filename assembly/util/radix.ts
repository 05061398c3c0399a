import { ldf, ldu, stu } from "./mem";

// Sorting indices by non-negative f64 keys (their IEEE bit patterns order like the
// numbers), always into the total order (key, index). The JS twin in
// src/kernels/js/radix.ts produces the same orders.
//
// - sortRangeByKey: stable sort of a run of indices that is already in index order.
//   Insertion sort for short runs, otherwise LSD byte radix with one histogram pass for
//   all eight digits, skipping digits on which every key agrees.
// - bucketByKey: one stable counting-sort pass by the key's high 32 bits (sign, exponent
//   and 20 mantissa bits, shifted so the keys' range fills the buckets). Buckets come out
//   in key order; each is then sorted on demand with sortRangeByKey, so a consumer that
//   stops early (DRF stops at the last freeze) never pays for the buckets it did not reach.

// insertion sort up to here: below it the radix passes (8 KiB histogram) cost more than the moves
const SMALL: i32 = 64;
export const RADIX_HIST_BYTES: usize = 8 * 256 * 4;
const MAX_BUCKETS: i32 = 1 << 15;

/** Bytes of scratch for sorting n keys: two key buffers and two index buffers + histogram. */
export function radixScratchBytes(n: i32): usize {
  return (<usize>n << 3) * 2 + (<usize>n << 2) * 2 + RADIX_HIST_BYTES;
}

/**
 * Writes into `outIdx` the indices 0..n-1 ordered by keys[i] (then by i).
 * `keys` is read only. `scratch` holds radixScratchBytes(n) bytes.
 */
export function sortIndicesByKey(n: i32, keys: usize, outIdx: usize, scratch: usize): void {
  for (let i = 0; i < n; i++) stu(outIdx, i, <u32>i);
  sortRangeByKey(outIdx, n, keys, scratch);
}

/**
 * Sorts the `len` indices at `idx` (ascending on entry) by keys[idx[j]], stably, in place.
 * `scratch` holds radixScratchBytes(len) bytes.
 */
export function sortRangeByKey(idx: usize, len: i32, keys: usize, scratch: usize): void {
  if (len <= SMALL) {
    for (let j = 1; j < len; j++) {
      const x = ldu(idx, j);
      const kx = ldf(keys, <i32>x);
      let p = j - 1;
      while (p >= 0 && ldf(keys, <i32>ldu(idx, p)) > kx) {
        stu(idx, p + 1, ldu(idx, p));
        p--;
      }
      stu(idx, p + 1, x);
    }
    return;
  }
  let ka = scratch;
  let kb = ka + (<usize>len << 3);
  let ia = kb + (<usize>len << 3);
  let ib = ia + (<usize>len << 2);
  const hist = ib + (<usize>len << 2);
  memory.fill(hist, 0, RADIX_HIST_BYTES);
  for (let j = 0; j < len; j++) {
    const x = ldu(idx, j);
    const bits = reinterpret<u64>(ldf(keys, <i32>x));
    store<u64>(ka + (<usize>j << 3), bits);
    stu(ia, j, x);
    for (let d = 0; d < 8; d++) {
      const h = hist + (<usize>((d << 8) + <i32>((bits >> (<u64>d << 3)) & 0xff)) << 2);
      store<u32>(h, load<u32>(h) + 1);
    }
  }
  const first = load<u64>(ka);
  for (let d = 0; d < 8; d++) {
    const hd = hist + (<usize>(d << 8) << 2);
    const shift = <u64>d << 3;
    if (ldu(hd, <i32>((first >> shift) & 0xff)) == <u32>len) continue; // all keys share this digit
    let sum: u32 = 0;
    for (let b = 0; b < 256; b++) {
      const c = ldu(hd, b);
      stu(hd, b, sum);
      sum += c;
    }
    for (let j = 0; j < len; j++) {
      const bits = load<u64>(ka + (<usize>j << 3));
      const b = <i32>((bits >> shift) & 0xff);
      const pos = ldu(hd, b);
      stu(hd, b, pos + 1);
      store<u64>(kb + (<usize>pos << 3), bits);
      stu(ib, <i32>pos, ldu(ia, j));
    }
    let t = ka; ka = kb; kb = t;
    t = ia; ia = ib; ib = t;
  }
  memory.copy(idx, ia, <usize>len << 2);
}

/** Bucket count bucketByKey uses for m keys: about 8 keys per bucket, a power of two. */
export function bucketCountFor(m: i32): i32 {
  let b = 1;
  while (b < MAX_BUCKETS && (b << 3) < m) b <<= 1;
  return b;
}

/** Bytes for bucketByKey's bucket bounds (bucketCountFor(m) + 1 u32). */
export function bucketBoundsBytes(m: i32): usize {
  return <usize>(bucketCountFor(m) + 1) << 2;
}

/**
 * Distributes the m indices at `list` (ascending) into `order` so that buckets are in key
 * order and each keeps index order. Bucket b is order[bounds[b] .. bounds[b+1]); returns the
 * bucket count. Keys must be finite and >= 0.
 */
export function bucketByKey(m: i32, list: usize, keys: usize, order: usize, bounds: usize): i32 {
  const nb = bucketCountFor(m);
  if (m == 0) {
    for (let b = 0; b <= nb; b++) stu(bounds, b, 0);
    return nb;
  }
  let lo: u32 = 0xffffffff, hi: u32 = 0;
  for (let j = 0; j < m; j++) {
    const h = load<u32>(keys + (<usize>ldu(list, j) << 3), 4);
    lo = min(lo, h);
    hi = max(hi, h);
  }
  let shift: u32 = 0;
  while (((hi - lo) >> shift) >= <u32>nb) shift++;
  for (let b = 0; b <= nb; b++) stu(bounds, b, 0);
  for (let j = 0; j < m; j++) {
    const h = load<u32>(keys + (<usize>ldu(list, j) << 3), 4);
    const at = bounds + (<usize>(((h - lo) >> shift) + 1) << 2);
    store<u32>(at, load<u32>(at) + 1);
  }
  for (let b = 0; b < nb; b++) stu(bounds, b + 1, ldu(bounds, b + 1) + ldu(bounds, b));
  // scatter with bounds[b] as the write cursor, then restore the starts by shifting back
  for (let j = 0; j < m; j++) {
    const x = ldu(list, j);
    const h = load<u32>(keys + (<usize>x << 3), 4);
    const at = bounds + (<usize>((h - lo) >> shift) << 2);
    const pos = load<u32>(at);
    store<u32>(at, pos + 1);
    stu(order, <i32>pos, x);
  }
  for (let b = nb; b > 0; b--) stu(bounds, b, ldu(bounds, b - 1));
  stu(bounds, 0, 0);
  return nb;
}
