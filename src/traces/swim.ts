// SWIM Facebook 2009 MapReduce workload (TSV) -> simulator Workload.
//
// The trace has byte counts only (job_id, submit_time_s, inter_arrival_gap_s, map_input_bytes,
// shuffle_bytes, reduce_output_bytes), so tasks and durations come from a model of Hadoop
// (every parameter is an option and is echoed into workload.params):
// - Map stage: ceil(map_input_bytes / blockBytes) tasks (one per HDFS block, 64 MiB by default),
//   at least 1 (a job with no input still runs one map task).
// - Reduce stage: none when shuffle_bytes is 0 (a map-only job: the maps write the output). Else
//   ceil(max(shuffle_bytes, reduce_output_bytes) / reduceBytes) tasks (64 MiB by default: a
//   reducer reads its partition and writes its part of the output), and it waits for the map
//   stage (parents [0]).
// - Durations: taskOverhead seconds (JVM start, scheduling) plus the bytes a task handles divided
//   by `throughput` (bytes/s per task): a map handles input/maps (plus output/maps for a map-only
//   job), a reducer (shuffle + output)/reduces. One duration per stage: the trace gives totals,
//   so tasks of a stage are modelled as equal.
// - Demands: each task takes one `mapDemand` / `reduceDemand` vector over [cpu, memory_gb];
//   capacity = machines * machineSize. Defaults: 600 machines (the size SWIM reports for the
//   2009 Facebook cluster) of 8 cores and 16 GB, map [1, 1], reduce [1, 2].
// - Arrival: submit_time_s as written (the 24 one-hour samples are laid end to end, 0..86,400).
// - Queues: one queue "default" (the trace has no users), or by job size: "small" (<= 10 map
//   tasks), "medium" (<= 500), "large" (option queueBy: 'size'); all TQ.
// - Job ids must be unique (a duplicate is a bad line: replaying it would double-count work).
import { basename } from "node:path";
import { InputError } from "../errors.js";
import { sanitizeForTerminal } from "../util/terminal.js";
import type { JobSpec, QueueSpec, Workload } from "../policy/model.js";
import { IssueLog, LineProblem, checkOption, type LoadResult } from "./issues.js";
import { forEachLine } from "./lines.js";
import { NameEscaper } from "./names.js";

export interface SwimRecord {
  id: string;
  submit: number;
  gap: number;
  inputBytes: number;
  shuffleBytes: number;
  outputBytes: number;
}

export interface SwimModel {
  blockBytes: number;
  reduceBytes: number;
  /** Bytes per second one task processes. */
  throughput: number;
  taskOverhead: number;
  mapDemand: number[];
  reduceDemand: number[];
  machines: number;
  machineSize: number[];
  queueBy: "single" | "size";
}

export interface SwimLoadOptions extends Partial<SwimModel> {
  /** Path of the TSV (optionally .gz). */
  file: string;
  lenient?: boolean;
  /** Longest line in bytes (default 1 MiB): a longer one is an InputError naming file:line. */
  maxLineBytes?: number;
}

const MiB = 1024 * 1024;

export const SWIM_DEFAULTS: Readonly<SwimModel> = Object.freeze({
  blockBytes: 64 * MiB,
  reduceBytes: 64 * MiB,
  throughput: 8 * MiB,
  taskOverhead: 1,
  mapDemand: [1, 1],
  reduceDemand: [1, 2],
  machines: 600,
  machineSize: [8, 16],
  queueBy: "single",
});

const COUNT = /^\d+$/;
const DECIMAL = /^(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;
const FIELDS = ["job_id", "submit_time_s", "inter_arrival_gap_s", "map_input_bytes", "shuffle_bytes", "reduce_output_bytes"];

/** Tasks in one trace at most: the simulator's bound (src/sim/validate-workload.ts). */
const MAX_TASKS = 2 ** 27;

/** One TSV row, pure. Byte counts must be non-negative integers, times non-negative numbers. */
export function parseSwimLine(line: string): SwimRecord | LineProblem {
  if (line.trim() === "") return new LineProblem("blank", "blank line");
  const f = line.split("\t");
  if (f.length !== 6) return new LineProblem("columns", `expected 6 tab-separated columns (${FIELDS.join(", ")}), got ${f.length}`);
  if (f[0] === "" || /\s/.test(f[0])) return new LineProblem("job_id", `job_id must be a non-empty name without spaces (got ${JSON.stringify(f[0])})`);
  const nums: number[] = [];
  for (let i = 1; i < 6; i++) {
    const s = f[i];
    const ok = i <= 2 ? DECIMAL.test(s) : COUNT.test(s);
    const v = Number(s);
    if (!ok || !Number.isFinite(v)) {
      const what = i <= 2 ? "a number >= 0 (seconds)" : "an integer >= 0 (bytes)";
      return new LineProblem(FIELDS[i], `${FIELDS[i]} must be ${what} (got ${JSON.stringify(s.length > 40 ? s.slice(0, 40) + "…" : s)})`);
    }
    nums.push(v);
  }
  return { id: f[0], submit: nums[0], gap: nums[1], inputBytes: nums[2], shuffleBytes: nums[3], outputBytes: nums[4] };
}

/** The job a record becomes under the model (see the header). Pure. */
export function swimJob(r: SwimRecord, m: SwimModel): JobSpec {
  const maps = Math.max(1, Math.ceil(r.inputBytes / m.blockBytes));
  const mapOnly = r.shuffleBytes === 0;
  const mapBytes = (r.inputBytes + (mapOnly ? r.outputBytes : 0)) / maps;
  const stages: JobSpec["stages"] = [{ tasks: maps, demand: [...m.mapDemand], duration: m.taskOverhead + mapBytes / m.throughput }];
  if (!mapOnly) {
    const reduces = Math.max(1, Math.ceil(Math.max(r.shuffleBytes, r.outputBytes) / m.reduceBytes));
    const reduceBytes = (r.shuffleBytes + r.outputBytes) / reduces;
    stages.push({ tasks: reduces, demand: [...m.reduceDemand], duration: m.taskOverhead + reduceBytes / m.throughput, parents: [0] });
  }
  const queue = m.queueBy === "single" ? "default" : maps <= 10 ? "small" : maps <= 500 ? "medium" : "large";
  return { id: r.id, queue, arrival: r.submit, stages };
}

function resolveModel(o: SwimLoadOptions): SwimModel {
  const m = { ...SWIM_DEFAULTS } as SwimModel;
  for (const key of Object.keys(SWIM_DEFAULTS) as Array<keyof SwimModel>) {
    if (o[key] !== undefined) (m as unknown as Record<string, unknown>)[key] = o[key];
  }
  checkOption("blockBytes", m.blockBytes, 1);
  checkOption("reduceBytes", m.reduceBytes, 1);
  checkOption("throughput", m.throughput, Number.MIN_VALUE);
  checkOption("taskOverhead", m.taskOverhead, 0);
  checkOption("machines", m.machines, 1, Infinity, true);
  if (m.queueBy !== "single" && m.queueBy !== "size") throw new InputError("options.queueBy", `must be 'single' or 'size' (got ${String(m.queueBy)})`);
  const k = m.machineSize.length;
  for (const [name, v] of [["machineSize", m.machineSize], ["mapDemand", m.mapDemand], ["reduceDemand", m.reduceDemand]] as const) {
    if (!Array.isArray(v) || v.length !== k) throw new InputError(`options.${name}`, `must be an array of ${k} numbers (one per resource: cpu, memory_gb)`);
    v.forEach((x, i) => checkOption(`${name}[${i}]`, x, name === "machineSize" ? Number.MIN_VALUE : 0));
  }
  return m;
}

/** Reads a SWIM workload TSV into a Workload. */
export async function loadSwim(opts: SwimLoadOptions): Promise<LoadResult> {
  if (!opts || typeof opts.file !== "string") throw new InputError("options.file", "must be the path of a SWIM .tsv file");
  const m = resolveModel(opts);
  const log = new IssueLog(opts.lenient === true);
  const file = opts.file;
  const jobs: JobSpec[] = [];
  const ids = new Map<string, number>();
  const names = new NameEscaper();
  let totalTasks = 0;
  const lines = await forEachLine(file, (line, no) => {
    const r = parseSwimLine(line);
    if (r instanceof LineProblem) return log.bad(file, no, r);
    const id = names.name(r.id, "job_id");
    if (id instanceof LineProblem) return log.bad(file, no, id);
    r.id = id;
    const prev = ids.get(r.id);
    if (prev !== undefined) return log.bad(file, no, new LineProblem("duplicate_id", `job_id ${JSON.stringify(r.id)} already used on line ${prev}`));
    const job = swimJob(r, m);
    // the simulator's bound on tasks (validate-workload.ts), checked here so the error names
    // the line: 10^30 input bytes is ~10^22 map tasks
    const tasks = job.stages.reduce((a, st) => a + st.tasks, 0);
    if (!(totalTasks + tasks <= MAX_TASKS)) {
      return log.bad(file, no, new LineProblem("tasks", `this job's ${tasks} tasks (bytes / blockBytes, reduceBytes) bring the trace beyond the simulator's 2^27 tasks`));
    }
    totalTasks += tasks;
    ids.set(r.id, no);
    jobs.push(job);
  }, { maxLineBytes: opts.maxLineBytes });
  log.adjust("names_escaped", names.escaped);
  if (jobs.length === 0) throw new InputError(sanitizeForTerminal(file), "no jobs: the file is empty or every line was skipped");
  // Stable sort: equal submit times keep file order.
  jobs.sort((a, b) => a.arrival - b.arrival);
  const queues: QueueSpec[] = [];
  for (const name of m.queueBy === "single" ? ["default"] : ["small", "medium", "large"]) {
    if (jobs.some((j) => j.queue === name)) queues.push({ name, kind: "TQ", weight: 1 });
  }
  const workload: Workload = {
    name: `swim:${sanitizeForTerminal(basename(file))}`,
    resources: ["cpu", "memory_gb"],
    capacity: m.machineSize.map((s) => s * m.machines),
    queues,
    jobs,
    params: { trace: "swim", file: sanitizeForTerminal(basename(file)), ...m },
    seed: 0,
  };
  return { workload, summary: log.summary(lines, workload) };
}
