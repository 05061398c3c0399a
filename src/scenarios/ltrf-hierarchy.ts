// ltrf-hierarchy: the LTRF paper's Fig. 2 starvation example on the step model: 12 units,
// users A..D in groups G1 = {A, B} and G2 = {C, D}, first demands 200, 10, 50, 60, new
// demands 20, 60, 40, 80 at t = 27. The naive hierarchical approach starves B for 8 time
// units; H-LTRF with a small T_wait serves it every T_wait; T_wait = 0 is flat LTRF.
import { InputError } from "../errors.js";
import type { Table } from "./table.js";
import { longestStarvation, runHierModel, type HierModelInput, type HierRecord } from "../ltrf/hier-model.js";
import type { Scenario } from "./scenario.js";
import { numParam } from "./common.js";

export const NEW_DEMANDS_AT = 27;

export function fig2Input(steps = 45): HierModelInput {
  const at = (first: number, later: number) => {
    const a = new Array<number>(steps).fill(0);
    a[0] = first;
    a[NEW_DEMANDS_AT] = later;
    return a;
  };
  return {
    capacity: 12,
    users: [
      { name: "A", path: ["G1"], arrivals: at(200, 20) },
      { name: "B", path: ["G1"], arrivals: at(10, 60) },
      { name: "C", path: ["G2"], arrivals: at(50, 40) },
      { name: "D", path: ["G2"], arrivals: at(60, 80) },
    ],
  };
}

const VARIANTS: Record<string, (tWait: number) => number> = {
  naive: () => Infinity,
  "h-ltrf": (tWait) => tWait,
  ltrf: () => 0,
};

const CHART = "B's allocation per time unit (new demands at t = 27)";

export const ltrfHierarchyScenario: Scenario = {
  name: "ltrf-hierarchy",
  description: "LTRF paper Fig. 2: naive hierarchical LTRF starves B; H-LTRF (param tWait, default 1) does not",
  defaultPolicies: ["naive", "h-ltrf", "ltrf"],
  params: ["tWait", "steps"],
  run({ policies, seed, params, engine: _engine }) {
    const tWait = numParam(params, "tWait", 1);
    if (!(tWait >= 0)) throw new InputError("--param tWait", `must be >= 0 (got ${tWait})`);
    const steps = numParam(params, "steps", 45);
    const input = fig2Input(steps);
    const names = policies ?? this.defaultPolicies;
    const runs: Array<{ policy: string; tWait: number; recs: HierRecord[] }> = names.map((p) => {
      const f = VARIANTS[p];
      if (!f) throw new InputError("policies", `ltrf-hierarchy runs ${Object.keys(VARIANTS).join(", ")} (got '${p}')`);
      return { policy: p, tWait: f(tWait), recs: runHierModel(input, { tWait: f(tWait), seed }) };
    });
    const users = input.users.map((u) => u.name);
    const from = Math.max(0, NEW_DEMANDS_AT - 2);
    const alloc: Table = {
      title: `Allocations per time unit from t = ${from} (new demands at t = ${NEW_DEMANDS_AT}); cells: A B C D`,
      columns: ["t", ...runs.map((r) => `${r.policy} (T_wait=${r.tWait})`)],
      rows: runs[0].recs.filter((r) => r.t >= from).map((r) => [
        r.t, ...runs.map((x) => x.recs[r.t].alloc.join(" ")),
      ]),
    };
    const summary: Table = {
      title: "Starvation of B after the new demands, and totals",
      columns: ["policy", "T_wait", "B longest wait", "starvation grants", ...users.map((u) => `total ${u}`), "G1", "G2"],
      rows: runs.map((r) => {
        const last = r.recs[r.recs.length - 1];
        const starved = r.recs.reduce((a, x) => a + x.starved.reduce((s, v) => s + v, 0), 0);
        return [r.policy, r.tWait, longestStarvation(r.recs, 1, NEW_DEMANDS_AT), starved, ...last.cumulative,
          last.cumulative[0] + last.cumulative[1], last.cumulative[2] + last.cumulative[3]];
      }),
      notes: [`the paper's bound for the naive approach: floor((210 - 110) / 12) = ${Math.floor(100 / 12)} time units`],
    };
    return {
      scenario: "ltrf-hierarchy", seed, params: { tWait, steps, capacity: input.capacity, newDemandsAt: NEW_DEMANDS_AT },
      policies: runs.map((r) => r.policy), tables: [summary, alloc],
      // B's allocation per time unit: the naive approach's gap after the new demands is its starvation
      charts: { [CHART]: runs.map((r) => ({ name: `${r.policy} (T_wait=${r.tWait})`, x: r.recs.map((x) => x.t), y: r.recs.map((x) => x.alloc[1]) })) },
      chartAxes: { [CHART]: { x: "time unit", y: "units allocated to B", yRange: [0, null] } },
      metrics: Object.fromEntries(runs.map((r) => [r.policy, { tWait: r.tWait, records: r.recs }])),
    };
  },
};

