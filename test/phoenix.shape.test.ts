// SPEC §9 headline result for Phoenix, on the real Yahoo trace (YH2_sub.tr, all 3,363 jobs)
// with generated constraints, over three constraint/simulation seeds (the scenario's seeds
// 1-3: constraints seed s ^ 0x5eed, simulation seed s).
//
// What holds robustly in this model (measured on 5 seeds, see src/scenarios/phoenix.ts):
// at ~90% offered load Phoenix's short-job p99 is never more than a few percent worse than
// Eagle-C's and better on average (geometric mean of the ratio ~0.88 over 5 seeds, 0.89 over
// these 3: 0.74, 0.91, 1.03); at ~40% load the two coincide; long jobs are not hurt. The gain
// is small because the short-job tail here is short tasks of narrowly constrained jobs waiting
// behind *running* long tasks, which no queue reordering can help; the paper's 1.9x does
// not reproduce.
import { describe, expect, it } from "vitest";
import { join } from "node:path";
import { loadEngineSync } from "../src/index.js";
import { loadEagleTrace, EAGLE_CUTOFFS } from "../src/phoenix/eagle-trace.js";
import { attachConstraints, workersForUtilization } from "../src/phoenix/workload.js";
import { simulateNodes } from "../src/phoenix/node-sim.js";
import { groupStats } from "../src/phoenix/metrics.js";
import { Rng } from "../src/sim/random.js";

describe("Phoenix vs Eagle-C on Yahoo (paper shape, 3 seeds)", () => {
  it("is never clearly worse and better on average at high load, coincides at low load, leaves long jobs alone", async () => {
    const engine = loadEngineSync();
    const tr = await loadEagleTrace(join(process.cwd(), "../shared/traces/eagle-format/YH2_sub.tr"));
    const at = (seed: number, u: number, policy: string) => {
      const jobs = attachConstraints(tr.jobs, new Rng(seed ^ 0x5eed));
      const r = simulateNodes(jobs, { engine, policy, workers: workersForUtilization(jobs, u), seed, cutoff: EAGLE_CUTOFFS.yahoo });
      return { g: groupStats(r.jobs), r };
    };
    const gaps: number[] = [];
    for (const seed of [1, 2, 3]) {
      const p = at(seed, 0.9, "phoenix"), e = at(seed, 0.9, "eagle-c");
      const gap = p.g.short.p99! / e.g.short.p99!;
      gaps.push(gap);
      expect(gap).toBeLessThan(1.05); // observed 0.74, 0.91, 1.03
      expect(p.r.crvReorderedTasks).toBeGreaterThan(0);
      expect(p.g.long.p50! / e.g.long.p50!).toBeLessThan(1.05);
      expect(p.g.long.p99! / e.g.long.p99!).toBeLessThan(1.05);
    }
    const geo = Math.exp(gaps.reduce((a, g) => a + Math.log(g), 0) / gaps.length);
    expect(geo).toBeLessThan(0.95); // observed 0.89
    const lo = at(1, 0.4, "phoenix"), le = at(1, 0.4, "eagle-c");
    const gapLo = lo.g.short.p99! / le.g.short.p99!;
    expect(Math.abs(gapLo - 1)).toBeLessThan(0.03); // converged at 40% load (observed 1.00)
    expect(Math.abs(1 - gapLo)).toBeLessThan(Math.abs(1 - geo));
    expect(lo.g.long.p99! / le.g.long.p99!).toBeLessThan(1.05);
  }, 90_000);
});
