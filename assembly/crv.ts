// Phoenix CRV / SRPT worker-queue reordering (docs/policies/phoenix.md, the paper's Algorithm 1),
// over every worker queue of a reordering round at once: the queues are concatenated
// (queue j owns tasks offsets[j] .. offsets[j+1]-1, in current queue order, head first).
//
// Per queue, mode 0 keeps the order (FIFO), mode 1 is SRPT (shortest estimated remaining
// runtime first), mode 2 is CRV: the tasks whose CRV score equals the queue's maximal score
// (when that score is > 0) move ahead, everything else follows in SRPT order. Ties keep the
// current order, so reordering an already ordered queue is a no-op.
//
// Starvation bound: a task that ends up behind a task that was behind it ("bypassed") gets
// slack + 1, once per round; a task whose slack reached `slackThreshold` is never bypassed
// again. The new order is built greedily with a binary heap over the tasks up to and
// including the first frozen one (slack >= threshold); tasks behind it enter the heap only
// after it is placed, so nothing overtakes it. O(p log p) per queue of p tasks.
//
// Worked example (SRPT, threshold 5): queue [A 30 s slack 0, B 5 s slack 5, C 1 s slack 0].
// B is frozen, so the heap holds {A, B}; B (5 s) goes first, then C and A compete: C (1 s).
// New order B, C, A. A was overtaken by B and C -> slack 1; B and C overtook, nobody overtook
// them -> unchanged. Reordered tasks (moved ahead of a task that was ahead of them) = 2.
// In CRV mode with scores A 0.5, B 0, C 2.0: max = 2.0, C is promoted but cannot pass the
// frozen B: order B, C, A — the same here; with B's slack 0 it would be C, B, A.

import { ldf, ldu, stu, ldb, isFiniteF64 } from "./util/mem";
import { OK, E_CRV_OFFSET, E_CRV_SCORE, E_CRV_RUNTIME, E_CRV_SLACK, E_CRV_MODE } from "./util/status";

/** Scratch bytes for t tasks: [error index i32, reordered count i32], new positions, heap. */
export function crvScratchBytes(t: i32): usize {
  return 8 + (<usize>t << 3);
}

/**
 * Reorders q queues holding t tasks. `offsets` (u32, q+1), `score` and `runtime` (f64, t),
 * `slack` (i32, t), `mode` (u8, q). Writes `outOrder` (u32, t: global index of the task now
 * at each global position) and `outSlack` (i32, t, indexed like the input). The number of
 * reordered tasks is the second i32 of scratch; on error the offending index is the first.
 */
export function crvReorder(
  q: i32, t: i32,
  offsets: usize, score: usize, runtime: usize, slack: usize, mode: usize, slackThreshold: i32,
  outOrder: usize, outSlack: usize, scratch: usize,
): i32 {
  store<i32>(scratch + 4, 0);
  if (slackThreshold < 0) return fail(scratch, E_CRV_SLACK, -1);
  // validation pass: the whole input before any output, so an error leaves nothing half-done
  if (ldu(offsets, 0) != 0) return fail(scratch, E_CRV_OFFSET, 0);
  for (let j = 0; j < q; j++) {
    const m = ldb(mode, j);
    if (m > 2) return fail(scratch, E_CRV_MODE, j);
    if (ldu(offsets, j + 1) < ldu(offsets, j) || ldu(offsets, j + 1) > <u32>t) return fail(scratch, E_CRV_OFFSET, j + 1);
  }
  if (ldu(offsets, q) != <u32>t) return fail(scratch, E_CRV_OFFSET, q);
  for (let i = 0; i < t; i++) {
    const s = ldf(score, i);
    if (!(s >= 0) || !isFiniteF64(s)) return fail(scratch, E_CRV_SCORE, i);
    const r = ldf(runtime, i);
    if (!(r >= 0) || !isFiniteF64(r)) return fail(scratch, E_CRV_RUNTIME, i);
    if (load<i32>(slack + (<usize>i << 2)) < 0) return fail(scratch, E_CRV_SLACK, i);
  }

  const newPos = scratch + 8;
  const heap = newPos + (<usize>t << 2);
  let reordered = 0;
  for (let j = 0; j < q; j++) {
    const start = <i32>ldu(offsets, j);
    const len = <i32>ldu(offsets, j + 1) - start;
    const m = ldb(mode, j);
    if (m == 0 || len <= 1) {
      for (let k = 0; k < len; k++) {
        stu(outOrder, start + k, <u32>(start + k));
        store<i32>(outSlack + (<usize>(start + k) << 2), load<i32>(slack + (<usize>(start + k) << 2)));
      }
      continue;
    }
    // the promoted class (CRV mode): score == the queue's maximum, when that maximum is > 0
    let maxScore: f64 = 0;
    if (m == 2) {
      for (let k = 0; k < len; k++) maxScore = max(maxScore, ldf(score, start + k));
    }
    const sc = score + (<usize>start << 3);
    const rt = runtime + (<usize>start << 3);
    const sl = slack + (<usize>start << 2);

    let size = 0; // heap size
    let next = 0; // next local position to enter the heap
    let barrier = -1; // the frozen task currently holding back the rest, or -1
    // push up to and including the first frozen task
    while (next < len) {
      size = heapPush(heap, size, next, sc, rt, maxScore);
      const frozen = load<i32>(sl + (<usize>next << 2)) >= slackThreshold;
      next++;
      if (frozen) { barrier = next - 1; break; }
    }
    for (let k = 0; k < len; k++) {
      const x = <i32>ldu(heap, 0);
      size--;
      if (size > 0) {
        stu(heap, 0, ldu(heap, size));
        siftDown(heap, size, 0, sc, rt, maxScore);
      }
      stu(outOrder, start + k, <u32>(start + x));
      stu(newPos, x, <u32>k);
      if (x == barrier) {
        barrier = -1;
        while (next < len) {
          size = heapPush(heap, size, next, sc, rt, maxScore);
          const frozen = load<i32>(sl + (<usize>next << 2)) >= slackThreshold;
          next++;
          if (frozen) { barrier = next - 1; break; }
        }
      }
    }
    // bypassed: some task that was behind it is now ahead of it
    let minAfter: u32 = <u32>len;
    for (let i = len - 1; i >= 0; i--) {
      const np = ldu(newPos, i);
      const s0 = load<i32>(sl + (<usize>i << 2));
      store<i32>(outSlack + (<usize>(start + i) << 2), minAfter < np ? s0 + 1 : s0);
      if (np < minAfter) minAfter = np;
    }
    // reordered: it is now ahead of some task that was ahead of it
    let maxBefore: i32 = -1;
    for (let i = 0; i < len; i++) {
      const np = <i32>ldu(newPos, i);
      if (maxBefore > np) reordered++;
      if (np > maxBefore) maxBefore = np;
    }
  }
  store<i32>(scratch + 4, reordered);
  return OK;
}

@inline function fail(scratch: usize, code: i32, index: i32): i32 {
  store<i32>(scratch, index);
  return code;
}

/** a goes before b: promoted class first, then shorter runtime, then current position. */
@inline function before(a: i32, b: i32, sc: usize, rt: usize, maxScore: f64): bool {
  const ga = maxScore > 0 && ldf(sc, a) == maxScore ? 0 : 1;
  const gb = maxScore > 0 && ldf(sc, b) == maxScore ? 0 : 1;
  if (ga != gb) return ga < gb;
  const ra = ldf(rt, a), rb = ldf(rt, b);
  if (ra != rb) return ra < rb;
  return a < b;
}

function heapPush(heap: usize, size: i32, x: i32, sc: usize, rt: usize, maxScore: f64): i32 {
  let i = size;
  while (i > 0) {
    const parent = (i - 1) >> 1;
    const p = <i32>ldu(heap, parent);
    if (!before(x, p, sc, rt, maxScore)) break;
    stu(heap, i, <u32>p);
    i = parent;
  }
  stu(heap, i, <u32>x);
  return size + 1;
}

function siftDown(heap: usize, size: i32, i: i32, sc: usize, rt: usize, maxScore: f64): void {
  const x = <i32>ldu(heap, i);
  while (true) {
    let c = 2 * i + 1;
    if (c >= size) break;
    let cv = <i32>ldu(heap, c);
    if (c + 1 < size) {
      const rv = <i32>ldu(heap, c + 1);
      if (before(rv, cv, sc, rt, maxScore)) { c++; cv = rv; }
    }
    if (!before(cv, x, sc, rt, maxScore)) break;
    stu(heap, i, <u32>cv);
    i = c;
  }
  stu(heap, i, <u32>x);
}
