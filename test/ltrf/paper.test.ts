// The paper's worked examples: Table 1 (MLRF vs LTRF) and the Fig. 2 starvation example.
import { describe, expect, it } from "vitest";
import { loadEngineSync } from "../../src/index.js";
import { longestStarvation, runHierModel } from "../../src/ltrf/hier-model.js";
import { runStepModel } from "../../src/ltrf/step-model.js";
import { stepFairness } from "../../src/ltrf/fairness.js";
import { TABLE1 } from "../../src/scenarios/ltrf-table1.js";
import { NEW_DEMANDS_AT, fig2Input } from "../../src/scenarios/ltrf-hierarchy.js";

describe("LTRF paper Table 1", () => {
  for (const backend of ["wasm", "js"] as const) {
    const engine = loadEngineSync({ backend });
    it(`MLRF: A 20, 40, 50, 50 and B 80, 60, 50, 50; totals 160 / 240 (${backend}, both forms)`, () => {
      for (const form of ["task", "fluid"] as const) {
        const r = runStepModel(engine, TABLE1, "mlrf", form);
        r.forEach((s, t) => {
          expect(s.alloc[0]).toBeCloseTo([20, 40, 50, 50][t], 9);
          expect(s.alloc[1]).toBeCloseTo([80, 60, 50, 50][t], 9);
        });
        expect(r[3].cumulative[0]).toBeCloseTo(160, 9);
        expect(r[3].cumulative[1]).toBeCloseTo(240, 9);
      }
    });
    it(`LTRF: A 20, 40, 80, 60 and B 80, 60, 20, 40; totals 200 / 200 (${backend}, both forms)`, () => {
      const task = runStepModel(engine, TABLE1, "ltrf", "task");
      expect(task.map((s) => s.alloc)).toEqual([[20, 80], [40, 60], [80, 20], [60, 40]]);
      expect(task[3].cumulative).toEqual([200, 200]);
      expect(task.map((s) => s.totalDemand)).toEqual([[20, 100], [40, 80], [80, 70], [60, 100]]);
      const fluid = runStepModel(engine, TABLE1, "ltrf", "fluid");
      fluid.forEach((s, t) => s.alloc.forEach((a, i) => expect(a).toBeCloseTo(task[t].alloc[i], 9)));
    });
  }

  it("fairness degrees: MLRF ends rho = <1, 1.2>, Psi 0.2, Omega 0", () => {
    const r = runStepModel(loadEngineSync(), TABLE1, "mlrf");
    const f = stepFairness(r, 100, [1, 1]);
    expect(f.rho[0][3]).toBeCloseTo(1, 12);
    expect(f.rho[1][3]).toBeCloseTo(1.2, 12);
    expect(f.psi[3]).toBeCloseTo(0.2, 12);
    expect(f.omega[3]).toBe(0);
  });
});

describe("LTRF paper Fig. 2: hierarchical starvation", () => {
  const input = fig2Input(45);

  it("the naive approach reproduces the paper's allocation and totals 200, 10, 50, 60 by t = 27", () => {
    const r = runHierModel(input, { tWait: Infinity });
    expect(r.slice(0, 3).map((s) => s.alloc)).toEqual([[3, 3, 3, 3], [3, 3, 3, 3], [3, 3, 3, 3]]);
    expect(r[3].alloc).toEqual([5, 1, 3, 3]);
    expect(r[4].alloc).toEqual([6, 0, 3, 3]);
    expect(r[16].alloc).toEqual([6, 0, 2, 4]);
    expect(r[NEW_DEMANDS_AT - 1].cumulative).toEqual([200, 10, 50, 60]);
  });

  it("the naive approach starves B for at least 8 time units after the new demands", () => {
    const r = runHierModel(input, { tWait: Infinity });
    expect(longestStarvation(r, 1, NEW_DEMANDS_AT)).toBeGreaterThanOrEqual(8);
    for (let t = NEW_DEMANDS_AT; t < NEW_DEMANDS_AT + 8; t++) expect(r[t].alloc[1]).toBe(0);
  });

  for (const tWait of [0, 1, 2, 3]) {
    it(`H-LTRF with T_wait = ${tWait} serves B at least every T_wait time units`, () => {
      const r = runHierModel(input, { tWait });
      expect(longestStarvation(r, 1, NEW_DEMANDS_AT)).toBeLessThanOrEqual(tWait);
    });
  }
});
