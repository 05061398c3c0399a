// The simulator's 100,000-task run (the setup of bench/simulator.ts: 1 LQ + 20 TQs x 10 jobs
// of the BoPF workload, about 100,000 tasks), DRF policy only and two runs, so it fits in
// `npm run bench`; `npm run bench:sim` runs every queue-level policy. Floor: generating the
// workload (one pass that creates every task).
import { loadEngineSync } from "../src/index.js";
import "../src/policies/index.js";
import { simulate, type SimResult } from "../src/sim/simulator.js";
import { bopfWorkload } from "../src/workloads/bopf.js";
import type { Workload } from "../src/policy/model.js";
import type { ScenarioModule } from "./cases.js";

const PARAMS = { tqs: 20, tqJobs: 10, bursts: 6 };
let cached: Workload | null = null;
const workload = (): Workload => (cached ??= bopfWorkload(PARAMS, 1));
const taskCount = (w: Workload): number => w.jobs.reduce((a, j) => a + j.stages.reduce((b, s) => b + s.tasks, 0), 0);

let last: SimResult | null = null;

export const simModule: ScenarioModule = {
  name: "Simulator, 100k tasks",
  description: "bench/simulator.ts setup (1 LQ + 20 TQs x 10 jobs, K = 6), DRF, 2 runs",
  cases: [
    {
      id: "sim.drf",
      label: "simulate, DRF policy (wasm engine)",
      runs: { warmup: 0, samples: 2 },
      prepare() {
        const w = workload();
        const engine = loadEngineSync();
        return () => (last = simulate(w, { policy: "drf", engine }));
      },
      info: () => ({ tasks: taskCount(workload()), queues: workload().queues.length, events: last?.stats.events ?? null }),
    },
    {
      id: "sim.floor",
      label: "floor: generate the workload (one pass creating every task)",
      runs: { warmup: 1, samples: 3 },
      prepare: () => () => bopfWorkload(PARAMS, 1),
    },
  ],
  ratios: [{ label: "simulate / workload pass", numerator: "sim.drf", denominator: "sim.floor" }],
};
