// docs/reproduction.md#headline-results / the BoPF paper's Tables 3-4: with 1 LQ and N TQs the LQ's average completion
// time under SP stays low while DRF's grows with the number of TQs.
import { describe, expect, it } from "vitest";
import { loadEngineSync } from "../../src/index.js";
import { simulate } from "../../src/sim/simulator.js";
import { bopfWorkload } from "../../src/workloads/bopf.js";

describe("BoPF paper shape under DRF and SP", () => {
  const engine = loadEngineSync();
  const lqAvg = (tqs: number, policy: string) =>
    simulate(bopfWorkload({ tqs, bursts: 3 }, 11), { policy, engine }).metrics.classes.LQ.avgCompletion!;

  it("DRF's LQ completion grows with the number of TQs; SP's stays far below", () => {
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
