import { it } from "vitest";
import { loadEngineSync } from "../../src/engine/load.js";
import { simulate } from "../../src/sim/simulator.js";
const engine = loadEngineSync();
it("dbg", () => {
  const qs = [{ weight: 1, demand: [3.3, 0.1] }, { weight: 1, demand: [3.5, 0.1] }, { weight: 2, demand: [3.3, 0.1] }];
  const jobs: any[] = [];
  qs.forEach((q, i) => { for (let j = 0; j < 50; j++) jobs.push({ id: `Q${i}-j${j}`, queue: `Q${i}`, arrival: 0, stages: [{ tasks: 10, demand: q.demand, duration: 0.1 }] }); });
  const w: any = { name: "b", resources: ["a", "b"], capacity: [10, 10], queues: qs.map((q, i) => ({ name: `Q${i}`, kind: "TQ", weight: q.weight })), jobs, params: {}, seed: 1 };
  for (const g of [false, true]) {
    const r = simulate(w, { policy: "drf", engine, horizon: 20, starvationGuard: g });
    console.log(g, r.metrics.queues.map((q) => q.avgDominantShare.toFixed(3)).join(" "));
  }
});
