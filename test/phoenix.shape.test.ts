// SPEC §9's headline result for Phoenix, on the real Yahoo trace (YH2_sub.tr, all 3,363 jobs)
// with generated constraints, over five constraint/simulation seeds (the paper averages five
// runs, §V-B; the scenario's seeds 1-5: constraints seed s ^ 0x5eed, simulation seed s).
//
// With constraints calibrated to the paper's Table II and Fig. 6, Eagle's succinct state sharing
// and sticky batch probing modelled as Eagle's simulator runs them, and Phoenix's thresholds as
// §IV-B names them (per-constraint CRV_threshold = Table II slowdown, Qwait_threshold = the E[W]
// of peak load 0.9; node-sim.ts), Phoenix's short-job p99 at ~90% offered load is 0.97, 0.99,
// 0.99, 1.01, 0.99 of Eagle-C's over seeds 1-5 (geometric mean 0.99), identical at ~40%, and long
// jobs are not hurt. The paper's headline (Phoenix 1.9x ahead at high load) does NOT reproduce
// against Eagle-C as the Eagle paper describes it (SRPT), at any load we tried (offered 0.9-1.5,
// README): it is kept below as a known failure (`it.fails`), so the day it starts to hold this
// file turns red and someone updates it.
//
// "High load" here is the high-utilization regime, though the arrival-span busy fraction says
// ~0.55: the first test measures the busy fraction short jobs meet on arrival (0.67-0.83 at
// ~90%, ~0.5 at ~40%; scenario header). At 130% offered load (busy@short 0.84-0.92, past the
// paper's "85% average utilization") the ratio is still 0.98 (seeds 1-5): the short-job tail is
// throughput-bound (constrained jobs whose tasks serialize on 0-2 eligible short-only workers),
// which no queue order changes.
//
// The last test pins our best explanation: Eagle's published simulator, which the Phoenix paper
// built on, does not run SRPT — a misspelled variable makes it serve the newest probe the slack
// admits (policies.ts, newestProbeFirst). Against that Eagle-C, Phoenix's p99 is 0.98, 0.98,
// 0.90, 0.87, 0.89 at ~90% load (seeds 1-5, geometric mean 0.92) and 1.00 at ~40% (seed 1): the
// paper's shape, though far smaller than its 1.9x.
import { beforeAll, describe, expect, it } from "vitest";
import { join } from "node:path";
import { loadEngineSync } from "../src/index.js";
import { loadEagleTrace, EAGLE_CUTOFFS } from "../src/phoenix/eagle-trace.js";
import { attachConstraints, workersForUtilization } from "../src/phoenix/workload.js";
import { simulateNodes } from "../src/phoenix/node-sim.js";
import { busyAtArrivals, groupStats, saturatedSpan } from "../src/phoenix/metrics.js";
import { getNodePolicy } from "../src/phoenix/policies.js";
import { Rng } from "../src/sim/random.js";

type Run = { g: ReturnType<typeof groupStats>; r: ReturnType<typeof simulateNodes>; busyShort: number; saturated: number };
const WINDOW = 1000;
type Trio = { p: Run; e: Run; n: Run };
const SEEDS = [1, 2, 3, 4, 5];
const high: Trio[] = [];
let low: Trio;

beforeAll(async () => {
  const engine = loadEngineSync();
  const tr = await loadEagleTrace(join(process.cwd(), "../shared/traces/eagle-format/YH2_sub.tr"));
  const at = (seed: number, u: number, policy: string, options = {}): Run => {
    const jobs = attachConstraints(tr.jobs, new Rng(seed ^ 0x5eed));
    const r = simulateNodes(jobs, { engine, policy: getNodePolicy(policy, options), workers: workersForUtilization(jobs, u), seed, cutoff: EAGLE_CUTOFFS.yahoo, busyWindow: WINDOW });
    const shortArrivals = jobs.filter((j) => !(j.estimate > EAGLE_CUTOFFS.yahoo)).map((j) => j.arrival);
    const busyShort = busyAtArrivals(r.busyProfile, WINDOW, jobs[0].arrival, shortArrivals)!;
    return { g: groupStats(r.jobs), r, busyShort, saturated: saturatedSpan(r.busyProfile, WINDOW, 0.95) };
  };
  const trio = (seed: number, u: number): Trio => ({ p: at(seed, u, "phoenix"), e: at(seed, u, "eagle-c"), n: at(seed, u, "eagle-c", { newestProbeFirst: true }) });
  for (const seed of SEEDS) high.push(trio(seed, 0.9));
  low = trio(1, 0.4);
}, 400_000);

const shortP99 = (x: Trio, base: "e" | "n" = "e") => x.p.g.short.p99! / x[base].g.short.p99!;
const geoMean = (xs: number[]) => Math.exp(xs.reduce((a, g) => a + Math.log(g), 0) / xs.length);

describe("Phoenix vs Eagle-C on Yahoo (5 seeds)", () => {
  it("the ~90% offered load is the high-utilization regime where short jobs arrive, ~40% is not", () => {
    // the arrival-span busy fraction stays below ~0.6 (the trace's opening 12,000 s hold one
    // job), yet short jobs meet a busy fraction of 0.67-0.83 on arrival (1,000 s windows;
    // seed 1: >= 95% busy for 23,000 s); at ~40% they meet ~0.5
    for (const x of high) {
      expect(x.e.r.arrivalUtilization).toBeLessThan(0.65);
      expect(x.e.busyShort).toBeGreaterThan(0.65);
    }
    expect(high.reduce((a, x) => a + x.e.busyShort, 0) / high.length).toBeGreaterThan(0.75);
    expect(high[0].e.saturated).toBeGreaterThanOrEqual(15_000);
    expect(low.e.busyShort).toBeLessThan(0.55);
    expect(low.e.saturated).toBeLessThan(5_000);
  });

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

  // The paper's claim, unchanged. Known not to reproduce here (observed geometric mean 0.99 on
  // seeds 1-5; 0.98 with the former uniform thresholds, CRV 1 and E[W] 90 s).
  it.fails("paper headline: Phoenix clearly beats Eagle-C at high load (geometric mean of the p99 ratio < 0.95), more than at low load", () => {
    const geo = geoMean(high.map((x) => shortP99(x)));
    expect(geo).toBeLessThan(0.95);
    expect(Math.abs(1 - shortP99(low))).toBeLessThan(Math.abs(1 - geo));
  });

  it("explanation: against Eagle-C in the order Eagle's simulator runs (newest probe first), the paper's shape appears", () => {
    const geo = geoMean(high.map((x) => shortP99(x, "n")));
    expect(geo).toBeLessThan(0.95);
    expect(Math.abs(1 - shortP99(low, "n"))).toBeLessThan(Math.abs(1 - geo));
    // the baseline really differs: newest-first loses to SRPT at high load
    expect(geoMean(high.map((x) => x.e.g.short.p99! / x.n.g.short.p99!))).toBeLessThan(1);
  });
});
