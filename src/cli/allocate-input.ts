// The JSON cluster state of `fairsched allocate` (docs/cli.md, "allocate"), checked field by field.
// Every error is an InputError naming the field as the user wrote it (queues[1].tasks[0].demand[1]),
// never an internal name; unknown keys are errors that list the known ones.
import { InputError, describeValue } from "../errors.js";
import { exceeds } from "../dispatch/fit.js";
import type { QueueKind, QueueSpec, Workload } from "../policy/model.js";
import { validateWorkload } from "../sim/validate-workload.js";

export const TOP_KEYS = ["time", "capacity", "resources", "queues", "reservedFor"] as const;
export const QUEUE_KEYS = ["name", "kind", "weight", "path", "params", "demand", "usage", "bursts", "openBurst", "running", "tasks"] as const;
/** Per-queue policy parameters the built-in policies read (min/max shares: LTRF and the dispatch; warp: M-BVT). */
const PARAM_KEYS = ["minShare", "maxShare", "warp"] as const;
const RUNNING_KEYS = ["id", "demand"] as const;
const TASK_KEYS = ["id", "demand", "submitted"] as const;

/** One task as given: a running one, or a waiting one (with its submission time, default `time`). */
export interface AllocateTask {
  id: string;
  demand: number[];
  submitted: number;
}

export interface AllocateQueue {
  spec: QueueSpec;
  /** What it could use now, usage included (max of `demand` and usage, or usage + its tasks). */
  demand: Float64Array;
  usage: Float64Array;
  /** Running tasks as given, or null when the queue gave `usage` (or nothing). */
  running: AllocateTask[] | null;
  /** Waiting tasks in the order they start (FIFO), or null when the queue gave `demand` (or nothing). */
  tasks: AllocateTask[] | null;
  /** Index of the LQ burst open at `time` (given, or the last burst whose window holds `time`), else null. */
  openBurst: number | null;
}

export interface AllocateInput {
  time: number;
  capacity: number[];
  resources: string[];
  queues: AllocateQueue[];
  /** Some queue listed its waiting tasks: the answer includes the tasks to start. */
  withTasks: boolean;
  /** The queue the dispatch's starvation guard reserves room for (a live snapshot's `reservedFor`), else null. */
  reservedFor: string | null;
}

const finiteNonNeg = (x: unknown): x is number => typeof x === "number" && Number.isFinite(x) && x >= 0;
const isObject = (x: unknown): x is Record<string, unknown> => x !== null && typeof x === "object" && !Array.isArray(x);

/** Unknown keys of `o` are an error naming the first, listing every unknown one and the known ones. */
export function rejectUnknownKeys(o: Record<string, unknown>, known: readonly string[], prefix: string): void {
  const unknown = Object.keys(o).filter((key) => !known.includes(key));
  if (unknown.length === 0) return;
  const also = unknown.length > 1 ? `; also unknown: ${unknown.slice(1).join(", ")}` : "";
  throw new InputError(`${prefix}${unknown[0]}`, `unknown key${also} (known: ${known.join(", ")})`);
}

function vector(field: string, v: unknown, k: number): number[] {
  if (!Array.isArray(v)) throw new InputError(field, `must be an array of ${k} numbers (got ${describeValue(v)})`);
  if (v.length !== k) throw new InputError(field, `must have ${k} numbers, one per resource (got ${v.length})`);
  v.forEach((x, r) => {
    if (!finiteNonNeg(x)) throw new InputError(`${field}[${r}]`, `must be a finite number >= 0 (got ${describeValue(x)})`);
  });
  return v as number[];
}

function taskList(field: string, v: unknown, capacity: number[], time: number, keys: readonly string[], ids: Map<string, string>): AllocateTask[] {
  if (!Array.isArray(v)) throw new InputError(field, `must be an array of tasks {${keys.join(", ")}} (got ${describeValue(v)})`);
  return v.map((t, j) => {
    const f = `${field}[${j}]`;
    if (!isObject(t)) throw new InputError(f, `must be an object {${keys.join(", ")}} (got ${describeValue(t)})`);
    rejectUnknownKeys(t, keys, `${f}.`);
    if (typeof t.id !== "string" || t.id === "") throw new InputError(`${f}.id`, `must be a non-empty string (got ${describeValue(t.id)})`);
    const seen = ids.get(t.id);
    if (seen !== undefined) throw new InputError(`${f}.id`, `duplicate task id ${describeValue(t.id)} (also ${seen})`);
    ids.set(t.id, `${f}.id`);
    const demand = vector(`${f}.demand`, t.demand, capacity.length);
    demand.forEach((d, r) => {
      if (exceeds(0, d, capacity[r])) throw new InputError(`${f}.demand[${r}]`, `${d} exceeds the capacity ${capacity[r]}: the task can never fit`);
    });
    if (t.submitted !== undefined && !(finiteNonNeg(t.submitted) && t.submitted <= time)) throw new InputError(`${f}.submitted`, `must be a time in seconds from 0 to time (${time}): a waiting task was submitted by now (got ${describeValue(t.submitted)})`);
    return { id: t.id, demand, submitted: (t.submitted as number | undefined) ?? time };
  });
}

function sum(tasks: AllocateTask[], k: number): number[] {
  const s = new Array<number>(k).fill(0);
  for (const t of tasks) for (let r = 0; r < k; r++) s[r] += t.demand[r];
  return s;
}

/** The workload checks (names, kinds, weights, paths, params, bursts) with the user's field names. */
function checkSpecs(capacity: number[], resources: string[], specs: QueueSpec[]): void {
  const workload: Workload = { name: "allocate", resources, capacity, queues: specs, jobs: [], params: {}, seed: 0 };
  try {
    validateWorkload(workload);
  } catch (e) {
    if (e instanceof InputError && e.field.startsWith("workload.")) {
      const field = e.field.slice("workload.".length);
      throw new InputError(field, e.message.slice(e.field.length + 2));
    }
    throw e;
  }
}

/** The burst of an LQ open at `time`: the one given as `openBurst`, else the last whose window [start, start + window) holds it. */
function openBurstOf(field: string, q: Record<string, unknown>, spec: QueueSpec, time: number): number | null {
  const bursts = spec.bursts ?? [];
  if (q.openBurst === undefined) {
    if (spec.kind !== "LQ") return null;
    let open: number | null = null;
    bursts.forEach((b, n) => { if (b.start <= time && time < b.start + b.window) open = n; });
    return open;
  }
  if (q.openBurst === null) return null;
  if (spec.kind !== "LQ") throw new InputError(field, `only an LQ (kind "LQ") has bursts to open (this queue is a ${spec.kind})`);
  const n = q.openBurst;
  if (!(Number.isInteger(n) && (n as number) >= 0 && (n as number) < bursts.length)) {
    throw new InputError(field, `must be null or the index of one of its ${bursts.length} bursts (got ${describeValue(n)})`);
  }
  if (bursts[n as number].start > time) throw new InputError(field, `burst ${n} starts at ${bursts[n as number].start}, after time ${time}: it cannot be open yet`);
  return n as number;
}

export function parseAllocateInput(input: unknown): AllocateInput {
  if (!isObject(input)) throw new InputError("input", `expected a JSON object {capacity, queues, ...}, got ${describeValue(input)}`);
  rejectUnknownKeys(input, TOP_KEYS, "");
  const { capacity, queues } = input;
  if (!Array.isArray(capacity) || capacity.length === 0) throw new InputError("capacity", `must be a non-empty array of numbers (got ${describeValue(capacity)})`);
  capacity.forEach((c, r) => {
    if (!(typeof c === "number" && Number.isFinite(c) && c > 0)) throw new InputError(`capacity[${r}]`, `must be a finite number > 0 (got ${describeValue(c)})`);
  });
  const k = capacity.length;
  const cap = capacity as number[];
  const resources = input.resources ?? cap.map((_, r) => `r${r}`);
  if (!Array.isArray(resources) || resources.length !== k || !resources.every((s) => typeof s === "string" && s !== "")) {
    throw new InputError("resources", `must name the ${k} resources of capacity (non-empty strings; got ${describeValue(resources)})`);
  }
  const time = input.time ?? 0;
  if (!finiteNonNeg(time)) throw new InputError("time", `must be a finite number >= 0, in seconds (got ${describeValue(time)})`);
  if (!Array.isArray(queues)) throw new InputError("queues", `must be an array of queues (got ${describeValue(queues)})`);

  const raw = queues.map((q, i) => {
    if (!isObject(q)) throw new InputError(`queues[${i}]`, `must be an object (got ${describeValue(q)})`);
    rejectUnknownKeys(q, QUEUE_KEYS, `queues[${i}].`);
    return q;
  });
  const specs: QueueSpec[] = raw.map((q, i) => {
    const spec: QueueSpec = { name: (q.name as string | undefined) ?? `q${i}`, kind: (q.kind as QueueKind | undefined) ?? "TQ" };
    for (const key of ["weight", "path", "params", "bursts"] as const) if (q[key] !== undefined) (spec as unknown as Record<string, unknown>)[key] = q[key];
    return spec;
  });
  checkSpecs(cap, resources as string[], specs);
  specs.forEach((spec, i) => {
    if (!spec.params) return;
    const f = `queues[${i}].params`;
    rejectUnknownKeys(spec.params, PARAM_KEYS, `${f}.`);
    for (const key of ["minShare", "maxShare"] as const) {
      const v = spec.params[key];
      if (v !== undefined && !(typeof v === "number" && v >= 0 && v <= 1)) throw new InputError(`${f}.${key}`, `must be a fraction in [0, 1] of the dominant resource (got ${describeValue(v)})`);
    }
    const w = spec.params.warp;
    if (w !== undefined && !finiteNonNeg(w)) throw new InputError(`${f}.warp`, `must be a finite number >= 0, dominant share x seconds (got ${describeValue(w)})`);
  });

  const ids = new Map<string, string>();
  const used = new Array<number>(k).fill(0);
  const parsed: AllocateQueue[] = raw.map((q, i) => {
    const f = `queues[${i}]`;
    if (q.usage !== undefined && q.running !== undefined) throw new InputError(`${f}.running`, "give either usage or running (whose demands add up to the usage), not both");
    if (q.demand !== undefined && q.tasks !== undefined) throw new InputError(`${f}.tasks`, "give either demand or tasks (whose demands add up to the demand beyond usage), not both");
    const running = q.running === undefined ? null : taskList(`${f}.running`, q.running, cap, time, RUNNING_KEYS, ids);
    const tasks = q.tasks === undefined ? null : taskList(`${f}.tasks`, q.tasks, cap, time, TASK_KEYS, ids);
    const usage = running ? sum(running, k) : q.usage === undefined ? new Array<number>(k).fill(0) : vector(`${f}.usage`, q.usage, k);
    const wanted = tasks ? sum(tasks, k).map((x, r) => x + usage[r]) : q.demand === undefined ? usage : vector(`${f}.demand`, q.demand, k);
    for (let r = 0; r < k; r++) used[r] += usage[r];
    return {
      spec: specs[i],
      demand: Float64Array.from(wanted, (d, r) => Math.max(d, usage[r])),
      usage: Float64Array.from(usage),
      running,
      tasks,
      openBurst: openBurstOf(`${f}.openBurst`, q, specs[i], time),
    };
  });
  for (let r = 0; r < k; r++) {
    if (exceeds(used[r], 0, cap[r])) throw new InputError(`queues[*].usage[${r}]`, `the queues' usage (running tasks included) ${used[r]} exceeds the capacity ${cap[r]}`);
  }
  const reservedFor = input.reservedFor ?? null;
  if (reservedFor !== null && !(typeof reservedFor === "string" && specs.some((spec) => spec.name === reservedFor))) {
    throw new InputError("reservedFor", `must name one of the queues (got ${describeValue(reservedFor)})`);
  }
  return { time, capacity: cap, resources: resources as string[], queues: parsed, withTasks: parsed.some((q) => q.tasks !== null), reservedFor };
}
