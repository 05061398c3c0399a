// Reading a policy's imported state (Policy.importState): plain JSON checked field by field,
// each failure an InputError naming the field. Per-queue parts are objects keyed by queue
// name; they are read into null-prototype records so a queue named "__proto__" is a name.
import { InputError, describeValue } from "../errors.js";

/** A plain object (not null, not an array), else an InputError naming `field`. */
export function stateObject(x: unknown, field: string): Record<string, unknown> {
  if (x === null || typeof x !== "object" || Array.isArray(x)) throw new InputError(field, `expected an object, got ${describeValue(x)}`);
  return x as Record<string, unknown>;
}

/** A finite number >= min. */
export function stateNumber(x: unknown, field: string, min = -Infinity): number {
  if (!(typeof x === "number" && Number.isFinite(x) && x >= min)) throw new InputError(field, `expected a finite number${min > -Infinity ? ` >= ${min}` : ""}, got ${describeValue(x)}`);
  return x;
}

/** A finite number, or null for -Infinity (a time that never happened). */
export function stateTimeOrNever(x: unknown, field: string): number {
  return x === null ? -Infinity : stateNumber(x, field);
}

/** A finite number >= min, or Infinity (JSON writes it as null). */
export function stateNumberOrInfinity(x: unknown, field: string, min = -Infinity): number {
  return x === null || x === Infinity ? Infinity : stateNumber(x, field, min);
}

/** An array of `length` finite numbers. */
export function stateVector(x: unknown, length: number, field: string, min = -Infinity): Float64Array {
  if (!Array.isArray(x) || x.length !== length) throw new InputError(field, `expected ${length} numbers, got ${describeValue(x)}`);
  return Float64Array.from(x, (v, i) => stateNumber(v, `${field}[${i}]`, min));
}

/** An array, else an InputError. */
export function stateArray(x: unknown, field: string): unknown[] {
  if (!Array.isArray(x)) throw new InputError(field, `expected an array, got ${describeValue(x)}`);
  return x;
}

export function stateString(x: unknown, field: string): string {
  if (typeof x !== "string") throw new InputError(field, `expected a string, got ${describeValue(x)}`);
  return x;
}

/** A per-queue record: queue name -> value read by `read` (null-prototype, own keys only). */
export function stateByQueue<T>(x: unknown, field: string, read: (v: unknown, field: string) => T): Map<string, T> {
  const o = stateObject(x, field);
  const out = new Map<string, T>();
  for (const name of Object.keys(o)) out.set(name, read(o[name], `${field}.${name}`));
  return out;
}

/** A per-queue record for export: a null-prototype object from queue names. */
export function byQueueName<T>(names: readonly string[], value: (i: number) => T): Record<string, T> {
  const o = Object.create(null) as Record<string, T>;
  names.forEach((name, i) => (o[name] = value(i)));
  return o;
}
