// `bopf-estimation-error`: robustness to demand estimation errors (paper Fig. 13). 1 LQ +
// 8 TQs, LQ bursts every 350 s. The LQ reports its estimated bursts; each real burst is
// the estimate times max(0.05, 1 + e), e ~ Normal(0, std) with std from 0 to 50% (task
// durations scaled, as the paper updates the LQ jobs). Under-estimated bursts get too small
// a rate and lose their guarantee once the reported volume is consumed, so they slow down;
// over-estimated ones are capped by their real demand and lose nothing. DRF (which ignores
// reports) runs the same jobs as the reference.
import type { Scenario } from "./scenario.js";
import { simulate } from "../sim/simulator.js";
import type { BopfWorkloadParams } from "../workloads/bopf.js";
import { listParam } from "../bopf/scenario-params.js";
import { randomSizeWorkload } from "./bopf-uncertain.js";
import { numParam } from "./common.js";

export const ESTIMATION_DEFAULTS: Partial<BopfWorkloadParams> = { lqs: 1, tqs: 8, period: 350, bursts: 6, deadlineSlack: 1, tqJobs: 12 };

const CHART = "LQ average completion time vs estimation error (paper Fig. 13)";

export const bopfEstimationErrorScenario: Scenario = {
  name: "bopf-estimation-error",
  description: "Real LQ bursts off their reports by a normal error (std 0..50%): BoPF's LQ completion vs DRF (paper Fig. 13)",
  defaultPolicies: ["bopf", "drf"],
  params: ["std", "tqJobs"],
  run({ seed, params, engine, onProgress }) {
    const stds = listParam(params, "std", [0, 0.1, 0.2, 0.3, 0.4, 0.5]);
    const over: Partial<BopfWorkloadParams> = { ...ESTIMATION_DEFAULTS, tqJobs: numParam(params, "tqJobs", ESTIMATION_DEFAULTS.tqJobs!) };
    const rows: Array<Array<string | number | null>> = [];
    const runs: Record<string, unknown>[] = [];
    const avg = { bopf: [] as number[], drf: [] as number[] };
    stds.forEach((std, i) => {
      const w = randomSizeWorkload(seed, std, over);
      const r = simulate(w, { policy: "bopf", engine, seed });
      const d = simulate(w, { policy: "drf", engine, seed });
      const lq = r.metrics.classes.LQ;
      rows.push([`${Math.round(std * 100)}%`, String(r.admissions[0]?.class), lq?.avgCompletion ?? null, lq?.p90 ?? null, d.metrics.classes.LQ?.avgCompletion ?? null, r.metrics.classes.TQ?.avgCompletion ?? null, d.metrics.classes.TQ?.avgCompletion ?? null]);
      avg.bopf.push(lq?.avgCompletion ?? NaN);
      avg.drf.push(d.metrics.classes.LQ?.avgCompletion ?? NaN);
      runs.push({ std, admission: r.admissions[0], bopf: { LQ: lq, TQ: r.metrics.classes.TQ }, drf: { LQ: d.metrics.classes.LQ, TQ: d.metrics.classes.TQ } });
      onProgress?.((i + 1) / stds.length);
    });
    return {
      scenario: "bopf-estimation-error", seed, policies: ["bopf", "drf"],
      params: { ...over, std: stds },
      tables: [{
        title: "LQ completion when real bursts differ from the reports, 1 LQ + 8 TQs, bursts every 350 s (paper Fig. 13)",
        columns: ["error std", "LQ class", "BoPF LQ avg s", "BoPF LQ p90 s", "DRF LQ avg s", "BoPF TQ avg s", "DRF TQ avg s"],
        rows,
      }],
      charts: { [CHART]: [{ name: "bopf", x: stds.map((v) => v * 100), y: avg.bopf }, { name: "drf", x: stds.map((v) => v * 100), y: avg.drf }] },
      chartAxes: { [CHART]: { x: "estimation error std (%)", y: "LQ avg completion (s)", lines: true } },
      metrics: { runs },
    };
  },
};

