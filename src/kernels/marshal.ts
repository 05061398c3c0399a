// Marshalling from the caller's arrays (number[], number[][], typed arrays) into the
// staged flat layout. Shapes and element types are checked here, while copying (each
// element and each row is read once); values (finite, >= 0, ...) are checked by the
// kernels in their first pass (both backends), so nothing reads the input twice.
//
// Typed input is one `TypedArray.prototype.set` (a memcpy for Float64Array into Float64Array;
// Float32Array and integer arrays convert exactly). A row matrix is a tight per-row loop.
import { InputError, describeValue } from "../errors.js";
import { unusableView, unusableViewError } from "./util/views.js";

export type Vector = ArrayLike<number>;
/** Queue-major demands: rows (number[][] or typed rows) or one flat array of N*K. */
export type Matrix = ArrayLike<ArrayLike<number>> | Float64Array | Float32Array | ArrayLike<number>;

function isArrayLike(v: unknown): v is ArrayLike<unknown> {
  return Array.isArray(v) || ArrayBuffer.isView(v);
}

/**
 * A view that does not hold numbers: a DataView (no length, no elements) or a BigInt64Array /
 * BigUint64Array (TypedArray.set into a Float64Array throws a TypeError on BigInts). Refused
 * up front by name, so no kernel input ever reaches `set` with one.
 */
export function isNonNumericView(v: unknown): boolean {
  return v instanceof DataView || v instanceof BigInt64Array || v instanceof BigUint64Array;
}

/** A typed array that is detached or out of bounds (util/views.ts) as an InputError, before any set() meets it. */
function checkView(field: string, v: ArrayBufferView): void {
  if (unusableView(v)) throw unusableViewError(field);
}

function nonNumericView(field: string, v: unknown): InputError {
  return new InputError(field, `expected numbers, got a ${(v as object).constructor.name} (use an array or a Float64Array)`);
}

export function vectorLength(field: string, v: unknown): number {
  if (!isArrayLike(v)) throw new InputError(field, `expected an array of numbers, got ${describeValue(v)}`);
  if (isNonNumericView(v)) throw nonNumericView(field, v);
  if (ArrayBuffer.isView(v)) checkView(field, v);
  return v.length;
}

/**
 * Number of rows of a matrix given K columns. A flat array's length must be a multiple of K;
 * rows are only counted here: each row's shape is checked by writeMatrix as it is copied.
 */
export function matrixRows(field: string, m: unknown, k: number): number {
  if (!isArrayLike(m)) throw new InputError(field, `expected an array of rows or a flat array of N*K numbers, got ${describeValue(m)}`);
  if (isNonNumericView(m)) throw nonNumericView(field, m);
  if (ArrayBuffer.isView(m)) checkView(field, m);
  if (ArrayBuffer.isView(m) || m.length === 0 || !isArrayLike(m[0])) {
    // typed, empty, or a flat number[] of N*K
    if (m.length % k !== 0) throw new InputError(field, `flat length ${m.length} is not a multiple of K=${k}`);
    return m.length / k;
  }
  return m.length;
}

export function writeVector(field: string, src: unknown, dst: Float64Array, len: number): void {
  const v = src as ArrayLike<unknown>;
  if (isNonNumericView(v)) throw nonNumericView(field, v);
  // lengths are checked again as each array is copied: user code (an element getter of an
  // earlier input) may have resized or detached this one since its length was read
  if (ArrayBuffer.isView(v)) checkView(field, v);
  if (v.length !== len) throw new InputError(field, `has length ${v.length}, expected ${len}`);
  if (ArrayBuffer.isView(v)) {
    dst.set(v as unknown as ArrayLike<number>);
    return;
  }
  for (let i = 0; i < len; i++) {
    const x = v[i];
    if (typeof x !== "number") throw new InputError(`${field}[${i}]`, `must be a number, got ${describeValue(x)}`);
    dst[i] = x;
  }
}

/** Copies an N x K matrix (shape from matrixRows) into dst, checking each row's shape and element types on the way. */
export function writeMatrix(field: string, src: unknown, dst: Float64Array, n: number, k: number): void {
  const m = src as ArrayLike<unknown>;
  if (ArrayBuffer.isView(m)) {
    checkView(field, m);
    // a flat typed matrix resized since matrixRows counted it would copy too few (keeping the
    // last call's staged values) or throw a RangeError
    if (m.length !== n * k) throw new InputError(field, `has length ${m.length}, expected N*K=${n * k} (it changed during the call)`);
    dst.set(m as unknown as ArrayLike<number>);
    return;
  }
  if (n === 0) return;
  if (!isArrayLike(m[0])) {
    writeVector(field, m, dst, n * k);
    return;
  }
  if (m.length !== n) throw new InputError(field, `has ${m.length} rows, expected N=${n} (it changed during the call)`);
  for (let i = 0; i < n; i++) {
    const row = m[i];
    if (Array.isArray(row) && row.length === k) {
      // the common case: a plain number[] row
      const base = i * k;
      for (let r = 0; r < k; r++) {
        const x: unknown = row[r];
        if (typeof x !== "number") throw new InputError(`${field}[${i}][${r}]`, `must be a number, got ${describeValue(x)}`);
        dst[base + r] = x;
      }
      continue;
    }
    if (!isArrayLike(row)) throw new InputError(`${field}[${i}]`, `expected an array of ${k} numbers, got ${describeValue(row)}`);
    if (isNonNumericView(row)) throw nonNumericView(`${field}[${i}]`, row);
    if (ArrayBuffer.isView(row)) checkView(`${field}[${i}]`, row);
    if (row.length !== k) throw new InputError(`${field}[${i}]`, `has length ${row.length}, expected K=${k} (the capacity's length)`);
    dst.set(row as unknown as ArrayLike<number>, i * k); // a typed row
  }
}
