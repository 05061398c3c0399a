// BoPF allocation at one instant (docs/policies/bopf.md, allocation): the general path, a
// pure function of the queues' classes, demands and open guarantees:
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
// is treated as over (step 3): a burst stops being guaranteed once consumed.
import type { Engine } from "../engine/engine.js";
import { clearlyFits, drfOver, EXHAUSTED, W_MAX, W_MIN } from "./drf-over.js";
import type { InstantAllocation, InstantBatch, InstantWorkspace } from "./instant-batch.js";
import { validateRow, validateShape } from "./instant-validate.js";
import { SRPT_ARGS } from "../kernels/srpt/contract.js";
import { HARD, REJECTED, SOFT } from "../kernels/guarantee-class.js";

const MAX = Number.MAX_VALUE;

/**
 * The round's four steps over the batch (`check`: validate its cells, the first bad one
 * row by row is the error). The result's arrays are views into `ws`, valid until its next
 * use. The steps run in few passes over the N*K arrays: validation, the live guarantees,
 * step 1 and step 3's demands in one; step 2 over the soft LQs only; the DRF rounds in
 * drfOver; step 4's demands with step 3's share taken from `left` in one.
 */
export function allocateSteps(engine: Engine, capacity: ArrayLike<number>, b: InstantBatch, ws: InstantWorkspace, check: boolean): InstantAllocation {
  const { k, n, nk, weights } = startRound(capacity, b, ws, check);
  const hard = ws.hard.subarray(0, nk), soft = ws.soft.subarray(0, nk);
  const elastic = ws.elastic.subarray(0, nk), spare = ws.spare.subarray(0, nk);
  const { left, live, softIdx, thr, sum3, sum4 } = ws;
  const ew = ws.wants.subarray(0, nk);
  const allocation = ws.allocation.subarray(0, nk);
  // (each pass is its own small function, so that V8 optimises each whole: docs/notes/bopf.md)
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
      sumSteps(allocation, b.want, hard, soft, elastic, spare, nk);
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
  sumSteps(allocation, b.want, hard, soft, elastic, spare, nk);
  return { allocation, steps: { hard, soft, elastic, spare } };
}

/** The round's start: shapes checked, workspace sized, left = C, thresholds set, sums zeroed. */
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
 * Row by row: validation (when asked), the live guarantees and 1. hard (constant rate);
 * `sum3` gets step 3's demands above the float-residue threshold `thr` (what drfOver would
 * stage when nothing is exhausted). Admission's resource condition (3) keeps the hard sum
 * within C; `left` also bounds it so a caller passing arbitrary classes still gets a
 * feasible result. Returns (number of live soft LQs, listed in softIdx) * 4 + 2 (if a
 * weight is outside drfOver's fast range) + 1 (if any guarantee is live).
 */
function firstPass(
  b: InstantBatch, k: number, check: boolean, left: Float64Array, live: Uint8Array, softIdx: Int32Array,
  hard: Float64Array, soft: Float64Array, thr: Float64Array, sum3: Float64Array,
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
      soft[x] = 0;
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
      const tot = hard[x] + soft[x] + e + sp;
      allocation[x] = tot > w ? w : tot; // the sum of want's parts can round one ulp above it
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

/** The steps' sum, never above want (the sum of want's parts can round one ulp above it). */
function sumSteps(out: Float64Array, want: Float64Array, hard: Float64Array, soft: Float64Array, elastic: Float64Array, spare: Float64Array, nk: number): void {
  for (let x = 0; x < nk; x++) {
    const tot = hard[x] + soft[x] + elastic[x] + spare[x];
    out[x] = tot > want[x] ? want[x] : tot;
  }
}

/**
 * Step 2: the SRPT kernel over the m soft LQs with a live guarantee (rows softIdx), staged
 * straight into the kernel's views; writes their rows of `soft` and takes them from `left`
 * queue by queue (rows of the other queues are zero and would not change it).
 */
function softSrpt(
  engine: Engine, capacity: ArrayLike<number>, b: InstantBatch, softIdx: Int32Array, m: number, left: Float64Array, soft: Float64Array,
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
      soft[base + r] = a;
      left[r] = Math.max(0, left[r] - a);
    }
  }
}
