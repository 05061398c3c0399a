// The BoPF fuzz failures of round 1 (FUZZ_SEED=2026, issue 21): an allocation one ulp above
// want. A queue's allocation is the sum of its steps, hard/soft + elastic + spare, where the
// spare is want minus the others; that sum can round one ulp above want (0.2167993910636036
// came back as 0.21679939106360363). Every path now clamps the sum at want: the general path
// (allocate-steps.ts), the JS twin and the WASM kernel of the fused round (decideRound).
import { describe, expect, it } from "vitest";
import * as bopf from "../../src/bopf/index.js";
import { backends } from "../helpers/engines.js";

const { allocateInstant, BopfAdmissionControl, emptyAdmissionBatch, setPeriodicRow, decideRound, DecisionWorkspace } = bopf as never as Record<string, any>;

describe.each(backends)("BoPF allocations never exceed want (%s)", (_name, make) => {
  const engine = make();

  it("allocateInstant: a soft queue with a huge guarantee rate (fuzz counterexample)", () => {
    const want = [0.2167993910636036, 11];
    const r = allocateInstant(engine, [10, 20], [{ class: "soft", want, guarantee: { rate: [8.98846567431158e307, 4], remaining: [0, 0.001] } }]);
    for (let res = 0; res < 2; res++) expect(r.allocation[res]).toBeLessThanOrEqual(want[res]);
  });

  it("decideRound: the fused round (fuzz counterexample)", () => {
    const K = 2;
    const ac = new BopfAdmissionControl([10, 20]);
    const b = emptyAdmissionBatch(2, K);
    setPeriodicRow(b, 0, { start: 0, period: 1, window: 1, count: 0, volume: [0, 0.001] }, K);
    b.kind[0] = 0;
    setPeriodicRow(b, 1, { start: 0, period: 0.001, window: 1.174019919697369, count: 1, volume: [1, 0.001] }, K);
    const want = Float64Array.from([0.001, 0, 4.901439600901887, 0.001]);
    const r = decideRound(engine, ac, b, want, new DecisionWorkspace());
    for (let x = 0; x < 4; x++) expect(r.allocation[x] <= want[x]).toBe(true);
  });
});
