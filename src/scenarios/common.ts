// Shared pieces for queue-level scenarios: run one workload under several policies and
// build the comparison table, the charts and the metrics JSON.
import type { Engine } from "../engine/engine.js";
import { InputError } from "../errors.js";
import type { Table } from "./table.js";
import type { Workload } from "../policy/model.js";
import type { ScenarioReport, Series } from "./scenario.js";
import { simulate, type SimOptions, type SimResult } from "../sim/simulator.js";
import { getPolicy, listPolicies } from "../sim/registry.js";
import { improvement } from "../stats/summary.js";

export interface RunSet {
  workload: Workload;
  results: SimResult[];
}

/** Every registered policy that runs on the queue-level simulator. */
export function allQueuePolicies(): string[] {
  return listPolicies().map((p) => p.name);
}

export function checkPolicies(names: string[]): void {
  for (const n of names) {
    if (!getPolicy(n)) throw new InputError("policies", `unknown policy '${n}' (known: ${allQueuePolicies().join(", ")})`);
  }
}

export function runPolicies(
  workload: Workload, policies: string[], engine: Engine, seed: number,
  extra: Partial<SimOptions> = {}, onProgress?: (f: number) => void,
): RunSet {
  checkPolicies(policies);
  const results = policies.map((policy, i) => {
    const r = simulate(workload, { ...extra, policy, engine, seed });
    onProgress?.((i + 1) / policies.length);
    return r;
  });
  return { workload, results };
}

/** LQ/TQ completion times per policy with the factor of improvement over a baseline policy. */
export function comparisonTable(title: string, set: RunSet, baseline = "drf"): Table {
  const base = set.results.find((r) => r.policy === baseline);
  const rows = set.results.map((r) => {
    const lq = r.metrics.classes.LQ;
    const tq = r.metrics.classes.TQ;
    const util = r.metrics.utilization.reduce((a, b) => a + b, 0) / r.metrics.utilization.length;
    return [
      r.policy,
      lq?.avgCompletion ?? null, lq?.p90 ?? null,
      base ? improvement(base.metrics.classes.LQ?.avgCompletion ?? null, lq?.avgCompletion ?? null) : null,
      lq?.deadlineMet ?? null,
      tq?.avgCompletion ?? null, tq?.p90 ?? null,
      util,
      (lq?.rejected ?? 0) + (tq?.rejected ?? 0),
    ];
  });
  return {
    title,
    columns: ["policy", "LQ avg s", "LQ p90 s", `LQ x vs ${baseline}`, "LQ met", "TQ avg s", "TQ p90 s", "util", "rejected"],
    rows,
  };
}

/** Time-averaged dominant share: one row per queue (the `limit` busiest when there are more), one column per policy. */
export function shareTable(title: string, set: RunSet, limit = 20): Table {
  const queues = set.workload.queues.map((q, i) => ({
    name: q.name,
    shares: set.results.map((r) => r.metrics.queues[i].avgDominantShare),
  }));
  const shown = queues.length > limit
    ? [...queues].sort((a, b) => Math.max(...b.shares) - Math.max(...a.shares)).slice(0, limit)
    : queues;
  return {
    title,
    columns: ["queue", ...set.results.map((r) => r.policy)],
    rows: shown.map((q) => [q.name, ...q.shares]),
    notes: queues.length > limit ? [`(the ${limit} busiest of ${queues.length} queues)`] : undefined,
  };
}

export function charts(set: RunSet): Record<string, Series[]> {
  const out: Record<string, Series[]> = {};
  for (const r of set.results) {
    out[`${r.policy}: dominant share per queue`] = set.workload.queues.map((q, i) => ({
      name: q.name, x: r.series.t, y: r.series.dominantShare[i],
    }));
  }
  return out;
}

export function metricsJson(set: RunSet): Record<string, unknown> {
  return Object.fromEntries(set.results.map((r) => [r.policy, {
    metrics: r.metrics,
    admissions: r.admissions,
    stats: r.stats,
    policyReport: r.policyReport,
    completionTimes: Object.fromEntries(set.workload.queues.map((q) => [
      q.name,
      r.jobs.filter((j) => j.queue === q.name && j.completionTime !== undefined).map((j) => j.completionTime!),
    ])),
  }]));
}

export function reportOf(scenario: string, seed: number, params: Record<string, unknown>, set: RunSet, tables: Table[]): ScenarioReport {
  return {
    scenario, seed, params, policies: set.results.map((r) => r.policy), tables,
    charts: charts(set), metrics: metricsJson(set),
  };
}

/**
 * The simulator's own options as scenario params: preemption=0|1, updateInterval=seconds,
 * starvationGuard=0|1 (the dispatch's guard, default 0 as in the papers' dispatch; in the result only when given).
 */
export function simParamsFrom(params: Record<string, string | number> | undefined): { preemption: boolean; updateInterval: number; starvationGuard?: boolean } {
  const preemption = numParam(params, "preemption", 0);
  if (preemption !== 0 && preemption !== 1) throw new InputError("--param preemption", `must be 0 or 1, got '${params?.preemption}'`);
  const updateInterval = numParam(params, "updateInterval", 0);
  if (!(updateInterval >= 0)) throw new InputError("--param updateInterval", `must be a number of seconds >= 0, got '${params?.updateInterval}'`);
  const guard = numParam(params, "starvationGuard", 0);
  if (guard !== 0 && guard !== 1) throw new InputError("--param starvationGuard", `must be 0 or 1, got '${params?.starvationGuard}'`);
  return { preemption: preemption === 1, updateInterval, ...(params?.starvationGuard !== undefined ? { starvationGuard: guard === 1 } : {}) };
}

/** Parses scenario params that must be numbers. */
export function numParam(params: Record<string, string | number> | undefined, name: string, fallback: number): number {
  const v = params?.[name];
  if (v === undefined) return fallback;
  const x = typeof v === "number" ? v : Number(v);
  if (!Number.isFinite(x)) throw new InputError(`--param ${name}`, `must be a number, got '${v}'`);
  return x;
}
