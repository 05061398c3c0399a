// LTRF task-level selection: the paper's Algorithm 1 (docs/policies/ltrf.md), one call per scheduling point.
//
// While some queue has a pending task, take the queue i with the smallest accumulated usage
// per unit weight U_i / w_i (ties: lowest index). If its next task fits in the free
// resources, start it: free -= task_i, U_i += inc_i (the usage the task will add, e.g. its
// dominant share x its assumed duration Q), and repeat. If it does not fit, Algorithm 1
// waits for a release: in BLOCKING mode the call stops there (strict head-of-line, the
// paper's line 13); otherwise the queue is set aside for this call (free resources only
// shrink, so it cannot fit later) and the next one is tried, which is work-conserving.
//
// Selection order: a monotone bucket queue. Each queue's key only grows (U_i += inc_i >= 0)
// and a start raises the key of the queue that had the smallest one, so no key ever inserted
// is below the last key taken. The candidates (queues with pending tasks that were not
// started up front) sit in buckets over a key range [base, top]:
//   bucket(key) = min(floor((key - base) * scale), nb - 1),  scale = nb / (top - base),
// nb = SPREAD (4) x the number of candidates, keys above top in an overflow list. Every
// step of bucket() rounds monotonically, so a smaller key never lands in a later bucket:
// everything in a later bucket has a strictly larger key than everything in the current
// one. The buckets are taken in order, each through a small binary heap on (key, i) (the
// "hot" heap, assembly/util/keyheap.ts), which gives exactly Algorithm 1's order, ties
// included. A started queue whose new key still falls in the current bucket is sifted down
// in the hot heap; otherwise it is pushed onto its bucket's list or the overflow, O(1).
// When the buckets run out, the overflow becomes the next pass, over [its min, its max].
//
// Sweeps (work-conserving mode): setting a queue aside changes nothing but that queue, so
// the order in which non-fitting queues are found does not matter. After every C/16 + 32
// queues set aside (C = the number of candidates), one pass over the candidates in rank
// order drops every queue whose task no longer fits and rebuilds the buckets from the ones
// left. When the cluster fills up, most candidates are dropped there, reading memory in
// order, instead of one cache miss each at the top of the heap. At most ~16 sweeps.
//
// Cost: O(N K + T K + S) for T tasks started and S bucket moves, plus the hot heaps' log
// of a bucket's size: a few entries when keys are spread (the bench: 5.5 on average), one
// heap of all candidates when all keys are equal (O(log N) per operation, never worse).
// Each pass costs O(its buckets), and every queue in the overflow started a task in the
// previous pass, so passes add O(T); sweeps add at most ~16 passes over the candidates.
// The result never depends on the bucket layout, only the speed does.
//
// Memory: per candidate, by rank (position among the candidates, increasing with i), a
// 16-byte node (key, list link, queue index) and a 32-byte state (usage, tasks left,
// increment, weight). Loading a bucket also loads its members' task and state, so those
// cache misses overlap instead of coming one at a time at the top of the heap. Counts and
// usages are written back at the end: count = pending - left (exact: integers < 2^53).
//
// Worked example (the paper's Table 1, step t3, one resource, 1-unit tasks of 1 time unit,
// so inc = 1): free = 100, U = <60, 140>, pending = <80, 70>, w = <1, 1>. A is smallest and
// takes tasks until U_A = 140 = U_B after 80 tasks; then A has none left, B takes the
// remaining 20. Result count = <80, 20>, U = <140, 160>, free = 0. Buckets: nb = 8 over
// [60, 140], scale = 8/80: A in bucket 0, B in bucket 7 (t = 8, clamped to nb - 1). A's keys
// 61..69 stay in bucket 0 (sifted in the hot heap, alone), 70 moves it to bucket 1, and so
// on; at 130 it meets B in bucket 7 and keeps the lead (130..139 < 140); its 80th task
// brings U_A to 140 and leaves it no task. B's next key 141 > top goes to the overflow, and
// each later pass (4 buckets over [141, 141], ...) holds B alone until free = 0.
//
// Start limit: Algorithm 1 starts one task at a time, so a call costs O(tasks started), and
// that count is not bounded by N: pending 10^9 tasks of 10^-9 of the cluster each start 10^9
// times (about a minute), and a task below half an ulp of what is free leaves free unchanged,
// so up to 2^53 per queue would start (hours). maxStarts bounds it: the start that would be
// number maxStarts + 1 is not made. Without LTRF_PARTIAL the call returns E_START_LIMIT (the
// wrapper's default: an error naming maxStarts); with it, OK. Either way the outputs hold the
// starts made, an exact prefix of Algorithm 1's order: a call on pending - count, the new
// usage and free continues it to the same bits as one call with no limit (free only shrinks,
// so the queues set aside are found again). Tasks needing nothing start up front and do not
// count. maxStarts = +Infinity: no limit; 0: nothing but those starts.
//
// Edge values: pending 0 -> the queue is skipped; a task of all zeros always fits (in
// work-conserving mode all such tasks start up front, U_i += pending * inc_i); inc = 0 ->
// the key does not move, the queue keeps the lead until it runs out of tasks or room
// (memoryless within the call); a task larger than the capacity never starts; free = 0 ->
// nothing starts except tasks needing nothing; all keys equal -> one bucket, the range is
// then taken up to the largest key after one more task to spread the next round.

import { ldf, stf, ldu, stu, align8, isFiniteF64 } from "./util/mem";
import { keyHeapBytes, khKey, khId, khAux, khSet, khSiftDown, khBuild, khPop } from "./util/keyheap";
import { OK, E_DEMAND, E_WEIGHT, E_SHARE_OVERFLOW, E_AVAILABLE, E_PENDING, E_USAGE, E_INCREMENT, E_START_LIMIT, E_MAX_STARTS } from "./util/status";

/** flags bit 0: stop at the first queue whose task does not fit (Algorithm 1 literally). */
export const LTRF_BLOCKING: i32 = 1;
/** flags bit 1: reaching maxStarts ends the call with OK (a resumable prefix) instead of E_START_LIMIT. */
export const LTRF_PARTIAL: i32 = 2;

const MAX_COUNT: f64 = 9007199254740992; // 2^53: pending counts beyond it are not exact integers
const NIL: u32 = 0xffffffff; // end of a bucket list (ranks are < N < 2^32 - 1)
// buckets per candidate: fewer queues per bucket, smaller hot heaps (docs/notes/kernels.md)
const SPREAD: i32 = 4;
// a sweep after every (candidates / SWEEP_SHARE + SWEEP_MIN) queues set aside: at most ~16
const SWEEP_SHARE: i32 = 16;
const SWEEP_MIN: i32 = 32;

// A candidate's node (16 bytes): key, next rank in its bucket's list, queue index.
const N_KEY = 0, N_NEXT = 8, N_IDX = 12;
// A candidate's state (32 bytes, two per cache line): usage, tasks left, increment, weight.
const S_USE = 0, S_LEFT = 8, S_INC = 16, S_W = 24;

/** Scratch: error slot (8 bytes), SPREAD bucket heads per queue (u32), hot heap (16 bytes), per rank a node (16 bytes) and a state (32 bytes). */
export function ltrfScratchBytes(n: i32): f64 {
  // in f64: exact, so a size beyond the 32-bit address space shows as such instead of wrapping
  const N = <f64>n;
  return 8 + 4 * SPREAD * N + 64 + 16 * N + 16 * N + 32 * N;
}

@inline function nodeAt(nodes: usize, j: u32): usize {
  return nodes + (<usize>j << 4);
}
@inline function stateAt(states: usize, j: u32): usize {
  return states + (<usize>j << 5);
}
@inline function rowAt(task: usize, i: u32, k: i32): usize {
  return task + ((<usize>i * <usize>k) << 3);
}
/** Pushes rank j onto bucket b's list. */
@inline function link(nodes: usize, head: usize, j: u32, b: i32): void {
  store<u32>(nodeAt(nodes, j), ldu(head, b), N_NEXT);
  stu(head, b, j);
}

/**
 * Starts tasks by Algorithm 1. Inputs: free[K], task[N*K] (one task's demand per queue),
 * pending[N] (whole numbers), usage[N] (accumulated U_i), weights[N] or 0 (all ones),
 * inc[N] (usage added per task), maxStarts[1] (see "Start limit" above). Outputs: count[N]
 * tasks started, outUsage[N] the updated U_i, outFree[K] what is left. On error returns a
 * status and stores the index at scratch.
 */
export function ltrf(
  n: i32, k: i32,
  free: usize, task: usize, pending: usize, usage: usize, weights: usize, inc: usize, maxStarts: usize,
  flags: i32,
  outCount: usize, outUsage: usize, outFree: usize,
  scratch: usize,
): i32 {
  const head = scratch + 8;
  const hot = (head + (<usize>n << 2) * SPREAD + 63) & ~(<usize>63);
  const nodes = hot + keyHeapBytes(n);
  const states = nodes + (<usize>n << 4);
  const blocking = (flags & LTRF_BLOCKING) != 0;
  const limit = ldf(maxStarts, 0);
  if (!(limit >= 0) || (limit != Infinity && limit != Math.floor(limit))) return fail(scratch, E_MAX_STARTS, 0);
  let started: f64 = 0; // tasks started one by one (not the needs-nothing ones, started up front)
  let stopCode = OK, stopIndex = 0;

  for (let r = 0; r < k; r++) {
    const f = ldf(free, r);
    if (!(f >= 0) || !isFiniteF64(f)) return fail(scratch, E_AVAILABLE, r);
    stf(outFree, r, f);
  }

  // Pass 1: validate; the results of queues that are not candidates; the candidates' nodes
  // and states (rank = position among the candidates, increasing with i) and key range.
  let size = 0;
  let lo = Infinity, hi = -Infinity;
  for (let i = 0; i < n; i++) {
    const w = weights ? ldf(weights, i) : 1.0;
    if (!(w > 0) || !isFiniteF64(w)) return fail(scratch, E_WEIGHT, i);
    const u = ldf(usage, i);
    if (!(u >= 0) || !isFiniteF64(u)) return fail(scratch, E_USAGE, i);
    const q = ldf(inc, i);
    if (!(q >= 0) || !isFiniteF64(q)) return fail(scratch, E_INCREMENT, i);
    const p = ldf(pending, i);
    if (!(p >= 0) || !(p <= MAX_COUNT) || p != Math.floor(p)) return fail(scratch, E_PENDING, i);
    const base = i * k;
    const zero = rowIsZero(task + (<usize>base << 3), k);
    if (zero < 0) return fail(scratch, E_DEMAND, base + badDemand(task + (<usize>base << 3), k));
    const key = u / w;
    if (!isFiniteF64(key)) return fail(scratch, E_SHARE_OVERFLOW, i);
    if (p == 0) {
      stf(outCount, i, 0);
      stf(outUsage, i, u);
      continue;
    }
    if (zero == 1 && !blocking) {
      // Needs nothing, so it starts regardless of order and delays nobody.
      const nu = u + p * q;
      if (!isFiniteF64(nu) || !isFiniteF64(nu / w)) return fail(scratch, E_SHARE_OVERFLOW, i);
      stf(outCount, i, p);
      stf(outUsage, i, nu);
      continue;
    }
    const node = nodeAt(nodes, <u32>size), st = stateAt(states, <u32>size);
    store<f64>(node, key, N_KEY);
    store<u32>(node, <u32>i, N_IDX);
    store<f64>(st, u, S_USE);
    store<f64>(st, p, S_LEFT);
    store<f64>(st, q, S_INC);
    store<f64>(st, w, S_W);
    size++;
    if (key < lo) lo = key;
    if (key > hi) hi = key;
  }
  if (size == 0) return OK;
  if (hi == lo) hi = nextKeyMax(states, size, lo);

  // First pass of the buckets: SPREAD per candidate over [lo, hi].
  let base = lo, top = hi, nb = size * SPREAD;
  let scale = scaleOf(base, top, nb);
  memory.fill(head, 0xff, <usize>nb << 2); // all NIL
  for (let j: u32 = 0; j < <u32>size; j++) link(nodes, head, j, bucketOf(load<f64>(nodeAt(nodes, j), N_KEY), base, scale, nb));

  let cur = -1; // the bucket the hot heap holds
  let hsize = 0;
  let ovHead = NIL, ovCount = 0, ovLo = Infinity, ovHi = -Infinity; // keys above top
  let aside = 0; // queues set aside since the last sweep
  const sweepAfter = size / SWEEP_SHARE + SWEEP_MIN;
  let sink: f64 = 0; // touched-ahead loads (see below) land here
  for (;;) {
    if (hsize == 0) {
      cur++;
      while (cur < nb && ldu(head, cur) == NIL) cur++;
      if (cur == nb) {
        if (ovCount == 0) break;
        // Every candidate left started a task in this pass and went beyond top: a new pass
        // over [ovLo, ovHi], SPREAD buckets per candidate.
        base = ovLo; top = ovHi; nb = ovCount * SPREAD;
        scale = scaleOf(base, top, nb);
        memory.fill(head, 0xff, <usize>nb << 2);
        let j = ovHead;
        while (j != NIL) {
          const after = load<u32>(nodeAt(nodes, j), N_NEXT);
          link(nodes, head, j, bucketOf(load<f64>(nodeAt(nodes, j), N_KEY), base, scale, nb));
          j = after;
        }
        ovHead = NIL; ovCount = 0; ovLo = Infinity; ovHi = -Infinity;
        cur = -1;
        continue;
      }
      // Load the bucket into the hot heap. The loads of each member's task and state are
      // issued now, side by side, rather than one miss at a time when it reaches the top.
      let j = ldu(head, cur);
      stu(head, cur, NIL);
      while (j != NIL) {
        const node = nodeAt(nodes, j);
        const i = load<u32>(node, N_IDX);
        khSet(hot, hsize++, load<f64>(node, N_KEY), i, j);
        sink += load<f64>(rowAt(task, i, k)) + load<f64>(stateAt(states, j), S_LEFT);
        j = load<u32>(node, N_NEXT);
      }
      khBuild(hot, hsize);
    }

    const i = khId(hot, 0), j = khAux(hot, 0);
    const row = rowAt(task, i, k);
    if (!fits(row, outFree, k)) {
      if (blocking) break;
      hsize = khPop(hot, hsize);
      if (++aside < sweepAfter) continue;
      // Sweep: free only shrinks, so a queue whose task does not fit now never will, and in
      // this mode setting it aside changes nothing else: drop all such queues at once, in
      // one pass in rank order, and start a new bucket pass over the ones left.
      for (let h = 0; h < hsize; h++) store<f64>(nodeAt(nodes, khAux(hot, h)), khKey(hot, h), N_KEY);
      let m = 0;
      lo = Infinity; hi = -Infinity;
      for (let c: u32 = 0; c < <u32>size; c++) {
        if (!(load<f64>(stateAt(states, c), S_LEFT) > 0)) continue;
        const node = nodeAt(nodes, c);
        const ci = load<u32>(node, N_IDX);
        if (!fits(rowAt(task, ci, k), outFree, k)) continue;
        const key = load<f64>(node, N_KEY);
        khSet(hot, m++, key, ci, c);
        if (key < lo) lo = key;
        if (key > hi) hi = key;
      }
      if (m == 0) break;
      base = lo; top = hi; nb = m * SPREAD;
      scale = scaleOf(base, top, nb);
      memory.fill(head, 0xff, <usize>nb << 2);
      for (let h = 0; h < m; h++) link(nodes, head, khAux(hot, h), bucketOf(khKey(hot, h), base, scale, nb));
      hsize = 0;
      ovHead = NIL; ovCount = 0; ovLo = Infinity; ovHi = -Infinity;
      cur = -1;
      aside = 0;
      continue;
    }
    if (started == limit) {
      if ((flags & LTRF_PARTIAL) == 0) { stopCode = E_START_LIMIT; stopIndex = <i32>i; }
      break;
    }
    started += 1;
    take(row, outFree, k);
    const st = stateAt(states, j);
    const u = load<f64>(st, S_USE) + load<f64>(st, S_INC);
    const key = u / load<f64>(st, S_W);
    if (!isFiniteF64(u) || !isFiniteF64(key)) return fail(scratch, E_SHARE_OVERFLOW, <i32>i);
    store<f64>(st, u, S_USE);
    const p = load<f64>(st, S_LEFT) - 1;
    store<f64>(st, p, S_LEFT);
    if (p == 0) {
      hsize = khPop(hot, hsize);
    } else if (key > top) {
      hsize = khPop(hot, hsize);
      store<f64>(nodeAt(nodes, j), key, N_KEY);
      store<u32>(nodeAt(nodes, j), ovHead, N_NEXT);
      ovHead = j;
      ovCount++;
      if (key < ovLo) ovLo = key;
      if (key > ovHi) ovHi = key;
    } else {
      const b = bucketOf(key, base, scale, nb);
      if (b == cur) {
        khSiftDown(hot, hsize, 0, key, i, j);
      } else {
        hsize = khPop(hot, hsize);
        store<f64>(nodeAt(nodes, j), key, N_KEY);
        link(nodes, head, j, b);
      }
    }
  }

  // Write back the candidates' results, in rank (= index) order.
  for (let j: u32 = 0; j < <u32>size; j++) {
    const ci = <i32>load<u32>(nodeAt(nodes, j), N_IDX);
    const st = stateAt(states, j);
    stf(outCount, ci, ldf(pending, ci) - load<f64>(st, S_LEFT));
    stf(outUsage, ci, load<f64>(st, S_USE));
  }
  if (sink < 0) store<f64>(scratch, sink); // never true (all loads are >= 0): keeps the loads
  return stopCode == OK ? OK : fail(scratch, stopCode, stopIndex);
}

@inline function fail(scratch: usize, code: i32, index: i32): i32 {
  store<i32>(scratch, index);
  return code;
}

/** nb buckets over [base, top]; 0 (one bucket for everything) when the range is empty or too narrow to divide. */
@inline function scaleOf(base: f64, top: f64, nb: i32): f64 {
  const span = top - base;
  const scale = span > 0 ? <f64>nb / span : 0.0;
  return isFiniteF64(scale) ? scale : 0.0;
}

/**
 * Bucket of a key in [base, top]: floor((key - base) * scale), at most nb - 1. Every step
 * rounds monotonically, so a smaller key never lands in a later bucket.
 */
@inline function bucketOf(key: f64, base: f64, scale: f64, nb: i32): i32 {
  const t = (key - base) * scale;
  return t < <f64>nb ? <i32>t : nb - 1;
}

/**
 * One task's K demands: 1 if all are 0, 0 if some is > 0, -1 if one is not a finite number
 * >= 0 (NaN fails every comparison). Two per f64x2, one branch per row.
 */
@inline function rowIsZero(row: usize, k: i32): i32 {
  const zero = f64x2.splat(0), inf = f64x2.splat(Infinity);
  let ok = i64x2.splat(-1), pos = i64x2.splat(0);
  let off: usize = 0;
  const end = <usize>(k & ~1) << 3;
  for (; off < end; off += 16) {
    const d = v128.load(row + off);
    ok = v128.and(ok, v128.and(f64x2.ge(d, zero), f64x2.lt(d, inf)));
    pos = v128.or(pos, f64x2.gt(d, zero));
  }
  let good = v128.all_true<i64>(ok), some = v128.any_true(pos);
  if (k & 1) {
    const d = load<f64>(row + end);
    good = good && d >= 0 && d < Infinity;
    some = some || d > 0;
  }
  return good ? (some ? 0 : 1) : -1;
}

/** The first demand of a row that rowIsZero rejected. */
function badDemand(row: usize, k: i32): i32 {
  let r = 0;
  while (r < k && ldf(row, r) >= 0 && isFiniteF64(ldf(row, r))) r++;
  return r;
}

/** No demand exceeds what is free: task[r] > free[r] for no r (two resources per f64x2, branch-free). */
@inline function fits(row: usize, free: usize, k: i32): bool {
  let over = i64x2.splat(0);
  let off: usize = 0;
  const end = <usize>(k & ~1) << 3;
  for (; off < end; off += 16) over = v128.or(over, f64x2.gt(v128.load(row + off), v128.load(free + off)));
  let ok = !v128.any_true(over);
  if (k & 1) ok = ok && !(load<f64>(row + end) > load<f64>(free + end));
  return ok;
}

/** free -= task, resource by resource (f64x2.sub rounds each lane like the scalar subtraction). */
@inline function take(row: usize, free: usize, k: i32): void {
  let off: usize = 0;
  const end = <usize>(k & ~1) << 3;
  for (; off < end; off += 16) v128.store(free + off, f64x2.sub(v128.load(free + off), v128.load(row + off)));
  if (k & 1) store<f64>(free + end, load<f64>(free + end) - load<f64>(row + end));
}

/**
 * All candidates share one key (e.g. all usage 0): the range is taken up to the largest key
 * after one more task instead, so that the second round spreads over the buckets. Only a
 * hint for speed; any top >= lo gives the same result.
 */
function nextKeyMax(states: usize, size: i32, lo: f64): f64 {
  let top = lo;
  for (let j = 0; j < size; j++) {
    const st = stateAt(states, <u32>j);
    const key = (load<f64>(st, S_USE) + load<f64>(st, S_INC)) / load<f64>(st, S_W);
    if (key > top && isFiniteF64(key)) top = key;
  }
  return top;
}
