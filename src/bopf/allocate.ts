// BoPF allocation at one instant (SPEC §4.3), a pure function of the queues' classes,
// demands and open guarantees:
//   1. hard LQs inside a guaranteed burst get min(r_i(n), want_i) (componentwise): the
//      constant rate that finishes the burst by its deadline;
//   2. soft LQs inside a guaranteed burst share R = C - hard by SRPT (the srpt kernel:
//      smallest remaining burst volume first, Leontief fraction of want, capped at r_i(n));
//   3. elastic queues — TQs, elastic LQs, and hard/soft LQs whose burst is over, consumed or
//      not open — share what is left by weighted DRF;
//   4. spare: whatever is still free goes by DRF over every admitted queue's unmet demand
//      (want - allocated so far), so no resource idles while a queue that could use it waits.
// Rejected queues get nothing.
//
// Worked example: C = <10, 10>. H: want <8, 4>, rate <6, 3>. S: want <4, 4>, rate <4, 4>,
// remaining <20, 20>. E (TQ): want <10, 10>.
//   1. H gets <6, 3>; left <4, 7>.
//   2. S: lambda = min(1, 4/4, left 4/4, 7/4) = 1 -> <4, 4>; left <0, 3>.
//   3. TQ needs resource 0, which is exhausted: nothing.
//   4. Spare <0, 3>: H's unmet <2, 1> and TQ's <10, 10> both need resource 0: nothing moves.
//      Every unmet queue is bottlenecked on resource 0 (Pareto efficient); 3 units of
//      resource 1 stay free because nobody can use them without resource 0.
// Edge values: no queues -> all zeros; want = 0 -> nothing; a guarantee with remaining = 0
// is treated as over (step 3), as the SPEC says a burst stops being guaranteed once consumed.
import type { Engine } from "../engine/engine.js";
import { InputError, describeValue } from "../engine/errors.js";
import type { BopfClass } from "./admission.js";
import { drfOver } from "./drf-over.js";

export interface InstantQueue {
  class: BopfClass;
  /** What the queue could hold now (usage + runnable tasks), length K. */
  want: ArrayLike<number>;
  /** DRF weight, default 1. */
  weight?: number;
  /** Present while the LQ's current burst is guaranteed (inside its window, volume not yet consumed). */
  guarantee?: { rate: ArrayLike<number>; remaining: ArrayLike<number> } | null;
}

export interface InstantAllocation {
  /** Total target allocation, queue-major N*K. */
  allocation: Float64Array;
  /** The parts given by each step (sum = allocation), for reports and tests. */
  steps: { hard: Float64Array; soft: Float64Array; elastic: Float64Array; spare: Float64Array };
}

/** Class codes of the flat entry point (allocateInstantFlat). */
export const CLASS_CODE: Readonly<Record<BopfClass, number>> = { hard: 0, soft: 1, elastic: 2, rejected: 3 };
const HARD = 0, SOFT = 1, REJECTED = 3;

/**
 * The queues of one instant as flat arrays (struct of arrays), N queues of K resources:
 * what allocateInstant builds from InstantQueue objects, and what a caller holding many
 * queues can fill directly.
 */
export interface InstantBatch {
  n: number;
  /** CLASS_CODE per queue. */
  cls: Uint8Array;
  /** Queue-major N*K. */
  want: Float64Array;
  /** N weights (> 0); null: all 1. */
  weight: Float64Array | null;
  /** 1 where the queue has a guarantee (rate and remaining rows below are read), else 0. */
  hasGuarantee: Uint8Array;
  rate: Float64Array;
  remaining: Float64Array;
}

/**
 * Reusable arrays for allocateInstantFlat: the returned allocation and steps are views into
 * it, valid until its next use. Grows as needed.
 */
export class InstantWorkspace {
  size = -1;
  hard = new Float64Array(0);
  soft = new Float64Array(0);
  elastic = new Float64Array(0);
  spare = new Float64Array(0);
  allocation = new Float64Array(0);
  /** wants of a step (N*K) */
  wants = new Float64Array(0);
  weights = new Float64Array(0);
  ensure(nk: number, n: number): void {
    if (this.hard.length < nk) {
      this.hard = new Float64Array(nk);
      this.soft = new Float64Array(nk);
      this.elastic = new Float64Array(nk);
      this.spare = new Float64Array(nk);
      this.allocation = new Float64Array(nk);
      this.wants = new Float64Array(nk);
    } else {
      this.hard.fill(0, 0, nk);
      this.soft.fill(0, 0, nk);
      this.elastic.fill(0, 0, nk);
      this.spare.fill(0, 0, nk);
    }
    if (this.weights.length < n) this.weights = new Float64Array(n);
  }
}

/** True when queue i's guarantee is live: hard/soft with some remaining volume. */
function liveGuarantee(b: InstantBatch, i: number, k: number): boolean {
  const c = b.cls[i];
  if ((c !== HARD && c !== SOFT) || b.hasGuarantee[i] === 0) return false;
  const rem = b.remaining;
  for (let r = 0; r < k; r++) if (rem[i * k + r] > 0) return true;
  return false;
}

export function allocateInstant(engine: Engine, capacity: ArrayLike<number>, queues: readonly InstantQueue[]): InstantAllocation {
  const k = capacity.length;
  validate(capacity, queues);
  const n = queues.length;
  const cls = new Uint8Array(n), hasG = new Uint8Array(n);
  const want = new Float64Array(n * k), rate = new Float64Array(n * k), remaining = new Float64Array(n * k);
  let weight: Float64Array | null = null;
  for (let i = 0; i < n; i++) {
    const q = queues[i];
    cls[i] = CLASS_CODE[q.class];
    const w = q.want, base = i * k;
    for (let r = 0; r < k; r++) want[base + r] = w[r];
    if (q.weight !== undefined) (weight ??= new Float64Array(n).fill(1))[i] = q.weight;
    const g = q.guarantee;
    if (g) {
      hasG[i] = 1;
      for (let r = 0; r < k; r++) {
        rate[base + r] = g.rate[r];
        remaining[base + r] = g.remaining[r];
      }
    }
  }
  const res = allocateInstantFlat(engine, capacity, { n, cls, want, weight, hasGuarantee: hasG, rate, remaining }, new InstantWorkspace(), false);
  return res;
}

/**
 * allocateInstant over flat arrays: the same steps, the same numbers. `validate` (default
 * true) checks the batch as allocateInstant checks its queues; the result's arrays are views
 * into `ws` (pass a fresh workspace to keep them).
 */
export function allocateInstantFlat(engine: Engine, capacity: ArrayLike<number>, b: InstantBatch, ws = new InstantWorkspace(), check = true): InstantAllocation {
  const k = capacity.length;
  const n = b.n;
  if (check) validateFlat(capacity, b);
  const nk = n * k;
  ws.ensure(nk, n);
  const hard = ws.hard.subarray(0, nk), soft = ws.soft.subarray(0, nk);
  const elastic = ws.elastic.subarray(0, nk), spare = ws.spare.subarray(0, nk);
  const weights = ws.weights.subarray(0, n);
  if (b.weight) weights.set(b.weight.subarray(0, n));
  else weights.fill(1);
  const left = new Float64Array(k);
  for (let r = 0; r < k; r++) left[r] = capacity[r];
  const want = b.want, cls = b.cls;
  // live guarantees, once
  const live = new Uint8Array(n);
  let anyGuarantee = false, anySoft = false;
  for (let i = 0; i < n; i++) {
    if (liveGuarantee(b, i, k)) {
      live[i] = 1;
      anyGuarantee = true;
      if (cls[i] === SOFT) anySoft = true;
    }
  }

  // 1. hard: constant rate. Admission's resource condition (3) keeps the sum within C;
  // `left` also bounds it so a caller passing arbitrary classes still gets a feasible result.
  const rate = b.rate;
  for (let i = 0; i < n; i++) {
    if (cls[i] !== HARD || live[i] === 0) continue;
    const base = i * k;
    for (let r = 0; r < k; r++) {
      const a = Math.min(rate[base + r], want[base + r], left[r]);
      hard[base + r] = a;
      left[r] -= a;
    }
  }

  // 2. soft: SRPT over what the hard LQs left, one kernel call for all of them
  if (anySoft) {
    const softIdx: number[] = [];
    for (let i = 0; i < n; i++) if (cls[i] === SOFT && live[i] === 1) softIdx.push(i);
    const m = softIdx.length;
    const dem = new Float64Array(m * k), rates = new Float64Array(m * k), rem = new Float64Array(m * k);
    for (let j = 0; j < m; j++) {
      const base = softIdx[j] * k;
      for (let r = 0; r < k; r++) {
        dem[j * k + r] = want[base + r];
        rates[j * k + r] = rate[base + r];
        rem[j * k + r] = b.remaining[base + r];
      }
    }
    const res = engine.srpt({ capacity, available: left, demands: dem, rates, remaining: rem });
    for (let j = 0; j < m; j++) soft.set(res.allocation.subarray(j * k, j * k + k), softIdx[j] * k);
    take(soft, left, n, k);
  }

  // 3. elastic: DRF over the rest among queues without a live guarantee
  const ew = ws.wants.subarray(0, nk);
  for (let i = 0; i < n; i++) {
    const base = i * k;
    if (cls[i] === REJECTED || live[i] === 1) {
      for (let r = 0; r < k; r++) ew[base + r] = 0;
      continue;
    }
    for (let r = 0; r < k; r++) ew[base + r] = want[base + r];
  }
  drfOver(engine, capacity, left, ew, weights, elastic);
  take(elastic, left, n, k);

  // 4. spare: unmet demand of every admitted queue, by DRF over what is still free. When
  // no queue held a guarantee, step 3 was DRF over every admitted queue's whole demand,
  // already Pareto efficient: step 4 could give nothing, so it is skipped.
  if (anyGuarantee) {
    const unmet = ws.wants.subarray(0, nk);
    for (let i = 0; i < n; i++) {
      const base = i * k;
      if (cls[i] === REJECTED) {
        for (let r = 0; r < k; r++) unmet[base + r] = 0;
        continue;
      }
      for (let r = 0; r < k; r++) {
        const x = base + r;
        unmet[x] = Math.max(0, want[x] - hard[x] - soft[x] - elastic[x]);
      }
    }
    drfOver(engine, capacity, left, unmet, weights, spare);
  }
  const allocation = ws.allocation.subarray(0, nk);
  for (let x = 0; x < nk; x++) allocation[x] = hard[x] + soft[x] + elastic[x] + spare[x];
  return { allocation, steps: { hard, soft, elastic, spare } };
}

/** left[r] = max(0, left[r] - a[i][r]) for every queue i in order (the order of the sums matters). */
function take(a: Float64Array, left: Float64Array, n: number, k: number): void {
  for (let i = 0; i < n; i++) {
    const base = i * k;
    for (let r = 0; r < k; r++) left[r] = Math.max(0, left[r] - a[base + r]);
  }
}

function validateFlat(capacity: ArrayLike<number>, b: InstantBatch): void {
  const k = capacity.length;
  if (k === 0) throw new InputError("capacity", "must list at least one resource");
  for (let r = 0; r < k; r++) {
    const c = capacity[r];
    if (typeof c !== "number" || !(c > 0) || !Number.isFinite(c)) throw new InputError(`capacity[${r}]`, `must be a finite number > 0 (got ${describeValue(c)})`);
  }
  const n = b.n;
  const rows = (field: string, v: Float64Array) => {
    if (!(v instanceof Float64Array) || v.length < n * k) throw new InputError(field, `expected a Float64Array of N*K = ${n * k} numbers`);
  };
  rows("want", b.want);
  rows("rate", b.rate);
  rows("remaining", b.remaining);
  if (!(b.cls instanceof Uint8Array) || b.cls.length < n) throw new InputError("cls", `expected a Uint8Array of N = ${n} class codes`);
  if (!(b.hasGuarantee instanceof Uint8Array) || b.hasGuarantee.length < n) throw new InputError("hasGuarantee", `expected a Uint8Array of N = ${n} flags`);
  if (b.weight !== null && (!(b.weight instanceof Float64Array) || b.weight.length < n)) throw new InputError("weight", `expected null or a Float64Array of N = ${n} weights`);
  const { cls, want, weight, hasGuarantee, rate, remaining } = b;
  // x - x === 0: finite; the messages are built only on failure
  const bad = (field: string, i: number, r: number, x: number) =>
    new InputError(`${field}[${i}][${r}]`, `must be a finite number >= 0 (got ${describeValue(x)})`);
  for (let i = 0; i < n; i++) {
    if (!(cls[i] <= REJECTED)) throw new InputError(`cls[${i}]`, `must be a class code 0-3 (got ${describeValue(cls[i])})`);
    const base = i * k;
    for (let r = 0; r < k; r++) {
      const x = want[base + r];
      if (!(x >= 0 && x - x === 0)) throw bad("want", i, r, x);
    }
    if (weight !== null) {
      const w = weight[i];
      if (!(w > 0 && w - w === 0)) throw new InputError(`weight[${i}]`, `must be a finite number > 0 (got ${describeValue(w)})`);
    }
    if (hasGuarantee[i] !== 0) {
      for (let r = 0; r < k; r++) {
        const x = rate[base + r], y = remaining[base + r];
        if (!(x >= 0 && x - x === 0)) throw bad("rate", i, r, x);
        if (!(y >= 0 && y - y === 0)) throw bad("remaining", i, r, y);
      }
    }
  }
}

function validate(capacity: ArrayLike<number>, queues: readonly InstantQueue[]): void {
  const k = capacity.length;
  if (k === 0) throw new InputError("capacity", "must list at least one resource");
  for (let r = 0; r < k; r++) {
    const c = capacity[r];
    if (typeof c !== "number" || !(c > 0) || !Number.isFinite(c)) throw new InputError(`capacity[${r}]`, `must be a finite number > 0 (got ${describeValue(c)})`);
  }
  const vec = (field: () => string, v: ArrayLike<number> | undefined) => {
    if (!v || typeof v !== "object" || v.length !== k) throw new InputError(field(), `expected ${k} numbers (one per resource), got ${describeValue(v)}`);
    for (let r = 0; r < k; r++) {
      const x = v[r];
      if (typeof x !== "number" || !(x >= 0) || !Number.isFinite(x)) throw new InputError(`${field()}[${r}]`, `must be a finite number >= 0 (got ${describeValue(x)})`);
    }
  };
  for (let i = 0; i < queues.length; i++) {
    const q = queues[i];
    const c = q.class;
    if (c !== "hard" && c !== "soft" && c !== "elastic" && c !== "rejected") throw new InputError(`queues[${i}].class`, `must be hard, soft, elastic or rejected (got ${describeValue(q.class)})`);
    vec(() => `queues[${i}].want`, q.want);
    if (q.weight !== undefined && !(q.weight > 0 && Number.isFinite(q.weight))) throw new InputError(`queues[${i}].weight`, `must be a finite number > 0 (got ${describeValue(q.weight)})`);
    if (q.guarantee) {
      vec(() => `queues[${i}].guarantee.rate`, q.guarantee.rate);
      vec(() => `queues[${i}].guarantee.remaining`, q.guarantee.remaining);
    }
  }
}
