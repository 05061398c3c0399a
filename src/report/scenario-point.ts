// What a scenario is about, read from its report's metrics, so the HTML report can show it first:
// the latency queues (LQs) of the BoPF setups and their completion times per policy. Two shapes of
// `report.metrics` carry them (src/scenarios/common.ts and src/scenarios/bopf.ts write them):
//   metrics[policy].metrics.queues = [{ name, kind: "LQ" | "TQ", avgCompletion, p90, ... }]
//   metrics.byTqs = [{ x: number of TQs, [policy]: { LQ: { avgCompletion, ... } } }]
// Anything else gives no point chart and the report opens with the scenario's own charts.
import type { ChartAxes, ScenarioReport, Series } from "../scenarios/scenario.js";

interface QueueRow { name: string; kind: string; avgCompletion: number | null; p90: number | null }

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object";
const num = (v: unknown): number => (typeof v === "number" && Number.isFinite(v) ? v : NaN);

function queueRows(r: ScenarioReport, policy: string): QueueRow[] {
  const m = (r.metrics as Record<string, unknown> | undefined)?.[policy];
  const queues = isObject(m) && isObject(m.metrics) ? m.metrics.queues : undefined;
  return Array.isArray(queues) ? queues.filter((q): q is QueueRow => isObject(q) && typeof q.name === "string" && typeof q.kind === "string") : [];
}

/** Names of the report's latency queues (kind "LQ" in any policy's metrics): never folded into "other". */
export function latencyQueues(r: ScenarioReport): Set<string> {
  return new Set(r.policies.flatMap((p) => queueRows(r, p).filter((q) => q.kind === "LQ").map((q) => q.name)));
}

export interface PointCharts {
  charts: Record<string, Series[]>;
  chartAxes: Record<string, ChartAxes>;
}

/** Bars of each LQ's average (and, with one LQ, p90) completion time per policy. */
function perPolicyBars(r: ScenarioReport, lqs: string[]): PointCharts {
  const series: Series[] = [];
  const stat = (p: string, q: string, key: "avgCompletion" | "p90") => num(queueRows(r, p).find((row) => row.name === q)?.[key]);
  for (const q of lqs) {
    series.push({ name: `${q} average`, x: r.policies.map((_, i) => i), y: r.policies.map((p) => stat(p, q, "avgCompletion")) });
    if (lqs.length === 1) series.push({ name: `${q} p90`, x: r.policies.map((_, i) => i), y: r.policies.map((p) => stat(p, q, "p90")) });
  }
  const title = `LQ completion time per policy (s, seed ${r.seed})`;
  return { charts: { [title]: series }, chartAxes: { [title]: { x: "policy", y: "LQ completion time (s)", bars: true, categories: [...r.policies], yRange: [0, null] } } };
}

/** Bars of the LQ's average completion per policy, one group per number of TQs (the bopf scenario). */
function byTqsBars(r: ScenarioReport, points: Array<Record<string, unknown>>): PointCharts {
  const cats = points.map((pt) => `${num(pt.x)} TQ${num(pt.x) === 1 ? "" : "s"}`);
  const series = r.policies.map((p) => ({
    name: p,
    x: points.map((_, i) => i),
    y: points.map((pt) => {
      const m = pt[p];
      return isObject(m) && isObject(m.LQ) ? num(m.LQ.avgCompletion) : NaN;
    }),
  }));
  const title = `LQ average completion time per policy vs number of TQs (s, seed ${r.seed})`;
  return { charts: { [title]: series }, chartAxes: { [title]: { x: "number of TQs", y: "LQ average completion (s)", bars: true, categories: cats, yRange: [0, null] } } };
}

/** The chart of what the scenario is about, or none when its metrics carry no latency queue. */
export function scenarioPoint(r: ScenarioReport): PointCharts | null {
  const lqs = [...latencyQueues(r)];
  if (lqs.length > 0) return perPolicyBars(r, lqs);
  const byTqs = isObject(r.metrics) ? r.metrics.byTqs : undefined;
  if (Array.isArray(byTqs) && byTqs.length > 0 && byTqs.every(isObject)) return byTqsBars(r, byTqs);
  return null;
}
