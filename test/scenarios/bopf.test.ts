// The paper's headline shapes (docs/reproduction.md#headline-results) on a reduced `bopf` sweep, and the multi-LQ classes.
import { describe, expect, it } from "vitest";
import { getScenario } from "../../src/scenarios/index.js";
import { bopfMultiLqScenario } from "../../src/scenarios/bopf-multi-lq.js";
import { backends } from "../helpers/engines.js";

const engine = backends[0][1]();

describe("BoPF scenarios", () => {
  it("bopf: LQ time near SP while DRF's grows with the TQs; TQs near DRF and ahead of SP with large bursts", () => {
    const r = getScenario("bopf")!.run({ seed: 1, engine, params: { tqs: "1,8,16", scales: "1,8", tqJobs: 3, bursts: 3 } });
    const [byTqs, byScale] = r.tables;
    const col = (t: typeof byTqs, name: string) => t.columns.indexOf(name);
    const rows = byTqs.rows.map((row) => ({
      n: row[0] as number, drf: row[col(byTqs, "LQ drf")] as number, sp: row[col(byTqs, "LQ sp")] as number,
      bopf: row[col(byTqs, "LQ bopf")] as number, x: row[col(byTqs, "x bopf vs drf")] as number,
    }));
    expect(rows[0].x).toBeLessThan(1.3); // ~1 with one TQ
    expect(rows[2].x).toBeGreaterThan(rows[1].x); // rising with the number of TQs
    for (const x of rows) expect(x.bopf).toBeLessThanOrEqual(x.sp * 1.25);
    const big = byScale.rows[byScale.rows.length - 1];
    const tq = (name: string) => big[col(byScale, `TQ ${name}`)] as number;
    expect(tq("bopf")).toBeLessThanOrEqual(tq("drf") * 1.05);
    expect(tq("sp")).toBeGreaterThan(tq("drf") * 1.2); // SP starves the TQs with 8x bursts every 300 s
    expect(tq("sp")).toBeGreaterThan(tq("bopf") * 1.2);
  });

  // The paper's factors (Tables 3-4) came out with the old reservation dispatch; the default
  // work-conserving dispatch gives 1.68x at 8 TQs here (docs/reproduction-dispatch.md).
  it.fails("bopf: the paper's factor of improvement over DRF (8 TQs > 1.8x, 16 TQs > 3x) with the default dispatch", () => {
    const r = getScenario("bopf")!.run({ seed: 1, engine, params: { tqs: "1,8,16", scales: "1", tqJobs: 3, bursts: 3 } });
    const t = r.tables[0];
    const x = t.rows.map((row) => row[t.columns.indexOf("x bopf vs drf")] as number);
    expect(x[1]).toBeGreaterThan(1.8);
    expect(x[2]).toBeGreaterThan(3);
  });

  it("bopf-multi-lq: three LQs land hard, soft, elastic with the deciding condition", () => {
    const r = bopfMultiLqScenario.run({ seed: 1, engine, policies: ["bopf", "nbopf"], params: { horizon: 400, tqJobs: 3 } });
    const adm = r.tables[0];
    expect(adm.rows.map((x) => [x[0], x[1], x[2]])).toEqual([
      ["LQ0", "hard", "all-held"], ["LQ1", "soft", "resource"], ["LQ2", "elastic", "fairness"], ["TQ0", "elastic", "all-held"],
    ]);
    expect(r.tables[1].rows[1][1]).toBe("elastic"); // N-BoPF: LQ1 has no soft class
  });
});
