// LTRF kernel statuses -> InputErrors naming the field and index, for the one-shot call,
// the prepared problem and HLtrf alike.
import { Status } from "../status.js";
import { InputError, describeValue } from "../../errors.js";
import type { LtrfStage } from "./contract.js";

/** A call that reached the default start limit (engine.ltrf and HLtrf): `next` names who was next. */
export function startLimitError(limit: number, next: string): InputError {
  return new InputError("maxStarts", `this call would start more than ${limit} tasks one by one (${next} was next; LTRF takes one step per task started): give maxStarts to take them in resumable parts (or Infinity to wait for all)`);
}

export function ltrfError(code: number, i: number, k: number, s: LtrfStage): InputError {
  const got = (a: Float64Array) => `(got ${describeValue(a[i])})`;
  switch (code) {
    case Status.Available:
      return new InputError(`free[${i}]`, `must be a finite number >= 0 ${got(s.free)}`);
    case Status.Demand:
      return new InputError(`tasks[${Math.floor(i / k)}][${i % k}]`, `must be a finite number >= 0 ${got(s.tasks)}`);
    case Status.Weight:
      return new InputError(`weights[${i}]`, `must be a finite number > 0 ${got(s.weights)}`);
    case Status.Usage:
      return new InputError(`usage[${i}]`, `must be a finite number >= 0 ${got(s.usage)}`);
    case Status.Increment:
      return new InputError(`increments[${i}]`, `must be a finite number >= 0 ${got(s.increments)}`);
    case Status.Pending:
      return new InputError(`pending[${i}]`, `must be a whole number between 0 and 2^53 ${got(s.pending)}`);
    case Status.ShareOverflow:
      return new InputError(`usage[${i}]`, "usage / weight overflows f64; rescale the units or use time windows");
    case Status.StartLimit:
      return startLimitError(s.maxStarts[0], `queue ${i}`);
    case Status.MaxStarts:
      return new InputError("maxStarts", `must be a whole number >= 0 or Infinity ${got(s.maxStarts)}`);
    default:
      return new InputError("input", `kernel returned unknown status ${code}`);
  }
}
