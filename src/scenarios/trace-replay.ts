// `fairsched simulate --trace FILE`: a real trace as the workload, run under each policy with the
// queue-level simulator, reported like a scenario (tables, charts, metrics, the load summary).
import type { Engine } from "../engine/engine.js";
import { loadTrace, type LoadSummary } from "../traces/index.js";
import { allQueuePolicies, comparisonTable, reportOf, runPolicies, shareTable } from "./common.js";
import type { ScenarioReport } from "./scenario.js";

export interface TraceRunOptions {
  format?: string;
  lenient?: boolean;
  /** Loader parameters from `--param` (machines, queueBy, censored, throughput, ...). */
  params?: Record<string, string | number>;
  policies?: string[];
  seed: number;
  engine: Engine;
  onProgress?: (fraction: number) => void;
}

export async function replayTrace(file: string, o: TraceRunOptions): Promise<{ report: ScenarioReport; summary: LoadSummary }> {
  const { workload, summary } = await loadTrace(file, { format: o.format, lenient: o.lenient, params: o.params });
  workload.seed = o.seed;
  const set = runPolicies(workload, o.policies ?? allQueuePolicies(), o.engine, o.seed, {}, o.onProgress);
  const report = reportOf(`trace ${workload.name}`, o.seed, { ...workload.params, load: summary }, set, [
    comparisonTable(`Completion times: ${workload.name} (${summary.jobs} jobs, ${summary.tasks} tasks)`, set),
    shareTable("Time-averaged dominant share per queue", set),
  ]);
  return { report, summary };
}

