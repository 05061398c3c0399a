// BoPF allocation at one instant: the public entry points over the one round
// (allocate-steps.ts, the steps; docs/policies/bopf.md, allocation). allocateInstant builds
// the columns from queue objects; allocateInstantFlat takes them as columns; asked for the
// allocation only, the round first runs on the engine's BoPF kernel (assembly/bopf.ts
// bopfAllocate, or its JS twin), which finishes the usual uncontended round in one pass and
// hands every other round (SRPT, a binding DRF, a weight outside the fast range) to the steps.
// test/bopf.flat-steps.test.ts compares the two forms bit for bit.
//
// Example: C = <10>, a hard LQ (rate 2, remaining 20) wanting 8 and a TQ wanting 3: step 1
// gives the LQ 2, step 3 the TQ 3, step 4 the LQ's unmet 6 capped by what is left (5):
// [7, 3], with the steps or without. Edge values: N = 0 gives an empty allocation; a bad
// cell is an InputError naming it (want[i][r], rate[i][r], weight[i], cls[i], ...).
import { keepViews } from "../kernels/util/keep-views.js";
import type { Engine } from "../engine/engine.js";
import { allocateError, copyIn } from "../kernels/bopf/batch.js";
import { Status } from "../kernels/status.js";
import { allocateSteps } from "./allocate-steps.js";
import {
  CLASS_CODE, InstantWorkspace, type FlatAllocation, type FlatOptions, type InstantAllocation, type InstantBatch, type InstantQueue,
} from "./instant-batch.js";
import { validateQueues, validateRow, validateShape } from "./instant-validate.js";

export {
  CLASS_CODE, InstantWorkspace, type FlatAllocation, type FlatOptions, type InstantAllocation, type InstantBatch, type InstantQueue,
} from "./instant-batch.js";
export { validateInstantBatch } from "./instant-validate.js";

/** The round over queue objects: their columns built, then the steps (allocateInstantFlat). */
export function allocateInstant(engine: Engine, capacity: ArrayLike<number>, queues: readonly InstantQueue[]): InstantAllocation {
  validateQueues(capacity, queues);
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
  return allocateSteps(engine, capacity, { n, cls, want, weight, hasGuarantee: hasG, rate, remaining }, new InstantWorkspace(), false);
}

/**
 * allocateInstant over flat arrays: the same steps, the same numbers. `check` (default
 * true) validates the batch as allocateInstant validates its queues (the first bad cell,
 * row by row, is the error); the result's arrays are views into `ws` (pass a fresh
 * workspace to keep them). With { steps: false } only the allocation (steps null), the
 * same bits: on the engine's BoPF kernel when it can finish the round (checked), else the
 * steps.
 */
export function allocateInstantFlat(engine: Engine, capacity: ArrayLike<number>, b: InstantBatch, ws?: InstantWorkspace, options?: boolean | (FlatOptions & { steps?: true })): InstantAllocation;
export function allocateInstantFlat(engine: Engine, capacity: ArrayLike<number>, b: InstantBatch, ws: InstantWorkspace | undefined, options: FlatOptions): FlatAllocation;
export function allocateInstantFlat(engine: Engine, capacity: ArrayLike<number>, b: InstantBatch, ws = new InstantWorkspace(), options: boolean | FlatOptions = true): FlatAllocation {
  const check = typeof options === "boolean" ? options : options.check !== false;
  if (typeof options === "object" && options !== null && options.steps === false) {
    const a = check ? kernelRound(engine, capacity, b, ws) : null;
    return { allocation: a ?? allocateSteps(engine, capacity, b, ws, check).allocation, steps: null };
  }
  return allocateSteps(engine, capacity, b, ws, check);
}

/**
 * The usual round on the engine's BoPF kernel (assembly/bopf.ts bopfAllocate: steps 1, 3
 * and 4 when no soft LQ holds a live guarantee and the round is uncontended, the same
 * operations as allocate-steps.ts firstPass and wholeElasticPass, allocation only): the batch staged
 * into the engine, one call, the allocation copied into `ws`. null when the round needs the
 * general path (SRPT, a binding DRF, a weight outside the fast range). A bad cell throws
 * validateRow's InputError, as the TS pass would.
 */
function kernelRound(engine: Engine, capacity: ArrayLike<number>, b: InstantBatch, ws: InstantWorkspace): Float64Array | null {
  validateShape(capacity, b);
  const k = capacity.length, n = b.n, nk = n * k;
  // columns that are views of the engine's memory stay readable if staging grows it
  const keep = engine.kernels.stageGrows("bopf", n, k) ? keepViews(engine.kernels, [capacity, b]) : null;
  const block = engine.kernels.stage("bopf", n, k);
  if (keep !== null) [capacity, b] = keep();
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
