// The bopf-multi-lq scenario: three LQs land in the three admission classes (docs/policies/bopf.md).
import { describe, expect, it } from "vitest";
import { bopfMultiLqScenario } from "../../src/scenarios/bopf-multi-lq.js";
import { backends } from "../helpers/engines.js";

const engine = backends[0][1]();

describe("bopf-multi-lq", () => {
  it("bopf-multi-lq: three LQs land hard, soft, elastic with the deciding condition", () => {
    const r = bopfMultiLqScenario.run({ seed: 1, engine, policies: ["bopf", "nbopf"], params: { horizon: 400, tqJobs: 3 } });
    const adm = r.tables[0];
    expect(adm.rows.map((x) => [x[0], x[1], x[2]])).toEqual([
      ["LQ0", "hard", "all-held"], ["LQ1", "soft", "resource"], ["LQ2", "elastic", "fairness"], ["TQ0", "elastic", "all-held"],
    ]);
    expect(r.tables[1].rows[1][1]).toBe("elastic"); // N-BoPF: LQ1 has no soft class
  });
});
