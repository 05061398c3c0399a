import { readFileSync } from "node:fs";
import { it } from "vitest";
import { loadEngine } from "../../src/index.js";
import "../../src/policies/index.js";
import { simulate } from "../../src/sim/simulator.js";
import type { Workload } from "../../src/policy/model.js";
const dir = new URL("../fixtures/irfsim/", import.meta.url);
const results = JSON.parse(readFileSync(new URL("irfsim-results.json", dir), "utf8")) as any;
it("irf", { timeout: 3_600_000 }, async () => {
  const engine = await loadEngine({ backend: "js" });
  const guards = (process.env.GUARDS ?? "false,true").split(",").map((x) => x === "true");
  for (const setup of ["fig10", "lq1tq8"]) {
    const w = JSON.parse(readFileSync(new URL(`${setup}.workload.json`, dir), "utf8")) as Workload;
    const arrival = new Map(w.jobs.map((j) => [j.id, j.arrival]));
    const lqOf = new Map(w.jobs.filter((j) => w.queues.find((q) => q.name === j.queue)!.kind === "LQ").map((j) => [j.id, j.queue]));
    const run = results[setup];
    for (const policy of ["drf", "sp", "nbopf", "bopf"]) {
      const row: string[] = [];
      for (const g of guards) {
        const r = simulate(w, { policy, engine, horizon: run.endTime, starvationGuard: g });
        const ours = new Map<string, number>();
        for (const j of r.jobs) if (j.outcome.status === "finished" && lqOf.has(j.id)) ours.set(j.id, j.completionTime!);
        const theirs = new Map<string, number>();
        for (const [id, , end] of run.policies[policy].jobs) if (lqOf.has(id)) theirs.set(id, end - arrival.get(id)!);
        for (const queue of [...new Set(lqOf.values())]) {
          const both = [...theirs.keys()].filter((id) => lqOf.get(id) === queue && ours.has(id));
          const mean = (m: Map<string, number>) => both.reduce((s, id) => s + m.get(id)!, 0) / both.length;
          row.push(`${setup} ${policy} ${queue} guard=${g} n=${both.length} irf=${mean(theirs).toFixed(2)} ours=${mean(ours).toFixed(2)} gap=${(100 * (mean(ours) / mean(theirs) - 1)).toFixed(1)}% tqShares=${r.metrics.queues.filter((q, i) => w.queues[i].kind !== "LQ").map((q) => q.avgDominantShare.toFixed(3)).join("/")}`);
        }
      }
      console.log(row.join("\n"));
    }
  }
});
