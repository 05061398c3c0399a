// Typed arrays that can no longer be read: detached (the buffer was transferred, or it is a
// view of WASM memory that grew since it was read) or out of bounds (a view of a resizable
// ArrayBuffer shrunk below it). Both read as length 0 and throw a TypeError from set(),
// and slice(), so every caller array is checked here before it is used and the
// misuse is an InputError naming the field.
//
// Example: const f = new Float64Array(4); structuredClone(f.buffer, { transfer: [f.buffer] });
// unusableView(f) -> true. Edge values: a zero-length view of a live buffer is usable; a
// DataView is never a caller array (marshal.ts refuses it first).
import { InputError } from "../../errors.js";

/** True when v is detached or out of bounds (only views of byteLength 0 are probed). */
export function unusableView(v: ArrayBufferView): boolean {
  if (v.byteLength !== 0) return false;
  try {
    // ValidateTypedArray: throws on a detached or out-of-bounds view, costs nothing otherwise
    (v as unknown as { slice(a: number, b: number): unknown }).slice(0, 0);
    return false;
  } catch {
    return true;
  }
}

/** The InputError for an unusable view. */
export function unusableViewError(field: string): InputError {
  return new InputError(
    field,
    "is a detached or out-of-bounds typed array (its buffer was transferred or shrunk, or it is a view of the engine's memory read before the memory grew: read it again)",
  );
}

/** Throws unusableViewError when v is a typed array that cannot be read. */
export function checkUsable(field: string, v: unknown): void {
  if (ArrayBuffer.isView(v) && unusableView(v)) throw unusableViewError(field);
}

/** True when the byte ranges of two views overlap (same buffer, intersecting ranges, both non-empty). */
export function viewsOverlap(a: ArrayBufferView, b: ArrayBufferView): boolean {
  if (a.buffer !== b.buffer || a.byteLength === 0 || b.byteLength === 0) return false;
  return a.byteOffset < b.byteOffset + b.byteLength && b.byteOffset < a.byteOffset + a.byteLength;
}
