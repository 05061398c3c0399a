// The BoPF admission kernel's input as columns (struct of arrays), and the check of one row:
// the InputError a bad row gives, which the kernel's statuses are mapped back to (batch.ts).
// The columns are described with a worked example in src/bopf/admission-batch.ts.
import { InputError, describeValue } from "../../errors.js";

export const KIND_TQ = 0, KIND_LQ = 1;

export interface AdmissionBatch {
  n: number;
  /** KIND_TQ or KIND_LQ per queue. */
  kind: Uint8Array;
  start: Float64Array;
  period: Float64Array;
  window: Float64Array;
  count: Float64Array;
  /** Queue-major N*K. */
  volume: Float64Array;
}

/** Row i's first bad cell as an InputError (kind, start, period, window, count, volume), or null. */
export function batchRowError(b: AdmissionBatch, i: number, k: number, field: string): InputError | null {
  const { kind, start, period, window, count, volume } = b;
  const kd = kind[i];
  if (kd === KIND_TQ) return null;
  if (kd !== KIND_LQ) return new InputError(`${field}.kind[${i}]`, `must be ${KIND_TQ} (TQ) or ${KIND_LQ} (LQ) (got ${kd})`);
  const s = start[i], p = period[i], w = window[i], c = count[i];
  // x - x === 0: finite
  if (!(s - s === 0)) return new InputError(`${field}.start[${i}]`, `must be a finite number (got ${describeValue(s)})`);
  if (!(p > 0 && p - p === 0)) return new InputError(`${field}.period[${i}]`, `must be a finite number > 0 (got ${describeValue(p)})`);
  if (!(w > 0 && w - w === 0)) return new InputError(`${field}.window[${i}]`, `must be a finite number > 0 (got ${describeValue(w)})`);
  if (!(c >= 0 && Math.floor(c) === c && c - c === 0)) return new InputError(`${field}.count[${i}]`, `must be an integer >= 0 (got ${describeValue(c)})`);
  const base = i * k;
  for (let r = 0; r < k; r++) {
    const v = volume[base + r];
    if (!(v >= 0 && v - v === 0)) return new InputError(`${field}.volume[${i}][${r}]`, `must be a finite number >= 0 (got ${describeValue(v)})`);
  }
  return null;
}
