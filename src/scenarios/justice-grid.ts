// The grid of the `justice` scenario (one seed): parameters and presets, the job stream, the two
// capacities, and every deadline type x allocator cell. The scenario (justice.ts) and the
// multi-seed runs (justice-seeds.ts) both build on it.
import { DEADLINE_TYPES, type DeadlineBasis, type DeadlineType } from "../justice/deadlines.js";
import { runCell } from "../justice/experiment.js";
import type { DeadlineMetrics } from "../justice/metrics.js";
import { RUNTIME_MODELS, type RuntimeModel } from "../justice/model.js";
import { allocatorNames } from "../justice/registry.js";
import { DEFAULT_WORKLOAD, PAPER_WORKLOAD, capacityForLoad, generateJobs, type WorkloadParams } from "../justice/workload.js";
import { InputError, describeValue } from "../errors.js";
import { Rng } from "../random/rng.js";

export const DEFAULT_POLICIES = ["justice", "baseline-fs", "reactive-fs", "oracle"];

export const DEFAULT_PARAMS = {
  ...DEFAULT_WORKLOAD,
  /** Offered load / capacity of the two settings (paper TR1: 3,900 busy CPUs on 2,250 and 4,500). */
  loadHigh: 1.7,
  loadModerate: 0.87,
  /** Fixed capacities of the two settings (0: derived from loadHigh / loadModerate). */
  capacityHigh: 0,
  capacityModerate: 0,
  /** "default" or "paper" (PAPER_WORKLOAD on 2,250 / 4,500 CPUs); explicit params override it. */
  preset: "default",
  /** Number of seeds (seed, seed+1, ...); above 1 the tables show means and 95% intervals. */
  seeds: 1,
  /** Metric interval, s. */
  interval: 60,
  runtime: "waves" as RuntimeModel,
  deadlineBasis: "capacity" as DeadlineBasis,
  /** Comma-separated deadline types, or "all". */
  deadlines: "all",
  /** Justice's parameters. */
  dropThreshold: 10,
  smoothing: 0.5,
  errorWeighting: "exponential",
  /** Workload: divides the task count of jobs with >= 100 tasks (workload.ts). */
  sizeScale: 1,
  /** Justice ablations (docs/reproduction-justice.md): 0 turns the paper's behaviour off. */
  clampToMin: 1,
  trackSingleTask: 1,
};

export type Params = typeof DEFAULT_PARAMS;

/** Parameter presets; explicit params override them. */
export const JUSTICE_PRESETS: Record<string, Partial<Params>> = {
  default: {},
  paper: { ...PAPER_WORKLOAD, capacityHigh: 2250, capacityModerate: 4500 },
  /**
   * The paper preset reduced for tests: 600 jobs, jobs of >= 100 tasks and both clusters divided
   * by 10 (225 / 450 CPUs), task lengths and offered load relative to capacity unchanged.
   */
  "paper-small": { ...PAPER_WORKLOAD, jobs: 600, sizeScale: 10, capacityHigh: 225, capacityModerate: 450 },
};

export function readParams(raw: Record<string, string | number> | undefined): Params {
  const preset = raw?.preset ?? "default";
  if (typeof preset !== "string" || !Object.hasOwn(JUSTICE_PRESETS, preset)) {
    throw new InputError("params.preset", `unknown preset ${describeValue(preset)} (known: ${Object.keys(JUSTICE_PRESETS).join(", ")})`);
  }
  const p: Record<string, unknown> = { ...DEFAULT_PARAMS, ...JUSTICE_PRESETS[preset] };
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
  for (const k of ["capacityHigh", "capacityModerate"] as const) {
    if (!Number.isSafeInteger(p[k]) || (p[k] as number) < 0) throw new InputError(`params.${k}`, `must be an integer >= 0 (got ${describeValue(p[k])})`);
  }
  if (!Number.isSafeInteger(p.seeds) || (p.seeds as number) < 1 || (p.seeds as number) > 1000) throw new InputError("params.seeds", `must be an integer in [1, 1000] (got ${describeValue(p.seeds)})`);
  for (const k of ["clampToMin", "trackSingleTask"] as const) {
    if (p[k] !== 0 && p[k] !== 1) throw new InputError(`params.${k}`, `must be 0 or 1 (got ${describeValue(p[k])})`);
  }
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
    pLarge: p.pLarge, maxTasks: p.maxTasks, taskMedian: p.taskMedian, taskSigma: p.taskSigma, taskSizeExponent: p.taskSizeExponent, sizeScale: p.sizeScale,
  };
  const jobs = generateJobs(root.fork(), workloadParams);
  const deadlineSeeds = DEADLINE_TYPES.map(() => root.u32());
  const settings = [
    { setting: "high" as const, capacity: p.capacityHigh || capacityForLoad(jobs, p.loadHigh) },
    { setting: "moderate" as const, capacity: p.capacityModerate || capacityForLoad(jobs, p.loadModerate) },
  ];
  const justiceParams = {
    dropThreshold: p.dropThreshold, smoothing: p.smoothing, errorWeighting: p.errorWeighting,
    clampToMin: p.clampToMin === 1, trackSingleTask: p.trackSingleTask === 1,
  };
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

