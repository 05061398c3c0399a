// Scenario `justice` (the paper's §5; docs/policies/justice.md): a seeded job stream shaped like
// the paper's traces, run under a highly and a moderately constrained capacity, for every
// deadline type and every allocator (Justice, Baseline FS, Reactive FS, Oracle).
// Expected shape: under constrained capacity, Justice's SDR and Jain's index above
// Baseline FS and Reactive FS and close to the Oracle; Justice wastes less than Reactive FS.
import { DEADLINE_TYPES, type DeadlineBasis, type DeadlineType } from "../justice/deadlines.js";
import { runCell } from "../justice/experiment.js";
import type { DeadlineMetrics } from "../justice/metrics.js";
import { RUNTIME_MODELS, type RuntimeModel } from "../justice/model.js";
import { allocatorNames } from "../justice/registry.js";
import { DEFAULT_WORKLOAD, capacityForLoad, generateJobs, offeredLoad, workloadStats, type WorkloadParams } from "../justice/workload.js";
import { InputError, describeValue } from "../errors.js";
import type { Table } from "./table.js";
import { Rng } from "../des/random.js";
import type { Scenario, ScenarioOptions, ScenarioReport } from "./scenario.js";

const DEFAULT_POLICIES = ["justice", "baseline-fs", "reactive-fs", "oracle"];

const DEFAULT_PARAMS = {
  ...DEFAULT_WORKLOAD,
  /** Offered load / capacity of the two settings (paper TR1: 3,900 busy CPUs on 2,250 and 4,500). */
  loadHigh: 1.7,
  loadModerate: 0.87,
  /** Metric interval, s. */
  interval: 60,
  runtime: "waves" as RuntimeModel,
  deadlineBasis: "requested" as DeadlineBasis,
  /** Comma-separated deadline types, or "all". */
  deadlines: "all",
  /** Justice's parameters. */
  dropThreshold: 10,
  smoothing: 0.5,
  errorWeighting: "exponential",
};

type Params = typeof DEFAULT_PARAMS;

function readParams(raw: Record<string, string | number> | undefined): Params {
  const p: Record<string, unknown> = { ...DEFAULT_PARAMS };
  for (const [k, v] of Object.entries(raw ?? {})) {
    if (!(k in DEFAULT_PARAMS)) {
      throw new InputError(`params.${k}`, `unknown parameter of scenario 'justice' (known: ${Object.keys(DEFAULT_PARAMS).join(", ")})`);
    }
    const def = (DEFAULT_PARAMS as Record<string, unknown>)[k];
    if (typeof def === "number" && typeof v !== "number") throw new InputError(`params.${k}`, `must be a number (got ${describeValue(v)})`);
    p[k] = v;
  }
  if (!RUNTIME_MODELS.includes(p.runtime as RuntimeModel)) throw new InputError("params.runtime", `must be one of ${RUNTIME_MODELS.join(", ")}`);
  if (p.deadlineBasis !== "requested" && p.deadlineBasis !== "capacity") throw new InputError("params.deadlineBasis", `must be "requested" or "capacity"`);
  return p as Params;
}

function deadlineList(spec: string): DeadlineType[] {
  if (spec === "all") return [...DEADLINE_TYPES];
  return spec.split(",").map((s, i) => {
    const t = s.trim();
    if (!(DEADLINE_TYPES as readonly string[]).includes(t)) {
      throw new InputError(`params.deadlines[${i}]`, `unknown deadline type ${describeValue(t)} (known: ${DEADLINE_TYPES.join(", ")})`);
    }
    return t as DeadlineType;
  });
}

export interface JusticeCellSummary {
  setting: "high" | "moderate";
  capacity: number;
  deadline: DeadlineType;
  allocator: string;
  metrics: DeadlineMetrics;
  allocatorReport?: Record<string, unknown>;
}

/** Runs the whole grid; exported for tests and benchmarks. */
export function runJusticeGrid(seed: number, raw?: Record<string, string | number>, policies = DEFAULT_POLICIES, onProgress?: (f: number) => void) {
  const p = readParams(raw);
  for (const [i, a] of policies.entries()) {
    if (!allocatorNames().includes(a)) throw new InputError(`policies[${i}]`, `unknown allocator ${describeValue(a)} (known: ${allocatorNames().join(", ")})`);
  }
  const types = deadlineList(String(p.deadlines));
  const root = new Rng(seed);
  const workloadParams: WorkloadParams = {
    jobs: p.jobs, meanInterarrival: p.meanInterarrival, pSingle: p.pSingle, pSmall: p.pSmall, pMedium: p.pMedium,
    pLarge: p.pLarge, maxTasks: p.maxTasks, taskMedian: p.taskMedian, taskSigma: p.taskSigma,
  };
  const jobs = generateJobs(root.fork(), workloadParams);
  const deadlineSeeds = DEADLINE_TYPES.map(() => root.u32());
  const settings = [
    { setting: "high" as const, capacity: capacityForLoad(jobs, p.loadHigh) },
    { setting: "moderate" as const, capacity: capacityForLoad(jobs, p.loadModerate) },
  ];
  const justiceParams = { dropThreshold: p.dropThreshold, smoothing: p.smoothing, errorWeighting: p.errorWeighting };
  const cells: JusticeCellSummary[] = [];
  const total = settings.length * types.length * policies.length;
  for (const s of settings) {
    for (const t of types) {
      for (const a of policies) {
        const r = runCell({
          jobs, capacity: s.capacity, deadlineType: t, deadlineSeed: deadlineSeeds[DEADLINE_TYPES.indexOf(t)],
          allocator: a, allocatorParams: a === "justice" ? justiceParams : undefined,
          runtime: p.runtime, deadlineBasis: p.deadlineBasis, interval: p.interval,
        });
        cells.push({ setting: s.setting, capacity: s.capacity, deadline: t, allocator: a, metrics: r.metrics, allocatorReport: r.run.allocatorReport });
        onProgress?.(cells.length / total);
      }
    }
  }
  return { params: p, jobs, settings, types, cells };
}

/** Mean of a metric over deadline types, per setting and allocator. */
export function averageOverDeadlines(cells: readonly JusticeCellSummary[], setting: "high" | "moderate", allocator: string) {
  const xs = cells.filter((c) => c.setting === setting && c.allocator === allocator);
  const mean = (f: (m: DeadlineMetrics) => number | null) => xs.reduce((s, c) => s + (f(c.metrics) ?? 0), 0) / Math.max(1, xs.length);
  return {
    sdr: mean((m) => m.sdr), jain: mean((m) => m.jain), equality: mean((m) => m.equality),
    ptr: mean((m) => m.ptr), wtr: mean((m) => m.wtr), utilization: mean((m) => m.utilization),
    missRatio: mean((m) => m.missRatio), dropRatio: mean((m) => m.dropRatio),
  };
}

const COLUMNS = ["deadline", "allocator", "SDR", "Jain", "equality", "PTR", "WTR", "util", "met", "missed", "dropped", "killed"];

function run(opts: ScenarioOptions): ScenarioReport {
  const policies = opts.policies ?? DEFAULT_POLICIES;
  const g = runJusticeGrid(opts.seed, opts.params, policies, opts.onProgress);
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
      "over the submitted computation time. Deadlines D_i = x * T_i, T_i: runtime with every CPU the job asks for.",
    ],
  });
  const stats = workloadStats(g.jobs);
  return {
    scenario: "justice",
    seed: opts.seed,
    params: { ...g.params, capacities: Object.fromEntries(g.settings.map((s) => [s.setting, s.capacity])), offeredLoad: offeredLoad(g.jobs), workload: stats },
    policies,
    tables,
    metrics: {
      cells: g.cells,
      averages: Object.fromEntries(g.settings.map((s) => [s.setting, Object.fromEntries(policies.map((a) => [a, averageOverDeadlines(g.cells, s.setting, a)]))])),
    },
  };
}

export const justiceScenario: Scenario = {
  name: "justice",
  description: "Justice vs Baseline FS, Reactive FS and Oracle: deadline-aware admission control under constrained capacity (job-level deadline mode)",
  defaultPolicies: DEFAULT_POLICIES,
  params: Object.keys(DEFAULT_PARAMS),
  run,
};
