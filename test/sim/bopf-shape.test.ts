// docs/reproduction.md#headline-results / the BoPF paper's Tables 3-4: with 1 LQ and N TQs the LQ's average completion
// time under SP stays low while DRF's grows with the number of TQs.
import { describe, expect, it } from "vitest";
import { loadEngineSync } from "../../src/index.js";
import { simulate } from "../../src/sim/simulator.js";
import { bopfWorkload } from "../../src/workloads/bopf.js";

describe("BoPF paper shape under DRF and SP", () => {
  const engine = loadEngineSync();
  const lqAvg = (tqs: number, policy: string, reservation = true) =>
    simulate(bopfWorkload({ tqs, bursts: 3 }, 11), { policy, engine, reservation }).metrics.classes.LQ.avgCompletion!;

  // The paper's magnitudes hold with the reservation reading (unguaranteed queues start nothing
  // while a guaranteed LQ is below its guarantee). Under the default work-conserving dispatch the
  // shape holds but the magnitude is smaller (seed 11: 2.33x at 8 TQs, 3.31x at 16;
  // docs/reproduction-dispatch.md): that is the known failure below.
  it.fails("default dispatch: the paper's magnitude (8 TQs: DRF/SP > 2.5, 16 TQs: > 4)", () => {
    expect(lqAvg(8, "drf", false) / lqAvg(8, "sp", false)).toBeGreaterThan(2.5);
    expect(lqAvg(16, "drf", false) / lqAvg(16, "sp", false)).toBeGreaterThan(4);
  });

  it("DRF's LQ completion grows with the number of TQs; SP's stays far below (reservation reading)", () => {
    const counts = [1, 2, 4, 8, 16];
    const drf = counts.map((n) => lqAvg(n, "drf"));
    const sp = counts.map((n) => lqAvg(n, "sp"));
    for (let i = 1; i < counts.length; i++) expect(drf[i]).toBeGreaterThan(drf[i - 1]);
    expect(drf[3] / sp[3]).toBeGreaterThan(2.5); // 8 TQs: SP far below DRF
    expect(drf[4] / sp[4]).toBeGreaterThan(4); // 16 TQs
    expect(drf[0] / sp[0]).toBeLessThan(1.6); // 1 TQ: about the same
    for (const s of sp) expect(s).toBeLessThan(drf[4] / 3);
  });
});
