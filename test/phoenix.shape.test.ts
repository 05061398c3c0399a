// SPEC §9's headline result for Phoenix, on the real Yahoo trace (YH2_sub.tr, all 3,363 jobs)
// with generated constraints, over three constraint/simulation seeds (the scenario's seeds
// 1-3: constraints seed s ^ 0x5eed, simulation seed s).
//
// With the constraint generator calibrated to the paper's Table II and Fig. 6 (12% of workers
// fit a 2-constraint job, about 5% a 6-constraint job), Phoenix's short-job p99 at ~90% load is
// 0.96-1.05 of Eagle-C's (geometric mean ~1.00 over seeds 1-5), they coincide at ~40% load,
// and long jobs are not hurt. The paper's headline (Phoenix clearly ahead at high load) does
// NOT reproduce in this model: it is kept below verbatim as a known failure (`it.fails`), so the
// day it starts to hold this file turns red and someone updates it. (With the earlier,
// too-narrow generator Phoenix looked ~12% ahead: that came from the unrealistic constraints.)
import { beforeAll, describe, expect, it } from "vitest";
import { join } from "node:path";
import { loadEngineSync } from "../src/index.js";
import { loadEagleTrace, EAGLE_CUTOFFS } from "../src/phoenix/eagle-trace.js";
import { attachConstraints, workersForUtilization } from "../src/phoenix/workload.js";
import { simulateNodes } from "../src/phoenix/node-sim.js";
import { groupStats } from "../src/phoenix/metrics.js";
import { Rng } from "../src/sim/random.js";

type Run = { g: ReturnType<typeof groupStats>; r: ReturnType<typeof simulateNodes> };
const SEEDS = [1, 2, 3];
const high: Array<{ p: Run; e: Run }> = [];
let low: { p: Run; e: Run };

beforeAll(async () => {
  const engine = loadEngineSync();
  const tr = await loadEagleTrace(join(process.cwd(), "../shared/traces/eagle-format/YH2_sub.tr"));
  const at = (seed: number, u: number, policy: string): Run => {
    const jobs = attachConstraints(tr.jobs, new Rng(seed ^ 0x5eed));
    const r = simulateNodes(jobs, { engine, policy, workers: workersForUtilization(jobs, u), seed, cutoff: EAGLE_CUTOFFS.yahoo });
    return { g: groupStats(r.jobs), r };
  };
  for (const seed of SEEDS) high.push({ p: at(seed, 0.9, "phoenix"), e: at(seed, 0.9, "eagle-c") });
  low = { p: at(1, 0.4, "phoenix"), e: at(1, 0.4, "eagle-c") };
}, 120_000);

const shortP99 = (x: { p: Run; e: Run }) => x.p.g.short.p99! / x.e.g.short.p99!;
const geoMean = (xs: number[]) => Math.exp(xs.reduce((a, g) => a + Math.log(g), 0) / xs.length);

describe("Phoenix vs Eagle-C on Yahoo (3 seeds)", () => {
  it("at high load Phoenix reorders tasks and is never clearly worse on the short-job p99", () => {
    for (const x of high) {
      expect(x.p.r.crvReorderedTasks).toBeGreaterThan(0);
      expect(shortP99(x)).toBeLessThan(1.05);
    }
  });

  it("long jobs are not hurt (within 5%) at high and low load", () => {
    for (const x of [...high, low]) {
      expect(x.p.g.long.p50! / x.e.g.long.p50!).toBeLessThan(1.05);
      expect(x.p.g.long.p99! / x.e.g.long.p99!).toBeLessThan(1.05);
    }
  });

  it("the two coincide at low load (within 3% on the short-job p99)", () => {
    expect(Math.abs(shortP99(low) - 1)).toBeLessThan(0.03);
  });

  // The paper's claim, unchanged. Known not to reproduce here (observed geometric mean ~0.99).
  it.fails("paper headline: Phoenix clearly beats Eagle-C at high load (geometric mean of the p99 ratio < 0.95), more than at low load", () => {
    const geo = geoMean(high.map(shortP99));
    expect(geo).toBeLessThan(0.95);
    expect(Math.abs(1 - shortP99(low))).toBeLessThan(Math.abs(1 - geo));
  });
});
