// LTRF task-level selection: the paper's Algorithm 1 (SPEC §5), one call per scheduling point.
//
// While some queue has a pending task, take the queue i with the smallest accumulated usage
// per unit weight U_i / w_i (ties: lowest index). If its next task fits in the free
// resources, start it: free -= task_i, U_i += inc_i (the usage the task will add, e.g. its
// dominant share x its assumed duration Q), and repeat. If it does not fit, Algorithm 1
// waits for a release: in BLOCKING mode the call stops there (strict head-of-line, the
// paper's line 13); otherwise the queue is set aside for this call (free resources only
// shrink, so it cannot fit later) and the next one is tried, which is work-conserving.
//
// The candidates live in a binary min-heap on (U_i / w_i, i). Starting a task only raises
// the key of the top, so one sift-down restores the order; while the same queue stays the
// smallest that costs two comparisons, and O(log N) only when the lead changes hands.
// Total O(N + T*K + S log N) for T tasks started and S changes of leader, never O(N) per task.
//
// Worked example (the paper's Table 1, step t3, one resource, 1-unit tasks of 1 time unit,
// so inc = 1): free = 100, U = <60, 140>, pending = <80, 70>, w = <1, 1>. A is smallest and
// takes tasks until U_A = 140 = U_B after 80 tasks; then A has none left, B takes the
// remaining 20. Result count = <80, 20>, U = <140, 160>, free = 0.
//
// Edge values: pending 0 -> the queue is skipped; a task of all zeros always fits (in
// work-conserving mode all such tasks start up front, U_i += pending * inc_i); inc = 0 ->
// the queue keeps the lead until it runs out of tasks or room (memoryless within the call);
// a task larger than the capacity never starts; free = 0 -> nothing starts except tasks
// needing nothing.

import { ldf, stf, ldu, stu, align8, isFiniteF64 } from "./util/mem";
import { OK, E_DEMAND, E_WEIGHT, E_SHARE_OVERFLOW, E_AVAILABLE, E_PENDING, E_USAGE, E_INCREMENT } from "./util/status";

/** flags bit 0: stop at the first queue whose task does not fit (Algorithm 1 literally). */
export const LTRF_BLOCKING: i32 = 1;

const MAX_COUNT: f64 = 9007199254740992; // 2^53: pending counts beyond it are not exact integers

/** Scratch: error slot (8 bytes), heap of indices (u32), keys (f64), pending left (f64). */
export function ltrfScratchBytes(n: i32): usize {
  return 8 + align8(<usize>n << 2) + (<usize>n << 4);
}

/**
 * Starts tasks by Algorithm 1. Inputs: free[K], task[N*K] (one task's demand per queue),
 * pending[N] (whole numbers), usage[N] (accumulated U_i), weights[N] or 0 (all ones),
 * inc[N] (usage added per task). Outputs: count[N] tasks started, outUsage[N] the updated
 * U_i, outFree[K] what is left. On error returns a status and stores the index at scratch.
 */
export function ltrf(
  n: i32, k: i32,
  free: usize, task: usize, pending: usize, usage: usize, weights: usize, inc: usize,
  flags: i32,
  outCount: usize, outUsage: usize, outFree: usize,
  scratch: usize,
): i32 {
  const heap = scratch + 8;
  const keys = heap + align8(<usize>n << 2);
  const left = keys + (<usize>n << 3);
  const blocking = (flags & LTRF_BLOCKING) != 0;

  for (let r = 0; r < k; r++) {
    const f = ldf(free, r);
    if (!(f >= 0) || !isFiniteF64(f)) return fail(scratch, E_AVAILABLE, r);
    stf(outFree, r, f);
  }

  // Pass 1: validate, keys, the heap's initial contents.
  let size = 0;
  for (let i = 0; i < n; i++) {
    const w = weights ? ldf(weights, i) : 1.0;
    if (!(w > 0) || !isFiniteF64(w)) return fail(scratch, E_WEIGHT, i);
    const u = ldf(usage, i);
    if (!(u >= 0) || !isFiniteF64(u)) return fail(scratch, E_USAGE, i);
    const q = ldf(inc, i);
    if (!(q >= 0) || !isFiniteF64(q)) return fail(scratch, E_INCREMENT, i);
    const p = ldf(pending, i);
    if (!(p >= 0) || !(p <= MAX_COUNT) || p != Math.floor(p)) return fail(scratch, E_PENDING, i);
    let zero = true;
    const base = i * k;
    for (let r = 0; r < k; r++) {
      const d = ldf(task, base + r);
      if (!(d >= 0) || !isFiniteF64(d)) return fail(scratch, E_DEMAND, base + r);
      if (d > 0) zero = false;
    }
    const key = u / w;
    if (!isFiniteF64(key)) return fail(scratch, E_SHARE_OVERFLOW, i);
    stf(outCount, i, 0);
    stf(outUsage, i, u);
    stf(keys, i, key);
    stf(left, i, p);
    if (p == 0) continue;
    if (zero && !blocking) {
      // Needs nothing, so it starts regardless of order and delays nobody.
      const nu = u + p * q;
      if (!isFiniteF64(nu) || !isFiniteF64(nu / w)) return fail(scratch, E_SHARE_OVERFLOW, i);
      stf(outCount, i, p);
      stf(outUsage, i, nu);
      stf(left, i, 0);
      continue;
    }
    stu(heap, size, <u32>i);
    size++;
  }
  for (let h = (size >> 1) - 1; h >= 0; h--) siftDown(heap, keys, size, h);

  while (size > 0) {
    const i = <i32>ldu(heap, 0);
    const base = i * k;
    let fits = true;
    for (let r = 0; r < k; r++) {
      if (ldf(task, base + r) > ldf(outFree, r)) { fits = false; break; }
    }
    if (!fits) {
      if (blocking) break;
      size = popTop(heap, keys, size);
      continue;
    }
    for (let r = 0; r < k; r++) stf(outFree, r, ldf(outFree, r) - ldf(task, base + r));
    stf(outCount, i, ldf(outCount, i) + 1);
    const u = ldf(outUsage, i) + ldf(inc, i);
    const key = u / (weights ? ldf(weights, i) : 1.0);
    if (!isFiniteF64(u) || !isFiniteF64(key)) return fail(scratch, E_SHARE_OVERFLOW, i);
    stf(outUsage, i, u);
    stf(keys, i, key);
    const p = ldf(left, i) - 1;
    stf(left, i, p);
    if (p == 0) size = popTop(heap, keys, size);
    else siftDown(heap, keys, size, 0);
  }
  return OK;
}

@inline function fail(scratch: usize, code: i32, index: i32): i32 {
  store<i32>(scratch, index);
  return code;
}

/** (key, index) order: the smaller key wins, ties go to the lower queue index. */
@inline function before(keys: usize, a: u32, b: u32): bool {
  const ka = ldf(keys, <i32>a), kb = ldf(keys, <i32>b);
  return ka < kb || (ka == kb && a < b);
}

function siftDown(heap: usize, keys: usize, size: i32, pos: i32): void {
  const x = ldu(heap, pos);
  for (;;) {
    let c = 2 * pos + 1;
    if (c >= size) break;
    let y = ldu(heap, c);
    if (c + 1 < size) {
      const z = ldu(heap, c + 1);
      if (before(keys, z, y)) { c++; y = z; }
    }
    if (!before(keys, y, x)) break;
    stu(heap, pos, y);
    pos = c;
  }
  stu(heap, pos, x);
}

function popTop(heap: usize, keys: usize, size: i32): i32 {
  size--;
  if (size > 0) {
    stu(heap, 0, ldu(heap, size));
    siftDown(heap, keys, size, 0);
  }
  return size;
}
