// `npm run bench:sim`: a 100,000-task simulator run per queue-level policy (issue: "a
// 100,000-task run must take seconds, not minutes" — measured here, never in a timed test).
// Reported: median wall time, tasks/s, events/s, and the ratio to one pass over the tasks
// (building the workload), so the number means something on any machine.
import { Bench } from "tinybench";
import { loadEngineSync } from "../src/index.js";
import "../src/policies/index.js";
import { simulate, type SimResult } from "../src/sim/simulator.js";
import { bopfWorkload } from "../src/workloads/bopf.js";

const engine = loadEngineSync();
// 1 LQ + 20 TQs x 10 jobs of the BoPF setup: about 100,000 tasks
const params = { tqs: 20, tqJobs: 10, bursts: 6 };
const workload = bopfWorkload(params, 1);
const tasks = workload.jobs.reduce((a, j) => a + j.stages.reduce((b, s) => b + s.tasks, 0), 0);
const policies = (process.argv[2] ?? "drf,sp,fifo").split(",");

const bench = new Bench({ time: 0, iterations: 3, warmup: false });
const last = new Map<string, SimResult>();
bench.add("workload pass (generate)", () => { bopfWorkload(params, 1); });
for (const policy of policies) bench.add(`simulate ${policy}`, () => { last.set(policy, simulate(workload, { policy, engine })); });
await bench.run();

const median = (name: string) => (bench.getTask(name)!.result as { latency: { p50: number } }).latency.p50;
const base = median("workload pass (generate)");
console.log(`Simulator on ${tasks} tasks, ${workload.queues.length} queues, K=${workload.capacity.length} (median of 3)`);
console.log("case                       ms       tasks/s     events/s   x workload pass");
for (const policy of policies) {
  const ms = median(`simulate ${policy}`);
  const r = last.get(policy)!;
  console.log(`simulate ${policy.padEnd(16)} ${ms.toFixed(0).padStart(6)} ${(tasks / ms * 1000).toFixed(0).padStart(12)} ${(r.stats.events / ms * 1000).toFixed(0).padStart(12)} ${(ms / base).toFixed(1).padStart(10)}`);
}
