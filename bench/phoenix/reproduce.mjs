// Phoenix vs Eagle-C and Hawk-C over seeds (issue 19; docs/reproduction-phoenix.md): one JSON
// line per run with the short-job p50/p90/p99 and the run's utilization and relaxations.
//
//   yahoo-90  YH2_sub.tr, all 3,363 jobs, workers for 90% offered load
//   yahoo-40  the same at 40%
//   google-high / google-low  GOOG_subtrace.tr over its steady window (GOOGLE_STEADY_WINDOW:
//             5,722 jobs from 84,000 s on), workers for the offered loads that give the paper's
//             86% / 43% as the measured busy fraction while jobs arrive
//
// Constraints are calibrated on the simulated cluster itself (fleet = its machines), so every
// constrained job fits >= 5% of its workers. Configs: the defaults ("default"), the defaults
// before issue 19 ("former": releaseLongDemand false, stealers "short-only"), and single
// options on Phoenix / Eagle-C. Usage: node bench/phoenix/reproduce.mjs FROM TO [part ...]
// (seeds FROM..TO; parts: yahoo, google, ablations, waitaware = waitaware-yahoo +
// waitaware-google; default all). Needs npm run build and
// FAIRSCHED_TRACES.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { loadEngineSync } from "../../dist/index.js";
import { simulateNodes } from "../../dist/phoenix/node-sim.js";
import { getNodePolicy } from "../../dist/phoenix/policies.js";
import { parseEagleTrace, EAGLE_CUTOFFS } from "../../dist/traces/eagle.js";
import { attachConstraints, workersForUtilization } from "../../dist/phoenix/workload.js";
import { generateMachines } from "../../dist/phoenix/machines.js";
import { GOOGLE_STEADY_WINDOW, arrivalWindow } from "../../dist/phoenix/steady-window.js";
import { busyAtArrivals, groupStats } from "../../dist/phoenix/metrics.js";
import { Rng } from "../../dist/random/rng.js";

const engine = loadEngineSync();
const dir = join(process.env.FAIRSCHED_TRACES ?? "../shared/traces", "eagle-format");
const load = (f) => parseEagleTrace(readFileSync(join(dir, f), "utf8"), f, { maxJobs: 100000 }).jobs;
const [from, to, ...partsArg] = process.argv.slice(2);
const parts = new Set(partsArg.length ? partsArg : ["yahoo", "google", "ablations", "waitaware"]);
const yahoo = load("YH2_sub.tr");
const g = GOOGLE_STEADY_WINDOW;
const google = arrivalWindow(load("GOOG_subtrace.tr"), g.from, g.to);

const settings = [];
const MAIN = ["phoenix", "eagle-c", "hawk-c"];
if (parts.has("yahoo")) {
  settings.push({ setting: "yahoo-90", trace: yahoo, u: 0.9, cutoff: EAGLE_CUTOFFS.yahoo, shortOnly: 0.02, runs: MAIN.map((p) => [p, "default", {}, {}]) });
  settings.push({ setting: "yahoo-40", trace: yahoo, u: 0.4, cutoff: EAGLE_CUTOFFS.yahoo, shortOnly: 0.02, runs: MAIN.map((p) => [p, "default", {}, {}]) });
}
if (parts.has("ablations")) {
  const former = { releaseLongDemand: false, stealers: "short-only" };
  settings.push({ setting: "yahoo-90", trace: yahoo, u: 0.9, cutoff: EAGLE_CUTOFFS.yahoo, shortOnly: 0.02, runs: [
    ...MAIN.map((p) => [p, "former", {}, former]),
    ["phoenix", "negotiateSoft-off", { negotiateSoft: false }, {}],
    ["phoenix", "sssRefresh-9", {}, { sssRefresh: 9 }],
    ["eagle-c", "sssRefresh-9", {}, { sssRefresh: 9 }],
  ] });
}
if (parts.has("google")) {
  for (const [name, u] of [["google-high", g.offered.high], ["google-low", g.offered.low]]) {
    settings.push({ setting: name, trace: google, u, cutoff: EAGLE_CUTOFFS.google, shortOnly: 0.17, runs: MAIN.map((p) => [p, "default", {}, {}]) });
  }
}
// probes placed by estimated wait over all eligible workers, under Phoenix and under Eagle-C
// (slow on Google: every job scans every eligible worker's queue)
const waitAware = ["phoenix", "eagle-c"].map((p) => [p, "waitAwareAllEligible", { waitAwareAllEligible: true }, {}]);
if (parts.has("waitaware") || parts.has("waitaware-yahoo")) {
  settings.push({ setting: "yahoo-90", trace: yahoo, u: 0.9, cutoff: EAGLE_CUTOFFS.yahoo, shortOnly: 0.02, runs: waitAware });
}
if (parts.has("waitaware") || parts.has("waitaware-google")) {
  settings.push({ setting: "google-high", trace: google, u: g.offered.high, cutoff: EAGLE_CUTOFFS.google, shortOnly: 0.17, runs: waitAware });
}

const WINDOW = 1000;
for (let seed = Number(from); seed <= Number(to); seed++) {
  for (const s of settings) {
    const workers = workersForUtilization(s.trace, s.u);
    const machines = generateMachines(workers, new Rng(seed ^ 0x3a7e));
    const jobs = attachConstraints(s.trace, new Rng(seed ^ 0x5eed), { fleet: machines });
    const shortArrivals = jobs.filter((j) => !(j.estimate > s.cutoff)).map((j) => j.arrival);
    for (const [policy, config, ablation, extra] of s.runs) {
      const r = simulateNodes(jobs, { engine, policy: getNodePolicy(policy, ablation), workers, machines, seed, cutoff: s.cutoff, shortOnlyFraction: s.shortOnly, busyWindow: WINDOW, ...extra });
      const st = groupStats(r.jobs);
      console.log(JSON.stringify({
        setting: s.setting, seed, policy, config, workers, offered: s.u,
        p50: st.short.p50, p90: st.short.p90, p99: st.short.p99, constrainedP99: st["short-constrained"].p99 ?? null,
        longP50: st.long.p50, longP99: st.long.p99,
        arrivalUtilization: r.arrivalUtilization, busyAtShort: busyAtArrivals(r.busyProfile, WINDOW, jobs[0].arrival, shortArrivals),
        relaxations: r.relaxations, crvReordered: r.crvReorderedTasks, stolen: r.stolenProbes,
      }));
    }
  }
}
