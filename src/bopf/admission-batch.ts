// Many queues' reports as columns (struct of arrays), for BopfAdmissionControl.admitBatch:
// what a scheduler holding thousands of queues keeps anyway, read without one object, one
// name lookup or one burst list per queue. Row i is a TQ (kind 0) or an LQ with a periodic
// burst spec (kind 1): bursts every period[i] seconds from start[i], count[i] of them, each
// with window window[i] and volume volume[i*K .. i*K+K-1] (resource·seconds). Explicit
// burst lists go through admit() one by one.
//
// Worked example (K = 2): a TQ, then an LQ bursting <25, 25> in 25 s every 150 s, 10 times:
//   kind   = [0, 1]          start  = [0, 0]     period = [0, 150]
//   window = [0, 25]         count  = [0, 10]    volume = [0, 0, 25, 25]
// TQ rows' spec cells are ignored (any value). Edge values: count 0 or an all-zero volume
// is an LQ that never binds (tolerance +Infinity, rate 0), as in admit().
import { InputError, describeValue } from "../errors.js";
import type { PeriodicBursts } from "./bursts.js";
import { KIND_LQ, batchRowError, type AdmissionBatch } from "../kernels/bopf/columns.js";

export { KIND_TQ, KIND_LQ, batchRowError, type AdmissionBatch } from "../kernels/bopf/columns.js";

/** What admitBatch writes per queue (arrays of at least N). */
export interface BatchOutcome {
  /** Class code: 0 hard, 1 soft, 2 elastic, 3 rejected (CLASS_CODE of allocate.ts). */
  cls: Uint8Array;
  /** Reason code, index into BATCH_REASONS. */
  reason: Uint8Array;
  /** Admission id (classOfId, leaveId, seriesOfId, row of `rates`), -1 when rejected. */
  id: Int32Array;
}

/** Reason codes of BatchOutcome.reason. */
export const BATCH_REASONS = ["safety", "fairness", "resource", "all-held"] as const;

/** Fresh columns for n queues of k resources (all TQ until filled). */
export function emptyAdmissionBatch(n: number, k: number): AdmissionBatch {
  return {
    n, kind: new Uint8Array(n), start: new Float64Array(n), period: new Float64Array(n), window: new Float64Array(n),
    count: new Float64Array(n), volume: new Float64Array(n * k),
  };
}

export function emptyBatchOutcome(n: number): BatchOutcome {
  return { cls: new Uint8Array(n), reason: new Uint8Array(n), id: new Int32Array(n) };
}

/** Writes a periodic spec into row i (what admit() reads from {kind: 'LQ', bursts}). */
export function setPeriodicRow(b: AdmissionBatch, i: number, p: PeriodicBursts, k: number): void {
  b.kind[i] = KIND_LQ;
  b.start[i] = p.start;
  b.period[i] = p.period;
  b.window[i] = p.window;
  b.count[i] = p.count;
  for (let r = 0; r < k; r++) b.volume[i * k + r] = p.volume[r];
}

/**
 * Checks every row before any is admitted (a bad row admits nothing), with the field named
 * as `${field}.period[7]`. The comparisons are written so NaN fails them; the messages are
 * built only on failure. admitBatch checks the columns with validateBatchShape and the rows
 * in its own first pass (batchRowError builds the same error); this is the same check alone.
 */
export function validateAdmissionBatch(b: AdmissionBatch, k: number, field: string): void {
  validateBatchShape(b, k, field);
  for (let i = 0; i < b.n; i++) {
    const e = batchRowError(b, i, k, field);
    if (e !== null) throw e;
  }
}

/** The columns' types and lengths. */
export function validateBatchShape(b: AdmissionBatch, k: number, field: string): void {
  if (b === null || typeof b !== "object") throw new InputError(field, `expected a batch of columns, got ${describeValue(b)}`);
  const n = b.n;
  if (!(Number.isInteger(n) && n >= 0)) throw new InputError(`${field}.n`, `must be an integer >= 0 (got ${describeValue(n)})`);
  if (!(b.kind instanceof Uint8Array) || b.kind.length < n) throw new InputError(`${field}.kind`, `expected a Uint8Array of N = ${n} kinds`);
  for (const c of ["start", "period", "window", "count"] as const) {
    if (!(b[c] instanceof Float64Array) || b[c].length < n) throw new InputError(`${field}.${c}`, `expected a Float64Array of N = ${n} numbers`);
  }
  if (!(b.volume instanceof Float64Array) || b.volume.length < n * k) throw new InputError(`${field}.volume`, `expected a Float64Array of N*K = ${n * k} numbers`);
}
