// The paper's discrete-time model (§5.1, Table 1): one resource of C units, every task
// needs 1 unit for 1 time unit, new demands arrive at the start of each step and unmet
// demand carries over. Each step, MLRF or LTRF decides how many tasks each user starts.
//
//   task form:  Algorithm 1 through engine.ltrf (1 task = 1 unit of accumulated usage);
//               MLRF is the same selection with a memoryless ledger (usage 0 every step:
//               every task of the last step has ended), i.e. max-min on current demand.
//   fluid form: DRF progressive filling (engine.drf); LTRF passes the accumulated
//               dominant share·steps as offsets o_i = U_i / (C w_i) (docs/policies/drf.md).
//
// LTYARN features: round length L (the ledger resets at every step t with t mod L = 0),
// min share (task form: queues first get up to floor(minShare C) tasks among themselves,
// in LTRF order) and max share (at most floor(maxShare C) tasks per step; in the fluid
// form a cap on the demand).
//
// Worked example: Table 1 (C = 100; A 20, 40, 80, 60; B 100, 60, 50, 50). LTRF: t1 A 20 /
// B 80; t2 U = <20, 80>, A catches up to 60 with its 40 tasks, B gets 60; t3 U = <60, 140>,
// A takes all 80 (U_A reaches 140), B the last 20; t4 U = <140, 160>, A first takes 20 to
// tie at 160, then they alternate: A 60, B 40. Totals 200 / 200. MLRF: 20/80, 40/60,
// 50/50, 50/50, totals 160 / 240.
import type { Engine } from "../engine/engine.js";
import { InputError, describeValue } from "../errors.js";

export interface StepUser {
  name: string;
  weight?: number;
  /** New tasks arriving at the start of each step. */
  arrivals: readonly number[];
  /** Fraction of C guaranteed first each step (task form). */
  minShare?: number;
  /** Fraction of C the user may hold at most. */
  maxShare?: number;
}

export interface StepModelInput {
  /** Units of the one resource (tasks need 1 unit for 1 step). */
  capacity: number;
  users: readonly StepUser[];
  /** Steps to run; default: the longest arrivals list. */
  steps?: number;
  /** Round length L in steps: the LTRF ledger resets at every multiple of L. Default Infinity. */
  window?: number;
}

export type FlatPolicyName = "mlrf" | "ltrf";

export interface StepRecord {
  t: number;
  newDemand: number[];
  /** Carried-over plus new demand before allocation. */
  totalDemand: number[];
  /** Tasks started (units held) this step. */
  alloc: number[];
  /** Sum of alloc since step 0 (never windowed). */
  cumulative: number[];
  /** The policy's ledger after the step (accumulated usage within the round; 0 for MLRF). */
  ledger: number[];
}

export function checkStepInput(input: StepModelInput): number {
  const C = input.capacity;
  if (!(C > 0) || !Number.isFinite(C)) throw new InputError("capacity", `must be a finite number > 0 (got ${describeValue(C)})`);
  if (!Array.isArray(input.users) || input.users.length === 0) throw new InputError("users", "must list at least one user");
  input.users.forEach((u, i) => {
    if (u.weight !== undefined && !(u.weight > 0 && Number.isFinite(u.weight))) throw new InputError(`users[${i}].weight`, `must be a finite number > 0 (got ${describeValue(u.weight)})`);
    u.arrivals.forEach((a: number, t: number) => {
      if (!(a >= 0) || a !== Math.floor(a) || !Number.isFinite(a)) throw new InputError(`users[${i}].arrivals[${t}]`, `must be a whole number >= 0 (got ${describeValue(a)})`);
    });
    for (const f of ["minShare", "maxShare"] as const) {
      const v = u[f];
      if (v !== undefined && !(v >= 0 && v <= 1)) throw new InputError(`users[${i}].${f}`, `must be a fraction in [0, 1] (got ${describeValue(v)})`);
    }
  });
  const L = input.window ?? Infinity;
  if (!(L >= 1) || (Number.isFinite(L) && L !== Math.floor(L))) throw new InputError("window", `must be a whole number of steps >= 1 or Infinity (got ${describeValue(L)})`);
  return input.steps ?? Math.max(...input.users.map((u) => u.arrivals.length));
}

/** Runs MLRF or LTRF on the step model. */
export function runStepModel(engine: Engine, input: StepModelInput, policy: FlatPolicyName, form: "task" | "fluid" = "task"): StepRecord[] {
  const steps = checkStepInput(input);
  const C = input.capacity;
  const users = input.users;
  const n = users.length;
  const L = input.window ?? Infinity;
  const weights = users.map((u) => u.weight ?? 1);
  const minCap = users.map((u) => Math.floor((u.minShare ?? 0) * C));
  const maxCap = users.map((u) => (u.maxShare === undefined ? Infinity : Math.floor(u.maxShare * C)));
  const demand = new Array<number>(n).fill(0);
  const cumulative = new Array<number>(n).fill(0);
  let ledger = new Float64Array(n);
  const out: StepRecord[] = [];
  for (let t = 0; t < steps; t++) {
    if (t > 0 && Number.isFinite(L) && t % L === 0) ledger = new Float64Array(n); // a new round
    const newDemand = users.map((u) => u.arrivals[t] ?? 0);
    for (let i = 0; i < n; i++) demand[i] += newDemand[i];
    const totalDemand = demand.slice();
    const usage = policy === "ltrf" ? ledger : new Float64Array(n);
    let alloc: number[];
    if (form === "task") {
      alloc = taskStep(engine, C, demand, usage, weights, minCap, maxCap);
    } else {
      const capped = demand.map((d, i) => Math.min(d, maxCap[i]));
      const offsets = Array.from(usage, (u, i) => u / (C * weights[i]));
      const r = engine.drf({ capacity: [C], demands: capped.map((d) => [d]), weights, offsets });
      alloc = Array.from(r.allocation);
    }
    for (let i = 0; i < n; i++) {
      demand[i] -= alloc[i];
      cumulative[i] += alloc[i];
      if (policy === "ltrf") ledger[i] += alloc[i];
    }
    out.push({
      t, newDemand, totalDemand, alloc, cumulative: cumulative.slice(),
      ledger: policy === "ltrf" ? Array.from(ledger) : new Array<number>(n).fill(0),
    });
  }
  return out;
}

/** One step of the task form: min-share phase, then everyone up to the max share. */
function taskStep(engine: Engine, C: number, demand: number[], usage: Float64Array, weights: number[], minCap: number[], maxCap: number[]): number[] {
  const n = demand.length;
  const tasks = new Float64Array(n).fill(1);
  let free = [C];
  let u = usage;
  const given = new Array<number>(n).fill(0);
  if (minCap.some((m) => m > 0)) {
    const r = engine.ltrf({ free, tasks, pending: demand.map((d, i) => Math.min(d, minCap[i], maxCap[i])), usage: u, weights });
    for (let i = 0; i < n; i++) given[i] = r.count[i];
    free = Array.from(r.free);
    u = r.usage;
  }
  const r = engine.ltrf({ free, tasks, pending: demand.map((d, i) => Math.max(0, Math.min(d, maxCap[i]) - given[i])), usage: u, weights });
  return given.map((g, i) => g + r.count[i]);
}
