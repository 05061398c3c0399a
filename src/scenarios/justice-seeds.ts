// The `justice` scenario over many seeds: per setting, deadline type and allocator, every
// metric's mean with its 95% Student-t interval, and paired comparisons between allocators
// (the same seed's job stream and deadlines under both: a difference's interval and a sign test).
// docs/reproduction-justice.md reports these; test/justice/shape.repro.test.ts asserts them.
import { meanCi95, signTest, type MeanCi, type SignTest } from "../stats/confidence.js";
import type { DeadlineType } from "../justice/deadlines.js";
import type { DeadlineMetrics } from "../justice/metrics.js";
import { runJusticeGrid, type JusticeCellSummary } from "./justice-grid.js";

export type SeedMetric = "sdr" | "jain" | "equality" | "ptr" | "wtr" | "utilization";
export const SEED_METRICS: readonly SeedMetric[] = ["sdr", "jain", "equality", "ptr", "wtr", "utilization"];

export interface JusticeSeedRuns {
  seeds: number[];
  /** One grid's cells per seed, in seed order. */
  cells: JusticeCellSummary[][];
  /** Per seed, the capacity of each setting. */
  capacities: Array<Record<"high" | "moderate", number>>;
  types: DeadlineType[];
}

/** Runs the grid for seeds first, first+1, ..., first+count-1. */
export function runJusticeSeeds(
  first: number, count: number, raw?: Record<string, string | number>, policies?: string[], onProgress?: (f: number) => void,
): JusticeSeedRuns {
  const seeds = Array.from({ length: count }, (_, i) => first + i);
  const cells: JusticeCellSummary[][] = [];
  const capacities: Array<Record<"high" | "moderate", number>> = [];
  let types: DeadlineType[] = [];
  seeds.forEach((s, i) => {
    const g = runJusticeGrid(s, { ...raw, seeds: 1 }, policies, onProgress && ((f) => onProgress((i + f) / count)));
    cells.push(g.cells);
    capacities.push({ high: g.settings[0].capacity, moderate: g.settings[1].capacity });
    types = g.types;
  });
  return { seeds, cells, capacities, types };
}

function metricOf(m: DeadlineMetrics, k: SeedMetric): number {
  return m[k] ?? 0;
}

/** The metric of one cell in every seed (seed order). */
export function seedValues(r: JusticeSeedRuns, setting: "high" | "moderate", deadline: DeadlineType, allocator: string, metric: SeedMetric): number[] {
  return r.cells.map((cs, i) => {
    const c = cs.find((x) => x.setting === setting && x.deadline === deadline && x.allocator === allocator);
    if (!c) throw new Error(`no cell ${setting}/${deadline}/${allocator} for seed ${r.seeds[i]}`);
    return metricOf(c.metrics, metric);
  });
}

/** Mean and 95% interval of a metric over the seeds. */
export function seedCi(r: JusticeSeedRuns, setting: "high" | "moderate", deadline: DeadlineType, allocator: string, metric: SeedMetric): MeanCi {
  return meanCi95(seedValues(r, setting, deadline, allocator, metric));
}

export interface PairedComparison {
  /** a - b per seed. */
  diffs: number[];
  ci: MeanCi;
  sign: SignTest;
}

/** Paired comparison a - b of a metric over the seeds (same jobs and deadlines per seed). */
export function compare(
  r: JusticeSeedRuns, setting: "high" | "moderate", deadline: DeadlineType, a: string, b: string, metric: SeedMetric,
): PairedComparison {
  const xa = seedValues(r, setting, deadline, a, metric), xb = seedValues(r, setting, deadline, b, metric);
  const diffs = xa.map((x, i) => x - xb[i]);
  return { diffs, ci: meanCi95(diffs), sign: signTest(diffs) };
}

/** "0.512 ± 0.031" (3 decimals; no interval with one seed). */
export function formatCi(c: MeanCi): string {
  const r = (x: number) => x.toFixed(3);
  return c.half === null ? r(c.mean) : `${r(c.mean)} ± ${r(c.half)}`;
}
