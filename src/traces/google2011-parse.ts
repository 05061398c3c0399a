// Pure line parsers for the Google cluster trace 2011 (clusterdata-2011-2) CSV tables.
// No I/O here: each function takes one line and returns a record or a LineProblem, so every
// quirk of the format is testable on plain strings.
import { LineProblem } from "./issues.js";

/** Event types of task_events and job_events (the trace's schema document, table "event types"). */
export const GoogleEvent = {
  SUBMIT: 0,
  SCHEDULE: 1,
  EVICT: 2,
  FAIL: 3,
  FINISH: 4,
  KILL: 5,
  LOST: 6,
  UPDATE_PENDING: 7,
  UPDATE_RUNNING: 8,
} as const;

/**
 * The trace marks "after the end of the trace window" with 2^63 - 1 µs. That does not fit a
 * double exactly, so it is recognised as a string and reported as Infinity.
 */
const AFTER_TRACE = "9223372036854775807";

export interface TaskEvent {
  /** µs since the trace's start; 0 means "before the window", Infinity "after it". */
  time: number;
  /** Kept as a string: ids reach 6.3e9 and are identifiers, not quantities. */
  jobId: string;
  taskIndex: number;
  type: number;
  /** Hashed user name, "" when the field is empty. */
  user: string;
  /** 0 (batch) .. 3 (most latency-sensitive), null when empty. */
  schedulingClass: number | null;
  /** Requests normalised to the largest machine (0..1); null when empty (the trace omits some). */
  cpu: number | null;
  memory: number | null;
  disk: number | null;
}

export interface JobEvent {
  time: number;
  jobId: string;
  type: number;
  user: string;
  schedulingClass: number | null;
  /** Hashed job name and logical job name (the latter identifies recurring runs of one program). */
  name: string;
  logicalName: string;
}

const DIGITS = /^\d+$/;
// Numbers as the trace writes them: 0.02499, 7.725e-05, 1; no signs other than in the exponent.
const DECIMAL = /^(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;

function parseTime(s: string): number | LineProblem {
  if (s === AFTER_TRACE) return Infinity;
  if (!DIGITS.test(s)) return new LineProblem("timestamp", `timestamp must be a non-negative integer of µs (got ${show(s)})`);
  // past 2^53 neighbouring integers share one double: two events would silently swap or merge
  if (!exact(s)) return new LineProblem("timestamp", `timestamp ${show(s)} is past 2^53 µs (~285 years) and cannot be held exactly; only the end-of-trace marker ${AFTER_TRACE} may be that large`);
  return Number(s);
}

/** Is the digit string s at most 2^53, so Number(s) is exactly s? */
function exact(s: string): boolean {
  const t = s.replace(/^0+(?=\d)/, "");
  return t.length < 16 || (t.length === 16 && t <= "9007199254740992");
}

function parseId(s: string, field: string): string | LineProblem {
  if (!DIGITS.test(s)) return new LineProblem(field, `${field} must be a non-negative integer (got ${show(s)})`);
  return s;
}

function parseEventType(s: string): number | LineProblem {
  if (!/^[0-8]$/.test(s)) return new LineProblem("event_type", `event_type must be an integer 0..8 (got ${show(s)})`);
  return Number(s);
}

function parseClass(s: string): number | null | LineProblem {
  if (s === "") return null;
  if (!/^[0-3]$/.test(s)) return new LineProblem("scheduling_class", `scheduling_class must be 0..3 or empty (got ${show(s)})`);
  return Number(s);
}

/** A normalised request: empty (missing in the trace) or a finite number >= 0. */
function parseRequest(s: string, field: string): number | null | LineProblem {
  if (s === "") return null;
  if (!DECIMAL.test(s)) return new LineProblem("request", `${field} must be a number >= 0 or empty (got ${show(s)})`);
  const v = Number(s);
  if (!Number.isFinite(v)) return new LineProblem("request", `${field} must be finite (got ${show(s)})`);
  return v;
}

function show(s: string): string {
  return JSON.stringify(s.length > 40 ? s.slice(0, 40) + "…" : s);
}

function columns(line: string, expected: number, table: string): string[] | LineProblem {
  if (line.trim() === "") return new LineProblem("blank", "blank line");
  const f = line.split(",");
  if (f.length !== expected) {
    return new LineProblem("columns", `expected ${expected} comma-separated ${table} columns, got ${f.length}`);
  }
  return f;
}

/**
 * One task_events row: timestamp, missing_info, job_id, task_index, machine_id, event_type, user,
 * scheduling_class, priority, cpu_request, memory_request, disk_request, different_machines_constraint.
 * machine_id, missing_info, priority and the constraint flag are not used by the mapping and are
 * only checked for shape where a wrong value would reveal a shifted column.
 */
export function parseTaskEvent(line: string): TaskEvent | LineProblem {
  const f = columns(line, 13, "task_events");
  if (f instanceof LineProblem) return f;
  const time = parseTime(f[0]);
  if (time instanceof LineProblem) return time;
  const jobId = parseId(f[2], "job_id");
  if (jobId instanceof LineProblem) return jobId;
  const taskIndex = parseId(f[3], "task_index");
  if (taskIndex instanceof LineProblem) return taskIndex;
  if (!exact(taskIndex)) return new LineProblem("task_index", `task_index ${show(taskIndex)} is past 2^53 and cannot be held exactly (two tasks would become one)`);
  if (f[4] !== "" && !DIGITS.test(f[4])) return new LineProblem("machine_id", `machine_id must be an integer or empty (got ${show(f[4])})`);
  const type = parseEventType(f[5]);
  if (type instanceof LineProblem) return type;
  const schedulingClass = parseClass(f[7]);
  if (schedulingClass instanceof LineProblem) return schedulingClass;
  if (f[8] !== "" && !/^\d{1,2}$/.test(f[8])) return new LineProblem("priority", `priority must be 0..11 or empty (got ${show(f[8])})`);
  const cpu = parseRequest(f[9], "cpu_request");
  if (cpu instanceof LineProblem) return cpu;
  const memory = parseRequest(f[10], "memory_request");
  if (memory instanceof LineProblem) return memory;
  const disk = parseRequest(f[11], "disk_request");
  if (disk instanceof LineProblem) return disk;
  return { time, jobId, taskIndex: Number(taskIndex), type, user: f[6], schedulingClass, cpu, memory, disk };
}

/** One job_events row: timestamp, missing_info, job_id, event_type, user, scheduling_class, job_name, logical_job_name. */
export function parseJobEvent(line: string): JobEvent | LineProblem {
  const f = columns(line, 8, "job_events");
  if (f instanceof LineProblem) return f;
  const time = parseTime(f[0]);
  if (time instanceof LineProblem) return time;
  const jobId = parseId(f[2], "job_id");
  if (jobId instanceof LineProblem) return jobId;
  const type = parseEventType(f[3]);
  if (type instanceof LineProblem) return type;
  const schedulingClass = parseClass(f[5]);
  if (schedulingClass instanceof LineProblem) return schedulingClass;
  return { time, jobId, type, user: f[4], schedulingClass, name: f[6], logicalName: f[7] };
}
