// Results out of a kernel's output views, for every kernel in one table: fresh caller-owned
// copies by default, or copies into caller-provided arrays (`into`), validated up front, so
// a scheduler calling every few milliseconds allocates nothing in steady state.
//
// Example (DRF, N=2, K=2): into = { allocation: new Float64Array(4) } -> allocation is
// copied into it; fraction and dominantShare are fresh Float64Array(2) copies. Edge values:
// N=0 takes zero-length arrays; a wrong length, a wrong element type or an unknown field is
// an InputError naming `into.<field>`, thrown before anything is written.
import type { KernelName, KernelViews } from "./backend.js";
import { InputError, describeValue } from "../errors.js";
import { stageCount } from "./util/stage-count.js";
import { unusableView, unusableViewError, viewsOverlap } from "./util/views.js";

/** Each result field: the output region it comes from and its shape for messages. */
export const RESULT_FIELDS = {
  drf: { fraction: ["lambda", "N"], allocation: ["allocation", "N*K"], dominantShare: ["dominantShare", "N"] },
  srpt: { fraction: ["lambda", "N"], allocation: ["allocation", "N*K"] },
  ltrf: { count: ["count", "N"], usage: ["usageOut", "N"], free: ["freeOut", "K"] },
  crv: { order: ["order", "T"], slack: ["slackOut", "T"] },
  bopf: { cls: ["cls", "N"], reason: ["reason", "N"], id: ["id", "N"], allocation: ["allocation", "N*K"] },
} as const satisfies { [K in KernelName]: Record<string, readonly [keyof KernelViews[K], string]> };

type Fields<K extends KernelName> = (typeof RESULT_FIELDS)[K];
/** The result arrays of kernel K by result field name (e.g. drf: fraction, allocation, dominantShare). */
export type ResultArrays<K extends KernelName> = {
  -readonly [F in keyof Fields<K>]: Fields<K>[F] extends readonly [infer R, string] ? R extends keyof KernelViews[K] ? KernelViews[K][R] : never : never;
};

/** Caller-provided result arrays: any subset of a result's array fields. */
export type Into<R> = { [F in keyof R as R[F] extends ArrayBufferView ? F : never]?: R[F] };

/** Options of every engine call. */
export interface CallOptions<R> {
  /**
   * Arrays to write the results into instead of allocating fresh ones: each must be the
   * result's element type (Float64Array, or Uint32Array/Int32Array for crvReorder) of the
   * exact length. Fields left out are allocated as usual.
   */
  into?: Into<R>;
}

/**
 * Fresh copies per kernel, written out so each property access is monomorphic: this runs on
 * every call, where a generic loop over RESULT_FIELDS costs measurably more (docs/notes/kernels.md).
 */
const FRESH: { readonly [K in KernelName]: (v: KernelViews[K]) => ResultArrays<K> } = {
  drf: (v) => ({ fraction: v.lambda.slice(), allocation: v.allocation.slice(), dominantShare: v.dominantShare.slice() }),
  srpt: (v) => ({ fraction: v.lambda.slice(), allocation: v.allocation.slice() }),
  ltrf: (v) => ({ count: v.count.slice(), usage: v.usageOut.slice(), free: v.freeOut.slice() }),
  crv: (v) => ({ order: v.order.slice(), slack: v.slackOut.slice() }),
  bopf: (v) => ({ cls: v.cls.slice(), reason: v.reason.slice(), id: v.id.slice(), allocation: v.allocation.slice() }),
};

/**
 * The result of kernel K: `into`'s arrays (filled) where given, fresh copies elsewhere.
 * Returns `into` itself when it holds every field (no allocation at all).
 */
export function copyResults<K extends KernelName>(kernel: K, views: KernelViews[K], into: unknown): ResultArrays<K> {
  if (into === undefined) return (FRESH[kernel] as (v: KernelViews[K]) => ResultArrays<K>)(views);
  const fields = RESULT_FIELDS[kernel] as unknown as Record<string, readonly [string, string]>;
  const out = views as unknown as Record<string, ArrayBufferView & { slice(): ArrayBufferView }>;
  // the arrays checkInto validated (a getter on `into` is not read twice); a getter that calls
  // the engine again (re-entry) gets arrays of its own
  const checked = depth === 0 ? CHECKED : [undefined, undefined, undefined, undefined];
  const entered = stageCount.n;
  depth++;
  let given: Record<string, unknown>;
  try {
    given = checkInto(kernel, views, into, checked);
  } finally {
    depth--;
  }
  // a getter of `into` that called the engine may have overwritten the staged results
  if (stageCount.n !== entered) throw new InputError("into", "its getters called the engine during this call (the results could be another call's); pass the arrays themselves");
  let missing = 0, i = 0;
  for (const f in fields) {
    const dst = checked[i++] as (ArrayBufferView & { set(a: ArrayLike<number>): void }) | undefined;
    if (dst !== undefined) dst.set(out[fields[f][0]] as unknown as ArrayLike<number>);
    else missing++;
  }
  if (missing === 0) {
    checked.fill(undefined);
    return given as ResultArrays<K>;
  }
  const r: Record<string, ArrayBufferView> = {};
  i = 0;
  for (const f in fields) r[f] = (checked[i++] as ArrayBufferView | undefined) ?? out[fields[f][0]].slice();
  checked.fill(undefined);
  return r as ResultArrays<K>;
}

/** checkInto's validated arrays by result field position (reused: a call with `into` allocates nothing). */
const CHECKED: Array<unknown> = [undefined, undefined, undefined, undefined];
let depth = 0;

/**
 * Validates `into` against the output views' types and lengths; returns it as a record and
 * leaves the validated arrays in CHECKED by field position. Only own keys count, looked up
 * without the prototype (a key `constructor` or `__proto__` from JSON.parse is not a field);
 * a detached or out-of-bounds array, or two fields sharing memory (their results would
 * overwrite each other), are InputErrors naming the field. The arrays go to `checked`.
 */
export function checkInto<K extends KernelName>(kernel: K, views: KernelViews[K], into: unknown, checked: unknown[] = CHECKED): Record<string, unknown> {
  if (into === null || typeof into !== "object") throw new InputError("into", `expected an object of result arrays, got ${describeValue(into)}`);
  const fields = RESULT_FIELDS[kernel] as unknown as Record<string, readonly [string, string]>;
  const out = views as unknown as Record<string, ArrayBufferView & { length: number }>;
  const given = into as Record<string, unknown>;
  checked.fill(undefined);
  for (const f in given) {
    if (!Object.hasOwn(given, f)) continue;
    if (!Object.hasOwn(fields, f)) throw new InputError(`into.${f}`, `is not a result field (expected ${Object.keys(fields).join(", ")})`);
  }
  let i = 0;
  for (const f in fields) {
    const pos = i++;
    if (!Object.hasOwn(given, f)) continue;
    const dst = given[f];
    if (dst === undefined) continue;
    const spec = fields[f];
    const src = out[spec[0]];
    if (!(dst instanceof (src.constructor as new () => unknown))) {
      throw new InputError(`into.${f}`, `must be a ${src.constructor.name} (got ${ArrayBuffer.isView(dst) ? dst.constructor.name : describeValue(dst)})`);
    }
    if (unusableView(dst as ArrayBufferView)) throw unusableViewError(`into.${f}`);
    const len = (dst as { length: number }).length;
    if (len !== src.length) throw new InputError(`into.${f}`, `has length ${len}, expected ${spec[1]}=${src.length}`);
    for (let j = 0; j < pos; j++) {
      const other = checked[j] as ArrayBufferView | undefined;
      if (other !== undefined && viewsOverlap(other, dst as ArrayBufferView)) {
        throw new InputError(`into.${f}`, `shares memory with into.${Object.keys(fields)[j]}: each result needs an array of its own`);
      }
    }
    checked[pos] = dst;
  }
  return given;
}
