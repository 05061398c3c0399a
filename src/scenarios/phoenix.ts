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
// 0.95, at 98% 0.94, at 110% 0.97 (geometric means; one seed of five carries most of it). The
// paper's 1.9x does not reproduce against an SRPT Eagle-C. `eagleSimOrder=1` adds Eagle-C in
// the order Eagle's published simulator actually runs (newest probe first, policies.ts
// newestProbeFirst), the baseline the paper built on: against it Phoenix's Yahoo p99 is 0.98,
// 0.98, 0.90, 0.87, 0.89 at 90% (geometric mean 0.92) and 1.00 at 40%: the paper's shape,
// far smaller than its 1.9x. On Google (`googleJobs=1500`, seeds 1-3) Phoenix/Eagle-C is 1.11,
// 1.01, 0.95 at 90% and 1.00, 0.87, 0.95 at 40% (no convergence either). The `busy` column is the measured busy fraction over the arrival
// span: 0.53-0.58 at 90% offered load and at most ~0.63 even at 150% (YH2_sub.tr opens with one
// job of 2.5e7 task-seconds followed by ~12,000 s without arrivals, and its largest jobs arrive
// late), so no cluster size reaches the paper's "85% average utilization" measured that way.
// Scenarios run synchronously, so the file is read whole and parsed by the loader's pure
// parser (parseEagleTrace); loadEagleTrace streams it.
import { readFileSync } from "node:fs";
import { resolve, join } from "node:path";
import type { ScenarioOptions, ScenarioReport } from "../sim/scenario.js";
import { registerScenario } from "../sim/scenario.js";
import type { Table } from "../report/table.js";
import { Rng } from "../sim/random.js";
import { InputError } from "../engine/errors.js";
import { EAGLE_CUTOFFS, parseEagleTrace } from "../phoenix/eagle-trace.js";
import { attachConstraints, offeredLoad, workersForUtilization } from "../phoenix/workload.js";
import { simulateNodes } from "../phoenix/node-sim.js";
import { GROUPS, groupStats } from "../phoenix/metrics.js";
import { getNodePolicy, nodePolicyNames, type NodePolicy } from "../phoenix/policies.js";

const DEFAULT_POLICIES = ["phoenix", "eagle-c", "hawk-c", "sparrow-c"];

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
    for (const u of utils) {
      const workers = workersForUtilization(jobs, u);
      for (const { label: p, policy } of variants) {
        const r = simulateNodes(jobs, {
          engine: opts.engine, policy, workers, seed: opts.seed, cutoff: trace.cutoff,
          shortOnlyFraction: trace.shortOnlyFraction, ...simParams,
        });
        const g = groupStats(r.jobs);
        const rejected = r.jobs.filter((j) => j.rejected).length;
        rows.push([
          workers, offeredLoad(jobs, workers), r.arrivalUtilization, p,
          g.short.p50, g.short.p90, g.short.p99,
          g["short-constrained"].p99, g["short-unconstrained"].p99,
          g.long.p50, g.long.p99, r.reorderedTasks, rejected,
        ]);
        traceMetrics.push({
          workers, offeredLoad: offeredLoad(jobs, workers), policy: p, groups: Object.fromEntries(GROUPS.map((k) => [k, g[k]])),
          reorderedTasks: r.reorderedTasks, crvReorderedTasks: r.crvReorderedTasks, stolenProbes: r.stolenProbes,
          probesBehindLong: r.probesBehindLong, resentProbes: r.resentProbes,
          cancelledProbes: r.cancelledProbes, rejected, utilization: r.utilization, arrivalUtilization: r.arrivalUtilization, makespan: r.makespan,
          hotHeartbeats: r.hotHeartbeats, crvWorkerBeats: r.crvWorkerBeats,
        });
        opts.onProgress?.(++done / total);
      }
    }
    const nShort = jobs.filter((j) => !(j.estimate > trace.cutoff)).length;
    const nCons = jobs.filter((j) => j.constraints.length > 0).length;
    tables.push({
      title: `Phoenix vs baselines on ${trace.label} (${jobs.length} jobs, ${nShort} short; ${nCons} constrained; response times in s)`,
      columns: ["workers", "load", "busy", "policy", "short p50", "short p90", "short p99", "s-constr p99", "s-unconstr p99", "long p50", "long p99", "reordered", "rejected"],
      rows,
      notes: [
        `short/long: mean task duration above ${trace.cutoff} s is long (Hawk/Eagle cutoff); load = offered task-seconds / (workers x arrival span); busy = measured busy fraction of the workers over the arrival span.`,
        "reordered = tasks moved ahead of a task that was ahead of them (SRPT and CRV rounds); Hawk-C and Sparrow-C keep FIFO queues.",
        "Phoenix = Eagle-C + CRV reordering of congested queues (Algorithm 1) + soft-constraint relaxation; probes are placed as in Eagle-C (SSS).",
        "Phoenix thresholds (§IV-B): CRV_threshold per constraint = its Table II slowdown (param tableIIThresholds=0: crvThreshold for all); Qwait_threshold = E[W] at worker load qwaitLoad=0.9 (qwaitLoad=0: fixed qwaitThreshold seconds).",
        "Phoenix's short p99 at 90% load is 0.97-1.01 of Eagle-C's on Yahoo (seeds 1-5, geometric mean 0.99), equal at 40%; the paper's 1.9x does not reproduce against an SRPT Eagle-C.",
        "eagle-c-simorder (param eagleSimOrder=1): Eagle-C serving the newest probe first, as Eagle's published simulator does; against it Phoenix's Yahoo p99 at 90% is 0.87-0.98 (mean 0.92), equal at 40%.",
      ],
    });
    metrics[trace.label] = traceMetrics;
  }
  return { scenario: "phoenix", seed: opts.seed, params: resolved, policies, tables, metrics };
}

registerScenario({
  name: "phoenix",
  description: "Phoenix CRV reordering vs Eagle-C, Hawk-C, Sparrow-C on the Yahoo and Google traces with Google-style constraints (node-level mode)",
  defaultPolicies: DEFAULT_POLICIES,
  run,
});
