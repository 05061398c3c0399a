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
it("shape", { timeout: 3_600_000 }, () => {
  const lqAvg = (tqs: number, policy: string, reservation: boolean) => SEEDS.map((seed) => simulate(bopfWorkload({ tqs, bursts: 3, tqJobs: 4 }, seed), { policy, engine, reservation }).metrics.classes.LQ.avgCompletion!);
  const ratio = (a: number[], b: number[]) => a.map((x, i) => x / b[i]);
  const out: string[] = [`GUARD=${process.env.GUARD ?? "on"}`];
  for (const res of [false, true]) for (const n of [8, 16]) {
    const d = lqAvg(n, "drf", false), s = lqAvg(n, "sp", res);
    out.push(`shape res=${res} ${n} TQs DRF/SP ${describeOverSeeds(ratio(d, s), n === 8 ? 2.5 : 4)}  drfLQ ${describeOverSeeds(d)} spLQ ${describeOverSeeds(s)}`);
  }
  const sweeps = SEEDS.map((seed) => getScenario("bopf")!.run({ seed, engine, params: { tqs: "1,8,16", scales: "1,8", tqJobs: 3, bursts: 3 } }));
  const cell = (table: number, row: number, name: string) => sweeps.map((r) => r.tables[table].rows[row][r.tables[table].columns.indexOf(name)] as number);
  out.push(`scen x bopf vs drf 1TQ ${describeOverSeeds(cell(0, 0, "x bopf vs drf"), 1.3)}`);
  out.push(`scen x bopf vs drf 8TQ ${describeOverSeeds(cell(0, 1, "x bopf vs drf"), 1.8)}`);
  out.push(`scen x bopf vs drf 16TQ ${describeOverSeeds(cell(0, 2, "x bopf vs drf"), 3)}`);
  for (const row of [0, 1, 2]) out.push(`scen row ${row} LQ bopf/sp ${describeOverSeeds(ratio(cell(0, row, "LQ bopf"), cell(0, row, "LQ sp")), 1.25)}`);
  out.push(`scen 8x TQ sp/drf ${describeOverSeeds(ratio(cell(1, 1, "TQ sp"), cell(1, 1, "TQ drf")), 1.2)}`);
  out.push(`scen 8x TQ sp/bopf ${describeOverSeeds(ratio(cell(1, 1, "TQ sp"), cell(1, 1, "TQ bopf")), 1.2)}`);
  out.push(`scen 8x TQ bopf/drf ${describeOverSeeds(ratio(cell(1, 1, "TQ bopf"), cell(1, 1, "TQ drf")), 1.05)}`);
  console.log(out.join("\n"));
});
