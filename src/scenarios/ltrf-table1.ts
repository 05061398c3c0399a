// ltrf-table1: the LTRF paper's Table 1 on the discrete step model (src/ltrf/step-model.ts):
// 100 units, users A and B with new demands 20, 40, 80, 60 and 100, 60, 50, 50, 1-unit
// tasks of 1 time unit. MLRF ends at 160 / 240, LTRF at 200 / 200.
import type { Engine } from "../engine/engine.js";
import { InputError } from "../errors.js";
import type { Table } from "./table.js";
import { stepFairness } from "../ltrf/fairness.js";
import { runStepModel, type FlatPolicyName, type StepModelInput, type StepRecord } from "../ltrf/step-model.js";
import type { Scenario } from "./scenario.js";

export const TABLE1: StepModelInput = {
  capacity: 100,
  users: [
    { name: "A", arrivals: [20, 40, 80, 60] },
    { name: "B", arrivals: [100, 60, 50, 50] },
  ],
};

export function table1Runs(engine: Engine, policies: string[]): Array<{ policy: FlatPolicyName; task: StepRecord[]; fluid: StepRecord[] }> {
  return policies.map((p) => {
    if (p !== "mlrf" && p !== "ltrf") throw new InputError("policies", `ltrf-table1 runs 'mlrf' and 'ltrf' on the step model (got '${p}')`);
    return { policy: p, task: runStepModel(engine, TABLE1, p, "task"), fluid: runStepModel(engine, TABLE1, p, "fluid") };
  });
}

function allocationTable(policy: string, recs: StepRecord[]): Table {
  const share = TABLE1.capacity / TABLE1.users.length;
  const cols = ["t"];
  for (const u of TABLE1.users) cols.push(`${u.name} new`, `${u.name} demand`, `${u.name} alloc`, `${u.name} total`, `${u.name} -share`);
  return {
    title: `Table 1 (${policy.toUpperCase()}): ${TABLE1.capacity} units, 1-unit tasks of 1 time unit`,
    columns: cols,
    rows: recs.map((r) => [
      `t${r.t + 1}`,
      ...TABLE1.users.flatMap((_, i) => [r.newDemand[i], r.totalDemand[i], r.alloc[i], r.cumulative[i], r.alloc[i] - share]),
    ]),
    notes: ["demand = carried-over + new; -share = alloc minus the 50-unit share (the paper's 'Preempt' column)"],
  };
}

function fairnessTable(runs: ReturnType<typeof table1Runs>): Table {
  const rows: Array<Array<string | number>> = [];
  for (const r of runs) {
    const f = stepFairness(r.task, TABLE1.capacity, TABLE1.users.map(() => 1));
    f.t.forEach((t, j) => rows.push([r.policy, `t${t}`, f.rho[0][j], f.rho[1][j], f.psi[j], f.omega[j]]));
  }
  return { title: "Fairness degree rho, sharing benefit Psi and sharing loss Omega", columns: ["policy", "t", "rho A", "rho B", "Psi", "Omega"], rows };
}

const CHART = "Cumulative allocation per user (paper Table 1)";

export const ltrfTable1Scenario: Scenario = {
  name: "ltrf-table1",
  description: "LTRF paper Table 1: MLRF vs LTRF on 100 units for two users (step model, task and fluid forms)",
  defaultPolicies: ["mlrf", "ltrf"],
  params: [],
  run({ policies, seed, engine }) {
    const runs = table1Runs(engine, policies ?? this.defaultPolicies);
    const maxDiff = Math.max(...runs.flatMap((r) => r.task.flatMap((s, t) => s.alloc.map((a, i) => Math.abs(a - r.fluid[t].alloc[i])))));
    const tables = [...runs.map((r) => allocationTable(r.policy, r.task)), fairnessTable(runs)];
    tables[tables.length - 1].notes = [
      `task form (Algorithm 1, engine.ltrf) and fluid form (DRF with offsets, engine.drf) differ by at most ${maxDiff.toExponential(1)} units per step`,
    ];
    return {
      scenario: "ltrf-table1", seed, params: { ...TABLE1 }, policies: runs.map((r) => r.policy), tables,
      // cumulative allocation per user: MLRF ends at 160 / 240, LTRF at 200 / 200
      charts: { [CHART]: runs.flatMap((r) => TABLE1.users.map((u, i) => ({ name: `${r.policy} ${u.name}`, x: r.task.map((s) => s.t + 1), y: r.task.map((s) => s.cumulative[i]) }))) },
      chartAxes: { [CHART]: { x: "time step", y: "cumulative allocation (units)", lines: true, yRange: [0, null] } },
      metrics: Object.fromEntries(runs.map((r) => [r.policy, { task: r.task, fluid: r.fluid }])),
    };
  },
};

