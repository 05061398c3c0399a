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

/** True when queue i's guarantee is live: hard/soft with some remaining volume. */
function guaranteed(q: InstantQueue): boolean {
  if ((q.class !== "hard" && q.class !== "soft") || !q.guarantee) return false;
  const rem = q.guarantee.remaining;
  for (let r = 0; r < rem.length; r++) if (rem[r] > 0) return true;
  return false;
}

export function allocateInstant(engine: Engine, capacity: ArrayLike<number>, queues: readonly InstantQueue[]): InstantAllocation {
  const k = capacity.length;
  validate(capacity, queues);
  const n = queues.length;
  const hard = new Float64Array(n * k), soft = new Float64Array(n * k);
  const elastic = new Float64Array(n * k), spare = new Float64Array(n * k);
  const weights = Float64Array.from(queues, (q) => q.weight ?? 1);
  const left = Float64Array.from(capacity);
  const take = (a: Float64Array) => {
    for (let i = 0; i < n; i++) for (let r = 0; r < k; r++) left[r] = Math.max(0, left[r] - a[i * k + r]);
  };

  // 1. hard: constant rate. Admission's resource condition (3) keeps the sum within C;
  // `left` also bounds it so a caller passing arbitrary classes still gets a feasible result.
  for (let i = 0; i < n; i++) {
    const q = queues[i];
    if (q.class !== "hard" || !guaranteed(q)) continue;
    for (let r = 0; r < k; r++) {
      const a = Math.min(q.guarantee!.rate[r], q.want[r], left[r]);
      hard[i * k + r] = a;
      left[r] -= a;
    }
  }

  // 2. soft: SRPT over what the hard LQs left, one kernel call for all of them
  const softIdx: number[] = [];
  for (let i = 0; i < n; i++) if (queues[i].class === "soft" && guaranteed(queues[i])) softIdx.push(i);
  if (softIdx.length > 0) {
    const m = softIdx.length;
    const dem = new Float64Array(m * k), rates = new Float64Array(m * k), rem = new Float64Array(m * k);
    softIdx.forEach((i, j) => {
      const q = queues[i];
      for (let r = 0; r < k; r++) {
        dem[j * k + r] = q.want[r];
        rates[j * k + r] = q.guarantee!.rate[r];
        rem[j * k + r] = q.guarantee!.remaining[r];
      }
    });
    const res = engine.srpt({ capacity, available: left, demands: dem, rates, remaining: rem });
    softIdx.forEach((i, j) => soft.set(res.allocation.subarray(j * k, j * k + k), i * k));
    take(soft);
  }

  // 3. elastic: DRF over the rest among queues without a live guarantee
  const ew = new Float64Array(n * k);
  let anyGuarantee = false;
  for (let i = 0; i < n; i++) {
    const q = queues[i];
    if (q.class === "rejected") continue;
    if (guaranteed(q)) {
      anyGuarantee = true;
      continue;
    }
    for (let r = 0; r < k; r++) ew[i * k + r] = q.want[r];
  }
  drfOver(engine, capacity, left, ew, weights, elastic);
  take(elastic);

  // 4. spare: unmet demand of every admitted queue, by DRF over what is still free. When
  // no queue held a guarantee, step 3 was DRF over every admitted queue's whole demand,
  // already Pareto efficient: step 4 could give nothing, so it is skipped.
  if (!anyGuarantee) return finish(n, k, hard, soft, elastic, spare);
  const unmet = new Float64Array(n * k);
  for (let i = 0; i < n; i++) {
    const q = queues[i];
    if (q.class === "rejected") continue;
    for (let r = 0; r < k; r++) {
      const x = i * k + r;
      unmet[x] = Math.max(0, q.want[r] - hard[x] - soft[x] - elastic[x]);
    }
  }
  drfOver(engine, capacity, left, unmet, weights, spare);
  return finish(n, k, hard, soft, elastic, spare);
}

function finish(n: number, k: number, hard: Float64Array, soft: Float64Array, elastic: Float64Array, spare: Float64Array): InstantAllocation {
  const allocation = new Float64Array(n * k);
  for (let x = 0; x < n * k; x++) allocation[x] = hard[x] + soft[x] + elastic[x] + spare[x];
  return { allocation, steps: { hard, soft, elastic, spare } };
}

function validate(capacity: ArrayLike<number>, queues: readonly InstantQueue[]): void {
  const k = capacity.length;
  if (k === 0) throw new InputError("capacity", "must list at least one resource");
  for (let r = 0; r < k; r++) {
    const c = capacity[r];
    if (typeof c !== "number" || !(c > 0) || !Number.isFinite(c)) throw new InputError(`capacity[${r}]`, `must be a finite number > 0 (got ${describeValue(c)})`);
  }
  const vec = (field: string, v: ArrayLike<number> | undefined) => {
    if (!v || typeof v !== "object" || v.length !== k) throw new InputError(field, `expected ${k} numbers (one per resource), got ${describeValue(v)}`);
    for (let r = 0; r < k; r++) {
      const x = v[r];
      if (typeof x !== "number" || !(x >= 0) || !Number.isFinite(x)) throw new InputError(`${field}[${r}]`, `must be a finite number >= 0 (got ${describeValue(x)})`);
    }
  };
  queues.forEach((q, i) => {
    if (!["hard", "soft", "elastic", "rejected"].includes(q.class)) throw new InputError(`queues[${i}].class`, `must be hard, soft, elastic or rejected (got ${describeValue(q.class)})`);
    vec(`queues[${i}].want`, q.want);
    if (q.weight !== undefined && !(q.weight > 0 && Number.isFinite(q.weight))) throw new InputError(`queues[${i}].weight`, `must be a finite number > 0 (got ${describeValue(q.weight)})`);
    if (q.guarantee) {
      vec(`queues[${i}].guarantee.rate`, q.guarantee.rate);
      vec(`queues[${i}].guarantee.remaining`, q.guarantee.remaining);
    }
  });
}
