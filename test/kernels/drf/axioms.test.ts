// docs/policies/drf.md#properties: the DRF axioms as property tests, >= 1,000 random instances each, on both
// backends — through the public test kit (fairsched/testkit), as a user would run it.
// Instances as before: K in 1..6, N in 1..50 (20 for strategyproofness, 30 for population
// monotonicity), capacities 0.1..100, demands 0.01..60 with zeros, weights 0.05..20.
import { describe, expect, it } from "vitest";
import { backends } from "../../helpers/engines.js";
import { assertFair, referenceDrf, type AxiomId, type CheckAllocatorOptions } from "../../../src/testkit/index.js";

const RUNS = 1000;
const TOL = 1e-9;

for (const [name, make] of backends) {
  describe(`DRF axioms (${name})`, () => {
    const engine = make();
    const drf = referenceDrf(engine);
    const holds = (axiom: AxiomId, options: CheckAllocatorOptions = {}) =>
      assertFair(drf, { axioms: [axiom], runs: RUNS, tolerance: TOL, maxQueues: 50, maxResources: 6, engine, ...options });

    it("1. feasibility: 0 <= lambda <= 1 and no resource over capacity", () => holds("feasibility"));

    it("2. Pareto efficiency: every unsatisfied queue uses a saturated resource", () => holds("pareto-efficiency"));

    it("3. sharing incentive: lambda_i >= min(1, (w_i / W) / delta_i)", () => holds("sharing-incentive"));

    it("4. envy-freeness (weighted): no unsatisfied queue prefers another's scaled allocation", () => holds("envy-freeness"));

    // lies: scale one resource up/down, add demand on an unused resource, copy another
    // queue's vector, shrink to the bottleneck, scale the whole vector, report a random vector
    it("5. strategyproofness: no lie raises the liar's true utility", () => holds("strategyproofness", { maxQueues: 20 }));

    it("6a. single-resource fairness: K = 1 is weighted water-filling", () => holds("single-resource-fairness"));

    it("6b. bottleneck fairness: a common dominant resource is split by water-filling", () => holds("bottleneck-fairness"));

    it("7. population monotonicity when every queue demands every resource", () => holds("population-monotonicity", { maxQueues: 30 }));

    it("7b. population monotonicity fails with zero demands (the counterexample of docs/policies/drf.md)", () => {
      const capacity = [1, 1, 1];
      const all = engine.drf({ capacity, demands: [[1.38, 0.55, 1.8], [0, 1.06, 0], [1.74, 0, 1.03]] });
      const without = engine.drf({ capacity, demands: [[1.38, 0.55, 1.8], [0, 1.06, 0], [0, 0, 0]] });
      expect(all.fraction[1]).toBeCloseTo(0.7802, 4);
      expect(without.fraction[1]).toBeCloseTo(0.7226, 4);
    });

    it("8. determinism and order independence", async () => {
      await holds("determinism");
      await holds("order-independence");
    });
  });
}
