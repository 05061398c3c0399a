// Shared machinery of the stateful (model-based) fuzz harnesses (fast-check fc.commands /
// fc.modelRun): a real object a user holds and a simple model of it receive the same random
// sequence of calls. A valid call must give the model's answer; an invalid call must be an
// InputError naming a field and leave the object (and the caller's arrays) exactly as before,
// compared as a deep snapshot. Used by test/**/stateful.test.ts; the engine, admission and
// live-scheduler harnesses can reuse it.
import fc from "fast-check";
import { expect } from "vitest";
import { InputError } from "../../src/errors.js";
import { FUZZ } from "./hostile.js";

/**
 * A deep, comparable copy of a value: typed arrays and arrays element by element (NaN and -0
 * kept apart by Object.is in sameSnapshot), Maps and Sets as entry lists, class instances by
 * their own fields (TypeScript `private` fields included). Keys listed in `ignore` are left out
 * at every depth: scratch buffers an object rebuilds at the start of every call.
 */
export function snapshot(v: unknown, ignore: ReadonlySet<string> = new Set(), seen = new Map<object, unknown>()): unknown {
  if (v === null || typeof v !== "object") return typeof v === "function" ? "<function>" : v;
  if (seen.has(v)) return seen.get(v);
  if (ArrayBuffer.isView(v)) {
    const arr = v instanceof DataView ? new Uint8Array(v.buffer, v.byteOffset, v.byteLength) : (v as unknown as ArrayLike<number>);
    const out = { view: v.constructor.name, values: Array.from(arr as ArrayLike<number | bigint>) };
    seen.set(v, out);
    return out;
  }
  if (Array.isArray(v)) {
    const out: unknown[] = [];
    seen.set(v, out);
    for (const x of v) out.push(snapshot(x, ignore, seen));
    return out;
  }
  if (v instanceof Map) {
    const out: unknown[] = [];
    seen.set(v, out);
    for (const [k, x] of v) out.push([snapshot(k, ignore, seen), snapshot(x, ignore, seen)]);
    return { map: out };
  }
  if (v instanceof Set) {
    const out: unknown[] = [];
    seen.set(v, out);
    for (const x of v) out.push(snapshot(x, ignore, seen));
    return { set: out };
  }
  const out: Record<string, unknown> = {};
  seen.set(v, out);
  for (const k of Object.keys(v)) if (!ignore.has(k)) out[k] = snapshot((v as Record<string, unknown>)[k], ignore, seen);
  return out;
}

/** Equality of snapshots with Object.is on numbers (NaN equals NaN, -0 differs from 0). */
export function sameSnapshot(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => sameSnapshot(x, b[i]));
  if (a !== null && b !== null && typeof a === "object" && typeof b === "object") {
    const ka = Object.keys(a), kb = Object.keys(b);
    return ka.length === kb.length && ka.every((k) => Object.hasOwn(b, k) && sameSnapshot((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
  }
  return false;
}

/** Counts of what a harness did, for the fuzz run's summary and to see that invalid calls are exercised. */
export interface StepCounts {
  valid: number;
  refused: number;
}

/**
 * Runs `call`, which must throw an InputError (field matching `field` when given), and checks
 * that every object in `watched` (the real object, the caller's arrays) is deep-equal to its
 * snapshot from before the call. Returns the error.
 */
export function expectRefusedUnchanged(call: () => unknown, watched: unknown, opts: { field?: RegExp; ignore?: ReadonlySet<string> } = {}): InputError {
  const before = snapshot(watched, opts.ignore);
  let err: unknown = null;
  try {
    call();
  } catch (e) {
    err = e;
  }
  if (!(err instanceof InputError)) {
    throw new Error(`expected an InputError, got ${err === null ? "a result" : `${(err as Error)?.name}: ${(err as Error)?.message}`}`);
  }
  if (opts.field && !opts.field.test(err.field)) throw new Error(`InputError field '${err.field}' does not match ${opts.field}: ${err.message}`);
  const after = snapshot(watched, opts.ignore);
  if (!sameSnapshot(before, after)) {
    throw new Error(`a refused call (${err.message}) changed the state:\nbefore ${JSON.stringify(before)}\nafter  ${JSON.stringify(after)}`);
  }
  return err;
}

/** A command built from two functions: fast-check's Command without the class boilerplate. */
export function command<M extends object, R>(
  name: string,
  run: (m: M, r: R) => void,
  check: (m: Readonly<M>) => boolean = () => true,
): fc.Command<M, R> {
  return { check, run, toString: () => name };
}

/**
 * Asserts a model-based property: for each of FUZZ.numRuns random command sequences (up to
 * `maxCommands` long), a fresh (model, real) pair from `setup` receives every command in turn.
 * `runs` (optional) scales the run count relative to FUZZ.
 */
export function assertModelRun<M extends object, R>(
  setup: fc.Arbitrary<() => { model: M; real: R }>,
  commands: Array<fc.Arbitrary<fc.Command<M, R>>>,
  opts: { maxCommands?: number; runs?: number } = {},
): void {
  fc.assert(
    fc.property(setup, fc.commands(commands, { maxCommands: opts.maxCommands ?? 40 }), (s, cmds) => {
      fc.modelRun(s, cmds);
    }),
    { ...FUZZ, numRuns: Math.max(1, Math.round(FUZZ.numRuns * (opts.runs ?? 1))) },
  );
}

/** expect() re-exported so harness files read alike. */
export { expect };
