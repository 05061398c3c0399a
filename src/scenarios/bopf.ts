// `bopf`: the BoPF paper's single-LQ experiments (the paper's §5.2-5.3; docs/policies/bopf.md).
//  - Table 3/4 shape: 1 LQ + N TQs, N in 1, 2, 4, 8, 16, 32; average LQ completion time
//    under DRF, SP and BoPF and BoPF's factor of improvement over DRF.
//  - Fig. 9 shape (cluster experiment: period 300 s, param fig9Period): 1 LQ + 8 TQs with the LQ's bursts scaled 1x, 2x, 4x, 8x; average TQ
//    completion time (BoPF stays near DRF; SP starves the TQs as bursts grow — BoPF's
//    fairness condition turns a too-large LQ elastic).
import type { Engine } from "../engine/engine.js";
import type { Table } from "./table.js";
import type { Scenario, Series } from "./scenario.js";
import { simulate, type SimResult } from "../sim/simulator.js";
import { improvement } from "../stats/summary.js";
import { BOPF_DEFAULTS, bopfWorkload, type BopfWorkloadParams } from "../workloads/bopf.js";
import { checkPolicies, numParam, simParamsFrom } from "./common.js";
import { SIM_PARAMS } from "./params.js";
import { listParam } from "../bopf/scenario-params.js";

export interface BopfSweepPoint {
  x: number;
  results: Record<string, SimResult>;
}

/** Runs every policy on the workload of each sweep value. */
export function sweep(
  engine: Engine, seed: number, policies: string[], xs: number[], make: (x: number) => Partial<BopfWorkloadParams>,
  onDone?: () => void,
  sim: ReturnType<typeof simParamsFrom> = { preemption: false, updateInterval: 0 },
): BopfSweepPoint[] {
  return xs.map((x) => {
    const w = bopfWorkload(make(x), seed);
    const results: Record<string, SimResult> = {};
    for (const p of policies) {
      results[p] = simulate(w, { policy: p, engine, seed, ...sim });
      onDone?.();
    }
    return { x, results };
  });
}

const lqAvg = (r: SimResult | undefined) => r?.metrics.classes.LQ?.avgCompletion ?? null;
const tqAvg = (r: SimResult | undefined) => r?.metrics.classes.TQ?.avgCompletion ?? null;

export function lqTable(points: BopfSweepPoint[], policies: string[]): Table {
  return {
    title: "LQ average completion time (s) vs number of TQs (paper Tables 3-4: factor of improvement of BoPF over DRF)",
    columns: ["TQs", ...policies.map((p) => `LQ ${p}`), "x bopf vs drf", ...policies.map((p) => `TQ ${p}`)],
    rows: points.map((pt) => [
      pt.x, ...policies.map((p) => lqAvg(pt.results[p])),
      improvement(lqAvg(pt.results.drf), lqAvg(pt.results.bopf)),
      ...policies.map((p) => tqAvg(pt.results[p])),
    ]),
  };
}

/** Per policy, LQ factor of improvement over DRF (DRF's LQ average / the policy's) against the sweep value. */
export function improvementSeries(points: BopfSweepPoint[], policies: string[], avg: (r: SimResult | undefined) => number | null): Series[] {
  return policies.map((p) => ({
    name: p,
    x: points.map((pt) => pt.x),
    y: points.map((pt) => improvement(avg(pt.results.drf), avg(pt.results[p])) ?? NaN),
  }));
}

export function tqTable(points: BopfSweepPoint[], policies: string[]): Table {
  return {
    title: "TQ average completion time (s) vs LQ burst size, 1 LQ + 8 TQs (paper Fig. 9)",
    columns: ["LQ scale", ...policies.map((p) => `TQ ${p}`), "LQ class (bopf)", ...policies.map((p) => `LQ ${p}`)],
    rows: points.map((pt) => [
      `${pt.x}x`, ...policies.map((p) => tqAvg(pt.results[p])),
      String(pt.results.bopf?.admissions[0]?.class ?? "-"),
      ...policies.map((p) => lqAvg(pt.results[p])),
    ]),
  };
}

export const bopfScenario: Scenario = {
  name: "bopf",
  description: "BoPF vs DRF and SP: 1 LQ + N TQs (N = 1..32, Tables 3-4) and LQ burst scaling with 8 TQs (Fig. 9)",
  defaultPolicies: ["drf", "sp", "bopf"],
  params: ["tqJobs", "bursts", "period", "tqs", "scales", "fig9Period", "fig9Bursts", ...SIM_PARAMS],
  run({ policies, seed, params, engine, onProgress }) {
    const pols = policies ?? this.defaultPolicies;
    checkPolicies(pols);
    const base: Partial<BopfWorkloadParams> = {
      tqJobs: numParam(params, "tqJobs", BOPF_DEFAULTS.tqJobs),
      bursts: numParam(params, "bursts", BOPF_DEFAULTS.bursts),
      period: numParam(params, "period", 1000),
    };
    const tqs = listParam(params, "tqs", [1, 2, 4, 8, 16, 32]);
    const scales = listParam(params, "scales", [1, 2, 4, 8]);
    const total = pols.length * (tqs.length + scales.length);
    let done = 0;
    const tick = () => onProgress?.(++done / total);
    const sim = simParamsFrom(params);
    const a = sweep(engine, seed, pols, tqs, (n) => ({ ...base, tqs: n }), tick, sim);
    // Fig. 9 is the paper's cluster experiment, whose LQ period is 300 s (simulations use
    // 1000 s): large bursts then take most of each period, which is what hurts TQs under SP.
    const fig9: Partial<BopfWorkloadParams> = {
      ...base,
      period: numParam(params, "fig9Period", 300),
      bursts: numParam(params, "fig9Bursts", params?.bursts !== undefined ? base.bursts! : 12),
    };
    const b = sweep(engine, seed, pols, scales, (s) => ({ ...fig9, tqs: 8, lqScale: s }), tick, sim);
    const metrics = (pts: BopfSweepPoint[]) => pts.map((pt) => ({
      x: pt.x,
      ...Object.fromEntries(Object.entries(pt.results).map(([p, r]) => [p, { LQ: r.metrics.classes.LQ, TQ: r.metrics.classes.TQ, admissions: r.admissions }])),
    }));
    return {
      scenario: "bopf", seed, policies: pols,
      params: { ...BOPF_DEFAULTS, ...base, tqs, scales, fig9Period: fig9.period, fig9Bursts: fig9.bursts, ...sim },
      tables: [lqTable(a, pols), tqTable(b, pols)],
      charts: {
        "LQ factor of improvement over DRF vs number of TQs": improvementSeries(a, pols, lqAvg),
        "LQ factor of improvement over DRF vs LQ burst size (8 TQs)": improvementSeries(b, pols, lqAvg),
        "TQ average completion time (s) vs LQ burst size (8 TQs)": pols.map((p) => ({ name: p, x: b.map((pt) => pt.x), y: b.map((pt) => tqAvg(pt.results[p]) ?? NaN) })),
      },
      chartAxes: {
        "LQ factor of improvement over DRF vs number of TQs": { x: "number of TQs", y: "DRF LQ avg / policy LQ avg", lines: true, logX: true },
        "LQ factor of improvement over DRF vs LQ burst size (8 TQs)": { x: "LQ burst scale", y: "DRF LQ avg / policy LQ avg", lines: true },
        "TQ average completion time (s) vs LQ burst size (8 TQs)": { x: "LQ burst scale", y: "TQ avg completion (s)", lines: true },
      },
      metrics: { byTqs: metrics(a), byScale: metrics(b) },
    };
  },
};

