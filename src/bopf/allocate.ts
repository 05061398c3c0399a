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
import { isNonNumericView } from "../kernels/marshal.js";
import type { BopfClass } from "./admission.js";
import { clearlyFits, drfOver, EXHAUSTED, W_MAX, W_MIN } from "./drf-over.js";
import { allocateError, copyIn } from "../kernels/bopf/batch.js";
import { SRPT_ARGS } from "../kernels/srpt/contract.js";
import { Status } from "../kernels/status.js";

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
const MAX = Number.MAX_VALUE;

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
 * it, valid until its next use. Grows as needed; nothing is cleared (every step writes
 * every cell it owns).
 */
export class InstantWorkspace {
  hard = new Float64Array(0);
  soft = new Float64Array(0);
  elastic = new Float64Array(0);
  spare = new Float64Array(0);
  allocation = new Float64Array(0);
  /** wants of a step (N*K) */
  wants = new Float64Array(0);
  /** 1 where the queue's guarantee is live */
  live = new Uint8Array(0);
  /** the soft LQs with a live guarantee, in queue order */
  softIdx = new Int32Array(0);
  left = new Float64Array(0);
  /** per resource: C * EXHAUSTED, and the sums of step 3's and step 4's demands */
  thr = new Float64Array(0);
  sum3 = new Float64Array(0);
  sum4 = new Float64Array(0);
  ensure(nk: number, n: number, k: number): void {
    if (this.hard.length < nk) {
      this.hard = new Float64Array(nk);
      this.soft = new Float64Array(nk);
      this.elastic = new Float64Array(nk);
      this.spare = new Float64Array(nk);
      this.allocation = new Float64Array(nk);
      this.wants = new Float64Array(nk);
    }
    if (this.live.length < n) {
      this.live = new Uint8Array(n);
      this.softIdx = new Int32Array(n);
    }
    if (this.left.length < k) {
      this.left = new Float64Array(k);
      this.thr = new Float64Array(k);
      this.sum3 = new Float64Array(k);
      this.sum4 = new Float64Array(k);
    }
  }
}

/** Options of allocateInstantFlat. */
export interface FlatOptions {
  /** Validate the batch (default true). */
  check?: boolean;
  /**
   * Also return the four step arrays (default true). false: only the allocation (steps is
   * null), with the same numbers bit for bit, in fewer passes and fewer arrays written:
   * what an embedder applying the decision needs (a researcher reads the steps).
   */
  steps?: boolean;
}

/** allocateInstantFlat's result: steps is null when asked for the allocation only. */
export interface FlatAllocation {
  allocation: Float64Array;
  steps: InstantAllocation["steps"] | null;
}

export function allocateInstant(engine: Engine, capacity: ArrayLike<number>, queues: readonly InstantQueue[]): InstantAllocation {
  validate(capacity, queues);
  const k = capacity.length;
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
 * allocateInstant over flat arrays: the same steps, the same numbers. `check` (default
 * true) validates the batch as allocateInstant validates its queues (the first bad cell,
 * row by row, is the error); the result's arrays are views into `ws` (pass a fresh
 * workspace to keep them). The steps run in few passes over the N*K arrays: validation,
 * the live guarantees, step 1 and step 3's demands in one; step 2 over the soft LQs only;
 * the DRF rounds in drfOver; step 4's demands with step 3's share taken from `left` in one.
 */
export function allocateInstantFlat(engine: Engine, capacity: ArrayLike<number>, b: InstantBatch, ws?: InstantWorkspace, options?: boolean | (FlatOptions & { steps?: true })): InstantAllocation;
export function allocateInstantFlat(engine: Engine, capacity: ArrayLike<number>, b: InstantBatch, ws: InstantWorkspace | undefined, options: FlatOptions): FlatAllocation;
export function allocateInstantFlat(engine: Engine, capacity: ArrayLike<number>, b: InstantBatch, ws = new InstantWorkspace(), options: boolean | FlatOptions = true): FlatAllocation {
  const check = typeof options === "boolean" ? options : options.check !== false;
  if (typeof options === "object" && options !== null && options.steps === false) return allocationOnly(engine, capacity, b, ws, check);
  const { k, n, nk, weights } = startRound(capacity, b, ws, check);
  const hard = ws.hard.subarray(0, nk), soft = ws.soft.subarray(0, nk);
  const elastic = ws.elastic.subarray(0, nk), spare = ws.spare.subarray(0, nk);
  const { left, live, softIdx, thr, sum3, sum4 } = ws;
  const ew = ws.wants.subarray(0, nk);
  const allocation = ws.allocation.subarray(0, nk);
  // (each pass is its own small function: V8 optimises those whole, where one long
  // function of loops ran on on-stack-replacement code that deoptimised on every call)
  const flags = firstPass(b, k, check, left, live, softIdx, hard, soft, thr, sum3);
  const m = flags >>> 2, anyGuarantee = (flags & 1) === 1, weightsInRange = (flags & 2) === 0;

  // 2. soft: SRPT over what the hard LQs left, one kernel call for all of them
  if (m > 0) softSrpt(engine, capacity, b, softIdx, m, left, soft);

  // 3. and 4. Uncontended (the usual case of a cluster that is not full): step 3's demands
  // clearly fit in what is left, so its DRF gives every queue its whole demand (drfOver's
  // fast path, see there), computed row by row with step 4's demands, the steps' sum and,
  // optimistically, step 4's whole demands; only when those do not clearly fit either does
  // step 4 run its DRF. Otherwise the general path: step 3's demands, then drfOver.
  if (weightsInRange && clearlyFits(sum3, left, capacity, n)) {
    wholeElasticPass(b, k, anyGuarantee, live, thr, left, hard, soft, elastic, spare, allocation, sum4);
    if (anyGuarantee && !clearlyFits(sum4, left, capacity, n)) {
      unmetDemands(b, k, hard, soft, elastic, ew);
      drfOver(engine, capacity, left, ew, weights, spare, n);
      sumSteps(allocation, hard, soft, elastic, spare, nk);
    }
    return { allocation, steps: { hard, soft, elastic, spare } };
  }

  // 3. elastic: DRF over the rest among queues without a live guarantee
  elasticDemands(b, k, live, ew);
  drfOver(engine, capacity, left, ew, weights, elastic, n);

  // 4. spare: unmet demand of every admitted queue, by DRF over what is still free. When
  // no queue held a guarantee, step 3 was DRF over every admitted queue's whole demand,
  // already Pareto efficient: step 4 could give nothing, so it is skipped.
  if (anyGuarantee) {
    takeInOrder(elastic, left, n, k);
    unmetDemands(b, k, hard, soft, elastic, ew);
    drfOver(engine, capacity, left, ew, weights, spare, n);
  } else {
    spare.fill(0);
  }
  sumSteps(allocation, hard, soft, elastic, spare, nk);
  return { allocation, steps: { hard, soft, elastic, spare } };
}

/** Both forms' start: shapes checked, workspace sized, left = C, thresholds set, sums zeroed. */
function startRound(capacity: ArrayLike<number>, b: InstantBatch, ws: InstantWorkspace, check: boolean): { k: number; n: number; nk: number; weights: Float64Array | null } {
  if (check) validateShape(capacity, b);
  const k = capacity.length;
  const n = b.n;
  const nk = n * k;
  ws.ensure(nk, n, k);
  const { left, thr, sum3, sum4 } = ws;
  for (let r = 0; r < k; r++) {
    left[r] = capacity[r];
    thr[r] = capacity[r] * EXHAUSTED;
    sum3[r] = 0;
    sum4[r] = 0;
  }
  return { k, n, nk, weights: b.weight ? b.weight.subarray(0, n) : null };
}

/**
 * allocateInstantFlat with { steps: false }: the usual uncontended round (no live soft LQ,
 * step 3 clearly fitting) in one call of the engine's BoPF kernel (kernelRound, below), else
 * the same steps here, with steps 1 and 2 written
 * straight into the allocation (`base`: a row is hard or soft, never both, so hard + soft is
 * whichever is set, and want - hard - soft = want - base exactly), steps 3 and 4 are added
 * to it in place, and the uncontended pass writes one array instead of five. Worked
 * example (the file header's): base after steps 1-2 = [<6, 3>, <4, 4>, <0, 0>]; steps 3-4
 * add nothing; the allocation is the same as the sum of the steps. Edge values: as
 * allocateInstantFlat (test/bopf.flat-steps.test.ts compares the two bit for bit).
 */
function allocationOnly(engine: Engine, capacity: ArrayLike<number>, b: InstantBatch, ws: InstantWorkspace, check: boolean, tryKernel = true): FlatAllocation {
  if (check && tryKernel) {
    const a = kernelRound(engine, capacity, b, ws);
    if (a !== null) return { allocation: a, steps: null };
  }
  const { k, n, nk, weights } = startRound(capacity, b, ws, check);
  const base = ws.allocation.subarray(0, nk);
  const elastic = ws.elastic.subarray(0, nk), spare = ws.spare.subarray(0, nk);
  const { left, live, softIdx, thr, sum3, sum4 } = ws;
  const ew = ws.wants.subarray(0, nk);
  const flags = firstPass(b, k, check, left, live, softIdx, base, null, thr, sum3);
  const m = flags >>> 2, anyGuarantee = (flags & 1) === 1, weightsInRange = (flags & 2) === 0;
  if (m > 0) softSrpt(engine, capacity, b, softIdx, m, left, base, true);
  if (weightsInRange && clearlyFits(sum3, left, capacity, n)) {
    // steps 3 and 4 whole, added to base row by row. What step 3 leaves is needed only to
    // decide whether step 4's demands clearly fit: a lower bound of it decides (below). In
    // the rare case where they do not clearly fit, base is gone (hard + soft + e + u does
    // not give back hard + soft exactly): the round is recomputed with its steps.
    wholeElasticBase(b, k, anyGuarantee, live, thr, base, sum4);
    if (anyGuarantee && !clearlyFits(sum4, leftBound(left, sum3, n, k), capacity, n)) {
      return { allocation: allocateInstantFlat(engine, capacity, b, ws, false).allocation, steps: null };
    }
    return { allocation: base, steps: null };
  }
  elasticDemands(b, k, live, ew);
  drfOver(engine, capacity, left, ew, weights, elastic, n);
  if (anyGuarantee) {
    takeInOrder(elastic, left, n, k);
    unmetFromBase(b, k, base, elastic, ew);
    drfOver(engine, capacity, left, ew, weights, spare, n);
  } else {
    spare.fill(0);
  }
  addSteps(base, elastic, spare, nk);
  return { allocation: base, steps: null };
}

/**
 * allocateInstantFlat(.., { steps: false }) for a round the BoPF kernel already found to need
 * the general path (decision.ts): the same result, without staging it for the kernel again.
 */
export function allocationOnlyGeneral(engine: Engine, capacity: ArrayLike<number>, b: InstantBatch, ws: InstantWorkspace): FlatAllocation {
  return allocationOnly(engine, capacity, b, ws, true, false);
}

/**
 * allocationOnly's usual round on the engine's BoPF kernel (assembly/bopf.ts bopfAllocate:
 * steps 1, 3 and 4 when no soft LQ holds a live guarantee and the round is uncontended,
 * the same operations as firstPass, wholeElasticBase and leftBound below): the batch staged
 * into the engine, one call, the allocation copied into `ws`. null when the round needs the
 * general path (SRPT, a binding DRF, a weight outside the fast range). A bad cell throws
 * validateRow's InputError, as the TS pass would.
 */
function kernelRound(engine: Engine, capacity: ArrayLike<number>, b: InstantBatch, ws: InstantWorkspace): Float64Array | null {
  validateShape(capacity, b);
  const k = capacity.length, n = b.n, nk = n * k;
  const block = engine.kernels.stage("bopf", n, k);
  const v = block.views();
  for (let r = 0; r < k; r++) v.capacity[r] = capacity[r];
  copyIn(v.cls, b.cls, n);
  copyIn(v.hasGuarantee, b.hasGuarantee, n);
  copyIn(v.want, b.want, nk);
  copyIn(v.rate, b.rate, nk);
  copyIn(v.remaining, b.remaining, nk);
  if (b.weight !== null) copyIn(v.weight, b.weight, n);
  const code = block.run({ pass: "allocate", useWeights: b.weight !== null, afterAdmission: false });
  if (code === Status.BopfGeneral) return null;
  if (code !== Status.OK) throw allocateError(code, block.errorIndex(), k, (i) => validateRow(b, i, k));
  ws.ensure(nk, n, k);
  const out = ws.allocation.subarray(0, nk);
  out.set(v.allocation.subarray(0, nk));
  return out;
}

/**
 * wholeElasticPass, allocation only: base (hard + soft) += e + u, with e step 3's demand
 * above `thr` and, with a live guarantee, u = max(0, want - base - e) (= want - hard - soft
 * - e: one of hard and soft is 0) above `thr`, summed into sum4.
 */
function wholeElasticBase(
  b: InstantBatch, k: number, anyGuarantee: boolean, live: Uint8Array, thr: Float64Array, base: Float64Array, sum4: Float64Array,
): void {
  const { want, cls } = b;
  const n = b.n;
  for (let i = 0; i < n; i++) {
    const row = i * k, c = cls[i];
    const eligible = c !== REJECTED && live[i] === 0;
    for (let r = 0; r < k; r++) {
      const x = row + r;
      const w = want[x], a = base[x];
      const e = eligible && w > thr[r] ? w : 0;
      let sp = 0;
      if (anyGuarantee) {
        if (c !== REJECTED) {
          // u = max(0, want - base - e) only matters above thr >= 0, where the max is a no-op
          const u = w - a - e;
          if (u > thr[r]) {
            sum4[r] += u;
            sp = u;
          }
        }
      }
      base[x] = a + e + sp;
    }
  }
}

/**
 * A lower bound of what the default's step 3 leaves (left[r] minus the elastic shares one
 * by one, each clipped at 0), without the N dependent subtractions: the shares are exactly
 * the terms of sum3 (the same rows and cells, in the same order), so the N rounded
 * subtractions lose at most N 2^-53 left and sum3 is within N 2^-53 of the exact sum; with
 * M = (N + 16) 2^-48 (32 times that, plus the rounding of this formula), left (1 - M) -
 * sum3 (1 + M) is below the default's value, and clearlyFits on it (a stricter test)
 * implies clearlyFits on the default's. Worked example: left 10, sum3 4, N = 2: the bound
 * is 6 - 1.4e-13 < 6. Edge values: a bound <= C * EXHAUSTED fails clearlyFits (recomputed).
 * Overwrites `left` (not read again on this path).
 */
function leftBound(left: Float64Array, sum3: Float64Array, n: number, k: number): Float64Array {
  const m = (n + 16) * 2 ** -48;
  for (let r = 0; r < k; r++) left[r] = left[r] * (1 - m) - sum3[r] * (1 + m);
  return left;
}

/** unmetDemands from the allocation-only base (hard + soft). */
function unmetFromBase(b: InstantBatch, k: number, base: Float64Array, elastic: Float64Array, unmet: Float64Array): void {
  const { want, cls } = b;
  const n = b.n;
  for (let i = 0; i < n; i++) {
    const row = i * k;
    if (cls[i] === REJECTED) {
      for (let r = 0; r < k; r++) unmet[row + r] = 0;
      continue;
    }
    for (let r = 0; r < k; r++) {
      const x = row + r;
      unmet[x] = Math.max(0, want[x] - base[x] - elastic[x]);
    }
  }
}

/** base = (base + elastic) + spare: sumSteps' order with hard + soft already in base. */
function addSteps(base: Float64Array, elastic: Float64Array, spare: Float64Array, nk: number): void {
  for (let x = 0; x < nk; x++) base[x] = base[x] + elastic[x] + spare[x];
}

/**
 * Row by row: validation (when asked), the live guarantees and 1. hard (constant rate);
 * `sum3` gets step 3's demands above the float-residue threshold `thr` (what drfOver would
 * stage when nothing is exhausted). Admission's resource condition (3) keeps the hard sum
 * within C; `left` also bounds it so a caller passing arbitrary classes still gets a
 * feasible result. Returns (number of live soft LQs, listed in softIdx) * 4 + 2 (if a
 * weight is outside drfOver's fast range) + 1 (if any guarantee is live).
 */
function firstPass(
  b: InstantBatch, k: number, check: boolean, left: Float64Array, live: Uint8Array, softIdx: Int32Array,
  hard: Float64Array, soft: Float64Array | null, thr: Float64Array, sum3: Float64Array,
): number {
  const { want, cls, rate, remaining, hasGuarantee, weight } = b;
  const n = b.n;
  let anyGuarantee = 0, m = 0, wild = 0;
  for (let i = 0; i < n; i++) {
    const c = cls[i], base = i * k;
    if (check && !(c <= REJECTED)) validateRow(b, i, k);
    // validation goes along with the row's reads (ok: every cell validateRow checks is
    // fine: 0 <= x <= MAX is finite and >= 0, NaN fails it); a bad row is reported by
    // validateRow, which names its first bad cell
    let ok = true, g = 0;
    if (hasGuarantee[i] !== 0) {
      const guaranteed = c === HARD || c === SOFT;
      for (let r = 0; r < k; r++) {
        const x = rate[base + r], y = remaining[base + r];
        if (!(x >= 0 && x <= MAX && y >= 0 && y <= MAX)) ok = false;
        if (guaranteed && y > 0) g = 1;
      }
    }
    live[i] = g;
    if (g === 1) {
      anyGuarantee = 1;
      if (c === SOFT) softIdx[m++] = i;
    }
    const hardLive = g === 1 && c === HARD;
    // step 3's demands: queues without a live guarantee, not rejected
    const elastic = c !== REJECTED && g === 0;
    for (let r = 0; r < k; r++) {
      const x = base + r, w = want[x];
      if (!(w >= 0 && w <= MAX)) ok = false;
      let a = 0;
      if (hardLive) {
        a = Math.min(rate[x], w, left[r]);
        left[r] -= a;
      }
      hard[x] = a;
      if (soft !== null) soft[x] = 0;
      if (elastic && w > thr[r]) sum3[r] += w;
    }
    if (weight !== null) {
      const wt = weight[i];
      if (!(wt > 0 && wt - wt === 0)) ok = false;
      if (!(wt >= W_MIN && wt <= W_MAX)) wild = 2;
    }
    if (check && !ok) validateRow(b, i, k);
  }
  return m * 4 + wild + anyGuarantee;
}

/** Step 3's demands into `ew`: the queues without a live guarantee, not rejected. */
function elasticDemands(b: InstantBatch, k: number, live: Uint8Array, ew: Float64Array): void {
  const { want, cls } = b;
  const n = b.n;
  for (let i = 0; i < n; i++) {
    const base = i * k;
    if (cls[i] === REJECTED || live[i] === 1) {
      for (let r = 0; r < k; r++) ew[base + r] = 0;
    } else {
      for (let r = 0; r < k; r++) ew[base + r] = want[base + r];
    }
  }
}

/**
 * Steps 3 and 4 when step 3 is uncontended, row by row: elastic = step 3's demand above
 * `thr` (drfOver's fast path), taken from `left` in queue order; then (with a live
 * guarantee) step 4's demand u = max(0, want - hard - soft - elastic), summed above `thr`
 * into sum4, spare = u above `thr` (right when sum4 clearly fits, which the caller checks),
 * and the total. Without a live guarantee step 4 is skipped: spare = 0.
 */
function wholeElasticPass(
  b: InstantBatch, k: number, anyGuarantee: boolean, live: Uint8Array, thr: Float64Array, left: Float64Array,
  hard: Float64Array, soft: Float64Array, elastic: Float64Array, spare: Float64Array, allocation: Float64Array, sum4: Float64Array,
): void {
  const { want, cls } = b;
  const n = b.n;
  for (let i = 0; i < n; i++) {
    const base = i * k, c = cls[i];
    const eligible = c !== REJECTED && live[i] === 0;
    for (let r = 0; r < k; r++) {
      const x = base + r;
      const w = want[x];
      const e = eligible && w > thr[r] ? w : 0;
      elastic[x] = e;
      let sp = 0;
      if (anyGuarantee) {
        left[r] = Math.max(0, left[r] - e);
        if (c !== REJECTED) {
          const u = Math.max(0, w - hard[x] - soft[x] - e);
          if (u > thr[r]) {
            sum4[r] += u;
            sp = u;
          }
        }
      }
      spare[x] = sp;
      allocation[x] = hard[x] + soft[x] + e + sp;
    }
  }
}

/** left[r] = max(0, left[r] - a[i][r]) for every queue i in order (the order of the sums matters). */
function takeInOrder(a: Float64Array, left: Float64Array, n: number, k: number): void {
  for (let i = 0; i < n; i++) {
    const base = i * k;
    for (let r = 0; r < k; r++) left[r] = Math.max(0, left[r] - a[base + r]);
  }
}

/** Step 4's demands into `unmet`: want - what steps 1-3 gave (>= 0; rejected queues 0). */
function unmetDemands(b: InstantBatch, k: number, hard: Float64Array, soft: Float64Array, elastic: Float64Array, unmet: Float64Array): void {
  const { want, cls } = b;
  const n = b.n;
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
}

function sumSteps(out: Float64Array, hard: Float64Array, soft: Float64Array, elastic: Float64Array, spare: Float64Array, nk: number): void {
  for (let x = 0; x < nk; x++) out[x] = hard[x] + soft[x] + elastic[x] + spare[x];
}

/**
 * Step 2: the SRPT kernel over the m soft LQs with a live guarantee (rows softIdx), staged
 * straight into the kernel's views; writes their rows of `soft` and takes them from `left`
 * queue by queue (rows of the other queues are zero and would not change it).
 */
function softSrpt(
  engine: Engine, capacity: ArrayLike<number>, b: InstantBatch, softIdx: Int32Array, m: number, left: Float64Array, soft: Float64Array, add = false,
): void {
  const k = capacity.length;
  const block = engine.kernels.stage("srpt", m, k);
  const s = block.views();
  for (let r = 0; r < k; r++) {
    s.capacity[r] = capacity[r];
    s.available[r] = left[r];
  }
  const { want, rate, remaining } = b;
  for (let j = 0; j < m; j++) {
    const base = softIdx[j] * k, row = j * k;
    for (let r = 0; r < k; r++) {
      s.demands[row + r] = want[base + r];
      s.rates[row + r] = rate[base + r];
      s.remaining[row + r] = remaining[base + r];
    }
  }
  const st = block.run(SRPT_ARGS);
  if (st !== 0) {
    // rerun through engine.srpt so the error is the InputError it has always been
    const dem = new Float64Array(m * k), rates = new Float64Array(m * k), rem = new Float64Array(m * k);
    for (let j = 0; j < m; j++) {
      const base = softIdx[j] * k;
      dem.set(want.subarray(base, base + k), j * k);
      rates.set(rate.subarray(base, base + k), j * k);
      rem.set(remaining.subarray(base, base + k), j * k);
    }
    engine.srpt({ capacity, available: Float64Array.from(left), demands: dem, rates, remaining: rem });
    throw new Error(`srpt kernel status ${st}`);
  }
  const out = s.allocation;
  for (let j = 0; j < m; j++) {
    const base = softIdx[j] * k, row = j * k;
    for (let r = 0; r < k; r++) {
      const a = out[row + r];
      // add: `soft` is the allocation-only base, which holds the row's hard part (0)
      soft[base + r] = add ? soft[base + r] + a : a;
      left[r] = Math.max(0, left[r] - a);
    }
  }
}

/** The batch's arrays and the capacity (validateRow checks the cells). */
function validateShape(capacity: ArrayLike<number>, b: InstantBatch): void {
  if (!Array.isArray(capacity) && !(ArrayBuffer.isView(capacity) && !isNonNumericView(capacity))) throw new InputError("capacity", `expected an array of numbers, got ${describeValue(capacity)}`);
  if (b === null || typeof b !== "object") throw new InputError("batch", `expected an InstantBatch of columns, got ${describeValue(b)}`);
  const k = capacity.length;
  if (k === 0) throw new InputError("capacity", "must list at least one resource");
  for (let r = 0; r < k; r++) {
    const c = capacity[r];
    if (typeof c !== "number" || !(c > 0) || !Number.isFinite(c)) throw new InputError(`capacity[${r}]`, `must be a finite number > 0 (got ${describeValue(c)})`);
  }
  const n = b.n;
  // a NaN, negative or fractional n sized every loop and view wrongly (results of no shape)
  if (typeof n !== "number" || !Number.isInteger(n) || n < 0 || n > 2 ** 31 - 1) throw new InputError("n", `must be a whole number >= 0 (got ${describeValue(n)})`);
  const rows = (field: string, v: Float64Array) => {
    if (!(v instanceof Float64Array) || v.length < n * k) throw new InputError(field, `expected a Float64Array of N*K = ${n * k} numbers`);
  };
  rows("want", b.want);
  rows("rate", b.rate);
  rows("remaining", b.remaining);
  if (!(b.cls instanceof Uint8Array) || b.cls.length < n) throw new InputError("cls", `expected a Uint8Array of N = ${n} class codes`);
  if (!(b.hasGuarantee instanceof Uint8Array) || b.hasGuarantee.length < n) throw new InputError("hasGuarantee", `expected a Uint8Array of N = ${n} flags`);
  if (b.weight !== null && (!(b.weight instanceof Float64Array) || b.weight.length < n)) throw new InputError("weight", `expected null or a Float64Array of N = ${n} weights`);
}

/** validateShape and every row's validateRow: the InputError allocateInstantFlat's check would throw, or nothing. */
export function validateInstantBatch(capacity: ArrayLike<number>, b: InstantBatch): void {
  validateShape(capacity, b);
  const k = capacity.length;
  for (let i = 0; i < b.n; i++) validateRow(b, i, k);
}

// x - x === 0: finite; the messages are built only on failure
function badCell(field: string, i: number, r: number, x: number): InputError {
  return new InputError(`${field}[${i}][${r}]`, `must be a finite number >= 0 (got ${describeValue(x)})`);
}

/** Row i's cells: class code, want, weight, guarantee (in that order: the first bad one is the error). */
function validateRow(b: InstantBatch, i: number, k: number): void {
  const { cls, want, weight, hasGuarantee, rate, remaining } = b;
  if (!(cls[i] <= REJECTED)) throw new InputError(`cls[${i}]`, `must be a class code 0-3 (got ${describeValue(cls[i])})`);
  const base = i * k;
  for (let r = 0; r < k; r++) {
    const x = want[base + r];
    if (!(x >= 0 && x - x === 0)) throw badCell("want", i, r, x);
  }
  if (weight !== null) {
    const w = weight[i];
    if (!(w > 0 && w - w === 0)) throw new InputError(`weight[${i}]`, `must be a finite number > 0 (got ${describeValue(w)})`);
  }
  if (hasGuarantee[i] !== 0) {
    for (let r = 0; r < k; r++) {
      const x = rate[base + r], y = remaining[base + r];
      if (!(x >= 0 && x - x === 0)) throw badCell("rate", i, r, x);
      if (!(y >= 0 && y - y === 0)) throw badCell("remaining", i, r, y);
    }
  }
}

function validate(capacity: ArrayLike<number>, queues: readonly InstantQueue[]): void {
  if (!Array.isArray(capacity) && !(ArrayBuffer.isView(capacity) && !isNonNumericView(capacity))) throw new InputError("capacity", `expected an array of numbers, got ${describeValue(capacity)}`);
  if (!Array.isArray(queues)) throw new InputError("queues", `expected an array of queues, got ${describeValue(queues)}`);
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
    if (q === null || typeof q !== "object") throw new InputError(`queues[${i}]`, `expected a queue {class, want, weight?, guarantee?}, got ${describeValue(q)}`);
    const c = q.class;
    if (c !== "hard" && c !== "soft" && c !== "elastic" && c !== "rejected") throw new InputError(`queues[${i}].class`, `must be hard, soft, elastic or rejected (got ${describeValue(q.class)})`);
    vec(() => `queues[${i}].want`, q.want);
    // typeof first: a Symbol (or BigInt) weight must not reach the comparison, which throws a TypeError
    if (q.weight !== undefined && !(typeof q.weight === "number" && q.weight > 0 && Number.isFinite(q.weight))) throw new InputError(`queues[${i}].weight`, `must be a finite number > 0 (got ${describeValue(q.weight)})`);
    if (q.guarantee) {
      if (typeof q.guarantee !== "object") throw new InputError(`queues[${i}].guarantee`, `expected {rate, remaining} or null, got ${describeValue(q.guarantee)}`);
      vec(() => `queues[${i}].guarantee.rate`, q.guarantee.rate);
      vec(() => `queues[${i}].guarantee.remaining`, q.guarantee.remaining);
    }
  }
}
