// `bopf-multi-lq`: the paper's Fig. 10-11 — three LQs with equal bursts and periods 150,
// 110 and 60 s arriving at 50, 100 and 150 s, plus one TQ queued at t = 0. With the
// generator's bursts (2700 resource·s on the dominant resource, 27 s ON at the full
// cluster) the tolerated queue counts are floor(100·P / 2700) = 5, 4 and 2, so BoPF admits
// LQ-0 hard, LQ-1 soft (no uncommitted resources left for its rate) and LQ-2 elastic (its
// bursts exceed its fair share with 4 queues) — see src/bopf/admission.ts. Prints each
// queue's class and why, then per-queue average completion under DRF, SP, N-BoPF, BoPF.
import type { Table } from "./table.js";
import type { Workload } from "../policy/model.js";
import type { Scenario } from "./scenario.js";
import { bopfWorkload, BOPF_DEFAULTS } from "../workloads/bopf.js";
import { checkPolicies, numParam, reportOf, runPolicies, shareTable } from "./common.js";

export const MULTI_LQ_PERIODS = [150, 110, 60];
export const MULTI_LQ_ARRIVALS = [50, 100, 150];

/** 3 LQs (periods 150/110/60 s, first bursts at 50/100/150 s, equal demand) + 1 TQ, bursts until `horizon`. */
export function multiLqWorkload(seed: number, horizon = 1200, tqJobs = 30): Workload {
  const maxBursts = Math.ceil(horizon / Math.min(...MULTI_LQ_PERIODS)) + 1;
  // lqStart 0, then shift each LQ to its own arrival; drop bursts past the horizon
  const w = bopfWorkload({ lqs: 3, tqs: 1, period: MULTI_LQ_PERIODS, lqStart: 0, bursts: maxBursts, tqJobs }, seed);
  const shift = new Map(w.queues.filter((q) => q.kind === "LQ").map((q, l) => [q.name, MULTI_LQ_ARRIVALS[l]]));
  const jobs = w.jobs
    .map((j) => (shift.has(j.queue) ? { ...j, arrival: j.arrival + shift.get(j.queue)! } : j))
    .filter((j) => !shift.has(j.queue) || j.arrival < horizon);
  const queues = w.queues.map((q) => {
    const s = shift.get(q.name);
    if (s === undefined) return q;
    const bursts = (q.bursts ?? []).map((b) => ({ ...b, start: b.start + s })).filter((b) => b.start < horizon);
    return { ...q, bursts };
  });
  return { ...w, name: "bopf-multi-lq", queues, jobs, params: { ...w.params, periods: MULTI_LQ_PERIODS, arrivals: MULTI_LQ_ARRIVALS, horizon } };
}

export const bopfMultiLqScenario: Scenario = {
  name: "bopf-multi-lq",
  description: "Three LQs (periods 150/110/60 s, equal demand) + one TQ: BoPF admits them hard, soft, elastic (paper Fig. 10-11)",
  defaultPolicies: ["drf", "sp", "nbopf", "bopf"],
  params: ["horizon", "tqJobs"],
  run({ policies, seed, params, engine, onProgress }) {
    const pols = policies ?? this.defaultPolicies;
    checkPolicies(pols);
    const horizon = numParam(params, "horizon", 1200);
    const tqJobs = numParam(params, "tqJobs", 30);
    const w = multiLqWorkload(seed, horizon, tqJobs);
    const set = runPolicies(w, pols, engine, seed, {}, onProgress);
    const tables: Table[] = [];
    for (const name of ["bopf", "nbopf"]) {
      const r = set.results.find((x) => x.policy === name);
      if (!r) continue;
      tables.push({
        title: `${name} admission (queues admitted in arrival order)`,
        columns: ["queue", "class", "reason", "why"],
        rows: w.queues.map((q, i) => {
          const a = r.admissions[i] as { class: string; reason: string; detail?: string } | undefined;
          return [q.name, a?.class ?? "-", a?.reason ?? "-", a?.detail ?? ""];
        }),
      });
    }
    tables.push({
      title: "Average completion time per queue (s) (paper Fig. 11)",
      columns: ["policy", ...w.queues.map((q) => q.name), "LQ deadlines met"],
      rows: set.results.map((r) => [r.policy, ...r.metrics.queues.map((q) => q.avgCompletion), r.metrics.classes.LQ?.deadlineMet ?? null]),
    });
    tables.push(shareTable("Time-averaged dominant share per queue", set));
    return reportOf("bopf-multi-lq", seed, { ...BOPF_DEFAULTS, ...w.params, tqJobs }, set, tables);
  },
};

