// classifyQueue (src/kernels/bopf/twin.ts): BoPF's one classifier on the TS side, the
// comparisons of every batch-kernel row and of admit(). The worked example of
// src/bopf/admission.ts, condition by condition, with the returned code's three fields.
import { describe, expect, it } from "vitest";
import { classifyQueue } from "../../../src/kernels/bopf/twin.js";
import { ELASTIC, HARD, REJECTED, SOFT } from "../../../src/kernels/guarantee-class.js";
const R_SAFETY = 0, R_FAIRNESS = 1, R_RESOURCE = 2, R_ALL_HELD = 3;
const fields = (d: number): [number, number, number] => [d & 3, (d >> 2) & 3, d >> 4];

describe("classifyQueue", () => {
  const bound = Float64Array.of(1, 1);
  it("the worked example: TQ elastic, LQs hard, soft (resource), elastic (fairness); then rejected (safety)", () => {
    const need = new Float64Array(2);
    const none = new Float64Array(2);
    // TQ-0: no guaranteed queue, M + 1 = 1
    expect(fields(classifyQueue(1, Infinity, false, Infinity, 2, none, none, 0, bound, need, false))).toEqual([ELASTIC, R_ALL_HELD, 0]);
    // LQ-0: tolerance 6 >= 2, hard sums 0 + 1 <= 1 -> hard, need = the new sums
    const rate = Float64Array.of(1, 1);
    expect(fields(classifyQueue(2, Infinity, true, 6, 2, none, rate, 0, bound, need, false))).toEqual([HARD, R_ALL_HELD, 0]);
    expect(Array.from(need)).toEqual([1, 1]);
    // LQ-1: tolerance 4 >= 3, 1 + 1 > 1 on r0 -> soft (N-BoPF: elastic)
    const hard = Float64Array.of(1, 1);
    expect(fields(classifyQueue(3, 6, true, 4, 2, hard, rate, 0, bound, need, false))).toEqual([SOFT, R_RESOURCE, 0]);
    expect(fields(classifyQueue(3, 6, true, 4, 2, hard, rate, 0, bound, need, true))).toEqual([ELASTIC, R_RESOURCE, 0]);
    // the resource that fails is reported: r1 when only r1 is over
    expect(fields(classifyQueue(3, 6, true, 4, 2, Float64Array.of(0, 1), rate, 0, bound, need, false))).toEqual([SOFT, R_RESOURCE, 1]);
    // LQ-2: tolerance 2 < 4 -> elastic by fairness
    expect(fields(classifyQueue(4, 4, true, 2, 2, hard, rate, 0, bound, need, false))).toEqual([ELASTIC, R_FAIRNESS, 0]);
    // a fifth queue: the smallest guaranteed tolerance 4 < 5 -> rejected, whatever it is
    expect(fields(classifyQueue(5, 4, false, Infinity, 2, hard, none, 0, bound, need, false))).toEqual([REJECTED, R_SAFETY, 0]);
    expect(fields(classifyQueue(5, 4, true, Infinity, 2, none, none, 0, bound, need, false))).toEqual([REJECTED, R_SAFETY, 0]);
  });

  it("reads the rate row at `row` and a NaN tolerance fails fairness", () => {
    const need = new Float64Array(2);
    const rates = Float64Array.of(9, 9, 0.5, 0.25);
    expect(fields(classifyQueue(2, Infinity, true, 3, 2, Float64Array.of(0.5, 0.5), rates, 2, bound, need, false))).toEqual([HARD, R_ALL_HELD, 0]);
    expect(Array.from(need)).toEqual([1, 0.75]);
    expect(fields(classifyQueue(2, Infinity, true, NaN, 2, new Float64Array(2), rates, 2, bound, need, false))).toEqual([ELASTIC, R_FAIRNESS, 0]);
  });
});
