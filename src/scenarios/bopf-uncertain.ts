// `bopf-uncertain`: bursts of random size (paper Fig. 12). 1 LQ + 8 TQs; each LQ burst's
// task durations are scaled by s ~ Normal(1, cv) (clamped at 0.1), so its volume on every
// resource scales together (perfectly correlated resources). The LQ reports either the mean
// burst (vanilla BoPF) or the alpha-strategy request at alpha = 0.95 (src/bopf/alpha.ts),
// with the deadline fixed at the mean burst's window. Shows the fraction of bursts that meet
// their deadline, the requested demand relative to vanilla and the LQ's real average usage
// (the alpha-strategy asks for more but uses about the same).
import type { Workload } from "../policy/model.js";
import { Rng } from "../random/rng.js";
import type { Scenario } from "./scenario.js";
import { simulate } from "../sim/simulator.js";
import { bopfWorkload, type BopfWorkloadParams } from "../workloads/bopf.js";
import { alphaRequest, type Correlation } from "../bopf/alpha.js";
import { listParam } from "../bopf/scenario-params.js";
import { numParam } from "./common.js";

// period 500 s: the tolerated queue count floor(100 * 500 / 2700) = 18 stays >= 9 (8 TQs +
// the LQ) even for the alpha request at cv = 0.4 (x1.66 -> 11), so every variant is admitted
// with a guarantee and the comparison is about the burst size alone.
export const UNCERTAIN_DEFAULTS: Partial<BopfWorkloadParams> = { lqs: 1, tqs: 8, period: 500, bursts: 6, deadlineSlack: 3, tqJobs: 12 };

/**
 * The LQ's burst jobs get random sizes (task durations x max(0.05, 1 + cv·Normal)); the
 * reported bursts stay the mean (the estimate).
 */
export function randomSizeWorkload(seed: number, cv: number, over: Partial<BopfWorkloadParams> = {}): Workload {
  const w = bopfWorkload({ ...UNCERTAIN_DEFAULTS, ...over }, seed);
  const rng = new Rng(seed ^ 0x5eed);
  const jobs = w.jobs.map((j) => {
    if (j.burst === undefined) return j;
    const s = Math.max(0.05, 1 + cv * rng.normal());
    return { ...j, stages: j.stages.map((st) => ({ ...st, duration: typeof st.duration === "number" ? st.duration * s : st.duration.map((d) => d * s) })) };
  });
  return { ...w, jobs, params: { ...w.params, cv } };
}

/** Replaces every LQ's reported volumes with the alpha-strategy request for Normal(volume, cv·volume). */
export function withAlphaReports(w: Workload, cv: number, alpha: number, correlation: Correlation): Workload {
  const queues = w.queues.map((q) => {
    if (q.kind !== "LQ" || cv === 0) return q;
    const bursts = (q.bursts ?? []).map((b) => ({
      ...b,
      volume: alphaRequest(b.volume.map((v) => ({ kind: "normal" as const, mean: v, std: cv * v })), alpha, correlation),
    }));
    return { ...q, bursts };
  });
  return { ...w, queues };
}

const CHART = "LQ deadlines met vs burst-size uncertainty (paper Fig. 12)";

export const bopfUncertainScenario: Scenario = {
  name: "bopf-uncertain",
  description: "Random burst sizes: vanilla BoPF (reports the mean) vs the alpha-strategy at alpha = 0.95 (paper Fig. 12)",
  defaultPolicies: ["bopf"],
  params: ["cv", "alpha", "preemption", "correlation"],
  run({ seed, params, engine, onProgress }) {
    const cvs = listParam(params, "cv", [0, 0.1, 0.2, 0.3, 0.4]);
    const alpha = numParam(params, "alpha", 0.95);
    const preemption = numParam(params, "preemption", 0) !== 0;
    const correlation: Correlation = params?.correlation === "independent" ? "independent" : "correlated";
    const rows: Array<Array<string | number | null>> = [];
    const metrics: Record<string, unknown>[] = [];
    const met = new Map<string, number[]>();
    let done = 0;
    for (const cv of cvs) {
      const w = randomSizeWorkload(seed, cv);
      for (const [label, wl] of [["vanilla", w], [`alpha=${alpha}`, withAlphaReports(w, cv, alpha, correlation)]] as const) {
        const r = simulate(wl, { policy: "bopf", engine, seed, preemption });
        const lqIdx = wl.queues.findIndex((q) => q.kind === "LQ");
        const req = wl.queues[lqIdx].bursts![0].volume, base = w.queues[lqIdx].bursts![0].volume;
        const reqRatio = Math.max(...req.map((v, k) => v / base[k]));
        const lq = r.metrics.queues[lqIdx];
        const tqShare = r.metrics.queues.filter((q) => q.kind === "TQ").reduce((a, q) => a + q.avgDominantShare, 0);
        rows.push([cv, label, String(r.admissions[lqIdx]?.class), r.metrics.classes.LQ?.deadlineMet ?? null, reqRatio, lq.avgDominantShare, tqShare, lq.avgCompletion]);
        met.set(label, [...(met.get(label) ?? []), r.metrics.classes.LQ?.deadlineMet ?? NaN]);
        metrics.push({ cv, strategy: label, admission: r.admissions[lqIdx], LQ: r.metrics.classes.LQ, lqShare: lq.avgDominantShare, tqShare });
        onProgress?.(++done / (cvs.length * 2));
      }
    }
    return {
      scenario: "bopf-uncertain", seed, policies: ["bopf"],
      params: { ...UNCERTAIN_DEFAULTS, cv: cvs, alpha, correlation, preemption },
      tables: [{
        title: `Random burst sizes (s ~ Normal(1, cv)), 1 LQ + 8 TQs, BoPF${preemption ? " with preemption" : ""} (paper Fig. 12)`,
        columns: ["cv", "report", "class", "deadlines met", "requested / vanilla", "LQ avg share", "TQs' total share", "LQ avg s"],
        rows,
      }],
      charts: { [CHART]: [...met].map(([name, y]) => ({ name, x: cvs, y })) },
      chartAxes: { [CHART]: { x: "burst size cv", y: "fraction of LQ deadlines met", lines: true, yRange: [0, 1] } },
      metrics: { runs: metrics },
    };
  },
};

