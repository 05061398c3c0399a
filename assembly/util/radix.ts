import { ldf, ldu, stu, align8 } from "./mem";

// Sorting indices by f64 keys in [+0, +inf] (their IEEE bit patterns order like the
// numbers; no NaN, no -0), always into the total order (key, index). The JS twin in
// src/kernels/util/radix.ts produces the same orders.
//
// - sortIndicesByKey: a whole array. Two stable LSD counting passes (11-bit digits, 8-bit
//   below BIG_DIGIT_FROM keys) on the top 22 bits of (bits - smallest bits), so the digits
//   follow the keys' actual range, then one insertion pass over the whole array for the
//   bits below: keys that differ in the top 22 bits of the range are already in order,
//   and few keys share them, so the pass is nearly free and its branch well predicted.
//   Four passes over the keys (min/max, histogram, two scatters) instead of one scatter
//   per byte: keys spread over a few decades vary in 7 of their 8 bytes.
//   Example, n = 100 keys 1, 2, ..., 100 in reverse (key[i] = 100 - i): lo = bits(1),
//   bits(100) - lo < 2^55, so shift = 55 - 22 = 33 (8-bit digits: 55 - 16 = 39); the two
//   passes order them by (bits - lo) >> shift — for integers 1..100 those top bits already
//   tell them apart — and the insertion pass finds nothing to move: [99, 98, ..., 0].
//   Edge values: n <= SMALL -> insertion sort alone; all keys equal -> index order after
//   the min/max pass; range below 2^22 -> the digits hold every bit, no insertion pass; a
//   few far outliers (+inf among small keys) squeeze the rest into a few top-bit values,
//   the insertion moves pile up and past 8 per key a full byte radix takes over, so the
//   cost stays O(n) passes.
// - sortRangeByKey: stable sort of a run of indices that is already in index order.
//   Insertion sort for short runs, otherwise LSD byte radix with one histogram pass for
//   all eight digits, skipping digits on which every key agrees.
// - bucketByKey: one stable counting-sort pass by the key's high 32 bits (sign, exponent
//   and 20 mantissa bits, shifted so the keys' range fills the buckets). Buckets come out
//   in key order; each is then sorted on demand with sortRangeByKey, so a consumer that
//   stops early (DRF stops at the last freeze) never pays for the buckets it did not reach.
// - bucketRecordsByKey: the same bucketing over all of 0..n-1 (~16 keys per bucket) into
//   16-byte records (key bits, index, a caller's tag), so a consumer that filters buckets
//   by tag reads them in sequence; sortPairsByKey then sorts a bucket's survivors as
//   (key bits, index) pairs: insertion sort for short runs, the byte radix otherwise.

// insertion sort up to here: below it the radix passes (8 KiB histogram) cost more than the moves
const SMALL: i32 = 64;
export const RADIX_HIST_BYTES: usize = 8 * 256 * 4;
const MAX_BUCKETS: i32 = 1 << 15;
// sortIndicesByKey: 11-bit digits (2 x 2048 counters, 16 KiB) from here, 8-bit below, where
// clearing and summing 4096 counters would cost more than the keys
const BIG_DIGIT_FROM: i32 = 4096;
const HIST_BYTES: usize = 2 * 2048 * 4; // >= RADIX_HIST_BYTES

/**
 * Bytes of scratch for sorting n keys: two key buffers and two index buffers, and the
 * digit histograms (the byte radix's 8 x 256, or sortIndicesByKey's 2 x 2048).
 */
export function radixScratchBytes(n: i32): usize {
  return (<usize>n << 3) * 2 + align8(<usize>n << 2) * 2 + HIST_BYTES;
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
  // layout: bits (n u64) | temp bits (n u64) | temp indices (n u32) | (n u32) | histograms
  const bits = scratch;
  const tk = bits + (<usize>n << 3);
  const ti = tk + (<usize>n << 3);
  const hist = ti + align8(<usize>n << 2) * 2;
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
  // the two digits are the top 2*D bits of (bits - lo)
  const d: u64 = n >= BIG_DIGIT_FROM ? 11 : 8;
  const top = <u64>(64 - clz(hi - lo));
  const shift: u64 = top > 2 * d ? top - 2 * d : 0;
  const dmask: u64 = (<u64>1 << d) - 1;
  const nd = <i32>(1 << <i32>d);
  const h1 = hist, h2 = hist + (<usize>nd << 2);
  memory.fill(hist, 0, <usize>nd << 3);
  for (let i = 0; i < n; i++) {
    const x = (load<u64>(keys + (<usize>i << 3)) - lo) >> shift;
    const a1 = h1 + (<usize>(x & dmask) << 2), a2 = h2 + (<usize>(x >> d) << 2);
    store<u32>(a1, load<u32>(a1) + 1);
    store<u32>(a2, load<u32>(a2) + 1);
  }
  let s1: u32 = 0, s2: u32 = 0;
  for (let b = 0; b < nd; b++) {
    const c1 = ldu(h1, b), c2 = ldu(h2, b);
    stu(h1, b, s1);
    stu(h2, b, s2);
    s1 += c1;
    s2 += c2;
  }
  // low digit: keys (index order) -> tk/ti; high digit: tk/ti -> bits/outIdx (both stable)
  for (let i = 0; i < n; i++) {
    const b = load<u64>(keys + (<usize>i << 3));
    const at = h1 + (<usize>(((b - lo) >> shift) & dmask) << 2);
    const pos = load<u32>(at);
    store<u32>(at, pos + 1);
    store<u64>(tk + (<usize>pos << 3), b);
    stu(ti, <i32>pos, <u32>i);
  }
  for (let j = 0; j < n; j++) {
    const b = load<u64>(tk + (<usize>j << 3));
    const at = h2 + (<usize>(((b - lo) >> shift) >> d) << 2);
    const pos = load<u32>(at);
    store<u32>(at, pos + 1);
    store<u64>(bits + (<usize>pos << 3), b);
    stu(outIdx, <i32>pos, ldu(ti, j));
  }
  if (shift == 0) return; // the digits held every bit that differs
  // Now sorted by the top 2*D bits; keys that share them are still in index order. One
  // insertion pass finishes: nothing moves past a key with smaller top bits. If the keys
  // cluster (a few far outliers stretch the range) the moves pile up: past a budget of
  // 8 per key, a full byte radix takes over (stable, and equal keys are in index order).
  let budget = <i64>n << 3;
  for (let j = 1; j < n; j++) {
    budget -= insertPair(bits, outIdx, j);
    if (budget < 0) {
      radixPairs(n, bits, outIdx, tk, ti, hist);
      return;
    }
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
 * bucket count. Keys in [+0, +inf] (+inf's high word just lands in the top bucket).
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

/**
 * Bucket count bucketRecordsByKey uses for n keys: about 16 keys per bucket, a power of two
 * (at n = 1e5, 8,192 write cursors: their lines, 512 KiB, about fill L2; ~n/8 buckets of two
 * u32 arrays, as bucketByKey has, would not fit).
 */
export function recordBucketCountFor(n: i32): i32 {
  let b = 1;
  while (b < MAX_BUCKETS && (b << 4) < n) b <<= 1;
  return b;
}

/** Bytes for bucketRecordsByKey's bucket bounds (recordBucketCountFor(n) + 1 u32). */
export function recordBoundsBytes(n: i32): usize {
  return <usize>(recordBucketCountFor(n) + 1) << 2;
}

/** Bytes of one record of bucketRecordsByKey. */
export const RECORD_BYTES: usize = 16;

/**
 * bucketByKey's buckets over all of 0..n-1 (no list to read), but ~16 keys per bucket and
 * each entry a 16-byte record: the key's bits (u64 at 0), the index i (u32 at 8) and a u32
 * tag (at 12). A consumer that filters by tag and sorts a bucket's survivors then reads
 * the records in sequence instead of gathering keys[i] and tags[i] in key order, and the
 * scatter writes into at most ~n/16 places at once (few enough for their write cursors to
 * stay in cache). `lo` and `hi` are the smallest and largest high word (bits >> 32) of the
 * keys, which the caller's own pass over them has found. Buckets are in key order and each
 * keeps index order: bucket b is records bounds[b] .. bounds[b+1]; returns the bucket
 * count. Keys in [+0, +inf].
 * Example: keys <0.5, 0.25, 0.5, 1> (n = 4, one bucket): records in index order
 * (0, 1, 2, 3), bounds <0, 4>; a stable sort of the survivors' key bits gives 1, 0, 2, 3.
 */
export function bucketRecordsByKey(n: i32, keys: usize, tags: usize, lo: u32, hi: u32, recs: usize, bounds: usize): i32 {
  const nb = recordBucketCountFor(n);
  for (let b = 0; b <= nb; b++) stu(bounds, b, 0);
  if (n == 0) return nb;
  let shift: u32 = 0;
  while (((hi - lo) >> shift) >= <u32>nb) shift++;
  for (let i = 0; i < n; i++) {
    const at = bounds + (<usize>(((load<u32>(keys + (<usize>i << 3), 4) - lo) >> shift) + 1) << 2);
    store<u32>(at, load<u32>(at) + 1);
  }
  for (let b = 0; b < nb; b++) stu(bounds, b + 1, ldu(bounds, b + 1) + ldu(bounds, b));
  for (let i = 0; i < n; i++) {
    const bits = load<u64>(keys + (<usize>i << 3));
    const at = bounds + (<usize>((<u32>(bits >> 32) - lo) >> shift) << 2);
    const pos = load<u32>(at);
    store<u32>(at, pos + 1);
    const rec = recs + (<usize>pos << 4);
    store<u64>(rec, bits);
    store<u64>(rec, <u64>i | (<u64>ldu(tags, i) << 32), 8);
  }
  for (let b = nb; b > 0; b--) stu(bounds, b, ldu(bounds, b - 1));
  stu(bounds, 0, 0);
  return nb;
}

/**
 * Sorts len (key bits, index) pairs (kbits u64, idx u32, both at their own arrays) in place
 * by key bits, stably: insertion sort up to SMALL, else the LSD byte radix.
 * `scratch` holds radixScratchBytes(len) bytes.
 */
export function sortPairsByKey(len: i32, kbits: usize, idx: usize, scratch: usize): void {
  if (len <= SMALL) {
    for (let j = 1; j < len; j++) insertPair(kbits, idx, j);
    return;
  }
  const tk = scratch;
  const ti = tk + (<usize>len << 3) * 2;
  const hist = ti + align8(<usize>len << 2) * 2;
  radixPairs(len, kbits, idx, tk, ti, hist);
}

/**
 * One insertion-sort step over (key bits, index) pairs: pair j moves left past every pair with
 * larger key bits (stable: equal keys keep their order). Returns how many pairs it passed.
 */
@inline function insertPair(bits: usize, idx: usize, j: i32): i32 {
  const x = load<u64>(bits + (<usize>j << 3));
  if (load<u64>(bits + (<usize>(j - 1) << 3)) <= x) return 0;
  const xi = ldu(idx, j);
  let p = j - 1;
  do {
    store<u64>(bits + (<usize>(p + 1) << 3), load<u64>(bits + (<usize>p << 3)));
    stu(idx, p + 1, ldu(idx, p));
    p--;
  } while (p >= 0 && load<u64>(bits + (<usize>p << 3)) > x);
  store<u64>(bits + (<usize>(p + 1) << 3), x);
  stu(idx, p + 1, xi);
  return j - 1 - p;
}
