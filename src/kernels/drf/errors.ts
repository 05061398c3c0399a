// Kernel statuses -> InputErrors naming the field and index, for the one-shot calls and
// prepared problems alike (both read the offending value from the staged views).
import type { DrfStage, SrptStage } from "../kernels/backend.js";
import { Status } from "../kernels/status.js";
import { InputError, describeValue } from "./errors.js";

export function drfError(code: number, i: number, k: number, s: DrfStage): InputError {
  switch (code) {
    case Status.Capacity:
      return new InputError(`capacity[${i}]`, `must be a finite number > 0 (got ${describeValue(s.capacity[i])})`);
    case Status.Demand:
      return new InputError(`demands[${Math.floor(i / k)}][${i % k}]`, `must be a finite number >= 0 (got ${describeValue(s.demands[i])})`);
    case Status.Weight:
      return new InputError(`weights[${i}]`, `must be a finite number > 0 (got ${describeValue(s.weights[i])})`);
    case Status.Offset:
      return new InputError(`offsets[${i}]`, `must be a finite number >= 0 (got ${describeValue(s.offsets[i])})`);
    case Status.ShareOverflow:
      return new InputError(`demands[${i}]`, "demand / capacity / weight (or the offset range) is beyond f64 precision; rescale the units");
    default:
      return new InputError("input", `kernel returned unknown status ${code}`);
  }
}

export function srptError(code: number, i: number, k: number, s: SrptStage): InputError {
  const cell = (f: string, a: Float64Array) => new InputError(`${f}[${Math.floor(i / k)}][${i % k}]`, `must be a finite number >= 0 (got ${describeValue(a[i])})`);
  switch (code) {
    case Status.Capacity:
      return new InputError(`capacity[${i}]`, `must be a finite number > 0 (got ${describeValue(s.capacity[i])})`);
    case Status.Available:
      return new InputError(`available[${i}]`, `must be a finite number >= 0 (got ${describeValue(s.available[i])})`);
    case Status.Demand:
      return cell("demands", s.demands);
    case Status.Rate:
      return cell("rates", s.rates);
    case Status.Volume:
      return cell("remaining", s.remaining);
    default:
      return new InputError("input", `kernel returned unknown status ${code}`);
  }
}
