// Scenario `phoenix` (SPEC §7, §9): the real Yahoo (YH2_sub.tr) and Google (GOOG_subtrace.tr)
// traces in the Hawk/Eagle format, loaded by the streaming loader, with constraints drawn from
// the Google distribution, run on the node-level simulator at several cluster sizes (offered
// load from ~90% down to ~40%) under Phoenix, Eagle-C, Hawk-C and Sparrow-C. Reports p50/p90/p99
// response times of short and long jobs, constrained and unconstrained, and reordered tasks.
//
// The traces live in ../shared/traces (relative to process.cwd(), the repo root); `traceDir`
// overrides it. Default run (~35 s of CPU): all 3,363 Yahoo jobs at 90% and 40% load; the Google
// trace is opt-in (`googleJobs=1500`, about a minute). `yahooJobs` / `googleJobs` take a
// prefix of the trace (0 skips it); `yahooUtil` / `googleUtil` are comma-separated loads.
// With constraints calibrated to Fig. 6 (constraint-gen.ts: ~12% of workers fit a 2-constraint
// job, ~5% a 6-constraint one), Eagle's succinct state sharing and sticky batch probing as
// Eagle's simulator runs them, and the thresholds of §IV-B (Table II CRV thresholds, Qwait at
// load 0.9; node-sim.ts), Phoenix's short p99 / Eagle-C's over seeds 1-5 on Yahoo is 0.97,
// 0.99, 0.99, 1.01, 0.98 at 90% offered load (geometric mean 0.99) and 1.00 at 40%; at 95%
// 0.95, at 98% 0.94, at 110% 0.97 (geometric means; one seed of five carries most of it). Over
// seeds 1-20 (test/phoenix.shape.test.ts) it is 0.973 at 90% (lower on 12 seeds, higher on 2)
// and 0.970 at 95%: the paper's shape, a ~3% gain. The paper's 1.9x does not reproduce against
// an SRPT Eagle-C. `eagleSimOrder=1` adds Eagle-C in
// the order Eagle's published simulator actually runs (newest probe first, policies.ts
// newestProbeFirst), the baseline the paper built on: against it Phoenix's Yahoo p99 is 0.98,
// 0.98, 0.90, 0.87, 0.89 at 90% (geometric mean 0.92) and 1.00 at 40%: the paper's shape,
// far smaller than its 1.9x. On Google (`googleJobs=1500`, seeds 1-3) Phoenix/Eagle-C is 1.11,
// 1.01, 0.95 at 90% and 1.00, 0.87, 0.95 at 40% (no convergence either).
// Which utilization is "high": the `busy` column (busy fraction over the arrival span) is only
// 0.53-0.58 at 90% offered load and at most ~0.63 at 150%, but that average hides the trace's
// shape. The busy profile (node-sim busyWindow, 1,000 s windows, seed 1, Eagle-C) at 90%
// offered load: 0.13 for the first 12,000 s (YH2_sub.tr opens with one job of 1,651 tasks x
// ~15,200 s whose generated constraints admit 13% of the workers on seed 1, so it runs in
// waves on them (2.3-100% on seeds 1-5), and no other arrival until ~75,700 s), 0.3-0.8 while
// the dense arrivals ramp up (77-89k s), then 0.97-1.00 from 91k to 115k s (23,000 s
// saturated, past the last arrival at 104.7k s), then the drain; on seeds 2-3 the dense part
// (85-105k s) swings between 0.75 and 1.00 in bursts of 2,000-6,000 s. At 40% the cluster is
// >= 95% busy for ~1,000 s only (the burst at ~99k s).
// So at 90% offered load the cluster IS in the high-utilization regime while most short jobs
// arrive: `busy@short`, the busy fraction of the window a short job arrives in averaged over
// short jobs, is 0.79, 0.82, 0.83, 0.67, 0.81 (seeds 1-5) at 90% and 0.41-0.50 at 40%; the
// paper's "85% average utilization" (§VI-A) is met or exceeded at 130% offered load (busy@short
// 0.84-0.92, saturated 38,000 s on seed 1), where Phoenix/Eagle-C short p99 is 0.999, 0.976,
// 1.000, 0.959, 0.975 (seeds 1-5, geometric mean 0.98) and long jobs are unchanged (1.000): more
// load does not bring the paper's gap. Why: the p99 tail (31 of ~3,025 short jobs) is 45-81%
// constrained jobs with at most 2 eligible workers in the short-only partition (4-5% of all
// short jobs); with the long partition saturated, Eagle's SSS keeps their probes off workers
// holding long work, so their tasks run one after another on those 0-2 workers (for 7-19 of the
// 31 the job's own work / its eligible short-only workers is at least half its response time,
// seeds 1-5 at 90%): a throughput bound that no queue order, SRPT or CRV, shortens.
// Scenarios run synchronously, so the file is read whole and parsed by the loader's pure
// parser (parseEagleTrace); loadEagleTrace streams it.
import { readFileSync } from "node:fs";
import { resolve, join } from "node:path";
import type { Scenario, ScenarioOptions, ScenarioReport } from "./scenario.js";
import type { Table } from "./table.js";
import { Rng } from "../sim/random.js";
import { InputError } from "../engine/errors.js";
import { EAGLE_CUTOFFS, parseEagleTrace } from "../phoenix/eagle-trace.js";
import { attachConstraints, offeredLoad, workersForUtilization } from "../phoenix/workload.js";
import { simulateNodes } from "../phoenix/node-sim.js";
import { GROUPS, busyAtArrivals, groupStats, saturatedSpan } from "../phoenix/metrics.js";
import { getNodePolicy, nodePolicyNames, type NodePolicy } from "../phoenix/policies.js";

const DEFAULT_POLICIES = ["phoenix", "eagle-c", "hawk-c", "sparrow-c"];
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
  const traceDir = resolve(process.cwd(), String(params.traceDir ?? "../shared/traces"));
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
  const runs: Array<{ trace: TraceSpec; jobs: ReturnType<typeof attachConstraints>; utils: number[] }> = [];
  for (const tr of TRACES) {
    const maxJobs = numParam(params, tr.jobsParam, tr.defaultJobs);
    resolved[tr.jobsParam] = maxJobs;
    if (maxJobs <= 0) continue;
    const path = join(traceDir, tr.file);
    let text: string;
    try {
      text = readFileSync(path, "utf8");
    } catch (e) {
      throw new InputError("params.traceDir", `cannot read ${path}: ${(e as Error).message}`);
    }
    const loaded = parseEagleTrace(text, path, { maxJobs });
    const jobs = attachConstraints(loaded.jobs, new Rng(opts.seed ^ 0x5eed));
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
      for (const { label: p, policy } of variants) {
        const r = simulateNodes(jobs, {
          engine: opts.engine, policy, workers, seed: opts.seed, cutoff: trace.cutoff,
          shortOnlyFraction: trace.shortOnlyFraction, ...simParams, busyWindow: BUSY_WINDOW,
        });
        const busyShort = busyAtArrivals(r.busyProfile, BUSY_WINDOW, firstArrival, shortArrivals);
        const saturated = saturatedSpan(r.busyProfile, BUSY_WINDOW, SATURATED);
        const g = groupStats(r.jobs);
        const rejected = r.jobs.filter((j) => j.rejected).length;
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
        "Phoenix = Eagle-C + CRV reordering of congested queues (Algorithm 1) + soft-constraint relaxation; probes are placed as in Eagle-C (SSS).",
        "Phoenix thresholds (§IV-B): CRV_threshold per constraint = its Table II slowdown (param tableIIThresholds=0: crvThreshold for all); Qwait_threshold = E[W] at worker load qwaitLoad=0.9 (qwaitLoad=0: fixed qwaitThreshold seconds).",
        "Phoenix's short p99 / Eagle-C's on Yahoo at 90% load, seeds 1-20: geometric mean 0.973, lower on 12 seeds, higher on 2 (at most 1.6%); at 95% 0.970; identical at 40%; long jobs identical: the paper's shape, not its 1.9x (test/phoenix.shape.test.ts).",
        "At 90% offered load short jobs meet a busy fraction of ~0.8 on arrival (busy@short 0.67-0.83, seeds 1-5; seed 1 is >= 95% busy for 23,000 s): the high-utilization regime; at 130% (busy@short 0.84-0.92, the paper's ~85%) Phoenix/Eagle-C short p99 is 0.96-1.00 (seeds 1-5, geometric mean 0.98). The low arrival-span `busy` comes from the trace's opening 12,000 s (one job, often constrained to a few % of the workers, and no other arrival).",
        "eagle-c-simorder (param eagleSimOrder=1): Eagle-C serving the newest probe first, as Eagle's published simulator does; against it Phoenix's Yahoo p99 at 90% is 0.87-0.98 (mean 0.92), equal at 40%.",
      ],
    });
    metrics[trace.label] = traceMetrics;
  }
  return { scenario: "phoenix", seed: opts.seed, params: resolved, policies, tables, metrics };
}

export const phoenixScenario: Scenario = {
  name: "phoenix",
  description: "Phoenix CRV reordering vs Eagle-C, Hawk-C, Sparrow-C on the Yahoo and Google traces with Google-style constraints (node-level mode)",
  defaultPolicies: DEFAULT_POLICIES,
  run,
};
