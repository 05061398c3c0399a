// Run metrics (issue: per-queue and per-class completion statistics, time-averaged
// dominant share, utilization).
import type { JobRecord, Workload } from "../policy/model.js";
import { summarize } from "../stats/summary.js";

export interface CompletionStats {
  jobs: number;
  finished: number;
  rejected: number;
  dropped: number;
  avgCompletion: number | null;
  p50: number | null;
  p90: number | null;
  p99: number | null;
  /** Fraction of finished jobs with a deadline that met it (null when none has one). */
  deadlineMet: number | null;
}

export interface QueueMetrics extends CompletionStats {
  name: string;
  kind: string;
  /** Time-averaged dominant share of usage over the run. */
  avgDominantShare: number;
}

export interface RunMetrics {
  makespan: number;
  /** Per resource: busy resource·seconds / (capacity · makespan). */
  utilization: number[];
  queues: QueueMetrics[];
  /** Per class ('LQ', 'TQ'). */
  classes: Record<string, CompletionStats>;
}

export function completionStats(jobs: JobRecord[]): CompletionStats {
  const times: number[] = [];
  let finished = 0, rejected = 0, dropped = 0, withDeadline = 0, met = 0;
  for (const j of jobs) {
    if (j.outcome.status === "finished") {
      finished++;
      times.push(j.completionTime!);
      if (j.deadline !== undefined) {
        withDeadline++;
        if (j.completionTime! <= j.deadline * (1 + 1e-9)) met++;
      }
    } else if (j.outcome.status === "rejected") rejected++;
    else {
      dropped++;
      if (j.deadline !== undefined) withDeadline++;
    }
  }
  const s = summarize(times);
  return {
    jobs: jobs.length, finished, rejected, dropped,
    avgCompletion: s.mean, p50: s.p50, p90: s.p90, p99: s.p99,
    deadlineMet: withDeadline ? met / withDeadline : null,
  };
}

export function computeMetrics(w: Workload, jobs: JobRecord[], domIntegral: Float64Array, busy: Float64Array, makespan: number): RunMetrics {
  const byQueue: JobRecord[][] = w.queues.map(() => []);
  const byClass = new Map<string, JobRecord[]>();
  for (const j of jobs) {
    byQueue[j.queueIndex].push(j);
    if (!byClass.has(j.kind)) byClass.set(j.kind, []);
    byClass.get(j.kind)!.push(j);
  }
  const span = makespan > 0 ? makespan : 1;
  return {
    makespan,
    utilization: w.capacity.map((c, r) => busy[r] / (c * span)),
    queues: w.queues.map((q, i) => ({
      name: q.name, kind: q.kind, ...completionStats(byQueue[i]), avgDominantShare: domIntegral[i] / span,
    })),
    classes: Object.fromEntries([...byClass.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([c, js]) => [c, completionStats(js)])),
  };
}
