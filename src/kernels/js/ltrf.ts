// Pure-TS twin of assembly/ltrf.ts (Algorithm 1 of the LTRF paper; the algorithm, the bucket
// queue, the sweeps, worked example and edge values are documented there). Same operations
// in the same order, so both backends agree to the last bit. Layout differs only where the
// WASM kernel packs fields for cache lines: nodes and states are parallel typed arrays here,
// the hot heap (assembly/util/keyheap.ts) is three parallel arrays (key, queue index, rank),
// and the touched-ahead loads of the WASM kernel have no counterpart (they change no value).
import { Status } from "../status.js";
import { isFiniteF64 } from "./finite.js";

/** flags bit 0: stop at the first queue whose task does not fit (Algorithm 1 literally). */
export const LTRF_BLOCKING = 1;

const MAX_COUNT = 9007199254740992; // 2^53
const NIL = 0xffffffff; // end of a bucket list (ranks are < N < 2^32 - 1)
const SPREAD = 4;
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
  /** per rank: node (key, next rank in the bucket's list, queue index) and state */
  key = new Float64Array(0);
  next = new Uint32Array(0);
  idx = new Uint32Array(0);
  use = new Float64Array(0);
  left = new Float64Array(0);
  inc = new Float64Array(0);
  w = new Float64Array(0);
  ensure(n: number): void {
    if (this.idx.length >= n) return;
    const c = Math.max(n, this.idx.length * 2);
    this.head = new Uint32Array(SPREAD * c);
    this.hotKey = new Float64Array(c);
    this.hotIdx = new Uint32Array(c);
    this.hotRank = new Uint32Array(c);
    this.key = new Float64Array(c);
    this.next = new Uint32Array(c);
    this.idx = new Uint32Array(c);
    this.use = new Float64Array(c);
    this.left = new Float64Array(c);
    this.inc = new Float64Array(c);
    this.w = new Float64Array(c);
  }
}

export function ltrfKernel(
  n: number, k: number,
  free: Float64Array, task: Float64Array, pending: Float64Array, usage: Float64Array,
  weights: Float64Array | null, inc: Float64Array,
  flags: number,
  outCount: Float64Array, outUsage: Float64Array, outFree: Float64Array,
  s: LtrfScratch,
): Status {
  s.ensure(n);
  const { head, key: nKey, next, idx, use, left } = s;
  const blocking = (flags & LTRF_BLOCKING) !== 0;
  const fail = (code: Status, index: number): Status => {
    s.errIndex = index;
    return code;
  };

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
    nKey[size] = key;
    idx[size] = i;
    use[size] = u;
    left[size] = p;
    s.inc[size] = q;
    s.w[size] = w;
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
  for (let j = 0; j < size; j++) link(s, j, bucketOf(nKey[j], base, scale, nb));

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
          const after = next[j];
          link(s, j, bucketOf(nKey[j], base, scale, nb));
          j = after;
        }
        ovHead = NIL; ovCount = 0; ovLo = Infinity; ovHi = -Infinity;
        cur = -1;
        continue;
      }
      let j = head[cur];
      head[cur] = NIL;
      while (j !== NIL) {
        hotKey[hsize] = nKey[j];
        hotIdx[hsize] = idx[j];
        hotRank[hsize] = j;
        hsize++;
        j = next[j];
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
      for (let h = 0; h < hsize; h++) nKey[hotRank[h]] = hotKey[h];
      let m = 0;
      lo = Infinity; hi = -Infinity;
      for (let c = 0; c < size; c++) {
        if (!(left[c] > 0)) continue;
        const ci = idx[c], crow = ci * k;
        let ok = true;
        for (let r = 0; r < k; r++) {
          if (task[crow + r] > outFree[r]) { ok = false; break; }
        }
        if (!ok) continue;
        const key = nKey[c];
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
    for (let r = 0; r < k; r++) outFree[r] = outFree[r] - task[row + r];
    const u = use[j] + s.inc[j];
    const key = u / s.w[j];
    if (!isFiniteF64(u) || !isFiniteF64(key)) return fail(Status.ShareOverflow, i);
    use[j] = u;
    const p = left[j] - 1;
    left[j] = p;
    if (p === 0) {
      hsize = popTop(s, hsize);
    } else if (key > top) {
      hsize = popTop(s, hsize);
      nKey[j] = key;
      next[j] = ovHead;
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
        nKey[j] = key;
        link(s, j, b);
      }
    }
  }

  for (let j = 0; j < size; j++) {
    const ci = idx[j];
    outCount[ci] = pending[ci] - left[j];
    outUsage[ci] = use[j];
  }
  return Status.OK;
}

function link(s: LtrfScratch, j: number, b: number): void {
  s.next[j] = s.head[b];
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
    const key = (s.use[j] + s.inc[j]) / s.w[j];
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
