// ltrf-macro: the LTRF paper's macro-benchmark (§7.2, Fig. 7) on the queue-level
// simulator: four queues shaped like the Facebook (Table 3 bins), Purdue, TPC-H and Spark
// workloads share 100 containers for one hour. Prints the sharing benefit Psi and sharing
// loss Omega over time for LTRF and MLRF: under LTRF Omega returns to 0 (every queue ends
// up with at least what its private quarter would have given it), under MLRF it stays
// negative (the queues that waited at their stage starts never get it back).
import type { Table } from "./table.js";
import type { FairnessSeries } from "../ltrf/fairness.js";
import { MACRO_DEFAULTS, macroWorkload, type MacroParams } from "../ltrf/macro-workload.js";
import type { ChartAxes, Scenario, Series } from "./scenario.js";
import { numParam, runPolicies } from "./common.js";

export function macroParamsFrom(params: Record<string, string | number> | undefined): MacroParams {
  const p = { ...MACRO_DEFAULTS };
  for (const key of Object.keys(p) as Array<keyof MacroParams>) p[key] = numParam(params, key, p[key]);
  return p;
}

export const ltrfMacroScenario: Scenario = {
  name: "ltrf-macro",
  description: "LTRF paper §7.2: Facebook/Purdue/TPC-H/Spark queues for one hour; sharing benefit Psi and loss Omega under LTRF and MLRF",
  defaultPolicies: ["mlrf", "ltrf"],
  params: [...Object.keys(MACRO_DEFAULTS), "every"],
  run({ policies, seed, params, engine, onProgress }) {
    const p = macroParamsFrom(params);
    const step = numParam(params, "every", 300);
    const workload = macroWorkload(p, seed);
    const set = runPolicies(workload, policies ?? this.defaultPolicies, engine, seed, { horizon: p.horizon }, onProgress);
    const fair = set.results.map((r) => ({ policy: r.policy, f: (r.policyReport as { fairness?: FairnessSeries } | undefined)?.fairness }));
    const known = fair.filter((x): x is { policy: string; f: FairnessSeries } => x.f !== undefined);
    const ref = known[0]?.f;
    const rows: Array<Array<string | number | null>> = [];
    if (ref) {
      ref.t.forEach((t, j) => {
        if (t % step !== 0 && j !== ref.t.length - 1) return;
        rows.push([t, ...known.flatMap((x) => [x.f.psi[j] ?? null, x.f.omega[j] ?? null])]);
      });
    }
    const overTime: Table = {
      title: `Sharing benefit Psi and sharing loss Omega over time (capacity ${p.capacity}, seed ${seed})`,
      columns: ["t (s)", ...known.flatMap((x) => [`${x.policy} Psi`, `${x.policy} Omega`])],
      rows,
      notes: ["Psi = sum of max(rho_i - 1, 0), Omega = sum of min(rho_i - 1, 0); rho_i = received / what a private 1/4 of the cluster would give"],
    };
    const perQueue: Table = {
      title: `Fairness degree rho per queue at the end of the run (horizon ${p.horizon} s)`,
      columns: ["policy", ...workload.queues.map((q) => q.name), "Psi", "Omega"],
      rows: known.map((x) => {
        const j = x.f.t.length - 1;
        return [x.policy, ...x.f.rho.map((r) => r[j]), x.f.psi[j], x.f.omega[j]];
      }),
    };
    const charts: Record<string, Series[]> = {};
    const chartAxes: Record<string, ChartAxes> = {};
    // Psi and Omega of every policy in one chart each (the paper's Fig. 7 comparison), then per queue
    for (const [key, label] of [["psi", "Psi (sharing benefit)"], ["omega", "Omega (sharing loss)"]] as const) {
      charts[label + " over time"] = known.map((x) => ({ name: x.policy, x: x.f.t, y: x.f[key] }));
      chartAxes[label + " over time"] = { x: "time (s)", y: label };
    }
    for (const x of known) {
      charts[`${x.policy}: sharing benefit and loss`] = [
        { name: "Psi", x: x.f.t, y: x.f.psi },
        { name: "Omega", x: x.f.t, y: x.f.omega },
      ];
      charts[`${x.policy}: fairness degree per queue`] = workload.queues.map((q, i) => ({ name: q.name, x: x.f.t, y: x.f.rho[i] }));
    }
    return {
      scenario: "ltrf-macro", seed, params: { ...p, every: step }, policies: set.results.map((r) => r.policy),
      tables: [overTime, perQueue], charts, chartAxes,
      metrics: Object.fromEntries(set.results.map((r) => [r.policy, { metrics: r.metrics, stats: r.stats, policyReport: r.policyReport }])),
    };
  },
};

