// DRF kernel statuses -> InputErrors naming the field and index, for the one-shot call and
// the prepared problem alike (both read the offending value from the block's views).
import { Status } from "../status.js";
import { InputError, describeValue } from "../../errors.js";
import type { DrfStage } from "./contract.js";

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
