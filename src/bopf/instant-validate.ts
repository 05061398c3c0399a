// The checks of an allocation round's input: the columns of an InstantBatch (shape, then
// row by row: the first bad cell is the error) and the InstantQueue objects of
// allocateInstant. Each throws an InputError naming the field; nothing else is thrown.
import { InputError, describeValue } from "../errors.js";
import { isNonNumericView } from "../kernels/marshal.js";
import type { InstantBatch, InstantQueue } from "./instant-batch.js";
import { REJECTED } from "../kernels/guarantee-class.js";

/** The batch's arrays and the capacity (validateRow checks the cells). */
export function validateShape(capacity: ArrayLike<number>, b: InstantBatch): void {
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
export function validateRow(b: InstantBatch, i: number, k: number): void {
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

/** allocateInstant's capacity and queue objects. */
export function validateQueues(capacity: ArrayLike<number>, queues: readonly InstantQueue[]): void {
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
