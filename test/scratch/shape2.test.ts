import { it, vi } from "vitest";
vi.mock("../../src/sim/simulator.js", async (importOriginal) => {
  const mod: any = await importOriginal();
  return { ...mod, simulate: (w: any, o: any) => mod.simulate(w, { ...o, starvationGuard: process.env.GUARD !== "off" }) };
});
import { loadEngineSync } from "../../src/index.js";
import { simulate } from "../../src/sim/simulator.js";
import { bopfWorkload } from "../../src/workloads/bopf.js";
import { getScenario } from "../../src/scenarios/index.js";
import { describeOverSeeds } from "../helpers/over-seeds.js";
const engine = loadEngineSync();
const SEEDS = Array.from({ length: 10 }, (_, i) => i + 1);
it("shape2", { timeout: 3_600_000 }, () => {
  const cache = new Map<string, number[]>();
  const lqAvg = (tqs: number, policy: string, reservation: boolean) => {
    const k = `${tqs}/${policy}/${reservation}`;
    if (!cache.has(k)) cache.set(k, SEEDS.map((seed) => simulate(bopfWorkload({ tqs, bursts: 3, tqJobs: 4 }, seed), { policy, engine, reservation }).metrics.classes.LQ.avgCompletion!));
    return cache.get(k)!;
  };
  const ratio = (a: number[], b: number[]) => a.map((x, i) => x / b[i]);
  const diff = (a: number[], b: number[]) => a.map((x, i) => x - b[i]);
  const out: string[] = [`GUARD=${process.env.GUARD ?? "on"}`];
  out.push(`growth r16-r8 default ${describeOverSeeds(diff(ratio(lqAvg(16, "drf", false), lqAvg(16, "sp", false)), ratio(lqAvg(8, "drf", false), lqAvg(8, "sp", false))))}`);
  out.push(`1TQ DRF/SP res ${describeOverSeeds(ratio(lqAvg(1, "drf", false), lqAvg(1, "sp", true)), 1.6)}`);
  const C = [1, 2, 4, 8, 16];
  for (const n of C) out.push(`DRF16/SP${n} res ${describeOverSeeds(ratio(lqAvg(16, "drf", false), lqAvg(n, "sp", true)), 3)}`);
  for (let i = 1; i < C.length; i++) out.push(`DRF diff ${C[i]}-${C[i - 1]} ${describeOverSeeds(diff(lqAvg(C[i], "drf", false), lqAvg(C[i - 1], "drf", false)))}`);
  const sweeps = SEEDS.map((seed) => getScenario("bopf")!.run({ seed, engine, params: { tqs: "1,8,16", scales: "1,8", tqJobs: 3, bursts: 3 } }));
  const cell = (table: number, row: number, name: string) => sweeps.map((r) => r.tables[table].rows[row][r.tables[table].columns.indexOf(name)] as number);
  out.push(`scen growth 8->16 ${describeOverSeeds(diff(cell(0, 2, "x bopf vs drf"), cell(0, 1, "x bopf vs drf")))}`);
  console.log(out.join("\n"));
});
