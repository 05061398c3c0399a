// Pure-TS twin of assembly/ltrf.ts (Algorithm 1 of the LTRF paper; the algorithm, worked
// example and edge values are documented there). Same operations in the same order, so
// both backends agree to the last bit.
import { Status } from "../status.js";
import { isFiniteF64 } from "./finite.js";

/** flags bit 0: stop at the first queue whose task does not fit (Algorithm 1 literally). */
export const LTRF_BLOCKING = 1;

const MAX_COUNT = 9007199254740992; // 2^53

export class LtrfScratch {
  errIndex = -1;
  heap = new Uint32Array(0);
  keys = new Float64Array(0);
  left = new Float64Array(0);
  ensure(n: number): void {
    if (this.heap.length >= n) return;
    const c = Math.max(n, this.heap.length * 2);
    this.heap = new Uint32Array(c);
    this.keys = new Float64Array(c);
    this.left = new Float64Array(c);
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
  const { heap, keys, left } = s;
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
    outCount[i] = 0;
    outUsage[i] = u;
    keys[i] = key;
    left[i] = p;
    if (p === 0) continue;
    if (zero && !blocking) {
      const nu = u + p * q;
      if (!isFiniteF64(nu) || !isFiniteF64(nu / w)) return fail(Status.ShareOverflow, i);
      outCount[i] = p;
      outUsage[i] = nu;
      left[i] = 0;
      continue;
    }
    heap[size] = i;
    size++;
  }
  for (let h = (size >> 1) - 1; h >= 0; h--) siftDown(heap, keys, size, h);

  while (size > 0) {
    const i = heap[0];
    const base = i * k;
    let fits = true;
    for (let r = 0; r < k; r++) {
      if (task[base + r] > outFree[r]) { fits = false; break; }
    }
    if (!fits) {
      if (blocking) break;
      size = popTop(heap, keys, size);
      continue;
    }
    for (let r = 0; r < k; r++) outFree[r] = outFree[r] - task[base + r];
    outCount[i] = outCount[i] + 1;
    const u = outUsage[i] + inc[i];
    const key = u / (weights ? weights[i] : 1.0);
    if (!isFiniteF64(u) || !isFiniteF64(key)) return fail(Status.ShareOverflow, i);
    outUsage[i] = u;
    keys[i] = key;
    const p = left[i] - 1;
    left[i] = p;
    if (p === 0) size = popTop(heap, keys, size);
    else siftDown(heap, keys, size, 0);
  }
  return Status.OK;
}

function before(keys: Float64Array, a: number, b: number): boolean {
  const ka = keys[a], kb = keys[b];
  return ka < kb || (ka === kb && a < b);
}

function siftDown(heap: Uint32Array, keys: Float64Array, size: number, pos: number): void {
  const x = heap[pos];
  for (;;) {
    let c = 2 * pos + 1;
    if (c >= size) break;
    let y = heap[c];
    if (c + 1 < size) {
      const z = heap[c + 1];
      if (before(keys, z, y)) { c++; y = z; }
    }
    if (!before(keys, y, x)) break;
    heap[pos] = y;
    pos = c;
  }
  heap[pos] = x;
}

function popTop(heap: Uint32Array, keys: Float64Array, size: number): number {
  size--;
  if (size > 0) {
    heap[0] = heap[size];
    siftDown(heap, keys, size, 0);
  }
  return size;
}
