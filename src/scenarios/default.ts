// The main job's scenario: the BoPF paper's default setup (1 LQ + 8 TQs, 6 resources,
// 27 s bursts every 1000 s) under every registered queue-level policy.
import type { Scenario } from "./scenario.js";
import { BOPF_DEFAULTS, bopfWorkload, type BopfWorkloadParams } from "../workloads/bopf.js";
import { SIM_PARAMS } from "./params.js";
import { allQueuePolicies, comparisonTable, numParam, reportOf, runPolicies, shareTable, simParamsFrom } from "./common.js";

/** The BoPF generator parameters `--param` may set. */
export const BOPF_PARAM_NAMES = ["lqs", "tqs", "onPeriod", "lqStart", "bursts", "lqTasks", "lqScale", "deadlineSlack", "tqJobs", "capacity", "period"] as const;

export function bopfParamsFrom(params: Record<string, string | number> | undefined, base: Partial<BopfWorkloadParams> = {}): BopfWorkloadParams {
  const p = { ...BOPF_DEFAULTS, ...base };
  for (const key of ["lqs", "tqs", "onPeriod", "lqStart", "bursts", "lqTasks", "lqScale", "deadlineSlack", "tqJobs", "capacity"] as const) {
    p[key] = numParam(params, key, p[key]);
  }
  if (params?.period !== undefined) p.period = numParam(params, "period", 1000);
  return p;
}

export const defaultScenario: Scenario = {
  name: "default",
  description: "1 LQ + 8 TQs (BoPF paper setup: 6 resources, 27 s bursts every 1000 s) under every policy",
  params: [...BOPF_PARAM_NAMES, ...SIM_PARAMS],
  get defaultPolicies() {
    return allQueuePolicies();
  },
  run({ policies, seed, params, engine, onProgress }) {
    const p = bopfParamsFrom(params);
    const sim = simParamsFrom(params);
    const workload = bopfWorkload(p, seed);
    const set = runPolicies(workload, policies ?? this.defaultPolicies, engine, seed, sim, onProgress);
    return reportOf("default", seed, { ...p, ...sim }, set, [
      comparisonTable(`Completion times: ${p.lqs} LQ + ${p.tqs} TQs (seed ${seed})`, set),
      shareTable("Time-averaged dominant share per queue", set),
    ]);
  },
};

