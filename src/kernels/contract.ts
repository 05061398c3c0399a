// What one kernel contract declares, in its own folder (src/kernels/<kernel>/contract.ts):
// its regions, and how each backend calls it over a block of those regions. Everything
// else (staging, caching, size limits, prepared problems, result copies) is generic.
import type { RegionTable } from "./region-table.js";

/** Absolute addresses of a WASM block's regions (by region name) and of its scratch. */
export type Ptrs = Record<string, number> & { scratch: number };

/**
 * V: the views (one typed array per region), A: the typed arguments of one call,
 * S: the JS twin's scratch, X: the kernel's WASM exports.
 * Every kernel returns a Status code and, when it is not OK, stores the offending index
 * (JS: scratch.errIndex; WASM: the first i32 of its scratch).
 */
export interface KernelContract<V, A, S extends { errIndex: number }, X> {
  readonly regions: RegionTable<V>;
  readonly js: {
    scratch(): S;
    /** Sizes the scratch up front, so an allocation failure is reported when staging. */
    ensure(s: S, a: number, b: number): void;
    call(v: V, s: S, a: number, b: number, args: A): number;
  };
  readonly wasm: {
    /** The exports the call needs (a module without them is not fairsched's). */
    readonly exports: readonly (keyof X & string)[];
    /** Scratch bytes from the module itself, so the layout cannot drift from the kernel's. */
    scratchBytes(x: X, a: number, b: number): number;
    call(x: X, p: Ptrs, a: number, b: number, args: A): number;
  };
}
