// Pure-TS twin of assembly/ltrf.ts (Algorithm 1 of the LTRF paper; the algorithm, the bucket
// queue, the sweeps, worked example and edge values are documented there). Same operations
// in the same order, so both backends agree to the last bit. Layout differs only where the
// WASM kernel packs fields for cache lines: a rank's node and state are one row of 8 numbers,
// the hot heap (assembly/util/keyheap.ts) is three parallel arrays (key, queue index, rank),
// and the touched-ahead loads of the WASM kernel have no counterpart (they change no value).
import { Status } from "../status.js";
import { isFiniteF64 } from "../util/finite.js";

/** flags bit 0: stop at the first queue whose task does not fit (Algorithm 1 literally). */
export const LTRF_BLOCKING = 1;
/** flags bit 1: reaching maxStarts ends the call with OK (a resumable prefix) instead of StartLimit. */
export const LTRF_PARTIAL = 2;

const MAX_COUNT = 9007199254740992; // 2^53
const NIL = 0xffffffff; // end of a bucket list (ranks are < N < 2^32 - 1)
const SPREAD = 4;
// fields of a rank's record (8 numbers, one 64-byte line)
const R_KEY = 0, R_NEXT = 1, R_IDX = 2, R_USE = 3, R_LEFT = 4, R_INC = 5, R_W = 6;
const SWEEP_SHARE = 16;
const SWEEP_MIN = 32;

export class LtrfScratch {
  errIndex = -1;
  /** bucket heads (ranks) */
  head = new Uint32Array(0);
  /** hot heap: key, queue index, rank */
  hotKey = new Float64Array(0);
  hotIdx = new Uint32Array(0);
  hotRank = new Uint32Array(0);
  /** per rank, 8 numbers: node (key, next rank in the bucket's list, queue index) and state (usage, left, increment, weight) */
  rec = new Float64Array(0);
  ensure(n: number): void {
    if (this.rec.length >= 8 * n) return;
    const c = Math.max(n, this.rec.length / 4);
    this.head = new Uint32Array(SPREAD * c);
    this.hotKey = new Float64Array(c);
    this.hotIdx = new Uint32Array(c);
    this.hotRank = new Uint32Array(c);
    this.rec = new Float64Array(8 * c);
  }
}

export function ltrfKernel(
  n: number, k: number,
  free: Float64Array, task: Float64Array, pending: Float64Array, usage: Float64Array,
  weights: Float64Array | null, inc: Float64Array, maxStarts: Float64Array,
  flags: number,
  outCount: Float64Array, outUsage: Float64Array, outFree: Float64Array,
  s: LtrfScratch,
): Status {
  s.ensure(n);
  const { head, rec } = s;
  const blocking = (flags & LTRF_BLOCKING) !== 0;
  const fail = (code: Status, index: number): Status => {
    s.errIndex = index;
    return code;
  };
  const limit = maxStarts[0];
  if (!(limit >= 0) || (limit !== Infinity && limit !== Math.floor(limit))) return fail(Status.MaxStarts, 0);
  let started = 0;
  let stopCode = Status.OK, stopIndex = 0;

  for (let r = 0; r < k; r++) {
    const f = free[r];
    if (!(f >= 0) || !isFiniteF64(f)) return fail(Status.Available, r);
    outFree[r] = f;
  }

  let size = 0;
  let lo = Infinity, hi = -Infinity;
  for (let i = 0; i < n; i++) {
    const w = weights ? weights[i] : 1.0;
    if (!(w > 0) || !isFiniteF64(w)) return fail(Status.Weight, i);
    const u = usage[i];
    if (!(u >= 0) || !isFiniteF64(u)) return fail(Status.Usage, i);
    const q = inc[i];
    if (!(q >= 0) || !isFiniteF64(q)) return fail(Status.Increment, i);
    const p = pending[i];
    if (!(p >= 0) || !(p <= MAX_COUNT) || p !== Math.floor(p)) return fail(Status.Pending, i);
    let zero = true;
    const base = i * k;
    for (let r = 0; r < k; r++) {
      const d = task[base + r];
      if (!(d >= 0) || !isFiniteF64(d)) return fail(Status.Demand, base + r);
      if (d > 0) zero = false;
    }
    const key = u / w;
    if (!isFiniteF64(key)) return fail(Status.ShareOverflow, i);
    if (p === 0) {
      outCount[i] = 0;
      outUsage[i] = u;
      continue;
    }
    if (zero && !blocking) {
      const nu = u + p * q;
      if (!isFiniteF64(nu) || !isFiniteF64(nu / w)) return fail(Status.ShareOverflow, i);
      outCount[i] = p;
      outUsage[i] = nu;
      continue;
    }
    const at = 8 * size;
    rec[at + R_KEY] = key;
    rec[at + R_IDX] = i;
    rec[at + R_USE] = u;
    rec[at + R_LEFT] = p;
    rec[at + R_INC] = q;
    rec[at + R_W] = w;
    size++;
    if (key < lo) lo = key;
    if (key > hi) hi = key;
  }
  if (size === 0) return Status.OK;
  if (hi === lo) hi = nextKeyMax(s, size, lo);

  const { hotKey, hotIdx, hotRank } = s;
  let base = lo, top = hi, nb = size * SPREAD;
  let scale = scaleOf(base, top, nb);
  head.fill(NIL, 0, nb);
  for (let j = 0; j < size; j++) link(s, j, bucketOf(rec[8 * j + R_KEY], base, scale, nb));

  let cur = -1;
  let hsize = 0;
  let ovHead = NIL, ovCount = 0, ovLo = Infinity, ovHi = -Infinity;
  let aside = 0;
  const sweepAfter = Math.floor(size / SWEEP_SHARE) + SWEEP_MIN;
  for (;;) {
    if (hsize === 0) {
      cur++;
      while (cur < nb && head[cur] === NIL) cur++;
      if (cur === nb) {
        if (ovCount === 0) break;
        base = ovLo; top = ovHi; nb = ovCount * SPREAD;
        scale = scaleOf(base, top, nb);
        head.fill(NIL, 0, nb);
        let j = ovHead;
        while (j !== NIL) {
          const after = rec[8 * j + R_NEXT];
          link(s, j, bucketOf(rec[8 * j + R_KEY], base, scale, nb));
          j = after;
        }
        ovHead = NIL; ovCount = 0; ovLo = Infinity; ovHi = -Infinity;
        cur = -1;
        continue;
      }
      let j = head[cur];
      head[cur] = NIL;
      while (j !== NIL) {
        hotKey[hsize] = rec[8 * j + R_KEY];
        hotIdx[hsize] = rec[8 * j + R_IDX];
        hotRank[hsize] = j;
        hsize++;
        j = rec[8 * j + R_NEXT];
      }
      for (let h = (hsize >> 1) - 1; h >= 0; h--) siftDown(s, hsize, h, hotKey[h], hotIdx[h], hotRank[h]);
    }

    const i = hotIdx[0], j = hotRank[0];
    const row = i * k;
    let fits = true;
    for (let r = 0; r < k; r++) {
      if (task[row + r] > outFree[r]) { fits = false; break; }
    }
    if (!fits) {
      if (blocking) break;
      hsize = popTop(s, hsize);
      if (++aside < sweepAfter) continue;
      for (let h = 0; h < hsize; h++) rec[8 * hotRank[h] + R_KEY] = hotKey[h];
      let m = 0;
      lo = Infinity; hi = -Infinity;
      for (let c = 0; c < size; c++) {
        if (!(rec[8 * c + R_LEFT] > 0)) continue;
        const ci = rec[8 * c + R_IDX], crow = ci * k;
        let ok = true;
        for (let r = 0; r < k; r++) {
          if (task[crow + r] > outFree[r]) { ok = false; break; }
        }
        if (!ok) continue;
        const key = rec[8 * c + R_KEY];
        hotKey[m] = key;
        hotIdx[m] = ci;
        hotRank[m] = c;
        m++;
        if (key < lo) lo = key;
        if (key > hi) hi = key;
      }
      if (m === 0) break;
      base = lo; top = hi; nb = m * SPREAD;
      scale = scaleOf(base, top, nb);
      head.fill(NIL, 0, nb);
      for (let h = 0; h < m; h++) link(s, hotRank[h], bucketOf(hotKey[h], base, scale, nb));
      hsize = 0;
      ovHead = NIL; ovCount = 0; ovLo = Infinity; ovHi = -Infinity;
      cur = -1;
      aside = 0;
      continue;
    }
    if (started === limit) {
      if ((flags & LTRF_PARTIAL) === 0) { stopCode = Status.StartLimit; stopIndex = i; }
      break;
    }
    started += 1;
    for (let r = 0; r < k; r++) outFree[r] = outFree[r] - task[row + r];
    const at = 8 * j;
    const u = rec[at + R_USE] + rec[at + R_INC];
    const key = u / rec[at + R_W];
    if (!isFiniteF64(u) || !isFiniteF64(key)) return fail(Status.ShareOverflow, i);
    rec[at + R_USE] = u;
    const p = rec[at + R_LEFT] - 1;
    rec[at + R_LEFT] = p;
    if (p === 0) {
      hsize = popTop(s, hsize);
    } else if (key > top) {
      hsize = popTop(s, hsize);
      rec[at + R_KEY] = key;
      rec[at + R_NEXT] = ovHead;
      ovHead = j;
      ovCount++;
      if (key < ovLo) ovLo = key;
      if (key > ovHi) ovHi = key;
    } else {
      const b = bucketOf(key, base, scale, nb);
      if (b === cur) {
        siftDown(s, hsize, 0, key, i, j);
      } else {
        hsize = popTop(s, hsize);
        rec[at + R_KEY] = key;
        link(s, j, b);
      }
    }
  }

  for (let j = 0; j < size; j++) {
    const ci = rec[8 * j + R_IDX];
    outCount[ci] = pending[ci] - rec[8 * j + R_LEFT];
    outUsage[ci] = rec[8 * j + R_USE];
  }
  return stopCode === Status.OK ? Status.OK : fail(stopCode, stopIndex);
}

function link(s: LtrfScratch, j: number, b: number): void {
  s.rec[8 * j + R_NEXT] = s.head[b];
  s.head[b] = j;
}

function scaleOf(base: number, top: number, nb: number): number {
  const span = top - base;
  const scale = span > 0 ? nb / span : 0;
  return isFiniteF64(scale) ? scale : 0;
}

function bucketOf(key: number, base: number, scale: number, nb: number): number {
  const t = (key - base) * scale;
  return t < nb ? t | 0 : nb - 1;
}

function nextKeyMax(s: LtrfScratch, size: number, lo: number): number {
  let top = lo;
  for (let j = 0; j < size; j++) {
    const key = (s.rec[8 * j + R_USE] + s.rec[8 * j + R_INC]) / s.rec[8 * j + R_W];
    if (key > top && isFiniteF64(key)) top = key;
  }
  return top;
}

/** Twin of khSiftDown: places (key, id, aux) into the hole at pos and moves it down; order (key, id). */
function siftDown(s: LtrfScratch, size: number, pos: number, key: number, id: number, aux: number): void {
  const { hotKey, hotIdx, hotRank } = s;
  for (;;) {
    let c = 2 * pos + 1;
    if (c >= size) break;
    let ck = hotKey[c], ci = hotIdx[c];
    if (c + 1 < size) {
      const dk = hotKey[c + 1], di = hotIdx[c + 1];
      if (dk < ck || (dk === ck && di < ci)) { c++; ck = dk; ci = di; }
    }
    if (!(ck < key || (ck === key && ci < id))) break;
    hotKey[pos] = ck;
    hotIdx[pos] = ci;
    hotRank[pos] = hotRank[c];
    pos = c;
  }
  hotKey[pos] = key;
  hotIdx[pos] = id;
  hotRank[pos] = aux;
}

function popTop(s: LtrfScratch, size: number): number {
  size--;
  if (size > 0) siftDown(s, size, 0, s.hotKey[size], s.hotIdx[size], s.hotRank[size]);
  return size;
}
