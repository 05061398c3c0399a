// SRPT kernel statuses -> InputErrors naming the field and index, for the one-shot call and
// the prepared problem alike (both read the offending value from the block's views).
import { Status } from "../status.js";
import { InputError, describeValue } from "../../errors.js";
import type { SrptStage } from "./contract.js";

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
