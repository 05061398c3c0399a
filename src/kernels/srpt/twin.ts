// Pure-TS twin of assembly/srpt.ts (SRPT among BoPF soft LQs; algorithm, worked example,
// edge values and why the shortcuts are exact are documented there). Same steps: one scan
// (validation, key, rate cap, mask, largest key), the bucket records (here three arrays)
// filtered and sorted bucket by bucket, the greedy step in blocks that skip queues
// blocked by an exhausted resource (with the same division-free test for queues that fit),
// one allocation pass. Scalar instead of lane pairs; min and max are exact and order-free,
// so both backends agree bit for bit.
import { Status } from "../status.js";
import { RadixScratch, bucketRecordsByKey, recordBucketCountFor, sortPairsByKey } from "../util/radix.js";
import { isFiniteF64 } from "../util/finite.js";

// as in assembly/srpt.ts
const BLOCK = 256;
const MASK_BITS = 30;
const FULL = 0x80000000;

export class SrptScratch {
  errIndex = -1;
  keys = new Float64Array(0);
  caps = new Float64Array(0);
  masks = new Uint32Array(0);
  ids = new Uint32Array(0);
  idKeys = new Float64Array(0);
  recKeys = new Float64Array(0);
  recIdx = new Uint32Array(0);
  recMasks = new Uint32Array(0);
  bounds = new Uint32Array(0);
  left = new Float64Array(0);
  rows = new Float64Array(0);
  /** The queue that comes first (smallest key, then index), set by the scan. */
  first = 0;
  /** The largest key, set by the scan. */
  most = 0;
  readonly radix = new RadixScratch();
  ensure(n: number, k: number): void {
    if (this.keys.length < n) {
      const c = Math.max(n, this.keys.length * 2);
      this.keys = new Float64Array(c);
      this.caps = new Float64Array(c);
      this.masks = new Uint32Array(c);
      this.ids = new Uint32Array(c);
      this.idKeys = new Float64Array(c);
      this.recKeys = new Float64Array(c);
      this.recIdx = new Uint32Array(c);
      this.recMasks = new Uint32Array(c);
      this.bounds = new Uint32Array(recordBucketCountFor(c) + 1);
    }
    if (this.left.length < k) {
      this.left = new Float64Array(k);
      this.rows = new Float64Array(BLOCK * k);
    }
    this.radix.ensure(n);
  }
}

export function srptKernel(
  n: number, k: number,
  cap: Float64Array, avail: Float64Array, want: Float64Array, rate: Float64Array, remaining: Float64Array,
  outLambda: Float64Array, outAlloc: Float64Array,
  s: SrptScratch,
): Status {
  s.ensure(n, k);
  const { keys, masks, left, ids, idKeys, recKeys, recIdx, recMasks, bounds } = s;
  for (let r = 0; r < k; r++) {
    const c = cap[r];
    if (!(c > 0) || !isFiniteF64(c)) return fail(s, Status.Capacity, r);
  }
  for (let r = 0; r < k; r++) {
    const a = avail[r];
    if (!(a >= 0) || !isFiniteF64(a)) return fail(s, Status.Available, r);
    left[r] = a;
  }
  // validate every row first so an error leaves the outputs untouched
  const bad = scanRows(n, k, cap, want, rate, remaining, s);
  if (bad !== Status.OK) return bad;
  outLambda.fill(0, 0, n);
  if (n === 0) return Status.OK;

  // the first queue (smallest key, then index) the long way: its clamp turns a -0 in left into +0
  const first = s.first;
  ids[0] = first;
  let zero = serveBlock(0, 1, k, want, s, outLambda, 0, false);
  // the others bucket by bucket in key order; only the queues not yet blocked are sorted
  // (the keys' high words range from the smallest key's, the first queue's, to the largest's)
  const nb = bucketRecordsByKey(n, keys, masks, highWord(keys[first]), highWord(s.most), recKeys, recIdx, recMasks, bounds);
  let c = 0;
  for (let b = 0; b < nb; b++) {
    const e = bounds[b + 1];
    const c0 = c;
    for (let j = bounds[b]; j < e; j++) {
      const i = recIdx[j];
      const m = recMasks[j];
      ids[c] = i;
      idKeys[c] = recKeys[j];
      if (m !== 0 && (m & zero) === 0 && i !== first) c++;
    }
    if (c - c0 > 1) sortPairsByKey(idKeys, ids, c0, c - c0, s.radix);
    if (c >= BLOCK) {
      zero = serveBlock(0, c, k, want, s, outLambda, zero, true);
      c = 0;
    }
  }
  if (c > 0) serveBlock(0, c, k, want, s, outLambda, zero, true);
  allocRows(n, k, want, outLambda, outAlloc);
  return Status.OK;
}

/** Step 1: validation, key, rate cap and mask of every row. */
function scanRows(n: number, k: number, cap: Float64Array, want: Float64Array, rate: Float64Array, remaining: Float64Array, s: SrptScratch): Status {
  const { keys, caps, masks } = s;
  const big = Number.MAX_VALUE;
  let least = Infinity, most = 0;
  s.first = 0;
  for (let i = 0; i < n; i++) {
    const base = i * k;
    let key = 0, capLam = 1, mask = 0, any = false, low = 0;
    for (let r = 0; r < k; r++) {
      const x = base + r;
      const w = want[x], rt = rate[x], v = remaining[x];
      // x >= 0 and x <= MAX: false for NaN, infinities and negatives
      if (!(w >= 0 && w <= big && rt >= 0 && rt <= big && v >= 0 && v <= big)) return rowCheck(i, k, want, rate, remaining, s);
      key = Math.max(key, v / cap[r]);
      if (w > 0) {
        any = true;
        capLam = Math.min(capLam, rt / w);
        mask |= r < MASK_BITS ? 1 << r : FULL;
      }
      low = Math.min(low, w, rt, v); // -0 once any entry is -0 (min orders -0 below +0)
    }
    keys[i] = key;
    if (key < least) {
      least = key;
      s.first = i;
    }
    if (key > most) most = key;
    caps[i] = any ? capLam : 0;
    // a -0 anywhere: never skip the row (assembly/srpt.ts flags it the same way)
    masks[i] = 1 / low < 0 ? FULL : mask;
  }
  s.most = most;
  return Status.OK;
}

const conv = new Float64Array(1);
const convWords = new Uint32Array(conv.buffer);
/** The high 32 bits of x's bit pattern (little-endian: word 1). */
function highWord(x: number): number {
  conv[0] = x;
  return convWords[1];
}

/** Row i has a bad entry: the first one (want, rate, remaining at each flat index in turn). */
function rowCheck(i: number, k: number, want: Float64Array, rate: Float64Array, remaining: Float64Array, s: SrptScratch): Status {
  const base = i * k;
  for (let r = 0; r < k; r++) {
    const w = want[base + r];
    if (!(w >= 0) || !isFiniteF64(w)) return fail(s, Status.Demand, base + r);
    const rt = rate[base + r];
    if (!(rt >= 0) || !isFiniteF64(rt)) return fail(s, Status.Rate, base + r);
    const v = remaining[base + r];
    if (!(v >= 0) || !isFiniteF64(v)) return fail(s, Status.Volume, base + r);
  }
  throw new Error("unreachable: the row failed the check but has no bad entry");
}

function fail(s: SrptScratch, code: Status, index: number): Status {
  s.errIndex = index;
  return code;
}

/**
 * The greedy step for the c queues s.ids[from..from+c) in key order, BLOCK at a time (what
 * the row buffer holds); returns the mask of resources at left = 0.
 */
function serveBlock(from: number, c: number, k: number, want: Float64Array, s: SrptScratch, outLambda: Float64Array, zero: number, fast: boolean): number {
  for (let t0 = 0; t0 < c; t0 += BLOCK) zero = serveChunk(from + t0, Math.min(BLOCK, c - t0), k, want, s, outLambda, zero, fast);
  return zero;
}

function serveChunk(from: number, c: number, k: number, want: Float64Array, s: SrptScratch, outLambda: Float64Array, zero: number, fast: boolean): number {
  const { caps, left, rows, ids } = s;
  // gather
  for (let t = 0; t < c; t++) {
    const src = ids[from + t] * k, dst = t * k;
    for (let r = 0; r < k; r++) rows[dst + r] = want[src + r];
  }
  for (let t = 0; t < c; t++) {
    const i = ids[from + t];
    const row = t * k;
    const cap = caps[i];
    // fits: cap * want < left wherever want > 0 -> lambda = cap, nothing runs out
    let fits = fast;
    for (let r = 0; r < k && fits; r++) {
      const w = rows[row + r];
      if (w > 0 && !(cap * w < left[r])) fits = false;
    }
    if (fits) {
      outLambda[i] = cap;
      for (let r = 0; r < k; r++) left[r] = left[r] - cap * rows[row + r];
      continue;
    }
    let lam = cap;
    for (let r = 0; r < k; r++) {
      const w = rows[row + r];
      if (w > 0) lam = Math.min(lam, left[r] / w);
    }
    outLambda[i] = lam;
    for (let r = 0; r < k; r++) {
      // lam = left/want can round lam*want one ulp above left: clamp so nothing goes negative
      const l = Math.max(0, left[r] - lam * rows[row + r]);
      left[r] = l;
      if (l === 0 && r < MASK_BITS) zero |= 1 << r;
    }
  }
  return zero;
}

/** Step 4: allocation = lambda * want (+0 * want = +0 for the skipped queues). */
function allocRows(n: number, k: number, want: Float64Array, outLambda: Float64Array, outAlloc: Float64Array): void {
  for (let i = 0; i < n; i++) {
    const lam = outLambda[i];
    const base = i * k;
    for (let r = 0; r < k; r++) outAlloc[base + r] = lam * want[base + r];
  }
}
