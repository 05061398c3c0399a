// Converter from the workload files IRFsim (the BoPF authors' simulator) generates to our
// `Workload`. The formats, as IRFsim's readers parse them (`JobQueueList.readQueue`,
// `StageDag.readDags`), are described in docs/reproduction-bopf.md ("IRFsim's file formats").
//
// Queue file, one block per queue:
//   # <comment>
//   <name> <type> <startTime>          type 0: throughput queue (TQ), 1: latency queue (LQ)
//   TQ: <weight>
//   LQ: <n>, then n lines "<alphaDuration> <period> <alpha_0> .. <alpha_{K-1}>"; burst i starts at
//       startTime + period_0 + .. + period_{i-1}; alphas are fractions of the cluster's capacity.
// Job file, one block per job (a DAG of stages):
//   # <comment>
//   <numStages> <jobId> <arrival> <queueName> [<sessionId>]
//   numStages lines "<stageName> <taskDuration> <demand_0> .. <demand_{K-1}> <numTasks>"
//   <numEdges>, then numEdges lines "<parentStage> <childStage> <pattern>"
// A stage becomes runnable when all its parent stages have finished (IRFsim's `finishTasks`),
// whatever the pattern, which is also what our `parents` mean.
// Queues come out in IRFsim's own order (`JobQueueList.sortJobQueues`: by start time, an LQ
// before a TQ on equal start, then by name), the order its schedulers iterate and break ties in.
import type { BurstSpec, JobSpec, QueueSpec, StageSpec, Workload } from "../policy/model.js";
import { InputError, describeValue } from "../errors.js";

/** One text file: its name (for error messages) and its content. */
export interface IrfsimFile {
  file: string;
  text: string;
}

export interface IrfsimConvertOptions {
  /**
   * Capacity of every resource: IRFsim's MACHINE_MAX_RESOURCE x NUM_MACHINES (its `CAPACITY`).
   * Task demands in the job file are in these units; queue alphas are fractions of it.
   */
  capacity: number;
  /**
   * When TQ jobs arrive: 'zero' = all at t = 0 (IRFsim's BATCH_JOBS_ARRIVAL_POLICY `All`, which
   * both the 1 LQ + 8 TQ and the Fig. 10 setups use; the file's arrival column is then ignored),
   * 'trace' = at the file's arrival (`Trace`). LQ jobs always arrive at the file's arrival.
   */
  tqArrival: "zero" | "trace";
  /**
   * Keep only LQ bursts (reported and jobs) starting before this time, and TQ jobs arriving
   * before it. IRFsim sessions list up to 1,500 bursts per LQ although a run stops at the end of
   * its batch jobs (or SIM_END_TIME); omitted: keep everything.
   */
  horizon?: number;
  /** Resource names, K of them. Default: IRFsim's order "cpu", "mem", then "r2", "r3", ... */
  resources?: string[];
  /** The workload's name. Default "irfsim". */
  name?: string;
}

export interface IrfsimConversion {
  workload: Workload;
  /** What the conversion kept and left out, for the fixture notes. */
  summary: { lqBursts: number; lqJobs: number; tqJobs: number; tasks: number; droppedBursts: number; droppedJobs: number };
}

/** Limits on what one conversion reads: every input-driven cost is bounded. */
const MAX_LINES = 2 ** 24;
const MAX_STAGES = 2 ** 16;
const MAX_TASKS = 2 ** 27;

const INT = /^-?\d+$/;
// Java's Double.parseDouble forms the generator writes: 27.0, 0.63, 1.0E-4.
const DEC = /^-?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;

class Lines {
  readonly lines: string[];
  i = 0;
  constructor(readonly f: IrfsimFile) {
    if (f === null || typeof f !== "object" || typeof f.file !== "string" || typeof f.text !== "string") {
      throw new InputError("file", `expected { file, text } strings, got ${describeValue(f)}`);
    }
    // Count lines before splitting: a huge file is refused before it is copied.
    let n = 1;
    for (let p = f.text.indexOf("\n"); p >= 0; p = f.text.indexOf("\n", p + 1)) {
      if (++n > MAX_LINES) throw new InputError(f.file, `more than ${MAX_LINES} lines`);
    }
    this.lines = f.text.split("\n").map((l) => l.replace(/\r$/, ""));
  }
  /** Next line that is neither blank nor a '#' comment, as trimmed tokens; null at the end. */
  nextRecord(): { tokens: string[]; line: number } | null {
    while (this.i < this.lines.length) {
      const t = this.lines[this.i++].trim();
      if (t === "" || t.startsWith("#")) continue;
      return { tokens: t.split(/\s+/), line: this.i };
    }
    return null;
  }
  /** The next record, which must exist (`what` says what was expected). */
  need(what: string): { tokens: string[]; line: number } {
    const r = this.nextRecord();
    if (!r) throw new InputError(`${this.f.file}:${this.lines.length}`, `unexpected end of file, expected ${what}`);
    return r;
  }
  err(line: number, problem: string): InputError {
    return new InputError(`${this.f.file}:${line}`, problem);
  }
  int(tok: string | undefined, line: number, what: string, min: number): number {
    if (tok === undefined || !INT.test(tok)) throw this.err(line, `${what} must be a whole number (got ${describeValue(tok)})`);
    const v = Number(tok);
    if (!Number.isSafeInteger(v) || v < min) throw this.err(line, `${what} must be a whole number >= ${min} (got ${tok})`);
    return v;
  }
  num(tok: string | undefined, line: number, what: string, positive = false): number {
    if (tok === undefined || !DEC.test(tok)) throw this.err(line, `${what} must be a number (got ${describeValue(tok)})`);
    const v = Number(tok);
    if (!Number.isFinite(v) || v < 0 || (positive && v === 0)) throw this.err(line, `${what} must be a finite number ${positive ? "> 0" : ">= 0"} (got ${tok})`);
    return v;
  }
}

interface LqSession {
  start: number;
  windows: number[];
  periods: number[];
  alphas: number[][];
  line: number;
}

interface ParsedQueue {
  name: string;
  kind: "LQ" | "TQ";
  /** The header's start time. */
  start: number;
  weight: number;
  session?: LqSession;
}

function parseQueues(f: IrfsimFile, k: { value: number | null }): ParsedQueue[] {
  const L = new Lines(f);
  const out: ParsedQueue[] = [];
  const seen = new Set<string>();
  for (let r = L.nextRecord(); r; r = L.nextRecord()) {
    const [name, type, start] = r.tokens;
    if (r.tokens.length !== 3) throw L.err(r.line, `a queue header is "<name> <type> <startTime>" (got ${r.tokens.length} fields)`);
    if (seen.has(name)) throw L.err(r.line, `duplicate queue '${name}'`);
    seen.add(name);
    const kind = L.int(type, r.line, "queue type", 0);
    const startTime = L.num(start, r.line, "start time");
    if (kind === 0) {
      const w = L.need(`the weight of queue '${name}'`);
      if (w.tokens.length !== 1) throw L.err(w.line, `expected the weight of queue '${name}' alone on its line`);
      out.push({ name, kind: "TQ", start: startTime, weight: L.num(w.tokens[0], w.line, "weight", true) });
    } else if (kind === 1) {
      const c = L.need(`the number of bursts of queue '${name}'`);
      if (c.tokens.length !== 1) throw L.err(c.line, `expected the number of bursts of queue '${name}' alone on its line`);
      const n = L.int(c.tokens[0], c.line, "number of bursts", 0);
      if (n > L.lines.length - L.i) throw L.err(c.line, `${n} bursts announced but only ${L.lines.length - L.i} lines follow`);
      const s: LqSession = { start: startTime, windows: [], periods: [], alphas: [], line: r.line };
      for (let b = 0; b < n; b++) {
        const x = L.need(`burst ${b} of queue '${name}'`);
        const dims = x.tokens.length - 2;
        if (dims < 1) throw L.err(x.line, `a burst is "<alphaDuration> <period> <alpha_0> .. <alpha_K-1>" (got ${x.tokens.length} fields)`);
        if (k.value === null) k.value = dims;
        else if (dims !== k.value) throw L.err(x.line, `${dims} resources, but earlier lines have ${k.value}`);
        s.windows.push(L.num(x.tokens[0], x.line, "alphaDuration", true));
        s.periods.push(L.num(x.tokens[1], x.line, "period", true));
        s.alphas.push(x.tokens.slice(2).map((t, i) => {
          const a = L.num(t, x.line, `alpha[${i}]`);
          if (a > 1) throw L.err(x.line, `alpha[${i}] is a fraction of the capacity and must be <= 1 (got ${t})`);
          return a;
        }));
      }
      out.push({ name, kind: "LQ", start: startTime, weight: 1, session: s });
    } else {
      throw L.err(r.line, `queue type must be 0 (TQ) or 1 (LQ) (got ${type})`);
    }
  }
  if (out.length === 0) throw new InputError(f.file, "no queues");
  // IRFsim's QueueArrivalComparator (names compared by UTF-16 code units, as Java's compareTo)
  return out.sort((a, b) => a.start - b.start || (a.kind === b.kind ? 0 : a.kind === "LQ" ? -1 : 1) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

interface ParsedJob {
  id: number;
  arrival: number;
  queue: string;
  stages: StageSpec[];
  line: number;
}

function parseJobs(f: IrfsimFile, k: { value: number | null }, queues: Set<string>): ParsedJob[] {
  const L = new Lines(f);
  const out: ParsedJob[] = [];
  const ids = new Set<number>();
  let tasks = 0;
  for (let r = L.nextRecord(); r; r = L.nextRecord()) {
    const t = r.tokens;
    if (t.length < 4 || t.length > 5) throw L.err(r.line, `a job header is "<numStages> <jobId> <arrival> <queue> [<sessionId>]" (got ${t.length} fields)`);
    const numStages = L.int(t[0], r.line, "numStages", 1);
    if (numStages > MAX_STAGES) throw L.err(r.line, `numStages ${numStages} is beyond ${MAX_STAGES}`);
    const id = L.int(t[1], r.line, "jobId", 0);
    if (ids.has(id)) throw L.err(r.line, `duplicate jobId ${id}`);
    ids.add(id);
    const arrival = L.int(t[2], r.line, "arrival", 0);
    const queue = t[3];
    if (!queues.has(queue)) throw L.err(r.line, `unknown queue '${queue}' (not in the queue file)`);
    if (t.length === 5) L.int(t[4], r.line, "sessionId", -1);
    const names = new Map<string, number>();
    const raw: Array<{ name: string; duration: number; demand: number[]; tasks: number }> = [];
    for (let s = 0; s < numStages; s++) {
      const x = L.need(`stage ${s} of job ${id}`);
      const dims = x.tokens.length - 3;
      if (dims < 1) throw L.err(x.line, `a stage is "<name> <duration> <demand_0> .. <demand_K-1> <numTasks>" (got ${x.tokens.length} fields)`);
      if (x.tokens.some((tok) => tok.startsWith("@"))) throw L.err(x.line, "stage arrival times ('@t') are not supported");
      if (k.value === null) k.value = dims;
      else if (dims !== k.value) throw L.err(x.line, `${dims} resources, but earlier lines have ${k.value}`);
      const name = x.tokens[0];
      if (names.has(name)) throw L.err(x.line, `duplicate stage '${name}' in job ${id}`);
      names.set(name, s);
      const duration = L.num(x.tokens[1], x.line, "task duration");
      const demand = x.tokens.slice(2, 2 + dims).map((tok, i) => L.num(tok, x.line, `demand[${i}]`));
      const n = L.int(x.tokens[x.tokens.length - 1], x.line, "numTasks", 1);
      tasks += n;
      if (tasks > MAX_TASKS) throw L.err(x.line, `brings the file to ${tasks} tasks, beyond ${MAX_TASKS}`);
      raw.push({ name, duration, demand, tasks: n });
    }
    const e = L.need(`the number of edges of job ${id}`);
    if (e.tokens.length !== 1) throw L.err(e.line, `expected the number of edges of job ${id} alone on its line`);
    const numEdges = L.int(e.tokens[0], e.line, "number of edges", 0);
    if (numEdges > numStages * numStages) throw L.err(e.line, `${numEdges} edges between ${numStages} stages`);
    const parents: Array<Set<number>> = raw.map(() => new Set());
    for (let j = 0; j < numEdges; j++) {
      const x = L.need(`edge ${j} of job ${id}`);
      if (x.tokens.length !== 3) throw L.err(x.line, `an edge is "<parentStage> <childStage> <pattern>" (got ${x.tokens.length} fields)`);
      const from = names.get(x.tokens[0]), to = names.get(x.tokens[1]);
      if (from === undefined) throw L.err(x.line, `unknown stage '${x.tokens[0]}' in job ${id}`);
      if (to === undefined) throw L.err(x.line, `unknown stage '${x.tokens[1]}' in job ${id}`);
      if (from === to) throw L.err(x.line, `stage '${x.tokens[0]}' depends on itself`);
      parents[to].add(from);
    }
    out.push({ id, arrival, queue, stages: topological(raw, parents, () => L.err(e.line, `the stages of job ${id} form a cycle`)), line: r.line });
  }
  if (out.length === 0) throw new InputError(f.file, "no jobs");
  return out;
}

/** Stages in a topological order (file order among the ready ones), parents as indices into it. */
function topological(
  raw: Array<{ duration: number; demand: number[]; tasks: number }>,
  parents: Array<Set<number>>,
  cycle: () => InputError,
): StageSpec[] {
  const pos = new Array<number>(raw.length).fill(-1);
  const order: number[] = [];
  while (order.length < raw.length) {
    const next = raw.findIndex((_, s) => pos[s] < 0 && [...parents[s]].every((p) => pos[p] >= 0));
    if (next < 0) throw cycle();
    pos[next] = order.length;
    order.push(next);
  }
  return order.map((s) => {
    const st: StageSpec = { tasks: raw[s].tasks, demand: raw[s].demand, duration: raw[s].duration };
    if (parents[s].size > 0) st.parents = [...parents[s]].map((p) => pos[p]).sort((a, b) => a - b);
    return st;
  });
}

function checkOptions(o: IrfsimConvertOptions): void {
  if (o === null || typeof o !== "object") throw new InputError("options", `expected an object, got ${describeValue(o)}`);
  if (typeof o.capacity !== "number" || !Number.isFinite(o.capacity) || !(o.capacity > 0)) throw new InputError("options.capacity", `must be a finite number > 0 (got ${describeValue(o.capacity)})`);
  if (o.tqArrival !== "zero" && o.tqArrival !== "trace") throw new InputError("options.tqArrival", `must be 'zero' or 'trace' (got ${describeValue(o.tqArrival)})`);
  if (o.horizon !== undefined && (typeof o.horizon !== "number" || Number.isNaN(o.horizon) || !(o.horizon > 0))) throw new InputError("options.horizon", `must be a number > 0 (got ${describeValue(o.horizon)})`);
  if (o.name !== undefined && typeof o.name !== "string") throw new InputError("options.name", `must be a string (got ${describeValue(o.name)})`);
}

/**
 * Converts IRFsim's generated queue and job files to a `Workload`. LQs report their bursts
 * (start, window = alphaDuration, volume = alpha x capacity x alphaDuration); each LQ job is the
 * burst whose period contains its arrival, with that window as its deadline. Job ids are
 * IRFsim's job ids, so results can be matched job by job with IRFsim's output.
 * Throws InputError naming the file and line of the first malformed record.
 */
export function convertIrfsim(queueFile: IrfsimFile, jobFile: IrfsimFile, options: IrfsimConvertOptions): IrfsimConversion {
  checkOptions(options);
  const k = { value: null as number | null };
  const parsedQueues = parseQueues(queueFile, k);
  const parsedJobs = parseJobs(jobFile, k, new Set(parsedQueues.map((q) => q.name)));
  const dims = k.value ?? 0;
  const resources = options.resources ?? Array.from({ length: dims }, (_, i) => (i === 0 ? "cpu" : i === 1 ? "mem" : `r${i}`));
  if (!Array.isArray(resources) || resources.length !== dims || !resources.every((r) => typeof r === "string")) {
    throw new InputError("options.resources", `must name the ${dims} resources of the files`);
  }
  const cap = options.capacity;
  const horizon = options.horizon ?? Infinity;
  let droppedBursts = 0, droppedJobs = 0, lqBursts = 0, tasks = 0;
  const starts = new Map<string, number[]>();
  const queues: QueueSpec[] = parsedQueues.map((q) => {
    if (!q.session) return { name: q.name, kind: "TQ", weight: q.weight };
    const s = q.session;
    const bursts: BurstSpec[] = [];
    const st: number[] = [];
    let t = s.start;
    for (let b = 0; b < s.windows.length; b++) {
      st.push(t);
      if (t < horizon) bursts.push({ start: t, window: s.windows[b], volume: s.alphas[b].map((a) => a * cap * s.windows[b]) });
      else droppedBursts++;
      t += s.periods[b];
    }
    lqBursts += bursts.length;
    starts.set(q.name, st);
    return { name: q.name, kind: "LQ", bursts };
  });
  const byName = new Map(parsedQueues.map((q) => [q.name, q]));
  const jobs: JobSpec[] = [];
  let lqJobs = 0, tqJobs = 0;
  for (const j of parsedJobs) {
    const q = byName.get(j.queue)!;
    const arrival = q.kind === "TQ" && options.tqArrival === "zero" ? 0 : j.arrival;
    if (!(arrival < horizon)) { droppedJobs++; continue; }
    for (const s of j.stages) {
      s.demand.forEach((d, r) => {
        if (d > cap) throw new InputError(`${jobFile.file}:${j.line}`, `job ${j.id}: a task demands ${d} of resource ${r}, beyond the capacity ${cap}`);
      });
      tasks += s.tasks;
    }
    const job: JobSpec = { id: String(j.id), queue: j.queue, arrival, stages: j.stages };
    if (q.session) {
      const st = starts.get(q.name)!;
      const s = q.session;
      const b = st.findIndex((x, i) => arrival >= x && arrival < x + s.periods[i]);
      if (b >= 0) { job.burst = b; job.deadline = s.windows[b]; }
      lqJobs++;
    } else tqJobs++;
    jobs.push(job);
  }
  const workload: Workload = {
    name: options.name ?? "irfsim",
    resources,
    capacity: resources.map(() => cap),
    queues,
    jobs,
    params: { source: "irfsim", queueFile: queueFile.file, jobFile: jobFile.file, capacity: cap, tqArrival: options.tqArrival, horizon: options.horizon ?? null },
    seed: 0,
  };
  return { workload, summary: { lqBursts, lqJobs, tqJobs, tasks, droppedBursts, droppedJobs } };
}
