// docs/reproduction.md#headline-results's headline result for Phoenix, on the real Yahoo trace (YH2_sub.tr, all 3,363 jobs)
// with generated constraints: Phoenix's short-job p99 is lower than Eagle-C's at high
// utilization, the two converge at low utilization, and long jobs are not hurt. "Shape, not
// exact numbers" (docs/reproduction.md#headline-results): the shape holds here; the paper's magnitude does not.
//
// Seeds are fixed (constraints seed s ^ 0x5eed, simulation seed s, the scenario's). With
// constraints calibrated to the paper's Table II and Fig. 6, Eagle's succinct state sharing and
// sticky batch probing modelled as Eagle's simulator runs them, and Phoenix's thresholds as
// §IV-B names them (per-constraint CRV_threshold = Table II slowdown, Qwait_threshold = the E[W]
// of peak load 0.9; node-sim.ts), Phoenix / Eagle-C short p99 at ~90% offered load over seeds
// 1-20 is: geometric mean 0.973, lower (by more than 0.5%) on 12 seeds, higher on 2 (by at most
// 1.6%), 0.76 at best (seed 6); a sign test on 12 vs 2 gives p ~ 0.013. At ~95%: 0.970, lower on
// 11, higher on 5 (at most 4.9%). At ~40% the two are identical (every seed), and long jobs are
// identical at both loads. Five seeds (0.97, 0.99, 0.99, 1.01, 0.98) were too few to see it.
//
// The paper's magnitude (Phoenix 1.9x ahead) does NOT reproduce against Eagle-C as the Eagle
// paper describes it (SRPT), at any load we tried (offered 0.9-1.5, README): it is kept below as
// a known failure (`it.fails`, geometric mean < 0.95), so the day it starts to hold this file
// turns red and someone updates it. Why the gap is small: the short-job tail is throughput-bound
// (constrained jobs whose tasks serialize on 0-2 eligible short-only workers), which no queue
// order changes (scenario header). The last test pins one hypothesis for the paper's larger
// gap: older versions of Eagle's published simulator, which the Phoenix paper built on, did not
// run SRPT (a misspelled variable made it serve the newest probe the slack admits; policies.ts,
// newestProbeFirst). That bug was fixed in that simulator on 2017-02-23 (commit f03c754), so
// whether the paper's Eagle-C ran this order is not known. Against that Eagle-C, Phoenix's p99 is 0.98, 0.98, 0.90, 0.87, 0.89 at ~90%
// (seeds 1-5, geometric mean 0.92) and 1.00 at ~40% (seed 1). Phoenix run with the same
// newest-first order gains nothing over it (1.00, 1.10, 1.00, 1.00, 0.99): the explanation is
// SRPT vs that order, not CRV.
//
// "High load" is the high-utilization regime, though the arrival-span busy fraction says ~0.55:
// the first test measures the busy fraction short jobs meet on arrival (0.64-0.84 at ~90%, mean
// 0.76 over seeds 1-20, while the arrival-span fraction is 0.44-0.67; ~0.5 at ~40%; scenario
// header). About 70 s (52 simulations).
import { beforeAll, describe, expect, it } from "vitest";
import { loadEngineSync } from "../../src/index.js";
import { loadEagleTrace, EAGLE_CUTOFFS } from "../../src/phoenix/eagle-trace.js";
import { attachConstraints, workersForUtilization } from "../../src/phoenix/workload.js";
import { simulateNodes } from "../../src/phoenix/node-sim.js";
import { busyAtArrivals, groupStats, saturatedSpan } from "../../src/phoenix/metrics.js";
import { getNodePolicy } from "../../src/phoenix/policies.js";
import { Rng } from "../../src/des/random.js";
import { tracePath } from "../helpers/traces.js";

type Run = { g: ReturnType<typeof groupStats>; r: ReturnType<typeof simulateNodes>; busyShort: number; saturated: number };
const WINDOW = 1000;
type Pair = { p: Run; e: Run };
/** 20 seeds: the effect is a few % of the p99, and 5 seeds were too few to tell it from noise. */
const SEEDS = Array.from({ length: 20 }, (_, i) => i + 1);
const high: Pair[] = [];
const low: Pair[] = [];
/** Eagle-C serving the newest probe first (Eagle's simulator as published), seeds 1-5 at ~90% and seed 1 at ~40%. */
const newest: Run[] = [];
let newestLow: Run;

beforeAll(async () => {
  const engine = loadEngineSync();
  const tr = await loadEagleTrace(tracePath("eagle-format/YH2_sub.tr"));
  const at = (seed: number, u: number, policy: string, options = {}): Run => {
    const jobs = attachConstraints(tr.jobs, new Rng(seed ^ 0x5eed));
    const r = simulateNodes(jobs, { engine, policy: getNodePolicy(policy, options), workers: workersForUtilization(jobs, u), seed, cutoff: EAGLE_CUTOFFS.yahoo, busyWindow: WINDOW });
    const shortArrivals = jobs.filter((j) => !(j.estimate > EAGLE_CUTOFFS.yahoo)).map((j) => j.arrival);
    const busyShort = busyAtArrivals(r.busyProfile, WINDOW, jobs[0].arrival, shortArrivals)!;
    return { g: groupStats(r.jobs), r, busyShort, saturated: saturatedSpan(r.busyProfile, WINDOW, 0.95) };
  };
  const pair = (seed: number, u: number): Pair => ({ p: at(seed, u, "phoenix"), e: at(seed, u, "eagle-c") });
  for (const seed of SEEDS) high.push(pair(seed, 0.9));
  for (const seed of [1, 2, 3]) low.push(pair(seed, 0.4));
  for (const seed of [1, 2, 3, 4, 5]) newest.push(at(seed, 0.9, "eagle-c", { newestProbeFirst: true }));
  newestLow = at(1, 0.4, "eagle-c", { newestProbeFirst: true });
}, 600_000);

const shortP99 = (x: Pair) => x.p.g.short.p99! / x.e.g.short.p99!;
const geoMean = (xs: number[]) => Math.exp(xs.reduce((a, g) => a + Math.log(g), 0) / xs.length);

describe("Phoenix vs Eagle-C on Yahoo (20 seeds)", () => {
  it("the ~90% offered load is the high-utilization regime where short jobs arrive, ~40% is not", () => {
    // the arrival-span busy fraction stays at 0.44-0.67 (the trace's opening 12,000 s hold one
    // job), yet short jobs meet a busy fraction of 0.64-0.84 on arrival, 0.76 on average
    // (1,000 s windows, seeds 1-20; seed 1: >= 95% busy for 23,000 s); at ~40% they meet ~0.5
    for (const x of high) {
      expect(x.e.r.arrivalUtilization).toBeLessThan(0.7);
      expect(x.e.busyShort).toBeGreaterThan(0.6);
    }
    expect(high.reduce((a, x) => a + x.e.busyShort, 0) / high.length).toBeGreaterThan(0.75);
    expect(high[0].e.saturated).toBeGreaterThanOrEqual(15_000);
    for (const x of low) {
      expect(x.e.busyShort).toBeLessThan(0.55);
      expect(x.e.saturated).toBeLessThan(5_000);
    }
  });

  it("the shape at high load: Phoenix's short-job p99 is lower than Eagle-C's (geometric mean < 0.985, lower on 3x as many seeds as higher, never 5% worse)", () => {
    const ratios = high.map(shortP99);
    expect(geoMean(ratios)).toBeLessThan(0.985);
    const lower = ratios.filter((r) => r < 0.995).length, higher = ratios.filter((r) => r > 1.005).length;
    expect(lower).toBeGreaterThanOrEqual(3 * higher);
    expect(lower).toBeGreaterThanOrEqual(10);
    for (const x of high) {
      expect(shortP99(x)).toBeLessThan(1.05);
      expect(x.p.r.crvReorderedTasks).toBeGreaterThan(0);
    }
  });

  it("the gap closes at low load: within 1% on the short-job p99 on every seed", () => {
    for (const x of low) expect(Math.abs(shortP99(x) - 1)).toBeLessThan(0.01);
  });

  it("long jobs are not hurt (within 5%) at high and low load", () => {
    for (const x of [...high, ...low]) {
      expect(x.p.g.long.p50! / x.e.g.long.p50!).toBeLessThan(1.05);
      expect(x.p.g.long.p99! / x.e.g.long.p99!).toBeLessThan(1.05);
    }
  });

  // The paper's magnitude, unchanged. Known not to reproduce here (observed geometric mean 0.973
  // on seeds 1-20; 0.99 on seeds 1-5; 0.98 with the former uniform thresholds).
  it.fails("paper magnitude: Phoenix clearly beats Eagle-C at high load (geometric mean of the p99 ratio < 0.95)", () => {
    expect(geoMean(high.map(shortP99))).toBeLessThan(0.95);
  });

  it("a hypothesis for the magnitude: against Eagle-C in the order Eagle's simulator ran before commit f03c754 (newest probe first), the gap is the paper's size", () => {
    const vsNewest = newest.map((n, i) => high[i].p.g.short.p99! / n.g.short.p99!);
    const geo = geoMean(vsNewest);
    expect(geo).toBeLessThan(0.95);
    expect(Math.abs(1 - low[0].p.g.short.p99! / newestLow.g.short.p99!)).toBeLessThan(Math.abs(1 - geo));
    // the baseline really differs: newest-first loses to SRPT at high load
    expect(geoMean(newest.map((n, i) => high[i].e.g.short.p99! / n.g.short.p99!))).toBeLessThan(1);
  });
});
