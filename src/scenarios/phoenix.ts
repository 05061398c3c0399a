// Scenario `phoenix` (docs/policies/phoenix.md): the real Yahoo (YH2_sub.tr) and Google
// (GOOG_subtrace.tr) traces in the Hawk/Eagle format, with constraints drawn from the Google
// distribution, run on the node-level simulator at several cluster sizes (offered load from ~90%
// down to ~40%) under Phoenix, Eagle-C, Hawk-C and Sparrow-C. Reports p50/p90/p99 response
// times of short and long jobs, constrained and unconstrained, and reordered tasks.
//
// The traces are not in the repo: the folder holding `eagle-format/` is the `traceDir` param, or
// the FAIRSCHED_TRACES environment variable when the param is not given (see README, Traces);
// without either the run fails with one line naming the file it needs. Default run: all 3,363
// Yahoo jobs at 90% and 40% load; the Google trace is opt-in: `googleSteady=1` replays its
// window of steady arrivals (steady-window.ts) at the offered loads that give the paper's 86% and
// 43% busy fractions, `googleJobs=N` a prefix of it (0 skips it). `yahooJobs` takes a prefix;
// `yahooUtil` / `googleUtil` are comma-separated offered loads. Measurements (seed by seed, busy profiles, why the paper's 1.9x does
// not reproduce): docs/notes/layering.md, "phoenix scenario".
// Scenarios run synchronously, so the file is read whole and parsed by the loader's pure
// parser (parseEagleTrace); loadEagleTrace streams it. Node's fs and path are reached only when
// a trace is read (no static `node:` import: the package entry lists this scenario and must load
// in browsers).
import type { ChartAxes, Scenario, ScenarioOptions, ScenarioReport, Series } from "./scenario.js";
import { empiricalCdf } from "../stats/cdf.js";
import type { Table } from "./table.js";
import { Rng } from "../random/rng.js";
import { InputError } from "../errors.js";
import { EAGLE_CUTOFFS, cutoffForTrace, parseEagleTrace } from "../traces/eagle.js";
import { attachConstraints, offeredLoad, workersForUtilization } from "../phoenix/workload.js";
import { GOOGLE_STEADY_WINDOW, arrivalWindow } from "../phoenix/steady-window.js";
import { simulateNodes } from "../phoenix/node-sim.js";
import { nodeBuiltin, type NodeBuiltinId } from "../util/node-builtins.js";
import { GROUPS, busyAtArrivals, groupStats, saturatedSpan } from "../phoenix/metrics.js";
import { getNodePolicy, nodePolicyNames, type NodePolicy } from "../phoenix/policies.js";

const DEFAULT_POLICIES = ["phoenix", "eagle-c", "hawk-c", "sparrow-c"];
/** Where the traces are when the `traceDir` param is not given. */
const TRACES_ENV = "FAIRSCHED_TRACES";

type NodeProcess = { env?: Record<string, string | undefined> };
const host = (): NodeProcess | undefined => (globalThis as { process?: NodeProcess }).process;

function nodeModule<T>(id: NodeBuiltinId): T {
  const m = nodeBuiltin<T>(id);
  if (!m) throw new InputError("params.traceDir", `reading a trace needs Node's ${id}: import fairsched through its "node" export condition (Node, Deno, Bun)`);
  return m;
}
/** Width of the busy-profile windows (s) behind the busy@short and saturated columns. */
const BUSY_WINDOW = 1000;
/** Busy fraction from which a window counts as saturated. */
const SATURATED = 0.95;

interface TraceSpec {
  label: string;
  file: string;
  cutoff: number;
  /** Hawk/Eagle short-only partition for this trace (README of their simulator: 100/98, 100/83). */
  shortOnlyFraction: number;
  jobsParam: string;
  utilParam: string;
  defaultUtils: string;
  defaultJobs: number;
}

const TRACES: TraceSpec[] = [
  { label: "Yahoo", file: "eagle-format/YH2_sub.tr", cutoff: EAGLE_CUTOFFS.yahoo, shortOnlyFraction: 0.02, jobsParam: "yahooJobs", utilParam: "yahooUtil", defaultUtils: "0.9,0.4", defaultJobs: 100000 },
  { label: "Google", file: "eagle-format/GOOG_subtrace.tr", cutoff: EAGLE_CUTOFFS.google, shortOnlyFraction: 0.17, jobsParam: "googleJobs", utilParam: "googleUtil", defaultUtils: "0.9,0.4", defaultJobs: 0 },
];

/**
 * `--param traceFile=FILE` (what `fairsched simulate --trace FILE --format eagle` passes): that one
 * `.tr` file instead of the built-in pair; `jobs` takes a prefix (default all), `util` the loads,
 * `cutoff` the short/long cutoff in s (default: from the name, YH* GOOG* CC* FB*).
 */
function fileTrace(params: Record<string, string | number>, file: string): TraceSpec {
  const name = file.replace(/^.*[\\/]/, "");
  const cutoff = params.cutoff !== undefined ? numParam(params, "cutoff", 0) : cutoffForTrace(name);
  if (cutoff === null || !(cutoff > 0)) {
    throw new InputError("params.cutoff", `cannot tell the short/long cutoff of ${name} from its name (YH*, GOOG*, CC*, FB*): pass --param cutoff=SECONDS`);
  }
  return { label: name, file, cutoff, shortOnlyFraction: /^GOOG/i.test(name) ? 0.17 : 0.02, jobsParam: "jobs", utilParam: "util", defaultUtils: "0.9,0.4", defaultJobs: Number.MAX_SAFE_INTEGER };
}

function numParam(params: Record<string, string | number>, name: string, dflt: number): number {
  const v = params[name];
  if (v === undefined) return dflt;
  const x = typeof v === "number" ? v : Number(v);
  if (!Number.isFinite(x)) throw new InputError(`params.${name}`, `must be a number, got ${JSON.stringify(v)}`);
  return x;
}

function utilList(params: Record<string, string | number>, name: string, dflt: string): number[] {
  const raw = String(params[name] ?? dflt);
  return raw.split(",").map((s, i) => {
    const u = Number(s);
    if (!(u > 0 && u <= 1.5)) throw new InputError(`params.${name}[${i}]`, `must be a utilization in (0, 1.5], got '${s}'`);
    return u;
  });
}

function run(opts: ScenarioOptions): ScenarioReport {
  const params = opts.params ?? {};
  const policies = opts.policies ?? DEFAULT_POLICIES;
  for (const [i, p] of policies.entries()) {
    if (!nodePolicyNames().includes(p)) throw new InputError(`policies[${i}]`, `unknown node policy '${p}'; known: ${nodePolicyNames().join(", ")}`);
  }
  const given = params.traceDir ?? host()?.env?.[TRACES_ENV];
  const traceDir = given === undefined || given === "" ? null : nodeModule<typeof import("node:path")>("node:path").resolve(String(given));
  const resolved: Record<string, unknown> = { traceDir, probeRatio: 2, minProbes: 0, networkDelay: 0.0005, heartbeat: 9, slackThreshold: 5, crvThreshold: 1, tableIIThresholds: 1, qwaitThreshold: 90, qwaitLoad: 0.9 };
  const simParams = {
    probeRatio: numParam(params, "probeRatio", 2), minProbes: numParam(params, "minProbes", 0), networkDelay: numParam(params, "networkDelay", 0.0005),
    heartbeat: numParam(params, "heartbeat", 9), slackThreshold: numParam(params, "slackThreshold", 5),
    crvThreshold: numParam(params, "crvThreshold", 1), qwaitThreshold: numParam(params, "qwaitThreshold", 90),
    // Table II per-constraint CRV thresholds (1) or crvThreshold for all (0); Qwait as a load
    // (qwaitLoad in (0, 1)) or the fixed qwaitThreshold in seconds (qwaitLoad=0)
    tableIIThresholds: numParam(params, "tableIIThresholds", 1) !== 0, qwaitLoad: numParam(params, "qwaitLoad", 0.9),
  };
  Object.assign(resolved, simParams);
  // eagleSimOrder=1 adds Eagle-C as Eagle's published simulator orders its queues (newest probe
  // first, policies.ts newestProbeFirst): the baseline the paper's numbers were measured against
  const simOrder = numParam(params, "eagleSimOrder", 0) !== 0;
  resolved.eagleSimOrder = simOrder ? 1 : 0;
  const variants: Array<{ label: string; policy: string | NodePolicy }> = policies.map((p) => ({ label: p, policy: p }));
  if (simOrder) variants.push({ label: "eagle-c-simorder", policy: getNodePolicy("eagle-c", { newestProbeFirst: true }) });

  const tables: Table[] = [];
  const metrics: Record<string, unknown> = {};
  // one response-time CDF of short jobs per trace and load, one curve per policy
  const charts: Record<string, Series[]> = {};
  const chartAxes: Record<string, ChartAxes> = {};
  const runs: Array<{ trace: TraceSpec; jobs: ReturnType<typeof attachConstraints>; utils: number[] }> = [];
  const traceFile = params.traceFile === undefined ? null : String(params.traceFile);
  // googleSteady=1: Google over its steady window at the paper's utilizations (steady-window.ts)
  const googleSteady = numParam(params, "googleSteady", 0) !== 0;
  resolved.googleSteady = googleSteady ? 1 : 0;
  if (traceFile !== null) resolved.traceFile = traceFile;
  for (const tr0 of traceFile !== null ? [fileTrace(params, traceFile)] : TRACES) {
    const steady = googleSteady && tr0.jobsParam === "googleJobs";
    const g = GOOGLE_STEADY_WINDOW;
    const tr = steady ? { ...tr0, label: `${tr0.label} (steady window from ${g.from} s)`, defaultJobs: 100000, defaultUtils: `${g.offered.high},${g.offered.low}` } : tr0;
    const maxJobs = numParam(params, tr.jobsParam, tr.defaultJobs);
    resolved[tr.jobsParam] = maxJobs;
    if (maxJobs <= 0) continue;
    if (traceDir === null && traceFile === null) {
      throw new InputError("params.traceDir", `the phoenix scenario replays ${tr.file}: pass --param traceDir=DIR (the folder holding eagle-format/) or set ${TRACES_ENV}=DIR (see README, Traces)`);
    }
    const path = traceFile ?? nodeModule<typeof import("node:path")>("node:path").join(traceDir!, tr.file);
    let text: string;
    try {
      text = nodeModule<typeof import("node:fs")>("node:fs").readFileSync(path, "utf8");
    } catch (e) {
      const why = (e as NodeJS.ErrnoException).code ?? (e as Error).message;
      throw new InputError("params.traceDir", `cannot read ${path} (${why}): the phoenix scenario needs ${tr.file} under traceDir (see README, Traces)`);
    }
    const loaded = parseEagleTrace(text, path, steady ? {} : { maxJobs });
    const traceJobs = steady ? arrivalWindow(loaded.jobs, g.from, g.to).slice(0, maxJobs) : loaded.jobs;
    const jobs = attachConstraints(traceJobs, new Rng(opts.seed ^ 0x5eed));
    const utils = utilList(params, tr.utilParam, tr.defaultUtils);
    resolved[tr.utilParam] = utils.join(",");
    runs.push({ trace: tr, jobs, utils });
  }
  const total = runs.reduce((a, r) => a + r.utils.length * variants.length, 0);
  let done = 0;
  for (const { trace, jobs, utils } of runs) {
    const rows: Table["rows"] = [];
    const traceMetrics: unknown[] = [];
    const firstArrival = jobs.reduce((m, j) => Math.min(m, j.arrival), Infinity);
    const shortArrivals = jobs.filter((j) => !(j.estimate > trace.cutoff)).map((j) => j.arrival);
    for (const u of utils) {
      const workers = workersForUtilization(jobs, u);
      const cdfTitle = `${trace.label}: short-job response time CDF at offered load ${u} (${workers} workers)`;
      charts[cdfTitle] = [];
      chartAxes[cdfTitle] = { x: "response time (s)", y: "fraction of short jobs", logX: true, yRange: [0, 1] };
      for (const { label: p, policy } of variants) {
        const r = simulateNodes(jobs, {
          engine: opts.engine, policy, workers, seed: opts.seed, cutoff: trace.cutoff,
          shortOnlyFraction: trace.shortOnlyFraction, ...simParams, busyWindow: BUSY_WINDOW,
        });
        const busyShort = busyAtArrivals(r.busyProfile, BUSY_WINDOW, firstArrival, shortArrivals);
        const saturated = saturatedSpan(r.busyProfile, BUSY_WINDOW, SATURATED);
        const g = groupStats(r.jobs);
        const rejected = r.jobs.filter((j) => j.rejected).length;
        charts[cdfTitle].push({ name: p, ...empiricalCdf(r.jobs.filter((j) => !j.rejected && !j.long).map((j) => j.response)) });
        rows.push([
          workers, offeredLoad(jobs, workers), r.arrivalUtilization, busyShort, saturated, p,
          g.short.p50, g.short.p90, g.short.p99,
          g["short-constrained"].p99, g["short-unconstrained"].p99,
          g.long.p50, g.long.p99, r.reorderedTasks, r.crvReorderedTasks, rejected,
        ]);
        traceMetrics.push({
          workers, offeredLoad: offeredLoad(jobs, workers), policy: p, groups: Object.fromEntries(GROUPS.map((k) => [k, g[k]])),
          reorderedTasks: r.reorderedTasks, crvReorderedTasks: r.crvReorderedTasks, stolenProbes: r.stolenProbes,
          probesBehindLong: r.probesBehindLong, resentProbes: r.resentProbes,
          cancelledProbes: r.cancelledProbes, rejected, utilization: r.utilization, arrivalUtilization: r.arrivalUtilization, busyAtShortArrivals: busyShort, saturatedSeconds: saturated, makespan: r.makespan,
          hotHeartbeats: r.hotHeartbeats, crvWorkerBeats: r.crvWorkerBeats,
        });
        opts.onProgress?.(++done / total);
      }
    }
    const nShort = jobs.filter((j) => !(j.estimate > trace.cutoff)).length;
    const nCons = jobs.filter((j) => j.constraints.length > 0).length;
    tables.push({
      title: `Phoenix vs baselines on ${trace.label} (${jobs.length} jobs, ${nShort} short; ${nCons} constrained; response times in s)`,
      columns: ["workers", "load", "busy", "busy@short", "saturated s", "policy", "short p50", "short p90", "short p99", "s-constr p99", "s-unconstr p99", "long p50", "long p99", "reordered", "crv-reordered", "rejected"],
      rows,
      notes: [
        `short/long: mean task duration above ${trace.cutoff} s is long (Hawk/Eagle cutoff); load = offered task-seconds / (workers x arrival span); busy = measured busy fraction of the workers over the arrival span; busy@short = busy fraction of the ${BUSY_WINDOW} s window each short job arrives in, averaged over short jobs; saturated s = longest stretch of ${BUSY_WINDOW} s windows at least ${SATURATED * 100}% busy.`,
        "reordered = tasks moved ahead of a task that was ahead of them (SRPT and CRV rounds); crv-reordered = those in queues reordered in CRV mode (the paper's Table III count); Hawk-C and Sparrow-C keep FIFO queues.",
        "Phoenix = Eagle-C + CRV reordering of congested queues (Algorithm 1) + soft-constraint relaxation (congested, or negotiated when no eligible worker has capacity); probes are placed as in Eagle-C (SSS).",
        "Phoenix thresholds (§IV-B): CRV_threshold per constraint = its Table II slowdown (param tableIIThresholds=0: crvThreshold for all); Qwait_threshold = E[W] at worker load qwaitLoad=0.9 (qwaitLoad=0: fixed qwaitThreshold seconds).",
        "Phoenix vs Eagle-C and Hawk-C over 20 seeds with 95% intervals, Yahoo and the Google steady window: docs/reproduction-phoenix.md (test/phoenix/shape.repro.test.ts asserts what holds).",
        "The low arrival-span `busy` on Yahoo comes from the trace's opening 12,000 s (one job and no other arrival); at 90% offered load short jobs meet a busy fraction of ~0.8 on arrival: the high-utilization regime.",
        "eagle-c-simorder (param eagleSimOrder=1): Eagle-C serving the newest probe first, as Eagle's published simulator did before its commit f03c754 (2017-02-23).",
      ],
    });
    metrics[trace.label] = traceMetrics;
  }
  return { scenario: "phoenix", seed: opts.seed, params: resolved, policies, tables, charts, chartAxes, metrics };
}

export const phoenixScenario: Scenario = {
  name: "phoenix",
  description: "Phoenix CRV reordering vs Eagle-C, Hawk-C, Sparrow-C on the Yahoo and Google traces with Google-style constraints (node-level mode)",
  defaultPolicies: DEFAULT_POLICIES,
  params: ["traceDir", "probeRatio", "minProbes", "networkDelay", "heartbeat", "slackThreshold", "crvThreshold", "qwaitThreshold", "tableIIThresholds", "qwaitLoad", "eagleSimOrder", "googleSteady", "traceFile", "jobs", "util", "cutoff", ...TRACES.flatMap((t) => [t.jobsParam, t.utilParam])],
  run,
};
