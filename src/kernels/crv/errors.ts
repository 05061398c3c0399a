// CRV reorder kernel statuses -> InputErrors naming the field and index, for the one-shot
// call and the prepared problem alike.
import { Status } from "../status.js";
import { InputError, describeValue } from "../../errors.js";

export function crvError(code: Status, i: number, s: { offsets: Uint32Array; score: Float64Array; runtime: Float64Array }, t: number): InputError {
  switch (code) {
    case Status.CrvOffset:
      return new InputError(`queueOffsets[${i}]`, `must start at 0, never decrease and end at T=${t} (got ${s.offsets[i]})`);
    case Status.CrvScore:
      return new InputError(`crv[${i}]`, `must be a finite number >= 0 (got ${describeValue(s.score[i])})`);
    case Status.CrvRuntime:
      return new InputError(`runtime[${i}]`, `must be a finite number >= 0 (got ${describeValue(s.runtime[i])})`);
    case Status.CrvSlack:
      return new InputError(i < 0 ? "slackThreshold" : `slack[${i}]`, "must be >= 0");
    case Status.CrvMode:
      return new InputError(`mode[${i}]`, "must be 0, 1 or 2");
    default:
      return new InputError("input", `kernel returned unknown status ${code as number}`);
  }
}
