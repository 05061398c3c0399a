// H-LTRF, the paper's Algorithm 2 (docs/policies/ltrf.md): hierarchical long-term fairness with
// starvation detection.
//
// Naive hierarchical LTRF (HierarchalLongTermAlloc): from the root, repeatedly step to the
// child with pending tasks whose accumulated usage per weight U(G)/w(G) is smallest
// (U of a group = sum over its children) and give one task to the leaf reached.
// Starvation detection: the demanding leaf with the smallest U/w overall is served first
// when it has waited at least T_wait since its last allocation (its wait restarts when it
// has no pending tasks, and when it is served).
//
// Theorem 1: T_wait = 0 -> every allocation goes to the smallest demanding leaf, which is
// single-level LTRF (Algorithm 1); T_wait = +Infinity -> the naive descent. We test the
// wait with ">=" so T_wait = 0 holds exactly in discrete time, where several allocations
// share one instant (the paper's ">" assumes each allocation happens at its own instant).
//
// Worked example (Fig. 2 of the paper): 12 units, 1-unit tasks of 1 time unit, groups
// G1 = {A, B}, G2 = {C, D}. After the first demands (200, 10, 50, 60) U = <200, 10, 50, 60>,
// so U(G1) = 210 and U(G2) = 110. New demands 20, 60, 40, 80 arrive at t = 27: the naive
// descent picks G2 for every unit until U(G2) catches up with U(G1), so B, the leaf with the
// least usage, gets nothing for floor(100 / 12) = 8 time units. With T_wait = 1, B has
// waited 1 unit at t = 28 and is served first, one task per time unit until G1 is picked
// again on its own merits.
//
// Edge values: a leaf whose next task does not fit is set aside for the rest of the call
// (free resources only shrink: work-conserving); tasks needing nothing start at once (they
// delay nobody); T_wait = Infinity never detects starvation.
//
// Cost per allocation: O(depth * log fanout) with one indexed heap per group and one over
// the leaves. A call makes at most maxStarts allocations one by one (engine.ltrf's start limit,
// src/kernels/ltrf/call.ts): 2^24 by default, reaching it an InputError that changes nothing.
import { InputError, describeValue } from "../errors.js";
import { IndexedHeap } from "../collections/indexed-heap.js";
import { DEFAULT_MAX_STARTS, checkMaxStarts, startLimitError } from "../kernels/ltrf/call.js";
import type { QueueTree } from "./tree.js";

export interface HltrfOptions {
  /** Starvation threshold T_wait in time units (0: single-level LTRF; Infinity: the naive approach). */
  tWait: number;
  /** The paper breaks ties between siblings at random; "index" (default) prefers the lowest queue index. */
  tieBreak?: "index" | "random";
  /** Random numbers in [0, 1) for tieBreak "random" (seeded by the caller). */
  random?: () => number;
}

export interface HltrfCall {
  /** Time of this scheduling point. */
  time: number;
  /** Free resources, length K; reduced in place by what starts. */
  free: Float64Array;
  /** Demand of one task per leaf, N*K. */
  tasks: Float64Array;
  /** Pending tasks per leaf (whole numbers); not modified. */
  pending: Float64Array;
  /** Accumulated usage U per leaf; updated in place as tasks start. */
  usage: Float64Array;
  /** Usage one task adds per leaf. */
  increments: Float64Array;
  /** Out: tasks started per leaf (overwritten). */
  count: Float64Array;
  /**
   * Most tasks started one by one in this call (engine.ltrf's maxStarts: a whole number >= 0
   * or Infinity). Given, the call stops there and allocate() returns false; calling again at
   * the same time with pending - count continues it (with tieBreak "random", fresh ties are
   * drawn). Omitted: 2^24, and reaching it is an InputError that changes nothing.
   */
  maxStarts?: number;
}

export class HLtrf {
  readonly tree: QueueTree;
  readonly tWait: number;
  private readonly random: (() => number) | null;
  /** Time since which each leaf has been waiting (its last allocation, or when it last had nothing pending). */
  readonly waitSince: Float64Array;
  /** Starvation-phase allocations so far, per leaf (for reports). */
  readonly starvedServed: Float64Array;
  private readonly nodeUsage: Float64Array;
  private readonly leafHeap: IndexedHeap;
  private readonly childHeap: IndexedHeap[];
  private readonly left: Float64Array;
  /** Per node: 1 when a leaf below it has a task to start in this call (only those draw a tie). */
  private readonly demanding: Uint8Array;
  private readonly slotOf: Int32Array;
  private readonly hadPending: Uint8Array;

  constructor(tree: QueueTree, opts: HltrfOptions) {
    if (tree === null || typeof tree !== "object" || !(tree.parent instanceof Int32Array) || !Array.isArray(tree.children) || !(tree.weight instanceof Float64Array)) {
      throw new InputError("tree", `expected a queue tree from buildTree(), got ${describeValue(tree)}`);
    }
    if (opts === null || typeof opts !== "object") throw new InputError("options", `expected {tWait, tieBreak?, random?}, got ${describeValue(opts)}`);
    const t = opts.tWait;
    if (typeof t !== "number" || !(t >= 0)) throw new InputError("tWait", `must be a number >= 0 or Infinity (got ${describeValue(t)})`);
    if (opts.tieBreak !== undefined && opts.tieBreak !== "index" && opts.tieBreak !== "random") {
      throw new InputError("tieBreak", `must be 'index' or 'random' (got ${describeValue(opts.tieBreak)})`);
    }
    if (opts.tieBreak === "random" && typeof opts.random !== "function") throw new InputError("random", "tieBreak 'random' needs a seeded random() function");
    this.tree = tree;
    this.tWait = t;
    this.random = opts.tieBreak === "random" ? opts.random! : null;
    this.waitSince = new Float64Array(tree.leaves);
    this.starvedServed = new Float64Array(tree.leaves);
    this.nodeUsage = new Float64Array(tree.nodes);
    this.leafHeap = new IndexedHeap(tree.leaves);
    this.childHeap = tree.children.map((c) => new IndexedHeap(c.length));
    this.left = new Float64Array(tree.leaves);
    this.demanding = new Uint8Array(tree.nodes);
    this.hadPending = new Uint8Array(tree.leaves);
    this.slotOf = new Int32Array(tree.nodes).fill(-1);
    tree.children.forEach((cs) => cs.forEach((v: number, j: number) => (this.slotOf[v] = j)));
  }

  /**
   * One scheduling point: starts tasks until no leaf has a pending task that fits, and
   * returns true; false when it stopped at a given maxStarts. The call is checked first
   * (checkCall): a bad array or cell is an InputError naming it, and nothing (free, usage,
   * count, the wait clocks) is changed; so is reaching the default start limit.
   */
  allocate(c: HltrfCall): boolean {
    const { tree } = this;
    const n = tree.leaves;
    checkCall(c, n);
    const k = c.free.length;
    const partial = c.maxStarts !== undefined;
    const limit = c.maxStarts ?? DEFAULT_MAX_STARTS;
    const { parent, weight } = tree;
    // usage that would overflow f64 is refused like engine.ltrf does (ShareOverflow): checked
    // here for the starting state, and during the starts only when the worst case can overflow
    const mayOverflow = this.checkUsage(c, k);
    // the default limit refuses the call: keep what it changes in place, only when it can be reached
    let most = 0;
    for (let i = 0; i < n; i++) most += c.pending[i];
    const undo = (!partial && most > limit) || mayOverflow ? this.snapshot(c) : null;
    let started = 0;
    const U = this.nodeUsage;
    U.fill(0);
    c.count.fill(0);
    for (let i = 0; i < n; i++) {
      this.left[i] = c.pending[i];
      // Algorithm 2, lines 15-16: no pending tasks, no wait; a leaf that just got tasks
      // starts waiting now (not when it last ran out).
      if (c.pending[i] === 0 || !this.hadPending[i]) this.waitSince[i] = c.time;
      this.hadPending[i] = c.pending[i] > 0 ? 1 : 0;
      if (c.pending[i] === 0) continue;
      if (isZero(c.tasks, i, k)) {
        // needs nothing: starts now whatever the order
        c.count[i] = c.pending[i];
        c.usage[i] = c.usage[i] + c.pending[i] * c.increments[i];
        this.left[i] = 0;
        this.waitSince[i] = c.time;
      }
    }
    for (let i = 0; i < n; i++) {
      U[i] = c.usage[i];
      for (let v = parent[i]; v >= 0; v = parent[v]) U[v] += c.usage[i];
    }
    // heaps: demanding leaves, and per group its children with a demanding leaf below
    this.leafHeap.clear();
    for (const h of this.childHeap) h.clear();
    for (let i = 0; i < n; i++) {
      this.leafHeap.update(i, U[i] / weight[i], i);
      if (this.left[i] > 0) this.leafHeap.insert(i);
    }
    // Only nodes with a demanding leaf below become candidates, so only they draw a random tie:
    // an idle queue never moves the random stream, and its presence never changes others' ties.
    const demanding = this.demanding;
    demanding.fill(0);
    for (let i = 0; i < n; i++) {
      if (this.left[i] > 0) for (let v = i; v >= 0 && demanding[v] === 0; v = parent[v]) demanding[v] = 1;
    }
    for (let v = 0; v < tree.nodes; v++) {
      const p = parent[v];
      if (p < 0) continue;
      const slot = this.slot(v);
      this.childHeap[p].update(slot, U[v] / weight[v], demanding[v] === 1 ? this.tie(v) : tree.firstLeaf[v]);
    }
    for (let i = 0; i < n; i++) if (this.left[i] > 0) this.activate(i);

    const root = tree.root;
    while (this.leafHeap.size > 0) {
      const lowest = this.leafHeap.top();
      let leaf: number;
      let starved = false;
      if (c.time - this.waitSince[lowest] >= this.tWait) {
        leaf = lowest; // STARVATIONDETECTION found it
        starved = true;
      } else {
        let v = root; // HIERARCHALLONGTERMALLOC
        while (v >= n) v = tree.children[v][this.childHeap[v].top()];
        leaf = v;
      }
      const base = leaf * k;
      let fits = true;
      for (let r = 0; r < k; r++) if (c.tasks[base + r] > c.free[r]) { fits = false; break; }
      if (!fits) {
        this.deactivate(leaf);
        continue;
      }
      if (started === limit) {
        if (partial) return false;
        undo!();
        throw startLimitError(limit, `leaf ${leaf}`);
      }
      started++;
      for (let r = 0; r < k; r++) c.free[r] = c.free[r] - c.tasks[base + r];
      c.count[leaf] += 1;
      if (starved && this.tWait > 0) this.starvedServed[leaf] += 1;
      this.waitSince[leaf] = c.time;
      const inc = c.increments[leaf];
      if (mayOverflow && this.overflows(leaf, inc)) {
        undo!();
        throw overflowError(leaf);
      }
      c.usage[leaf] = c.usage[leaf] + inc;
      U[leaf] = c.usage[leaf];
      this.leafHeap.update(leaf, U[leaf] / weight[leaf]);
      for (let v = leaf; parent[v] >= 0; v = parent[v]) {
        const p = parent[v];
        if (v !== leaf) U[v] += inc;
        this.childHeap[p].update(this.slot(v), U[v] / weight[v], this.tie(v));
      }
      this.left[leaf] -= 1;
      if (this.left[leaf] === 0) this.deactivate(leaf);
    }
    return true;
  }

  /**
   * Refuses (before anything is written) a starting state whose usage per weight is not finite
   * for some leaf or group, counting the usage that tasks needing nothing add up front. Returns
   * whether the starts themselves could overflow: the worst case, every pending task started,
   * summed over all leaves and divided by the smallest weight, is not finite.
   */
  private checkUsage(c: HltrfCall, k: number): boolean {
    const { tree } = this;
    const n = tree.leaves;
    const { parent, weight } = tree;
    const U = this.nodeUsage;
    U.fill(0);
    let worst = 0;
    let minWeight = Infinity;
    for (let v = 0; v < tree.nodes; v++) if (weight[v] < minWeight) minWeight = weight[v];
    for (let i = 0; i < n; i++) {
      const p = c.pending[i];
      const u = p > 0 && isZero(c.tasks, i, k) ? c.usage[i] + p * c.increments[i] : c.usage[i];
      if (!Number.isFinite(u) || !Number.isFinite(u / weight[i])) throw overflowError(i);
      for (let v = i; v >= 0; v = parent[v]) U[v] += u;
      worst += c.usage[i] + p * c.increments[i];
    }
    for (let v = n; v < tree.nodes; v++) {
      if (!Number.isFinite(U[v]) || !Number.isFinite(U[v] / weight[v])) {
        throw new InputError("usage", `the usage of group '${tree.names[v]}' (the sum over its queues) / its weight overflows f64; rescale the units or use time windows`);
      }
    }
    return !Number.isFinite(worst / minWeight);
  }

  /** Would one more start of `leaf` (adding `inc`) take a leaf's or a group's usage / weight past f64? */
  private overflows(leaf: number, inc: number): boolean {
    const { parent, weight } = this.tree;
    const U = this.nodeUsage;
    for (let v = leaf; v >= 0; v = parent[v]) {
      const u = U[v] + inc;
      if (!Number.isFinite(u) || !Number.isFinite(u / weight[v])) return true;
    }
    return false;
  }

  /** What allocate() changes in place, and a function that puts it back. */
  private snapshot(c: HltrfCall): () => void {
    const saved = [c.free, c.usage, c.count, this.waitSince, this.starvedServed, this.hadPending].map((a) => [a, a.slice()] as const);
    return () => {
      for (const [a, copy] of saved) a.set(copy as never);
    };
  }

  /** Leaf i's wait clock across calls: since when it waits, whether it had pending tasks at the last call, starvation-phase starts. */
  leafState(i: number): { waitSince: number; hadPending: boolean; starvedServed: number } {
    return { waitSince: this.waitSince[i], hadPending: this.hadPending[i] === 1, starvedServed: this.starvedServed[i] };
  }

  /** Takes over a leaf's wait clock (values checked by the caller). */
  setLeafState(i: number, s: { waitSince: number; hadPending: boolean; starvedServed: number }): void {
    this.waitSince[i] = s.waitSince;
    this.hadPending[i] = s.hadPending ? 1 : 0;
    this.starvedServed[i] = s.starvedServed;
  }

  /** Forget the wait clocks (a new window starts with everyone even). */
  resetWaits(time: number): void {
    this.waitSince.fill(time);
  }

  private slot(v: number): number {
    return this.slotOf[v];
  }

  private tie(v: number): number {
    return this.random ? this.random() : this.tree.firstLeaf[v];
  }

  /** Leaf i has a pending task: it and every ancestor become candidates in their parents' heaps. */
  private activate(i: number): void {
    const { parent } = this.tree;
    for (let v = i; parent[v] >= 0; v = parent[v]) {
      const h = this.childHeap[parent[v]];
      const s = this.slot(v);
      if (h.has(s)) return;
      h.insert(s);
    }
  }

  /** Leaf i has nothing (more) to start in this call: remove it, and every group left with no candidate. */
  private deactivate(i: number): void {
    const { parent } = this.tree;
    this.leafHeap.remove(i);
    for (let v = i; parent[v] >= 0; v = parent[v]) {
      const h = this.childHeap[parent[v]];
      h.remove(this.slot(v));
      if (h.size > 0) return;
    }
  }
}

function overflowError(leaf: number): InputError {
  return new InputError(`usage[${leaf}]`, "usage / weight overflows f64; rescale the units or use time windows");
}

/** Whole numbers up to this are exact in f64; `left -= 1` counts them down to 0 exactly. */
const MAX_PENDING = 2 ** 53;

/**
 * The call's arrays and cells, before anything is written: a NaN time or usage would be
 * stored in the wait clocks or the heaps' keys (every later call reads them), a NaN task
 * "fits" (NaN > free is false) and turns free into NaN, and a fractional pending never
 * counts down to exactly 0, so the leaf would get tasks beyond its pending ones.
 */
function checkCall(c: HltrfCall, n: number): void {
  if (c === null || typeof c !== "object") throw new InputError("call", `expected {time, free, tasks, pending, usage, increments, count}, got ${describeValue(c)}`);
  if (typeof c.time !== "number" || !Number.isFinite(c.time)) throw new InputError("time", `must be a finite number (got ${describeValue(c.time)})`);
  const arr = (field: string, v: unknown, len: number): Float64Array => {
    if (!(v instanceof Float64Array)) throw new InputError(field, `expected a Float64Array, got ${ArrayBuffer.isView(v) ? v.constructor.name : describeValue(v)}`);
    if (len >= 0 && v.length !== len) throw new InputError(field, `has length ${v.length}, expected ${len}`);
    return v;
  };
  const free = arr("free", c.free, -1);
  const k = free.length;
  if (k === 0) throw new InputError("free", "must list at least one resource");
  const tasks = arr("tasks", c.tasks, n * k), pending = arr("pending", c.pending, n);
  const usage = arr("usage", c.usage, n), inc = arr("increments", c.increments, n);
  const count = arr("count", c.count, n);
  if (c.maxStarts !== undefined) checkMaxStarts(c.maxStarts);
  // The arrays written in place (free, usage, count) must not share memory with any other:
  // count.fill(0) on an array that is also pending would leave nothing to start, usage that is
  // also increments would change the increments as tasks start.
  const views: Array<[string, Float64Array]> = [["free", free], ["usage", usage], ["count", count], ["tasks", tasks], ["pending", pending], ["increments", inc]];
  for (let a = 0; a < 3; a++) {
    for (let b = 0; b < views.length; b++) {
      if (a !== b && overlap(views[a][1], views[b][1])) {
        throw new InputError(views[a][0], `shares memory with ${views[b][0]}; ${views[a][0]} is written in place, so pass separate arrays`);
      }
    }
  }
  for (let r = 0; r < k; r++) {
    const x = free[r];
    if (!(x >= 0) || !Number.isFinite(x)) throw new InputError(`free[${r}]`, `must be a finite number >= 0 (got ${describeValue(x)})`);
  }
  for (let i = 0; i < n; i++) {
    for (let r = 0; r < k; r++) {
      const x = tasks[i * k + r];
      if (!(x >= 0) || !Number.isFinite(x)) throw new InputError(`tasks[${i}][${r}]`, `must be a finite number >= 0 (got ${describeValue(x)})`);
    }
    const p = pending[i];
    if (!(p >= 0 && p <= MAX_PENDING && Math.floor(p) === p)) throw new InputError(`pending[${i}]`, `must be a whole number between 0 and 2^53 (got ${describeValue(p)})`);
    const u = usage[i];
    if (!(u >= 0) || !Number.isFinite(u)) throw new InputError(`usage[${i}]`, `must be a finite number >= 0 (got ${describeValue(u)})`);
    const d = inc[i];
    if (!(d >= 0) || !Number.isFinite(d)) throw new InputError(`increments[${i}]`, `must be a finite number >= 0 (got ${describeValue(d)})`);
  }
}

/** Do two views cover a common byte of one buffer? */
function overlap(a: Float64Array, b: Float64Array): boolean {
  if (a.buffer !== b.buffer || a.byteLength === 0 || b.byteLength === 0) return false;
  return a.byteOffset < b.byteOffset + b.byteLength && b.byteOffset < a.byteOffset + a.byteLength;
}

function isZero(tasks: Float64Array, i: number, k: number): boolean {
  for (let r = 0; r < k; r++) if (tasks[i * k + r] > 0) return false;
  return true;
}
