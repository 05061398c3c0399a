import { ldf, ldu, stu, align8 } from "./mem";

// Sorting indices by f64 keys in [+0, +inf] (their IEEE bit patterns order like the
// numbers; no NaN, no -0), always into the total order (key, index). The JS twin in
// src/kernels/js/radix.ts produces the same orders.
//
// - sortIndicesByKey: a whole array. One counting pass spreads the keys over about n/4
//   buckets by the top bits of (bits - smallest bits), so the buckets follow the keys'
//   actual range; each bucket (a few keys, contiguous with their bits alongside) is then
//   insertion-sorted, or LSD-radix-sorted if it is large. Four light passes over the keys
//   instead of one heavy pass per byte: keys spread over a few decades vary in 7 of their
//   8 bytes, so the plain byte radix needs 7 scatter passes.
//   Example, keys [0.3, 0.1, 0.2, 0.1] (n = 4: below SMALL the insertion sort runs alone,
//   but the steps are the same): lo = bits(0.1); the bucket of each key is
//   (bits - lo) >> shift, so both 0.1 share bucket 0 in index order (1, 3), then 0.2 and
//   0.3 -> order [1, 3, 2, 0].
//   Edge values: all keys equal -> index order, no pass after the min/max one; a few huge
//   keys (+inf) with the rest tiny -> most keys share bucket 0, which is radix-sorted
//   (digits constant in that bucket are skipped), so the cost stays O(n) passes.
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
// sortIndicesByKey's buckets: about n / 4 keys (fewer keys per bucket cost more bucket
// visits than they save in insertion moves)
const KEYS_PER_SORT_BUCKET: i32 = 1;
const MAX_SORT_BUCKETS: i32 = 1 << 17;

/** Bucket count sortIndicesByKey uses for n keys: a power of two, about n / 4. */
function sortBucketsFor(n: i32): i32 {
  let b = 1;
  while (b < MAX_SORT_BUCKETS && b * KEYS_PER_SORT_BUCKET < n) b <<= 1;
  return b;
}

/**
 * Bytes of scratch for sorting n keys: two key buffers and two index buffers (the range
 * sort), the bucket ends of sortIndicesByKey, and the digit histograms.
 */
export function radixScratchBytes(n: i32): usize {
  return (<usize>n << 3) * 2 + align8(<usize>n << 2) * 2 + align8(<usize>(sortBucketsFor(n) + 1) << 2) + RADIX_HIST_BYTES;
}

/**
 * Writes into `outIdx` the indices 0..n-1 ordered by keys[i] (then by i).
 * `keys` is read only. `scratch` holds radixScratchBytes(n) bytes.
 */
export function sortIndicesByKey(n: i32, keys: usize, outIdx: usize, scratch: usize): void {
  if (n <= SMALL) {
    for (let i = 0; i < n; i++) stu(outIdx, i, <u32>i);
    sortRangeByKey(outIdx, n, keys, scratch);
    return;
  }
  // layout: bits (n u64) | temp bits (n u64) | temp indices (n u32) | (n u32) | ends | histograms
  const bits = scratch;
  const tk = bits + (<usize>n << 3);
  const ti = tk + (<usize>n << 3);
  const nb = sortBucketsFor(n);
  const ends = ti + align8(<usize>n << 2) * 2;
  const hist = ends + align8(<usize>(nb + 1) << 2);
  let lo: u64 = <u64>-1, hi: u64 = 0;
  for (let i = 0; i < n; i++) {
    const b = load<u64>(keys + (<usize>i << 3));
    lo = b < lo ? b : lo;
    hi = b > hi ? b : hi;
  }
  if (lo == hi) { // all equal: index order
    for (let i = 0; i < n; i++) stu(outIdx, i, <u32>i);
    return;
  }
  let shift: u64 = 0;
  while (((hi - lo) >> shift) >= <u64>nb) shift++;
  memory.fill(ends, 0, <usize>nb << 2);
  for (let i = 0; i < n; i++) {
    const at = ends + (<usize>((load<u64>(keys + (<usize>i << 3)) - lo) >> shift) << 2);
    store<u32>(at, load<u32>(at) + 1);
  }
  let sum: u32 = 0;
  for (let b = 0; b < nb; b++) {
    const c = ldu(ends, b);
    stu(ends, b, sum);
    sum += c;
  }
  // scatter in index order (stable); ends[b] moves from the start to the end of bucket b
  for (let i = 0; i < n; i++) {
    const x = load<u64>(keys + (<usize>i << 3));
    const at = ends + (<usize>((x - lo) >> shift) << 2);
    const pos = load<u32>(at);
    store<u32>(at, pos + 1);
    store<u64>(bits + (<usize>pos << 3), x);
    stu(outIdx, <i32>pos, <u32>i);
  }
  // large buckets (rare unless the keys cluster): radix-sorted in place
  let s: u32 = 0;
  for (let b = 0; b < nb; b++) {
    const e = ldu(ends, b);
    if (e - s > <u32>SMALL) radixPairs(<i32>(e - s), bits + (<usize>s << 3), outIdx + (<usize>s << 2), tk, ti, hist);
    s = e;
  }
  // the rest: one insertion pass over the whole array. A lower bucket holds only smaller
  // keys, so nothing moves past its bucket's start: O(n + moves inside small buckets),
  // and no per-bucket loop (whose unpredictable trip counts cost more than the moves).
  for (let j = 1; j < n; j++) {
    const x = load<u64>(bits + (<usize>j << 3));
    if (load<u64>(bits + (<usize>(j - 1) << 3)) <= x) continue;
    const xi = ldu(outIdx, j);
    let p = j - 1;
    do {
      store<u64>(bits + (<usize>(p + 1) << 3), load<u64>(bits + (<usize>p << 3)));
      stu(outIdx, p + 1, ldu(outIdx, p));
      p--;
    } while (p >= 0 && load<u64>(bits + (<usize>p << 3)) > x);
    store<u64>(bits + (<usize>(p + 1) << 3), x);
    stu(outIdx, p + 1, xi);
  }
}

/** Sorts len (bits, index) pairs in place by bits, stably: LSD byte radix through tk/ti. */
function radixPairs(len: i32, ka: usize, ia: usize, tk: usize, ti: usize, hist: usize): void {
  memory.fill(hist, 0, RADIX_HIST_BYTES);
  for (let j = 0; j < len; j++) countDigits(load<u64>(ka + (<usize>j << 3)), hist);
  if (radixPasses(len, ka, ia, tk, ti, hist)) {
    memory.copy(ka, tk, <usize>len << 3);
    memory.copy(ia, ti, <usize>len << 2);
  }
}

@inline function countDigits(bits: u64, hist: usize): void {
  for (let d = 0; d < 8; d++) {
    const h = hist + (<usize>((d << 8) + <i32>((bits >> (<u64>d << 3)) & 0xff)) << 2);
    store<u32>(h, load<u32>(h) + 1);
  }
}

/**
 * The LSD passes over (ka, ia) with the digit histograms already counted, skipping digits
 * on which every key agrees. Returns true when the sorted pairs ended in (kb, ib).
 */
function radixPasses(len: i32, ka: usize, ia: usize, kb: usize, ib: usize, hist: usize): bool {
  const first = load<u64>(ka);
  let swapped = false;
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
    swapped = !swapped;
  }
  return swapped;
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
  const ka = scratch;
  const kb = ka + (<usize>len << 3);
  const ia = kb + (<usize>len << 3);
  const ib = ia + align8(<usize>len << 2);
  const hist = ib + align8(<usize>len << 2);
  memory.fill(hist, 0, RADIX_HIST_BYTES);
  for (let j = 0; j < len; j++) {
    const x = ldu(idx, j);
    const bits = reinterpret<u64>(ldf(keys, <i32>x));
    store<u64>(ka + (<usize>j << 3), bits);
    stu(ia, j, x);
    countDigits(bits, hist);
  }
  memory.copy(idx, radixPasses(len, ka, ia, kb, ib, hist) ? ib : ia, <usize>len << 2);
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
