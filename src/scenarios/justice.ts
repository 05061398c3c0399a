// Scenario `justice` (the paper's §5; docs/policies/justice.md): a seeded job stream shaped like
// the paper's traces, run under a highly and a moderately constrained capacity, for every
// deadline type and every allocator (Justice, Baseline FS, Reactive FS, Oracle).
// Params: `preset: paper` is the paper's scale (PAPER_WORKLOAD on 2,250 and 4,500 CPUs, heavy);
// `seeds: N` runs seeds seed..seed+N-1 and reports each deadline type's mean with its 95%
// interval. What holds of the paper's shape, per deadline type: docs/reproduction-justice.md.
import type { Table } from "./table.js";
import type { ChartAxes, Scenario, ScenarioOptions, ScenarioReport, Series } from "./scenario.js";
import { offeredLoad, workloadStats } from "../justice/workload.js";
import { DEFAULT_PARAMS, DEFAULT_POLICIES, averageOverDeadlines, readParams, runJusticeGrid } from "./justice-grid.js";
import { SEED_METRICS, formatCi, runJusticeSeeds, seedCi } from "./justice-seeds.js";

export { JUSTICE_PRESETS, averageOverDeadlines, runJusticeGrid, type JusticeCellSummary } from "./justice-grid.js";

const COLUMNS = ["deadline", "allocator", "SDR", "Jain", "equality", "PTR", "WTR", "util", "met", "missed", "dropped", "killed"];

function run(opts: ScenarioOptions): ScenarioReport {
  const policies = opts.policies ?? DEFAULT_POLICIES;
  const nSeeds = readParams(opts.params).seeds;
  const progress = (f: number) => opts.onProgress?.(nSeeds > 1 ? f / 2 : f);
  const g = runJusticeGrid(opts.seed, { ...opts.params, seeds: 1 }, policies, progress);
  const tables: Table[] = [];
  const r3 = (x: number | null) => (x === null ? null : Math.round(x * 1000) / 1000);
  for (const s of g.settings) {
    const rows = g.cells.filter((c) => c.setting === s.setting).map((c) => [
      c.deadline, c.allocator, r3(c.metrics.sdr), r3(c.metrics.jain), r3(c.metrics.equality), r3(c.metrics.ptr),
      r3(c.metrics.wtr), r3(c.metrics.utilization), c.metrics.met, c.metrics.missed, c.metrics.dropped, c.metrics.killed,
    ]);
    tables.push({
      title: `Justice: ${s.setting === "high" ? "highly" : "moderately"} constrained, ${s.capacity} CPUs (offered load ${g.params[s.setting === "high" ? "loadHigh" : "loadModerate"]}x capacity), ${g.jobs.length} jobs`,
      columns: COLUMNS,
      rows,
    });
  }
  tables.push({
    title: "Justice: averages over deadline types",
    columns: ["setting", "allocator", "SDR", "Jain", "equality", "PTR", "WTR", "util", "miss ratio", "drop ratio"],
    rows: g.settings.flatMap((s) => policies.map((a) => {
      const m = averageOverDeadlines(g.cells, s.setting, a);
      return [`${s.setting} (${s.capacity})`, a, r3(m.sdr), r3(m.jain), r3(m.equality), r3(m.ptr), r3(m.wtr), r3(m.utilization), r3(m.missRatio), r3(m.dropRatio)];
    })),
    notes: [
      "SDR: met/submitted. Jain: Jain's index on min(1, A_i/D_i), equality: Jain within classes of equal demand,",
      `util: busy/(busy+idle); these three are averaged over ${g.params.interval} s intervals. PTR/WTR: CPU·s of met / missed-or-killed jobs`,
      g.params.deadlineBasis === "capacity"
        ? "over the submitted computation time. Deadlines D_i = x * T_i, T_i: runtime on min(tasks, capacity) CPUs (feasible)."
        : "over the submitted computation time. Deadlines D_i = x * T_i, T_i: one wave, the runtime with every CPU the job asks for.",
    ],
  });
  let seedCells: unknown;
  let seedRuns: ReturnType<typeof runJusticeSeeds> | null = null;
  if (nSeeds > 1) {
    // every deadline type's mean and 95% interval over the seeds (docs/reproduction-justice.md)
    const r = runJusticeSeeds(opts.seed, nSeeds, opts.params, policies, (f) => opts.onProgress?.(0.5 + f / 2));
    seedRuns = r;
    const last = opts.seed + nSeeds - 1;
    for (const setting of ["high", "moderate"] as const) {
      const caps = [...new Set(r.capacities.map((c) => c[setting]))];
      tables.push({
        title: `Justice: ${setting === "high" ? "highly" : "moderately"} constrained (${caps.length === 1 ? caps[0] : `${Math.min(...caps)}-${Math.max(...caps)}`} CPUs), mean ± 95% interval over seeds ${opts.seed}-${last}`,
        columns: ["deadline", "allocator", "SDR", "Jain", "equality", "PTR", "WTR", "util"],
        rows: r.types.flatMap((d) => policies.map((a) => [d, a, ...SEED_METRICS.map((m) => formatCi(seedCi(r, setting, d, a, m)))])),
        notes: ["Student-t 95% interval of the mean over the seeds; compare allocators with paired differences (justice-seeds.ts compare)."],
      });
    }
    seedCells = { seeds: r.seeds, capacities: r.capacities };
  }
  const stats = workloadStats(g.jobs);
  const { charts, chartAxes } = deadlineCharts(g, policies, seedRuns, opts.seed);
  return {
    scenario: "justice",
    seed: opts.seed,
    params: { ...g.params, capacities: Object.fromEntries(g.settings.map((s) => [s.setting, s.capacity])), offeredLoad: offeredLoad(g.jobs), workload: stats },
    policies,
    tables,
    charts,
    chartAxes,
    metrics: {
      cells: g.cells,
      ...(seedCells ? { seedRuns: seedCells } : {}),
      averages: Object.fromEntries(g.settings.map((s) => [s.setting, Object.fromEntries(policies.map((a) => [a, averageOverDeadlines(g.cells, s.setting, a)]))])),
    },
  };
}

/**
 * Grouped bars per setting and metric (SDR, PTR): one group per deadline type, one bar per
 * allocator. With `seeds` > 1 the bars are the means over the seeds with their 95% Student-t
 * intervals as error bars; with one seed, that seed's values.
 */
function deadlineCharts(
  g: ReturnType<typeof runJusticeGrid>, policies: string[], seeds: ReturnType<typeof runJusticeSeeds> | null, first: number,
): { charts: Record<string, Series[]>; chartAxes: Record<string, ChartAxes> } {
  const charts: Record<string, Series[]> = {};
  const chartAxes: Record<string, ChartAxes> = {};
  const types = g.types;
  const over = seeds ? `, mean and 95% interval over seeds ${first}-${first + seeds.seeds.length - 1}` : `, seed ${first}`;
  for (const s of g.settings) {
    for (const [metric, label] of [["sdr", "SDR (met / submitted)"], ["ptr", "PTR (CPU·s of met jobs / submitted)"]] as const) {
      const title = `Justice ${metric.toUpperCase()} per deadline type, ${s.setting === "high" ? "highly" : "moderately"} constrained${over}`;
      charts[title] = policies.map((a) => {
        const x = types.map((_, k) => k);
        if (seeds) {
          const ci = types.map((d) => seedCi(seeds, s.setting, d, a, metric));
          return { name: a, x, y: ci.map((c) => c.mean), lo: ci.map((c) => c.lo), hi: ci.map((c) => c.hi) };
        }
        const y = types.map((d) => g.cells.find((c) => c.setting === s.setting && c.deadline === d && c.allocator === a)?.metrics[metric] ?? NaN);
        return { name: a, x, y };
      });
      chartAxes[title] = { x: "deadline type", y: label, bars: true, categories: [...types], yRange: [0, 1] };
    }
  }
  return { charts, chartAxes };
}

export const justiceScenario: Scenario = {
  name: "justice",
  description: "Justice vs Baseline FS, Reactive FS and Oracle: deadline-aware admission control under constrained capacity (job-level deadline mode)",
  defaultPolicies: DEFAULT_POLICIES,
  params: Object.keys(DEFAULT_PARAMS),
  run,
};
