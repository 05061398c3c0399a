// The step model of src/ltrf/step-model.ts for a queue tree (the paper's Fig. 2): each
// step, H-LTRF (Algorithm 2, src/ltrf/hltrf.ts) starts 1-unit, 1-step tasks on C units,
// charging 1 unit of accumulated usage per task. T_wait = Infinity is the naive
// hierarchical approach, T_wait = 0 single-level LTRF (Theorem 1).
import { Rng } from "../random/rng.js";
import { HLtrf } from "./hltrf.js";
import { checkStepInput, type StepModelInput, type StepRecord, type StepUser } from "./step-model.js";
import { buildTree } from "./tree.js";

export interface HierUser extends StepUser {
  /** Group path, e.g. ["G1"]. */
  path?: string[];
}

export interface HierModelInput extends StepModelInput {
  users: readonly HierUser[];
  groupWeights?: Record<string, number>;
}

export interface HierOptions {
  tWait: number;
  tieBreak?: "index" | "random";
  seed?: number;
}

export interface HierRecord extends StepRecord {
  /** Tasks given by starvation detection this step. */
  starved: number[];
}

export function runHierModel(input: HierModelInput, opts: HierOptions): HierRecord[] {
  const steps = checkStepInput(input);
  const users = input.users;
  const n = users.length;
  const C = input.capacity;
  const L = input.window ?? Infinity;
  const tree = buildTree(users, input.groupWeights);
  const rng = new Rng(opts.seed ?? 0);
  const h = new HLtrf(tree, { tWait: opts.tWait, tieBreak: opts.tieBreak, random: () => rng.next() });
  const demand = new Float64Array(n);
  const cumulative = new Array<number>(n).fill(0);
  const usage = new Float64Array(n);
  const tasks = new Float64Array(n).fill(1);
  const inc = new Float64Array(n).fill(1);
  const count = new Float64Array(n);
  const out: HierRecord[] = [];
  for (let t = 0; t < steps; t++) {
    if (t > 0 && Number.isFinite(L) && t % L === 0) usage.fill(0);
    const newDemand = users.map((u) => u.arrivals[t] ?? 0);
    for (let i = 0; i < n; i++) demand[i] += newDemand[i];
    const totalDemand = Array.from(demand);
    const starvedBefore = Array.from(h.starvedServed);
    const pending = Float64Array.from(demand, (d, i) => Math.min(d, users[i].maxShare === undefined ? Infinity : Math.floor(users[i].maxShare! * C)));
    h.allocate({ time: t, free: Float64Array.of(C), tasks, pending, usage, increments: inc, count });
    const alloc = Array.from(count);
    for (let i = 0; i < n; i++) {
      demand[i] -= alloc[i];
      cumulative[i] += alloc[i];
    }
    out.push({
      t, newDemand, totalDemand, alloc, cumulative: cumulative.slice(), ledger: Array.from(usage),
      starved: starvedBefore.map((s, i) => h.starvedServed[i] - s),
    });
  }
  return out;
}

/** The longest run of consecutive steps, from `from` on, in which user i had demand but got nothing. */
export function longestStarvation(records: readonly StepRecord[], i: number, from = 0): number {
  let best = 0, run = 0;
  for (const r of records) {
    if (r.t < from) continue;
    if (r.totalDemand[i] > 0 && r.alloc[i] === 0) run++;
    else run = 0;
    best = Math.max(best, run);
  }
  return best;
}
