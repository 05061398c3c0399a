// `fairsched allocate`: one decision of a share policy on a JSON cluster state, for
// callers in other languages.
//
// Input: { "capacity": [..K], "resources"?: [..K names], "queues": [
//   { "name": "a", "kind"?: "LQ"|"TQ", "weight"?: 1, "demand": [..K], "usage"?: [..K], "bursts"?: [...] } ] }
// `demand` is what the queue could use right now (usage included). Output:
// { "policy", "queues": [{ "name", "allocation": [..K], "dominantShare" }], "admissions"? }
import type { Engine } from "../engine/engine.js";
import { InputError, describeValue } from "../errors.js";
import type { QueueSpec, Workload } from "../policy/model.js";
import type { ClusterState, QueueState } from "../policy/policy.js";
import { getPolicy, policyNames } from "../sim/registry.js";
import { validateWorkload } from "../sim/validate-workload.js";
import { inUserFields } from "./user-fields.js";

const TOP_KEYS = ["capacity", "resources", "queues", "time"];
const QUEUE_KEYS = ["name", "kind", "weight", "demand", "usage", "bursts", "path", "params"];

interface QueueInput extends QueueSpec {
  demand: number[];
  usage?: number[];
}

export function allocate(policyName: string, input: unknown, engine: Engine): Record<string, unknown> {
  const factory = getPolicy(policyName);
  if (!factory) throw new InputError("--policy", `unknown policy '${policyName}' (known: ${policyNames().join(", ")})`);
  if (input === null || typeof input !== "object") throw new InputError("input", `expected a JSON object, got ${describeValue(input)}`);
  for (const key of Object.keys(input)) if (!TOP_KEYS.includes(key)) throw new InputError(key, `unknown key (known: ${TOP_KEYS.join(", ")})`);
  const { capacity, queues, resources, time } = input as { capacity: number[]; queues: QueueInput[]; resources?: string[]; time?: number };
  if (!Array.isArray(queues)) throw new InputError("queues", "must be an array");
  if (time !== undefined && !(typeof time === "number" && Number.isFinite(time) && time >= 0)) throw new InputError("time", `must be a finite number >= 0 (got ${describeValue(time)})`);
  const k = Array.isArray(capacity) ? capacity.length : 0;
  const specs: QueueSpec[] = queues.map((q, i) => {
    if (q === null || typeof q !== "object") throw new InputError(`queues[${i}]`, "must be an object");
    for (const key of Object.keys(q)) if (!QUEUE_KEYS.includes(key)) throw new InputError(`queues[${i}].${key}`, `unknown key (known: ${QUEUE_KEYS.join(", ")})`);
    return { ...q, name: q.name ?? `q${i}`, kind: q.kind ?? "TQ" };
  });
  const workload: Workload = {
    name: "allocate", resources: resources ?? Array.from({ length: k }, (_, r) => `r${r}`),
    capacity, queues: specs, jobs: [], params: {}, seed: 0,
  };
  validateWorkload(workload);
  const n = specs.length;
  const demands = new Float64Array(n * k);
  const usages = new Float64Array(n * k);
  const used = new Float64Array(k);
  queues.forEach((q, i) => {
    const vec = (field: "demand" | "usage", v: unknown, required: boolean): number[] => {
      if (v === undefined && !required) return new Array<number>(k).fill(0);
      if (!Array.isArray(v) || v.length !== k) throw new InputError(`queues[${i}].${field}`, `must be an array of ${k} numbers`);
      v.forEach((x, r) => {
        if (!(typeof x === "number" && Number.isFinite(x) && x >= 0)) throw new InputError(`queues[${i}].${field}[${r}]`, `must be a finite number >= 0 (got ${describeValue(x)})`);
      });
      return v as number[];
    };
    const d = vec("demand", q.demand, true);
    const u = vec("usage", q.usage, false);
    for (let r = 0; r < k; r++) {
      demands[i * k + r] = Math.max(d[r], u[r]);
      usages[i * k + r] = u[r];
      used[r] += u[r];
    }
  });
  for (let r = 0; r < k; r++) {
    if (used[r] > capacity[r] * (1 + 1e-12)) throw new InputError(`queues[*].usage[${r}]`, `the queues' usage ${used[r]} exceeds the capacity ${capacity[r]}`);
  }
  const policy = factory.create();
  policy.init?.({ workload, engine, random: () => 0.5 });
  const admissions = specs.map((_, i) => policy.admission?.(i));
  if (!policy.shares) throw new InputError("--policy", `'${policyName}' is a task-level policy (it orders tasks, it has no shares to print)`);
  const qs: QueueState[] = specs.map((spec, i) => {
    const demand = demands.subarray(i * k, i * k + k);
    const usage = usages.subarray(i * k, i * k + k);
    return {
      index: i, spec, demand, usage, pending: Float64Array.from(demand, (x, r) => x - usage[r]),
      // a queue with pending demand has work to run, one with usage has work running (M-BVT's
      // activity test reads these; without them every queue looked idle and got nothing)
      nextTask: null, runnableTasks: demand.some((x, r) => x > usage[r]) ? 1 : 0, nextArrival: Infinity,
      runningTasks: usage.some((x) => x > 0) ? 1 : 0, activeJobs: demand.some((x) => x > 0) ? 1 : 0,
      openBurst: null, rejected: admissions[i]?.class === "rejected",
    };
  });
  const state: ClusterState = {
    time: time ?? 0, capacity: Float64Array.from(capacity), resources: workload.resources, used, queues: qs, demands, usages,
  };
  const out = new Float64Array(n * k);
  inUserFields(() => policy.shares!(state, out)); // errors name queues[i].demand, not the engine's demands[i]
  return {
    policy: policyName,
    queues: specs.map((s, i) => {
      const a = Array.from(out.subarray(i * k, i * k + k));
      return { name: s.name, allocation: a, dominantShare: Math.max(0, ...a.map((x, r) => x / capacity[r])) };
    }),
    ...(admissions.some((a) => a) ? { admissions: admissions.map((a, i) => ({ queue: specs[i].name, ...a })) } : {}),
  };
}
