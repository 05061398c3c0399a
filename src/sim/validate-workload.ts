// A workload is input: every malformed field is an InputError naming where it is.
import { InputError, describeValue } from "../errors.js";
import type { Workload } from "../policy/model.js";

function finiteNonNeg(x: unknown): x is number {
  return typeof x === "number" && Number.isFinite(x) && x >= 0;
}

/** Tasks in one workload at most. */
const MAX_TASKS = 2 ** 27;

export function validateWorkload(w: Workload): void {
  if (w === null || typeof w !== "object") throw new InputError("workload", `expected an object, got ${describeValue(w)}`);
  if (!Array.isArray(w.capacity) || w.capacity.length === 0) throw new InputError("workload.capacity", "must be a non-empty array");
  const k = w.capacity.length;
  w.capacity.forEach((c, i) => {
    if (!(typeof c === "number" && Number.isFinite(c) && c > 0)) throw new InputError(`workload.capacity[${i}]`, `must be a finite number > 0 (got ${describeValue(c)})`);
  });
  if (!Array.isArray(w.resources) || w.resources.length !== k) throw new InputError("workload.resources", `must name the ${k} resources of capacity`);
  if (!Array.isArray(w.queues)) throw new InputError("workload.queues", "must be an array");
  const names = new Set<string>();
  w.queues.forEach((q, i) => {
    if (!q || typeof q.name !== "string" || q.name === "") throw new InputError(`workload.queues[${i}].name`, "must be a non-empty string");
    if (names.has(q.name)) throw new InputError(`workload.queues[${i}].name`, `duplicate queue name '${q.name}'`);
    names.add(q.name);
    if (q.kind !== "LQ" && q.kind !== "TQ") throw new InputError(`workload.queues[${i}].kind`, `must be 'LQ' or 'TQ' (got ${describeValue(q.kind)})`);
    if (q.weight !== undefined && !(typeof q.weight === "number" && Number.isFinite(q.weight) && q.weight > 0)) {
      throw new InputError(`workload.queues[${i}].weight`, `must be a finite number > 0 (got ${describeValue(q.weight)})`);
    }
    if (q.bursts !== undefined && !Array.isArray(q.bursts)) throw new InputError(`workload.queues[${i}].bursts`, `expected an array of bursts, got ${describeValue(q.bursts)}`);
    if (q.path !== undefined && !(Array.isArray(q.path) && q.path.every((p) => typeof p === "string"))) throw new InputError(`workload.queues[${i}].path`, `expected an array of group names, got ${describeValue(q.path)}`);
    if (q.params !== undefined && (q.params === null || typeof q.params !== "object")) throw new InputError(`workload.queues[${i}].params`, `expected an object, got ${describeValue(q.params)}`);
    q.bursts?.forEach((b, n) => {
      const f = `workload.queues[${i}].bursts[${n}]`;
      if (b === null || typeof b !== "object") throw new InputError(f, `expected {start, window, volume}, got ${describeValue(b)}`);
      if (!finiteNonNeg(b.start)) throw new InputError(`${f}.start`, `must be a finite number >= 0 (got ${describeValue(b.start)})`);
      if (!(typeof b.window === "number" && Number.isFinite(b.window) && b.window > 0)) throw new InputError(`${f}.window`, `must be a finite number > 0 (got ${describeValue(b.window)})`);
      if (!Array.isArray(b.volume) || b.volume.length !== k) throw new InputError(`${f}.volume`, `must have ${k} entries`);
      b.volume.forEach((v, r) => { if (!finiteNonNeg(v)) throw new InputError(`${f}.volume[${r}]`, `must be a finite number >= 0 (got ${describeValue(v)})`); });
    });
  });
  if (!Array.isArray(w.jobs)) throw new InputError("workload.jobs", "must be an array");
  const ids = new Set<string>();
  let totalTasks = 0;
  w.jobs.forEach((j, i) => {
    const f = `workload.jobs[${i}]`;
    if (!j || typeof j.id !== "string") throw new InputError(`${f}.id`, "must be a string");
    if (ids.has(j.id)) throw new InputError(`${f}.id`, `duplicate job id '${j.id}'`);
    ids.add(j.id);
    if (!names.has(j.queue)) throw new InputError(`${f}.queue`, `unknown queue ${describeValue(j.queue)}`);
    if (!finiteNonNeg(j.arrival)) throw new InputError(`${f}.arrival`, `must be a finite number >= 0 (got ${describeValue(j.arrival)})`);
    if (j.deadline !== undefined && !(typeof j.deadline === "number" && j.deadline > 0 && Number.isFinite(j.deadline))) {
      throw new InputError(`${f}.deadline`, `must be a finite number > 0 (got ${describeValue(j.deadline)})`);
    }
    if (!Array.isArray(j.stages) || j.stages.length === 0) throw new InputError(`${f}.stages`, "must be a non-empty array");
    j.stages.forEach((s, si) => {
      const g = `${f}.stages[${si}]`;
      if (s === null || typeof s !== "object") throw new InputError(g, `expected {tasks, demand, duration, parents?}, got ${describeValue(s)}`);
      if (!(Number.isInteger(s.tasks) && s.tasks >= 1)) throw new InputError(`${g}.tasks`, `must be an integer >= 1 (got ${describeValue(s.tasks)})`);
      // the simulator keeps state per task: 2^53 tasks would never finish (or exhaust memory)
      totalTasks += s.tasks;
      if (totalTasks > MAX_TASKS) throw new InputError(`${g}.tasks`, `brings the workload to ${totalTasks} tasks, beyond the simulator's 2^27`);
      if (!Array.isArray(s.demand) || s.demand.length !== k) throw new InputError(`${g}.demand`, `must have ${k} entries (one per resource)`);
      s.demand.forEach((d, r) => {
        if (!finiteNonNeg(d)) throw new InputError(`${g}.demand[${r}]`, `must be a finite number >= 0 (got ${describeValue(d)})`);
        if (d > w.capacity[r]) throw new InputError(`${g}.demand[${r}]`, `${d} exceeds the capacity ${w.capacity[r]}: the task could never run`);
      });
      if (Array.isArray(s.duration)) {
        if (s.duration.length !== s.tasks) throw new InputError(`${g}.duration`, `has ${s.duration.length} entries for ${s.tasks} tasks`);
        s.duration.forEach((d, t) => { if (!finiteNonNeg(d)) throw new InputError(`${g}.duration[${t}]`, `must be a finite number >= 0 (got ${describeValue(d)})`); });
      } else if (!finiteNonNeg(s.duration)) {
        throw new InputError(`${g}.duration`, `must be a finite number >= 0 (got ${describeValue(s.duration)})`);
      }
      if (s.parents !== undefined && !Array.isArray(s.parents)) throw new InputError(`${g}.parents`, `expected an array of stage indices, got ${describeValue(s.parents)}`);
      (s.parents ?? []).forEach((p, pi) => {
        if (!(Number.isInteger(p) && p >= 0 && p < si)) throw new InputError(`${g}.parents[${pi}]`, `must index an earlier stage (stages are listed in topological order), got ${describeValue(p)}`);
      });
    });
  });
}
