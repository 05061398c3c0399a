// Pure-TS twin of assembly/util/radix.ts: sorting indices by f64 keys in [+0, +inf] into
// the total order (key, index). sortIndicesByKey is the same two LSD passes on the top bits
// of the keys' range plus the insertion pass (with the same move budget and fallback);
// sortRangeByKey the same insertion sort / LSD byte radix with the same skips;
// bucketByKey and bucketRecordsByKey bucket by the keys' high 32 bits the same way;
// sortPairsByKey is the same insertion sort / LSD byte radix on (key, index) pairs. The orders are the same by
// construction: each is the one stable order by (key, index).

// insertion sort up to here: below it the radix passes (8 KiB histogram) cost more than the moves
const SMALL = 64;
const MAX_BUCKETS = 1 << 15;
// sortIndicesByKey: 11-bit digits from here, 8-bit below
const BIG_DIGIT_FROM = 4096;

export class RadixScratch {
  ka = new Float64Array(0);
  kb = new Float64Array(0);
  ia = new Uint32Array(0);
  ib = new Uint32Array(0);
  iv = new Uint32Array(0);
  readonly hist = new Uint32Array(2 * 2048); // >= the byte radix's 8 x 256
  ensure(n: number): void {
    if (this.ka.length >= n) return;
    const cap = Math.max(n, this.ka.length * 2);
    this.ka = new Float64Array(cap);
    this.kb = new Float64Array(cap);
    this.ia = new Uint32Array(cap);
    this.ib = new Uint32Array(cap);
    this.iv = new Uint32Array(cap);
  }
}

// the two 32-bit halves of a key's bit pattern (little-endian)
const conv = new Float64Array(1);
const convWords = new Uint32Array(conv.buffer);

/** Writes into `outIdx` the indices 0..n-1 ordered by keys[i] (then by i). */
export function sortIndicesByKey(n: number, keys: Float64Array, outIdx: Uint32Array, s: RadixScratch): void {
  if (n <= SMALL) {
    for (let i = 0; i < n; i++) outIdx[i] = i;
    sortRangeByKey(outIdx, 0, n, keys, s);
    return;
  }
  s.ensure(n);
  const { ka, kb, ia, ib, iv, hist } = s;
  let lo = Infinity, hi = 0;
  for (let i = 0; i < n; i++) {
    const x = keys[i];
    if (x < lo) lo = x;
    if (x > hi) hi = x;
  }
  if (lo === hi) { // all equal: index order
    for (let i = 0; i < n; i++) outIdx[i] = i;
    return;
  }
  conv[0] = lo;
  const loL = convWords[0], loH = convWords[1];
  conv[0] = hi;
  const rH = (convWords[1] - loH - (convWords[0] < loL ? 1 : 0)) >>> 0, rL = (convWords[0] - loL) >>> 0;
  // the two digits are the top 2*D bits of (bits - lo)
  const d = n >= BIG_DIGIT_FROM ? 11 : 8;
  const top = rH !== 0 ? 64 - Math.clz32(rH) : 32 - Math.clz32(rL);
  const shift = top > 2 * d ? top - 2 * d : 0;
  const dmask = (1 << d) - 1, nd = 1 << d;
  const words = new Uint32Array(keys.buffer, keys.byteOffset, n * 2);
  hist.fill(0, 0, 2 * nd);
  // v = (bits - lo) >> shift, from the two words (it has at most 2*D bits)
  for (let i = 0; i < n; i++) {
    const l = words[2 * i], h = words[2 * i + 1];
    const dl = (l - loL) >>> 0, dh = (h - loH - (l < loL ? 1 : 0)) >>> 0;
    const v = shift >= 32 ? dh >>> (shift - 32) : shift === 0 ? dl : ((dh << (32 - shift)) | (dl >>> shift)) >>> 0;
    iv[i] = v;
    hist[v & dmask]++;
    hist[nd + (v >>> d)]++;
  }
  let s1 = 0, s2 = 0;
  for (let b = 0; b < nd; b++) {
    const c1 = hist[b], c2 = hist[nd + b];
    hist[b] = s1;
    hist[nd + b] = s2;
    s1 += c1;
    s2 += c2;
  }
  // low digit: keys (index order) -> kb/ia/ib; high digit: -> ka/outIdx (both stable)
  for (let i = 0; i < n; i++) {
    const v = iv[i];
    const pos = hist[v & dmask]++;
    kb[pos] = keys[i];
    ia[pos] = i;
    ib[pos] = v;
  }
  for (let j = 0; j < n; j++) {
    const pos = hist[nd + (ib[j] >>> d)]++;
    ka[pos] = kb[j];
    outIdx[pos] = ia[j];
  }
  if (shift === 0) return; // the digits held every bit that differs
  // the insertion pass, with the same budget of 8 moves per key before the byte radix
  let budget = n * 8;
  for (let j = 1; j < n; j++) {
    budget -= insertPair(ka, outIdx, 0, j);
    if (budget < 0) {
      radixPairs(n, ka, outIdx, kb, ia, hist);
      return;
    }
  }
}

/** Sorts (ka[j], ia[j]) for j < len by key, stably: LSD byte radix through kb/ib. */
function radixPairs(len: number, ka: Float64Array, ia: Uint32Array, kb: Float64Array, ib: Uint32Array, hist: Uint32Array): void {
  hist.fill(0, 0, 8 * 256);
  countDigits(len, ka, hist);
  if (radixPasses(len, ka, ia, kb, ib, hist)) {
    ka.set(kb.subarray(0, len));
    ia.set(ib.subarray(0, len));
  }
}

function countDigits(len: number, ka: Float64Array, hist: Uint32Array): void {
  const bytes = new Uint8Array(ka.buffer, ka.byteOffset, len * 8);
  for (let j = 0; j < len; j++) {
    const o = j * 8;
    for (let d = 0; d < 8; d++) hist[(d << 8) + bytes[o + d]]++;
  }
}

/**
 * The LSD passes over (ka, ia) with the digit histograms counted, skipping digits on
 * which every key agrees. Returns true when the sorted pairs ended in (kb, ib).
 */
function radixPasses(len: number, ka: Float64Array, ia: Uint32Array, kb: Float64Array, ib: Uint32Array, hist: Uint32Array): boolean {
  const first = new Uint8Array(ka.buffer, ka.byteOffset, 8).slice();
  let swapped = false;
  for (let d = 0; d < 8; d++) {
    const h = d << 8;
    if (hist[h + first[d]] === len) continue; // all keys share this digit
    let sum = 0;
    for (let b = 0; b < 256; b++) {
      const c = hist[h + b];
      hist[h + b] = sum;
      sum += c;
    }
    const bytesA = new Uint8Array(ka.buffer, ka.byteOffset, len * 8);
    for (let j = 0; j < len; j++) {
      const pos = hist[h + bytesA[j * 8 + d]]++;
      kb[pos] = ka[j];
      ib[pos] = ia[j];
    }
    const t = ka; ka = kb; kb = t;
    const u = ia; ia = ib; ib = u;
    swapped = !swapped;
  }
  return swapped;
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
  const { ka, kb, ia, ib, hist } = s;
  for (let j = 0; j < len; j++) {
    const x = idx[from + j];
    ka[j] = keys[x];
    ia[j] = x;
  }
  hist.fill(0, 0, 8 * 256);
  countDigits(len, ka, hist);
  idx.set((radixPasses(len, ka, ia, kb, ib, hist) ? ib : ia).subarray(0, len), from);
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
 * bucket count. Keys in [+0, +inf] (+inf's high word just lands in the top bucket).
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

/** Bucket count bucketRecordsByKey uses for n keys: about 16 keys per bucket, a power of two. */
export function recordBucketCountFor(n: number): number {
  let b = 1;
  while (b < MAX_BUCKETS && b * 16 < n) b *= 2;
  return b;
}

/**
 * bucketByKey's buckets over all of 0..n-1 with ~16 keys per bucket, each entry a record
 * (here three arrays): recKeys[j] = keys[i], recIdx[j] = i, recTags[j] = tags[i] for the
 * j-th entry in bucket order. `lo` and `hi` are the smallest and largest high word of the
 * keys. Bucket b is records bounds[b] .. bounds[b+1]; returns the bucket count.
 */
export function bucketRecordsByKey(
  n: number, keys: Float64Array, tags: Uint32Array, lo: number, hi: number,
  recKeys: Float64Array, recIdx: Uint32Array, recTags: Uint32Array, bounds: Uint32Array,
): number {
  const nb = recordBucketCountFor(n);
  bounds.fill(0, 0, nb + 1);
  if (n === 0) return nb;
  const words = new Uint32Array(keys.buffer, keys.byteOffset, n * 2);
  let shift = 0;
  while ((hi - lo) >>> shift >= nb) shift++;
  for (let i = 0; i < n; i++) bounds[((words[i * 2 + 1] - lo) >>> shift) + 1]++;
  for (let b = 0; b < nb; b++) bounds[b + 1] += bounds[b];
  for (let i = 0; i < n; i++) {
    const pos = bounds[(words[i * 2 + 1] - lo) >>> shift]++;
    recKeys[pos] = keys[i];
    recIdx[pos] = i;
    recTags[pos] = tags[i];
  }
  bounds.copyWithin(1, 0, nb);
  bounds[0] = 0;
  return nb;
}

/**
 * Sorts the len pairs (kd[j], idx[j]) for j in from .. from+len by key, stably, in place:
 * insertion sort up to SMALL, else the LSD byte radix (keys in [+0, +inf], no NaN).
 */
export function sortPairsByKey(kd: Float64Array, idx: Uint32Array, from: number, len: number, s: RadixScratch): void {
  if (len <= SMALL) {
    const end = from + len;
    for (let j = from + 1; j < end; j++) insertPair(kd, idx, from, j);
    return;
  }
  s.ensure(len);
  const { ka, kb, ia, ib, hist } = s;
  ka.set(kd.subarray(from, from + len));
  ia.set(idx.subarray(from, from + len));
  radixPairs(len, ka, ia, kb, ib, hist);
  kd.set(ka.subarray(0, len), from);
  idx.set(ia.subarray(0, len), from);
}

/**
 * One insertion-sort step over the pairs (keys[j], idx[j]) from `from` on: pair j moves left past
 * every pair with a larger key (stable). Returns how many pairs it passed.
 */
function insertPair(keys: Float64Array, idx: Uint32Array, from: number, j: number): number {
  const x = keys[j];
  if (keys[j - 1] <= x) return 0;
  const xi = idx[j];
  let p = j - 1;
  do {
    keys[p + 1] = keys[p];
    idx[p + 1] = idx[p];
    p--;
  } while (p >= from && keys[p] > x);
  keys[p + 1] = x;
  idx[p + 1] = xi;
  return j - 1 - p;
}
