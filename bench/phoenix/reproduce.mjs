// Yahoo (YH2_sub.tr, all jobs) at 90% offered load: short-job p50/p90/p99 of the four node
// policies over seeds, the model as it stands ("current") and with the issue 19 options
// ("fixed": releaseLongDemand, stealers "any"). Usage: node bench/phoenix/reproduce.mjs FROM TO
// (seeds), output one JSON line per run. Needs npm run build and FAIRSCHED_TRACES.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { loadEngineSync } from "../../dist/index.js";
import { simulateNodes } from "../../dist/phoenix/node-sim.js";
import { parseEagleTrace, EAGLE_CUTOFFS } from "../../dist/phoenix/eagle-trace.js";
import { attachConstraints, workersForUtilization } from "../../dist/phoenix/workload.js";
import { groupStats } from "../../dist/phoenix/metrics.js";
import { Rng } from "../../dist/des/random.js";

const engine = loadEngineSync();
const path = join(process.env.FAIRSCHED_TRACES ?? "../shared/traces", "eagle-format/YH2_sub.tr");
const loaded = parseEagleTrace(readFileSync(path, "utf8"), path, { maxJobs: 100000 });
const [from, to] = process.argv.slice(2).map(Number);
const configs = { current: {}, fixed: { releaseLongDemand: true, stealers: "any" } };
for (let seed = from; seed <= to; seed++) {
  const jobs = attachConstraints(loaded.jobs, new Rng(seed ^ 0x5eed));
  const workers = workersForUtilization(jobs, 0.9);
  for (const [config, extra] of Object.entries(configs)) {
    for (const policy of ["phoenix", "eagle-c", "hawk-c", "sparrow-c"]) {
      const r = simulateNodes(jobs, { engine, policy, workers, seed, cutoff: EAGLE_CUTOFFS.yahoo, shortOnlyFraction: 0.02, ...extra });
      const s = groupStats(r.jobs).short;
      console.log(JSON.stringify({ trace: "yahoo", util: 0.9, seed, config, policy, p50: s.p50, p90: s.p90, p99: s.p99 }));
    }
  }
}
