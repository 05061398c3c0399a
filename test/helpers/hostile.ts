// Hostile inputs for the adversarial audit (test/**/fuzz.test.ts): numbers at the edges of
// f64 (NaN, infinities, -0, subnormals, 2^-1074 .. 2^1023, huge integers past 2^53), values
// that are not numbers at all (strings, null, undefined, objects, BigInt, symbols), and
// containers that lie (wrong lengths, sparse arrays, typed arrays of the wrong type,
// getters that throw). Every public entry point must answer these with a result or an
// InputError naming the field (and index), never a TypeError/RangeError/WASM trap or a hang.
import fc from "fast-check";
import { InputError } from "../../src/index.js";

/** The error a getter throws: a caller's own exception may propagate unchanged (it is theirs). */
export class GetterBoom extends Error {
  constructor() {
    super("getter boom");
    this.name = "GetterBoom";
  }
}

/** Numbers at the edges of f64. */
export const EDGE_NUMBERS: readonly number[] = [
  NaN, Infinity, -Infinity, -0, 0, 5e-324, -5e-324, 2.2e-308, 2 ** -1074, 2 ** -1022, 2 ** -1000,
  2 ** 1023, Number.MAX_VALUE, -Number.MAX_VALUE, 1e300, 1e-300, 2 ** 53, 2 ** 53 + 2, 2 ** 31, 2 ** 32,
  -1, -1e-300, 0.5, 1, 1 - 2 ** -53, 1 + 2 ** -52, 3, 1e9,
];

/** A hostile number: an edge value, a wide-range double, or a small integer. */
export const hostileNumber: fc.Arbitrary<number> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...EDGE_NUMBERS) },
  { weight: 2, arbitrary: fc.double({ noNaN: false }) },
  { weight: 2, arbitrary: fc.integer({ min: -3, max: 20 }) },
);

/** A value that is not a number (or a number that is not a plain one). */
export const nonNumber: fc.Arbitrary<unknown> = fc.constantFrom<unknown>(
  "1", "", "NaN", null, undefined, {}, [], [1], true, 1n, Symbol("s"), () => 1, new Date(0), Object(1),
);

/** Anything a field may hold: mostly numbers, sometimes not. */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 6, arbitrary: hostileNumber },
  { weight: 1, arbitrary: nonNumber },
);

/** An array of n hostile values, sometimes with a hole, a throwing getter or the wrong length. */
export function hostileArray(n: number, elem: fc.Arbitrary<unknown> = hostileValue): fc.Arbitrary<unknown> {
  return fc.tuple(fc.array(elem, { minLength: n, maxLength: n }), fc.nat(99), fc.nat(Math.max(0, n - 1)), fc.nat(7)).map(
    ([xs, mode, at, ty]) => {
      if (mode < 70 || n === 0) return xs;
      if (mode < 76) return xs.slice(0, n - 1); // one short
      if (mode < 80) return [...xs, 1]; // one long
      if (mode < 84) {
        const sparse = xs.slice();
        delete sparse[at]; // a hole
        return sparse;
      }
      if (mode < 88) {
        const a = xs.slice();
        Object.defineProperty(a, at, { get: () => { throw new GetterBoom(); } });
        return a;
      }
      const nums = xs.map((x) => (typeof x === "number" ? x : 1));
      switch (ty) {
        case 0: return Float64Array.from(nums);
        case 1: return Float32Array.from(nums);
        case 2: return Int32Array.from(nums);
        case 3: return Uint8Array.from(nums);
        case 4: return BigInt64Array.from(nums.map(() => 1n)); // wrong element kind
        case 5: return new DataView(new ArrayBuffer(8 * n)); // a view without length
        case 6: return new Float64Array(n + 1); // typed, wrong length
        default: return { length: n, 0: 1 }; // array-like object, not an array
      }
    },
  );
}

/** A whole container that is not an array at all, or an empty one. */
export const nonArray: fc.Arbitrary<unknown> = fc.constantFrom<unknown>(
  null, undefined, 3, "abc", {}, { length: 2 }, [], new Float64Array(0), 1n, new Map(),
);

export type Outcome = { kind: "ok"; value: unknown } | { kind: "input"; error: InputError } | { kind: "getter" };

/**
 * Runs f and classifies what happened. Returns normally for a result, an InputError whose
 * field is a non-empty name (matching `fieldPattern` when given) or a caller getter's own
 * error; throws (failing the property) for anything else: a TypeError, RangeError, WASM
 * RuntimeError, an InputError with a bad field, or — only when exploring, with the
 * environment variable FUZZ_HANG_MS set (e.g. 2000) — a call slower than that (a hang
 * candidate, to be investigated by reading the code). The suite itself has no timed
 * assertion: a real hang shows as the test's timeout.
 */
export function outcome(f: () => unknown, fieldPattern?: RegExp, slowMs = Number(process.env.FUZZ_HANG_MS ?? Infinity)): Outcome {
  const t0 = performance.now();
  let o: Outcome;
  try {
    o = { kind: "ok", value: f() };
  } catch (e) {
    if (e instanceof GetterBoom) o = { kind: "getter" };
    else if (e instanceof InputError) {
      if (typeof e.field !== "string" || e.field.length === 0 || !e.message.startsWith(e.field + ": ")) {
        throw new Error(`InputError without a field: ${e.message}`);
      }
      if (fieldPattern !== undefined && !fieldPattern.test(e.field)) {
        throw new Error(`InputError field '${e.field}' does not match ${fieldPattern}: ${e.message}`);
      }
      o = { kind: "input", error: e };
    } else {
      const err = e as Error;
      throw new Error(`not an InputError: ${err?.name}: ${err?.message}\n${err?.stack ?? ""}`);
    }
  }
  const dt = performance.now() - t0;
  if (dt > slowMs) throw new Error(`hang candidate: one call took ${dt.toFixed(0)} ms`);
  return o;
}

/** Deep equality of results (typed arrays bit for bit, -0 and NaN included). */
export function sameBits(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (ArrayBuffer.isView(a) && ArrayBuffer.isView(b)) {
    if (a.constructor !== b.constructor) return false;
    const x = a as unknown as ArrayLike<number>, y = b as unknown as ArrayLike<number>;
    if (x.length !== y.length) return false;
    for (let i = 0; i < x.length; i++) if (!Object.is(x[i], y[i])) return false;
    return true;
  }
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((v, i) => sameBits(v, b[i]));
  if (a !== null && b !== null && typeof a === "object" && typeof b === "object") {
    const ka = Object.keys(a), kb = Object.keys(b);
    if (ka.length !== kb.length) return false;
    return ka.every((k) => sameBits((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
  }
  return false;
}

/** fast-check parameters for the audit: enough runs to hit the edges, seeded for determinism. */
export const FUZZ = { numRuns: Number(process.env.FUZZ_RUNS ?? 300), seed: Number(process.env.FUZZ_SEED ?? 0x5eed) } as const;
