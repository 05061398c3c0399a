// Caller arrays that are views of the engine's own memory (a prepared problem's p.capacity,
// an EngineAdmissionBatch's columns, a result view) passed into a one-shot call that grows
// that memory: growth detaches them (WASM), so without this the call would read empty
// arrays (`capacity: has length 0`) or throw a TypeError where the JS backend, whose arrays
// never move, just works. Before such a stage, each view of the engine's memory is noted by
// address; after it, the same bytes are viewed again over the grown memory (growth keeps
// addresses and contents), so both backends read and write the same values.
//
// Example: p = engine.prepareDrf(1, 2); engine.drf({ capacity: p.capacity, demands: big })
// where `big` needs more memory -> keepViews notes p.capacity at its address, the stage
// grows memory, keep() gives a Float64Array over the new buffer at that address.
// Edge values: arrays are looked into one level (rows that are engine views); plain objects
// (an input, an `into`, a batch of columns) field by field, down to those rows; class
// instances are kept as they are (an EngineAdmissionBatch re-derives its own views).
import type { KernelBackend } from "../backend.js";

type ViewCtor = new (buffer: ArrayBufferLike, byteOffset: number, length: number) => ArrayBufferView;

function isEngineView(x: unknown, buf: ArrayBufferLike): x is ArrayBufferView & { length: number } {
  return ArrayBuffer.isView(x) && !(x instanceof DataView) && x.buffer === buf;
}

/** A function giving x over the grown memory, or null when x holds no view of `buf`. */
function note(x: unknown, buf: ArrayBufferLike, memory: () => ArrayBufferLike): (() => unknown) | null {
  if (isEngineView(x, buf)) {
    const ctor = x.constructor as ViewCtor, at = x.byteOffset, len = x.length;
    return () => new ctor(memory(), at, len);
  }
  // a flat number[] holds no views (marshal.ts refuses rows mixed with numbers)
  if (Array.isArray(x) && x.length > 0 && typeof x[0] !== "number") {
    const rows: Array<(() => unknown) | null> = [];
    let any = false;
    for (let i = 0; i < x.length; i++) {
      const r = isEngineView(x[i], buf) ? note(x[i], buf, memory) : null;
      rows.push(r);
      if (r !== null) any = true;
    }
    if (!any) return null;
    return () => x.map((row, i) => (rows[i] !== null ? rows[i]!() : row));
  }
  if (x !== null && typeof x === "object" && !ArrayBuffer.isView(x)) {
    const proto = Object.getPrototypeOf(x);
    if (proto !== Object.prototype && proto !== null) return null;
    const keys = Object.keys(x);
    const values = keys.map((key) => (x as Record<string, unknown>)[key]);
    const notes = values.map((v) => note(v, buf, memory));
    if (notes.every((n) => n === null)) return null;
    return () => {
      const copy = Object.create(proto) as Record<string, unknown>;
      keys.forEach((key, i) => Object.defineProperty(copy, key, { value: notes[i] !== null ? notes[i]!() : values[i], enumerable: true, writable: true, configurable: true }));
      return copy;
    };
  }
  return null;
}

/**
 * Call before `kernels.stage(kernel, a, b)` when `kernels.stageGrows(kernel, a, b)`: the
 * returned function, called after the stage, gives `arrays` with every view of the engine's
 * memory re-derived over the grown memory (the others as they are).
 */
export function keepViews<T extends unknown[]>(kernels: KernelBackend, arrays: [...T]): () => T {
  const buf = kernels.memoryBuffer();
  if (buf === null) return () => arrays as T;
  const memory = () => kernels.memoryBuffer()!;
  const notes = arrays.map((x) => note(x, buf, memory));
  return () => arrays.map((x, i) => (notes[i] !== null ? notes[i]!() : x)) as T;
}
