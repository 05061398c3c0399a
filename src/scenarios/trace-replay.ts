// `fairsched simulate --trace FILE`: a real trace as the workload, run under each policy with the
// queue-level simulator, reported like a scenario (tables, charts, metrics, the load summary).
//
// Presets, so a replay with no --param says something: the cluster is sized so the trace's
// offered load is `targetUtil` (default 0.8) of it over the arrival span (a Google part file on
// the whole 12,583-machine cell runs at utilization ~0.01, where every policy is the same), and
// SWIM jobs are grouped into queues by size (small/medium/large) instead of one queue. Each preset
// is printed in the first table's notes and kept in the report's params; `--param machines=N` or
// `--param queueBy=...` overrides it.
import type { Engine } from "../engine/engine.js";
import { InputError } from "../errors.js";
import type { Workload } from "../policy/model.js";
import { guessFormat, loadTrace, type LoadSummary } from "../traces/index.js";
import { allQueuePolicies, comparisonTable, reportOf, runPolicies, shareTable } from "./common.js";
import type { ScenarioReport } from "./scenario.js";

export interface TraceRunOptions {
  format?: string;
  lenient?: boolean;
  /** Loader parameters from `--param` (machines, queueBy, censored, throughput, ...) plus `targetUtil`. */
  params?: Record<string, string | number>;
  policies?: string[];
  seed: number;
  engine: Engine;
  onProgress?: (fraction: number) => void;
}

/** The utilization a replay sizes the cluster to when `machines` is not given. */
export const DEFAULT_TARGET_UTIL = 0.8;

/** Offered load over the arrival span as a fraction of capacity, per resource. */
export function offeredUtilization(w: Workload): number[] {
  let first = Infinity, last = -Infinity;
  const work = w.capacity.map(() => 0);
  for (const j of w.jobs) {
    first = Math.min(first, j.arrival);
    last = Math.max(last, j.arrival);
    for (const s of j.stages) {
      const taskSeconds = Array.isArray(s.duration) ? s.duration.reduce((a, b) => a + b, 0) : s.duration * s.tasks;
      s.demand.forEach((d, k) => { work[k] += d * taskSeconds; });
    }
  }
  const span = Math.max(last - first, 1);
  return work.map((x, k) => x / (w.capacity[k] * span));
}

/**
 * Resizes the workload's cluster (in place) so its dominant offered utilization is `target`:
 * machines scale by util/target, never below what the largest single task needs. Returns the
 * machine counts before and after and the utilizations.
 */
export function sizeToUtilization(w: Workload, machines: number, target: number): { machines: number; from: number; to: number } {
  const from = Math.max(...offeredUtilization(w));
  const perMachine = w.capacity.map((c) => c / machines);
  let need = 1;
  for (const j of w.jobs) for (const s of j.stages) s.demand.forEach((d, k) => { need = Math.max(need, Math.ceil(d / perMachine[k])); });
  const sized = Math.max(need, Math.ceil((machines * from) / target));
  w.capacity = perMachine.map((c) => c * sized);
  return { machines: sized, from, to: Math.max(...offeredUtilization(w)) };
}

export async function replayTrace(file: string, o: TraceRunOptions): Promise<{ report: ScenarioReport; summary: LoadSummary }> {
  const { targetUtil: rawTarget, ...loaderParams } = o.params ?? {};
  const target = rawTarget === undefined ? DEFAULT_TARGET_UTIL : Number(rawTarget);
  if (!(target > 0 && target <= 10)) throw new InputError("--param targetUtil", `must be a utilization in (0, 10], got '${rawTarget}'`);
  const format = o.format ?? guessFormat(file) ?? undefined;
  const presets: string[] = [];
  if ((format === "swim") && loaderParams.queueBy === undefined) {
    loaderParams.queueBy = "size";
    presets.push("queues: SWIM jobs grouped by size (small <= 10 maps, medium <= 500, large), preset queueBy=size (--param queueBy=single: one queue)");
  }
  const { workload, summary } = await loadTrace(file, { format: o.format, lenient: o.lenient, params: loaderParams });
  workload.seed = o.seed;
  if (loaderParams.machines === undefined) {
    const machines = Number(workload.params.machines);
    const s = sizeToUtilization(workload, machines, target);
    workload.params = { ...workload.params, machines: s.machines, targetUtil: target, offeredUtilFullCluster: s.from, offeredUtil: s.to, machinesFullCluster: machines };
    presets.push(`cluster: ${s.machines} machines, sized for offered utilization ${s.to.toFixed(2)} (target ${target}; on ${machines} machines it is ${s.from.toPrecision(2)}); --param machines=N or targetUtil=U overrides`);
  } else {
    workload.params = { ...workload.params, offeredUtil: Math.max(...offeredUtilization(workload)) };
  }
  const set = runPolicies(workload, o.policies ?? allQueuePolicies(), o.engine, o.seed, {}, o.onProgress);
  const table = comparisonTable(`Completion times: ${workload.name} (${summary.jobs} jobs, ${summary.tasks} tasks)`, set);
  if (presets.length) table.notes = [...(table.notes ?? []), ...presets.map((p) => `preset ${p}`)];
  const report = reportOf(`trace ${workload.name}`, o.seed, { ...workload.params, presets, load: summary }, set, [
    table,
    shareTable("Time-averaged dominant share per queue", set),
  ]);
  return { report, summary };
}
