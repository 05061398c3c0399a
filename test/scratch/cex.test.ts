import { it } from "vitest";
import type { JobSpec, QueueSpec, Workload } from "../../src/policy/model.js";
import { simulate } from "../../src/sim/simulator.js";
import { backends } from "../helpers/engines.js";
const engine = backends[0][1]();
function workload(lq: any, tqs: any[]): Workload {
  const jobs: JobSpec[] = []; const queues: QueueSpec[] = [];
  const volume = lq.demand.map((d: number) => d * lq.tasks * lq.duration);
  queues.push({ name: "LQ0", kind: "LQ", bursts: lq.bursts.map((start: number) => ({ start, window: lq.duration, volume })) });
  lq.bursts.forEach((start: number, b: number) => jobs.push({ id: `LQ0-b${b}`, queue: "LQ0", arrival: start, burst: b, deadline: lq.duration, stages: [{ tasks: lq.tasks, demand: lq.demand, duration: lq.duration }] }));
  tqs.forEach((t, i) => { queues.push({ name: `TQ${i}`, kind: "TQ" }); for (let j = 0; j < t.jobs; j++) jobs.push({ id: `TQ${i}-j${j}`, queue: `TQ${i}`, arrival: 0, stages: [{ tasks: t.tasks, demand: t.demand, duration: t.durations }] }); });
  return { name: "t", resources: ["a", "b"], capacity: [10, 10], queues, jobs, params: {}, seed: 1 };
}
it("cex", () => {
  const lq = { tasks: 4, demand: [1, 0], duration: 3, bursts: Array.from({ length: 10 }, (_, b) => 20 + 100 * b) };
  const d0 = [0.1, 2.4, 1.8, 2.1, 3, 0.6, 4.8, 0.7, 1.9, 0.3, 0.1, 0.1, 3.5, 1.4, 2.5, 0.4, 0.4, 5, 0.9, 3.1];
  const d1 = [3.5, 0.1, 4.1, 2.7, 4.8, 0.1, 4.5, 0.1, 0.4, 0.4, 0.3, 0.1, 1.5, 0.1, 2.9, 0.5, 2.6, 4.8, 4.6, 5, 3.6, 1.6, 5, 1.8, 3.8, 1.8, 0.3, 0.1, 0.6, 0.3, 0.5, 4.9, 0.2, 1, 0.2, 4.6, 2, 1.3, 3.2, 0.2, 0.6, 0.4, 0.1, 0.3, 0.6, 3.8, 0.5, 4.8, 4.9, 4.5, 4.1, 2.4, 1.2, 4.2, 1.4, 0.2, 0.3, 0.1, 0.3, 0.6, 4.8, 4.2, 3.4, 4.6, 2.2, 4.2, 4.7, 4.6, 2.2, 0.1, 4.6, 0.4, 0.5, 0.5, 0.5];
  const horizon = 1000;
  const backlogged = [{ tasks: 20, demand: [1.7, 0.1], durations: d0 }, { tasks: 75, demand: [0.4, 0.1], durations: d1 }].map((t) => {
    const perJob = t.tasks * (Math.max(...t.demand) / 10) * (t.durations.reduce((a, b) => a + b, 0) / t.durations.length);
    return { ...t, jobs: Math.ceil((1.5 * horizon) / perJob) };
  });
  for (const g of [false, true]) for (const p of ["bopf", "drf"]) {
    const r = simulate(workload(lq, backlogged), { policy: p, engine, horizon, starvationGuard: g } as any);
    const busy = r.metrics;
    console.log(p, "guard", g, r.metrics.queues.map((q) => q.avgDominantShare.toFixed(4)).join(" "), "util", JSON.stringify((busy as any).utilization ?? ""));
  }
});
