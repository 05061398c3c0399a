// The checks of BopfAdmissionControl's inputs: its capacity and options, and a queue given
// to admit(). Each failure is an InputError naming the field; nothing is changed by a
// failed check (the control reads its state only after them).
import { InputError, describeValue } from "../errors.js";
import { isNonNumericView } from "../kernels/marshal.js";
import type { QueueKind } from "../policy/model.js";
import type { AdmissionOptions, BopfQueueInput } from "./admission-types.js";

/** The control's settings once checked. */
export interface AdmissionSettings {
  capacity: Float64Array;
  variant: "bopf" | "nbopf";
  /** resource names for the details */
  names: readonly string[];
  /** relative slack on the resource condition */
  eps: number;
}

/** The constructor's capacity (K finite numbers > 0) and options. */
export function checkSettings(capacity: ArrayLike<number>, options: AdmissionOptions): AdmissionSettings {
  if (!Array.isArray(capacity) && !(ArrayBuffer.isView(capacity) && !isNonNumericView(capacity))) throw new InputError("capacity", `expected an array of numbers, got ${describeValue(capacity)}`);
  if (capacity.length === 0) throw new InputError("capacity", "must list at least one resource");
  for (let r = 0; r < capacity.length; r++) {
    const c = capacity[r];
    if (typeof c !== "number" || !Number.isFinite(c) || !(c > 0)) throw new InputError(`capacity[${r}]`, `must be a finite number > 0 (got ${describeValue(c)})`);
  }
  // options: an object (null or a number would be read as one and throw a TypeError)
  if (options === null || typeof options !== "object") throw new InputError("options", `expected an object {variant?, resources?, tolerance?}, got ${describeValue(options)}`);
  const variant = options.variant ?? "bopf";
  if (variant !== "bopf" && variant !== "nbopf") throw new InputError("options.variant", `must be 'bopf' or 'nbopf', got ${describeValue(variant)}`);
  const names = options.resources;
  if (names !== undefined && !(Array.isArray(names) && names.length === capacity.length && names.every((x) => typeof x === "string"))) {
    throw new InputError("options.resources", `expected ${capacity.length} resource names (strings), got ${describeValue(names)}`);
  }
  // a NaN tolerance would make every resource check "need > NaN" false: every LQ hard
  const eps = options.tolerance ?? 1e-9;
  if (typeof eps !== "number" || !(eps >= 0) || !Number.isFinite(eps)) throw new InputError("options.tolerance", `must be a finite number >= 0 (got ${describeValue(eps)})`);
  return { capacity: Float64Array.from(capacity), variant, names: names ?? Array.from(capacity, (_, r) => `r${r}`), eps };
}

/** checkQueue's result (one object per control, reused: no allocation per queue). */
export interface QueueHead {
  name: string;
  kind: QueueKind;
}

/**
 * A queue's shape for admit(): an object with a string name and kind 'LQ' or 'TQ', each
 * read once into `out` (its bursts are checked where they are summarised, bursts.ts).
 * `field` names it in errors.
 */
export function checkQueue(q: BopfQueueInput, field: string, out: QueueHead): void {
  if (q === null || typeof q !== "object") throw new InputError(field, `expected a queue {name, kind, bursts?}, got ${describeValue(q)}`);
  const name = q.name;
  if (typeof name !== "string") throw new InputError(`${field}.name`, `must be a string (got ${describeValue(name)})`);
  const kind = q.kind;
  if (kind !== "LQ" && kind !== "TQ") throw new InputError(`${field}.kind`, `must be 'LQ' or 'TQ' (got ${describeValue(kind)})`);
  out.name = name;
  out.kind = kind;
}
