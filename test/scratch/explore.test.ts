import fc from "fast-check";
import { it } from "vitest";
import { loadEngineSync } from "../../src/engine/load.js";
import { simulate } from "../../src/sim/simulator.js";
const engine = loadEngineSync();
const CAP = [10, 10];
const MAXD = Number(process.env.MAXD ?? 30);
const queueArb = fc.record({
  weight: fc.integer({ min: 1, max: 3 }),
  arrival: fc.integer({ min: 0, max: 50 }),
  demand: fc.tuple(fc.integer({ min: 1, max: MAXD }), fc.integer({ min: 1, max: MAXD })).map(([a, b]) => [a / 10, b / 10]),
  durations: fc.array(fc.double({ min: 0.1, max: 5, noNaN: true }), { minLength: 10, maxLength: 10 }),
});
function drfShares(qs: any[]): number[] {
  const dom = qs.map((q) => Math.max(...q.demand.map((d: number, r: number) => d / CAP[r])));
  let t = Infinity;
  for (let r = 0; r < CAP.length; r++) t = Math.min(t, 1 / qs.reduce((a, q, i) => a + (q.weight * q.demand[r]) / CAP[r] / dom[i], 0));
  return qs.map((q) => q.weight * t);
}
function wl(qs: any[], horizon: number): any {
  const jobs: any[] = [];
  qs.forEach((q, i) => {
    const dom = Math.max(...q.demand.map((d: number, r: number) => d / CAP[r]));
    const n = Math.ceil((1.5 * horizon) / (q.durations.reduce((a: number, b: number) => a + b, 0) * dom));
    for (let j = 0; j < n; j++) jobs.push({ id: `Q${i}-j${j}`, queue: `Q${i}`, arrival: q.arrival ?? 0, stages: [{ tasks: 10, demand: q.demand, duration: q.durations }] });
  });
  return { name: "b", resources: ["a", "b"], capacity: CAP, queues: qs.map((q, i) => ({ name: `Q${i}`, kind: "TQ", weight: q.weight })), jobs, params: {}, seed: 1 };
}
it("explore", { timeout: 3_600_000 }, () => {
  const horizon = Number(process.env.H ?? 200);
  const big = fc.record({ weight: fc.integer({ min: 1, max: 3 }), demand: fc.tuple(fc.integer({ min: 10, max: 30 }), fc.integer({ min: 1, max: 30 })).map(([a, b]) => [a / 10, b / 10]), durations: fc.array(fc.double({ min: 0.1, max: 5, noNaN: true }), { minLength: 10, maxLength: 10 }) });
  const small = fc.record({ weight: fc.integer({ min: 1, max: 3 }), demand: fc.tuple(fc.integer({ min: 1, max: 5 }), fc.integer({ min: 1, max: 5 })).map(([a, b]) => [a / 10, b / 10]), durations: fc.array(fc.double({ min: 0.1, max: 5, noNaN: true }), { minLength: 10, maxLength: 10 }) });
  const arb = process.env.MIX ? fc.tuple(big, fc.array(small, { minLength: 1, maxLength: 3 })).map(([b, ss]) => [b, ...ss]) : fc.array(queueArb, { minLength: 2, maxLength: 4 });
  const cases = fc.sample(arb, { numRuns: Number(process.env.N ?? 100), seed: 7 });
  const worst: Record<string, number[]> = { on: [], off: [] };
  const t0 = Date.now();
  for (const qs of cases) {
    const fair = drfShares(qs);
    const largest = Math.max(...qs.map((q) => Math.max(...q.demand.map((d, k) => d / CAP[k]))));
    for (const g of [true, false]) {
      const r = simulate(wl(qs, horizon), { policy: "drf", engine, horizon, starvationGuard: g, sampleInterval: 1 });
      const from = Math.max(...qs.map((q: any) => q.arrival ?? 0)) + 1;
      const avg = r.series.dominantShare.map((xs) => { const w = xs.slice(from, horizon); return w.reduce((a, b) => a + b, 0) / w.length; });
      const def = Math.max(...avg.map((m, i) => (fair[i] - m)));
      worst[g ? "on" : "off"].push(def / largest);
      if (g && def / largest > 1.3) console.log("WORST", def / largest, JSON.stringify(qs.map((q) => ({ w: q.weight, d: q.demand, a: q.arrival }))), "fair", fair.map((x) => x.toFixed(3)).join(" "), "got", avg.map((m) => m.toFixed(3)).join(" "));
    }
  }
  for (const k of ["on", "off"]) { const xs = worst[k].slice().sort((a, b) => b - a); console.log(k, "deficit/largest top:", xs.slice(0, 8).map((x) => x.toFixed(2)).join(" "), "count>1:", xs.filter((x) => x > 1).length, "count>2:", xs.filter((x) => x > 2).length); }
  console.log("ms", Date.now() - t0);
});
