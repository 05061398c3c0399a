// Input checks of the live scheduler: every one raises an InputError naming the field before
// anything changes (docs/live-scheduler.md). The per-call checks allocate nothing.
import { InputError, describeValue } from "../errors.js";
import { exceeds } from "../dispatch/fit.js";
import type { BurstSpec, QueueKind, QueueSpec } from "../policy/model.js";

export const finiteNonNeg = (x: unknown): x is number => typeof x === "number" && Number.isFinite(x) && x >= 0;

/**
 * Accepted queue and group weights: [2^-20, 2^20] (about 1e-6 to 1e6). A share over a weight and
 * a weight sum stay far from 0, Infinity and subnormals for every policy's kernel
 * (docs/live-scheduler.md, "Accepted ranges").
 */
export const MIN_WEIGHT = 2 ** -20;
export const MAX_WEIGHT = 2 ** 20;

/** Checks a weight (InputError naming `field`). */
export function checkWeight(field: string, w: unknown): void {
  if (!(typeof w === "number" && w >= MIN_WEIGHT && w <= MAX_WEIGHT)) throw new InputError(field, `must be a number in [2^-20, 2^20] (about 9.5e-7 to 1.05e6; got ${describeValue(w)})`);
}

/**
 * Smallest positive demand, as a fraction of the capacity: 2^-900 (about 1.2e-271). Below it a
 * share (demand / capacity / weight) underflows to 0 or a subnormal and the policies' share
 * computations cannot rank the queue (docs/live-scheduler.md, "Accepted ranges").
 */
export const MIN_DEMAND_FRACTION = 2 ** -900;

/** Checks task demands against the capacity: within it, and 0 or at least MIN_DEMAND_FRACTION of it. */
export function checkDemandScale(field: string, d: ArrayLike<number>, capacity: ArrayLike<number>): void {
  for (let r = 0; r < capacity.length; r++) {
    const x = d[r], c = capacity[r];
    if (exceeds(0, x, c)) throw new InputError(`${field}[${r}]`, `${x} exceeds the capacity ${c}: the task can never fit`);
    if (x > 0 && x < c * MIN_DEMAND_FRACTION) throw new InputError(`${field}[${r}]`, `${x} is below capacity x 2^-900 (${c * MIN_DEMAND_FRACTION}): a share that small is beyond f64 precision; use 0 or rescale the units`);
  }
}

/** Deepest nesting of policy options (and snapshot policy state) accepted. */
export const MAX_JSON_DEPTH = 64;

/**
 * A copy of `v` as plain JSON (objects, arrays, strings, booleans, null, numbers; Infinity kept,
 * the string "Infinity" read as Infinity),
 * or an InputError naming the path of the first value that is not: a BigInt, a function, a
 * symbol, undefined in an array, a cycle or nesting deeper than MAX_JSON_DEPTH, an array hole.
 */
export function plainJson(v: unknown, field: string, depth = 0): unknown {
  if (v === "Infinity") return Infinity; // how JSON (the sidecar, snapshots) writes it
  if (v === null || typeof v === "string" || typeof v === "boolean") return v;
  if (typeof v === "number") {
    if (Number.isNaN(v)) throw new InputError(field, "must be a number, not NaN");
    return v;
  }
  if (typeof v !== "object") throw new InputError(field, `must be plain JSON (got ${describeValue(v)})`);
  if (depth >= MAX_JSON_DEPTH) throw new InputError(field, `nests deeper than ${MAX_JSON_DEPTH} levels (or is a cycle)`);
  if (Array.isArray(v)) {
    const out: unknown[] = [];
    for (let i = 0; i < v.length; i++) {
      if (!(i in v)) throw new InputError(`${field}[${i}]`, "is a hole in the array");
      out.push(plainJson(v[i], `${field}[${i}]`, depth + 1));
    }
    return out;
  }
  const proto = Object.getPrototypeOf(v);
  if (proto !== Object.prototype && proto !== null) throw new InputError(field, `must be a plain object (got ${describeValue(v)})`);
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(v)) {
    const x = (v as Record<string, unknown>)[key];
    if (x === undefined) continue; // as JSON drops it
    out[key] = plainJson(x, `${field}.${key}`, depth + 1);
  }
  return out;
}

/** Calls `each` for every index of array `a`, holes included (forEach skips them). */
export function eachIndex<T>(a: readonly T[], each: (x: T, i: number) => void): void {
  for (let i = 0; i < a.length; i++) each(a[i], i);
}

/** Checks a vector of k finite numbers >= 0 (no copy). */
export function checkVector(field: string, v: unknown, k: number): ArrayLike<number> {
  if (!Array.isArray(v) && !(ArrayBuffer.isView(v) && !(v instanceof DataView))) throw new InputError(field, `expected an array of ${k} numbers, got ${describeValue(v)}`);
  const a = v as ArrayLike<unknown>;
  if (a.length !== k) throw new InputError(field, `expected ${k} numbers (one per resource), got ${a.length}`);
  for (let r = 0; r < k; r++) {
    const x = a[r];
    if (!(typeof x === "number" && x >= 0 && x < Infinity)) throw new InputError(`${field}[${r}]`, `must be a finite number >= 0 (got ${describeValue(x)})`);
  }
  return a as ArrayLike<number>;
}

/** Unknown keys are InputErrors naming them (a misspelled `demnd` is not silently ignored). */
export function checkKeys(field: string, o: object, allowed: readonly string[]): void {
  for (const key in o) if (Object.prototype.hasOwnProperty.call(o, key) && !allowed.includes(key)) throw new InputError(`${field}.${key}`, `unknown key (known: ${allowed.join(", ")})`);
}

export const QUEUE_KEYS = ["weight", "path", "kind", "bursts", "minShare", "maxShare", "warp"] as const;

export interface QueueOptions {
  weight?: number;
  /** Group path for H-LTRF, e.g. ["org", "teamA"]. */
  path?: string[];
  kind?: QueueKind;
  /** An LQ's reported bursts (BoPF admission, M-BVT's default warp). */
  bursts?: BurstSpec[];
  /** Dominant-share fractions in [0, 1] (docs/live-scheduler.md, "Min and max shares"). */
  minShare?: number;
  maxShare?: number;
  /** M-BVT warp (dominant share x seconds). */
  warp?: number;
}

function checkBursts(field: string, v: unknown, k: number): BurstSpec[] {
  if (!Array.isArray(v)) throw new InputError(field, `expected an array of {start, window, volume}, got ${describeValue(v)}`);
  return Array.from(v, (b: unknown, i) => {
    const f = `${field}[${i}]`;
    if (b === null || typeof b !== "object" || Array.isArray(b)) throw new InputError(f, `expected {start, window, volume}, got ${describeValue(b)}`);
    checkKeys(f, b, ["start", "window", "volume"]);
    const o = b as Record<string, unknown>;
    if (!finiteNonNeg(o.start)) throw new InputError(`${f}.start`, `must be a finite number >= 0 (got ${describeValue(o.start)})`);
    const prev = i > 0 ? (v[i - 1] as { start?: unknown }).start : undefined;
    if (typeof prev === "number" && !(o.start > prev)) throw new InputError(`${f}.start`, `must be later than ${field}[${i - 1}].start (${prev}); got ${describeValue(o.start)}`);
    if (!(typeof o.window === "number" && Number.isFinite(o.window) && o.window > 0)) throw new InputError(`${f}.window`, `must be a finite number > 0 (got ${describeValue(o.window)})`);
    return { start: o.start, window: o.window, volume: Array.from(checkVector(`${f}.volume`, o.volume, k)) };
  });
}

/** The QueueSpec of `addQueue(name, o)` (K resources for burst volumes). */
export function queueSpec(name: string, o: unknown, field: string, k: number): QueueSpec {
  if (o === undefined) o = {};
  if (o === null || typeof o !== "object" || Array.isArray(o)) throw new InputError(field, `expected an object, got ${describeValue(o)}`);
  const q = o as Record<string, unknown>;
  checkKeys(field, q, QUEUE_KEYS);
  if (q.weight !== undefined) checkWeight(`${field}.weight`, q.weight);
  if (q.kind !== undefined && q.kind !== "LQ" && q.kind !== "TQ") throw new InputError(`${field}.kind`, `must be 'LQ' or 'TQ' (got ${describeValue(q.kind)})`);
  if (q.path !== undefined && !(Array.isArray(q.path) && Array.from(q.path).every((p) => typeof p === "string" && p !== "" && !p.includes("/")))) throw new InputError(`${field}.path`, `must be an array of non-empty group names without '/' (got ${describeValue(q.path)})`);
  for (const s of ["minShare", "maxShare"] as const) {
    const v = q[s];
    if (v !== undefined && !(typeof v === "number" && v >= 0 && v <= 1)) throw new InputError(`${field}.${s}`, `must be a number in [0, 1] (got ${describeValue(v)})`);
  }
  if (typeof q.minShare === "number" && typeof q.maxShare === "number" && q.minShare > q.maxShare) throw new InputError(`${field}.minShare`, `${q.minShare} is above maxShare ${q.maxShare}`);
  if (q.warp !== undefined && !finiteNonNeg(q.warp)) throw new InputError(`${field}.warp`, `must be a finite number >= 0 (got ${describeValue(q.warp)})`);
  const kind = (q.kind as QueueKind | undefined) ?? "TQ";
  if (q.bursts !== undefined && kind !== "LQ") throw new InputError(`${field}.bursts`, "only an LQ (kind: 'LQ') reports bursts");
  const spec: QueueSpec = { name, kind };
  if (q.weight !== undefined) spec.weight = q.weight as number;
  if (q.path !== undefined) spec.path = [...(q.path as string[])];
  if (q.bursts !== undefined) spec.bursts = checkBursts(`${field}.bursts`, q.bursts, k);
  const params: Record<string, number> = {};
  for (const p of ["minShare", "maxShare", "warp"] as const) if (q[p] !== undefined) params[p] = q[p] as number;
  if (Object.keys(params).length) spec.params = params;
  return spec;
}

/** The addQueue options a spec came from (updateQueue merges into them). */
export function specOptions(spec: QueueSpec): QueueOptions {
  const o: QueueOptions = { kind: spec.kind };
  if (spec.weight !== undefined) o.weight = spec.weight;
  if (spec.path) o.path = spec.path;
  if (spec.bursts) o.bursts = spec.bursts;
  for (const p of ["minShare", "maxShare", "warp"] as const) if (spec.params?.[p] !== undefined) o[p] = spec.params[p] as number;
  return o;
}
