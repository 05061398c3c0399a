// The package's public surface for embedders: the bopf and ltrf namespaces reach the same
// classes the policies use (no deep imports), and they work from the index alone.
import { describe, expect, it } from "vitest";
import { bopf, ltrf, loadEngineSync } from "../src/index.js";

describe("public API namespaces", () => {
  it("bopf: the paper's worked example through admit() and admitBatch() from the index", () => {
    const lq = (period: number) => ({ start: 0, period, window: 25, volume: [25, 25], count: 10 });
    const one = new bopf.BopfAdmissionControl([1, 1]);
    const classes = [
      one.admit({ name: "TQ0", kind: "TQ" }).class,
      ...[150, 110, 60].map((p, i) => one.admit({ name: `LQ${i}`, kind: "LQ", bursts: lq(p) }).class),
    ];
    expect(classes).toEqual(["elastic", "hard", "soft", "elastic"]);

    const batch = bopf.emptyAdmissionBatch(4, 2);
    batch.kind[0] = bopf.KIND_TQ;
    [150, 110, 60].forEach((p, i) => { batch.kind[i + 1] = bopf.KIND_LQ; bopf.setPeriodicRow(batch, i + 1, lq(p), 2); });
    const out = bopf.emptyBatchOutcome(4);
    new bopf.BopfAdmissionControl([1, 1]).admitBatch(batch, out);
    expect(Array.from(out.cls, (c) => ["hard", "soft", "elastic", "rejected"][c])).toEqual(classes);
  });

  it("bopf: one allocation round from the index gives a hard LQ its guaranteed rate", () => {
    const engine = loadEngineSync();
    const r = bopf.allocateInstant(engine, [10, 10], [
      { class: "hard", want: [4, 4], guarantee: { rate: [2, 2], remaining: [5, 5] } },
      { class: "elastic", want: [20, 20] },
    ]);
    expect(Array.from(r.allocation.subarray(0, 2))).toEqual([2, 2]);
    // work-conserving: the elastic TQ takes what is left
    expect(r.allocation[2] + r.allocation[0]).toBeCloseTo(10, 12);
  });

  it("ltrf: the hierarchical scheduler and its tree from the index", () => {
    const tree = ltrf.buildTree([{ name: "a1", path: ["a"] }, { name: "b1", path: ["b"] }]);
    const h = new ltrf.HLtrf(tree, { tWait: 0 });
    const call = {
      time: 0, free: new Float64Array([2]), tasks: new Float64Array([1, 1]), pending: new Float64Array([5, 5]),
      usage: new Float64Array([0, 10]), increments: new Float64Array([1, 1]), count: new Float64Array(2),
    };
    h.allocate(call);
    // the leaf with the least accumulated usage takes both free units (its U stays below 10)
    expect(Array.from(call.count)).toEqual([2, 0]);
    expect(Array.from(call.usage)).toEqual([2, 10]);
    expect(Array.from(call.free)).toEqual([0]);
  });
});
