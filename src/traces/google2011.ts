// Google cluster trace 2011 -> simulator Workload.
//
// The mapping (every choice here is echoed into workload.params):
// - Resources: cpu, memory, disk. The trace normalises each request to the largest machine
//   (0..1), so the cluster is modelled as `machines` machines of size 1 in every resource:
//   capacity = [M, M, M] and a task's demand is its request vector as written. Default M is
//   12,583, the number of machines of the 2011 cluster, so a part file (a time slice of that whole
//   cluster) keeps its real load; lower it to create contention.
// - Missing requests: a task takes the last non-empty value of each request seen on any of its
//   rows (UPDATE rows change them); a component still missing counts as 0. A task with no request
//   at all is left out (excluded.no_request).
// - Time: seconds since the slice origin, the smallest positive timestamp of the task events
//   (params.timeOrigin_us); the slice ends at the largest finite timestamp. Rows are sorted per
//   task by time (ties keep file order), so unsorted files map like sorted ones.
// - A task's run is SCHEDULE to its next EVICT/FAIL/FINISH/KILL/LOST (LOST also ends a run: the
//   trace lost track of it, so it stopped holding resources as far as we can know). A task that
//   ran several times (evicted, rescheduled) contributes its last complete run: the simulator
//   does not evict, so one run per task is the work to schedule, and the last run is the one that
//   ended the task's life inside the slice.
// - Arrival: the task's first SUBMIT in the slice (or its run's start, when earlier or missing).
//   A job arrives with its earliest task (the simulator has no per-task arrival inside a job).
// - Slice edges (option `censored`): a task still running at the end of the slice, or ending
//   inside it without having been scheduled in it (it started before the slice), has no complete
//   run. 'clip' (default) keeps it with its run cut at the slice edge (a lower bound of its real
//   duration; a task that started before the slice arrives at time 0), because such tasks held
//   resources during the slice and dropping them would understate the load. 'drop' leaves them
//   out. Counts go to summary.adjusted / summary.excluded. Tasks only submitted (never scheduled in
//   the slice) are always left out: nothing says how long they would run.
// - Durations are at least 1 µs (the trace's resolution): zero-length runs exist.
// - Jobs: grouped by job_id; tasks with the same demand vector form one stage (no parents, so
//   a job's stages run side by side) with per-task durations, stages ordered by their lowest
//   task_index.
// - Queues: by user (default; job_events fill in a missing user) or by scheduling class
//   ("class-0".."class-3"), all kind TQ with weight 1, in order of first arrival.
// - job_events (optional) also give each job's logical name, returned as `jobNames`.
import { basename } from "node:path";
import { InputError } from "../errors.js";
import type { JobSpec, QueueSpec, StageSpec, Workload } from "../policy/model.js";
import { GoogleEvent, parseJobEvent, parseTaskEvent, type TaskEvent } from "./google2011-parse.js";
import { IssueLog, LineProblem, checkOption, type LoadResult } from "./issues.js";
import { forEachLine } from "./lines.js";
import { NameEscaper } from "./names.js";
import { sanitizeForTerminal } from "../util/terminal.js";

export interface GoogleLoadOptions {
  /** Path of a task_events part file (.csv or .csv.gz). */
  taskEvents: string;
  /** Path of the matching job_events part file (optional). */
  jobEvents?: string;
  /** Cluster size in machines of size 1 (see the mapping above). Default 12,583. */
  machines?: number;
  /** Queue per user (default) or per scheduling class. */
  queueBy?: "user" | "class";
  /** Tasks cut by the slice's edges: 'clip' (default) or 'drop'. */
  censored?: "clip" | "drop";
  /** Skip malformed lines and count them instead of throwing. Default false. */
  lenient?: boolean;
  /** Longest line in bytes (default 1 MiB): a longer one is an InputError naming file:line. */
  maxLineBytes?: number;
}

export interface GoogleLoadResult extends LoadResult {
  /** job_id -> logical job name, for jobs named in job_events. */
  jobNames: Record<string, string>;
}

export const GOOGLE_2011_MACHINES = 12_583;
const US = 1e6;
const MIN_DURATION = 1 / US;

interface TaskAcc {
  jobId: string;
  index: number;
  user: string;
  schedulingClass: number | null;
  cpu: number | null;
  memory: number | null;
  disk: number | null;
  /** Flattened (time, type) pairs in file order. */
  events: number[];
}

interface JobInfo {
  user: string;
  schedulingClass: number | null;
  logicalName: string;
}

/**
 * Accumulates task and job events and builds the workload. Separate from the file reading so the
 * mapping is testable on strings (see test/traces.google.test.ts).
 */
export class GoogleTraceBuilder {
  private readonly tasks = new Map<string, TaskAcc>();
  private readonly jobs = new Map<string, JobInfo>();
  private origin = Infinity;
  private end = -Infinity;

  addTaskEvent(e: TaskEvent): void {
    const key = `${e.jobId}:${e.taskIndex}`;
    let t = this.tasks.get(key);
    if (!t) {
      t = { jobId: e.jobId, index: e.taskIndex, user: "", schedulingClass: null, cpu: null, memory: null, disk: null, events: [] };
      this.tasks.set(key, t);
    }
    if (e.user !== "") t.user = e.user;
    if (e.schedulingClass !== null) t.schedulingClass = e.schedulingClass;
    if (e.cpu !== null) t.cpu = e.cpu;
    if (e.memory !== null) t.memory = e.memory;
    if (e.disk !== null) t.disk = e.disk;
    t.events.push(e.time, e.type);
    if (e.time > 0 && e.time < this.origin) this.origin = e.time;
    if (Number.isFinite(e.time) && e.time > this.end) this.end = e.time;
  }

  addJobEvent(e: { jobId: string; user: string; schedulingClass: number | null; logicalName: string }): void {
    const j = this.jobs.get(e.jobId) ?? { user: "", schedulingClass: null, logicalName: "" };
    if (e.user !== "") j.user = e.user;
    if (e.schedulingClass !== null) j.schedulingClass = e.schedulingClass;
    if (e.logicalName !== "") j.logicalName = e.logicalName;
    this.jobs.set(e.jobId, j);
  }

  build(opts: { name: string; machines: number; queueBy: "user" | "class"; censored: "clip" | "drop"; params?: Record<string, unknown> }, log: IssueLog): { workload: Workload; jobNames: Record<string, string> } {
    const origin = Number.isFinite(this.origin) ? this.origin : 0;
    const end = Math.max(origin, this.end);
    const byJob = new Map<string, Array<{ t: TaskAcc; arrival: number; duration: number }>>();
    for (const t of this.tasks.values()) {
      const run = this.taskRun(t, origin, end, opts.censored, log);
      if (!run) continue;
      if (t.cpu === null && t.memory === null && t.disk === null) {
        log.exclude("no_request");
        continue;
      }
      let list = byJob.get(t.jobId);
      if (!list) byJob.set(t.jobId, (list = []));
      list.push({ t, ...run });
    }

    const jobs: JobSpec[] = [];
    const queueOf = new Map<string, string>();
    for (const [jobId, list] of byJob) {
      list.sort((a, b) => a.t.index - b.t.index);
      const stages = new Map<string, { spec: StageSpec; durations: number[] }>();
      let arrival = Infinity;
      for (const { t, arrival: a, duration } of list) {
        arrival = Math.min(arrival, a);
        const demand = [t.cpu ?? 0, t.memory ?? 0, t.disk ?? 0];
        const key = demand.join(",");
        let s = stages.get(key);
        if (!s) stages.set(key, (s = { spec: { tasks: 0, demand, duration: 0 }, durations: [] }));
        s.spec.tasks++;
        s.durations.push(duration);
      }
      const first = list[0].t;
      const info = this.jobs.get(jobId);
      const queue = opts.queueBy === "class"
        ? `class-${first.schedulingClass ?? info?.schedulingClass ?? "unknown"}`
        : first.user || info?.user || "unknown";
      queueOf.set(jobId, queue);
      jobs.push({
        id: jobId,
        queue,
        arrival,
        stages: [...stages.values()].map(({ spec, durations }) => ({
          ...spec,
          duration: durations.every((d) => d === durations[0]) ? durations[0] : durations,
        })),
      });
    }
    // Arrival order, ties by numeric job id: deterministic whatever the row order was.
    jobs.sort((a, b) => a.arrival - b.arrival || compareIds(a.id, b.id));
    const queues: QueueSpec[] = [];
    const seen = new Set<string>();
    for (const j of jobs) {
      if (!seen.has(j.queue)) {
        seen.add(j.queue);
        queues.push({ name: j.queue, kind: "TQ", weight: 1 });
      }
    }
    // Class queues read best in class order; user queues stay in order of first arrival.
    if (opts.queueBy === "class") queues.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    // own properties whatever the id (fromEntries defines "__proto__" as a key, not the prototype)
    const named: Array<[string, string]> = [];
    for (const j of jobs) {
      const n = this.jobs.get(j.id)?.logicalName;
      if (n) named.push([j.id, n]);
    }
    const jobNames: Record<string, string> = Object.fromEntries(named);
    const M = opts.machines;
    return {
      workload: {
        name: opts.name,
        resources: ["cpu", "memory", "disk"],
        capacity: [M, M, M],
        queues,
        jobs,
        params: {
          ...opts.params,
          machines: M,
          queueBy: opts.queueBy,
          censored: opts.censored,
          timeOrigin_us: origin,
          sliceLength_s: (end - origin) / US,
        },
        seed: 0,
      },
      jobNames,
    };
  }

  /** The task's run per the mapping, or null when it is left out (counted in the log). */
  private taskRun(t: TaskAcc, origin: number, end: number, censored: "clip" | "drop", log: IssueLog): { arrival: number; duration: number } | null {
    const n = t.events.length / 2;
    const order = Array.from({ length: n }, (_, i) => i);
    order.sort((a, b) => t.events[2 * a] - t.events[2 * b] || a - b);
    let submit: number | null = null;
    let open: number | null = null;
    let lastRun: [number, number] | null = null;
    let endedUnstarted: number | null = null;
    for (const i of order) {
      const time = Math.max(t.events[2 * i], origin);
      const type = t.events[2 * i + 1];
      if (time === Infinity) continue; // after the trace window: the run is open at the slice end
      if (type === GoogleEvent.SUBMIT) {
        submit ??= time;
      } else if (type === GoogleEvent.SCHEDULE) {
        open ??= time;
      } else if (type >= GoogleEvent.EVICT && type <= GoogleEvent.LOST) {
        if (open !== null) {
          lastRun = [open, time];
          open = null;
        } else if (lastRun === null) {
          endedUnstarted ??= time;
        }
      }
    }
    const sec = (us: number) => (us - origin) / US;
    const run = (start: number, stop: number) => ({
      arrival: sec(submit === null ? start : Math.min(submit, start)),
      duration: Math.max(MIN_DURATION, (stop - start) / US),
    });
    if (lastRun) return run(lastRun[0], lastRun[1]);
    if (open !== null) {
      if (censored === "drop") {
        log.exclude("running_at_slice_end");
        return null;
      }
      log.adjust("clipped_running_at_slice_end");
      return run(open, end);
    }
    if (endedUnstarted !== null) {
      if (censored === "drop") {
        log.exclude("started_before_slice");
        return null;
      }
      log.adjust("clipped_started_before_slice");
      return { arrival: 0, duration: Math.max(MIN_DURATION, (endedUnstarted - origin) / US) };
    }
    log.exclude("never_scheduled");
    return null;
  }
}

function compareIds(a: string, b: string): number {
  return a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);
}

/** Reads a Google 2011 task_events part (and optionally job_events) into a Workload. */
export async function loadGoogle2011(opts: GoogleLoadOptions): Promise<GoogleLoadResult> {
  if (!opts || typeof opts.taskEvents !== "string") throw new InputError("options.taskEvents", "must be the path of a task_events file");
  const machines = checkOption("machines", opts.machines ?? GOOGLE_2011_MACHINES, 1);
  const queueBy = opts.queueBy ?? "user";
  if (queueBy !== "user" && queueBy !== "class") throw new InputError("options.queueBy", `must be 'user' or 'class' (got ${String(queueBy)})`);
  const censored = opts.censored ?? "clip";
  if (censored !== "clip" && censored !== "drop") throw new InputError("options.censored", `must be 'clip' or 'drop' (got ${String(censored)})`);
  const log = new IssueLog(opts.lenient === true);
  const b = new GoogleTraceBuilder();
  const read = { maxLineBytes: opts.maxLineBytes };
  // users become queue names, logical names job names: stored escaped (src/traces/names.ts)
  const users = new NameEscaper(), logical = new NameEscaper();
  let lines = 0;
  if (opts.jobEvents !== undefined) {
    const file = opts.jobEvents;
    lines += await forEachLine(file, (line, no) => {
      const e = parseJobEvent(line);
      if (e instanceof LineProblem) return log.bad(file, no, e);
      const user = users.name(e.user, "user");
      if (user instanceof LineProblem) return log.bad(file, no, user);
      const logicalName = logical.name(e.logicalName, "logical_job_name");
      if (logicalName instanceof LineProblem) return log.bad(file, no, logicalName);
      b.addJobEvent({ ...e, user, logicalName });
    }, read);
  }
  const file = opts.taskEvents;
  lines += await forEachLine(file, (line, no) => {
    const e = parseTaskEvent(line);
    if (e instanceof LineProblem) return log.bad(file, no, e);
    // a request is a task's demand as written and the capacity is M on every resource: one
    // above M could never run, and simulate() would refuse the workload without the line
    if (!((e.cpu ?? 0) <= machines && (e.memory ?? 0) <= machines && (e.disk ?? 0) <= machines)) {
      return log.bad(file, no, new LineProblem("request", `a request above the cluster's ${machines} machines of size 1 could never run (cpu ${e.cpu}, memory ${e.memory}, disk ${e.disk})`));
    }
    const user = users.name(e.user, "user");
    if (user instanceof LineProblem) return log.bad(file, no, user);
    b.addTaskEvent({ ...e, user });
  }, read);
  log.adjust("names_escaped", users.escaped + logical.escaped);
  const { workload, jobNames } = b.build(
    {
      name: `google2011:${sanitizeForTerminal(basename(file))}`,
      machines,
      queueBy,
      censored,
      params: { trace: "google2011", taskEvents: sanitizeForTerminal(basename(file)), ...(opts.jobEvents ? { jobEvents: sanitizeForTerminal(basename(opts.jobEvents)) } : {}) },
    },
    log,
  );
  if (workload.jobs.length === 0) throw new InputError(sanitizeForTerminal(file), "no task with a run inside the slice: nothing to simulate");
  return { workload, summary: log.summary(lines, workload), jobNames };
}
