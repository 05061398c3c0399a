// Trace loaders: real cluster traces -> simulator Workload. One entry point for the CLI
// (`--trace FILE --format F --lenient`), plus each loader for programmatic use.
import { existsSync } from "node:fs";
import { basename } from "node:path";
import { InputError } from "../errors.js";
import { sanitizeForTerminal } from "../util/terminal.js";
import { loadGoogle2011, type GoogleLoadOptions } from "./google2011.js";
import type { LoadResult } from "./issues.js";
import { loadSwim, type SwimLoadOptions } from "./swim.js";

export { loadGoogle2011, GoogleTraceBuilder, GOOGLE_2011_MACHINES, type GoogleLoadOptions, type GoogleLoadResult } from "./google2011.js";
export { parseTaskEvent, parseJobEvent, GoogleEvent, type TaskEvent, type JobEvent } from "./google2011-parse.js";
export { loadSwim, parseSwimLine, swimJob, SWIM_DEFAULTS, type SwimLoadOptions, type SwimModel, type SwimRecord } from "./swim.js";
export { LineProblem, type LoadResult, type LoadSummary } from "./issues.js";
export { forEachLine } from "./lines.js";
// Hawk/Eagle `.tr` (Phoenix's node-level model: jobs of task durations, not a queue Workload), so
// it is re-exported as is rather than dispatched by loadTrace.
export {
  loadEagleTrace, parseEagleLine, parseEagleTrace, cutoffForTrace, isLongJob, EAGLE_CUTOFFS,
  type TraceJob as EagleTraceJob, type TraceLoadResult as EagleLoadResult, type LoadOptions as EagleLoadOptions,
} from "./eagle.js";

export const TRACE_FORMATS = ["google2011", "swim"] as const;
export type TraceFormat = (typeof TRACE_FORMATS)[number];
/** Other spellings users type. */
const FORMAT_ALIASES: Record<string, TraceFormat> = { "google-2011": "google2011", google: "google2011" };

/** The `--param` names each loader reads; any other is an error listing these. */
export const TRACE_PARAMS: Readonly<Record<TraceFormat, readonly string[]>> = {
  google2011: ["jobEvents", "machines", "maxLineBytes", "queueBy", "censored"],
  swim: ["blockBytes", "reduceBytes", "throughput", "taskOverhead", "machines", "maxLineBytes", "queueBy"],
};

export interface LoadTraceOptions {
  /** Default: guessed from the file name (task_events* -> google2011, *.tsv -> swim). */
  format?: TraceFormat | string;
  lenient?: boolean;
  /** Loader options (numbers from `--param name=value`), e.g. { machines: 500, queueBy: "class" }. */
  params?: Record<string, string | number>;
}

/** Guesses the format from the file name, or null. */
export function guessFormat(file: string): TraceFormat | null {
  const name = basename(file).toLowerCase();
  if (name.startsWith("task_events")) return "google2011";
  if (/\.tsv(\.gz)?$/.test(name)) return "swim";
  return null;
}

/**
 * Loads any supported trace. For google2011 the job_events part next to the task_events file
 * (same name with task_events -> job_events) is read too when it exists, unless
 * params.jobEvents names another file or is "none".
 */
export async function loadTrace(file: string, opts: LoadTraceOptions = {}): Promise<LoadResult> {
  // own keys only: a format named "constructor" must not read Object.prototype.constructor
  const given = opts.format === undefined ? undefined : (Object.hasOwn(FORMAT_ALIASES, opts.format) ? FORMAT_ALIASES[opts.format] : opts.format);
  const format = given ?? guessFormat(file);
  if (format === null) {
    throw new InputError("--format", `cannot tell the format of ${basename(file)} from its name; pass one of ${TRACE_FORMATS.join(", ")}`);
  }
  const p = opts.params ?? {};
  if (Object.hasOwn(TRACE_PARAMS, format)) {
    const known = TRACE_PARAMS[format as TraceFormat];
    for (const k of Object.keys(p)) {
      if (!known.includes(k)) throw new InputError("--param", `unknown parameter '${sanitizeForTerminal(k)}' of the ${format} trace loader (known: ${known.join(", ")})`);
    }
  }
  const lenient = opts.lenient === true;
  switch (format) {
    case "google2011": {
      const sibling = file.replace(/task_events(?=[^/\\]*$)/, "job_events");
      const jobEvents = p.jobEvents === "none" ? undefined : p.jobEvents !== undefined ? String(p.jobEvents) : sibling !== file && existsSync(sibling) ? sibling : undefined;
      const o: GoogleLoadOptions = { taskEvents: file, jobEvents, lenient };
      if (p.machines !== undefined) o.machines = num(p, "machines");
      if (p.maxLineBytes !== undefined) o.maxLineBytes = num(p, "maxLineBytes");
      if (p.queueBy !== undefined) o.queueBy = String(p.queueBy) as GoogleLoadOptions["queueBy"];
      if (p.censored !== undefined) o.censored = String(p.censored) as GoogleLoadOptions["censored"];
      return loadGoogle2011(o);
    }
    case "swim": {
      const o: SwimLoadOptions = { file, lenient };
      for (const k of ["blockBytes", "reduceBytes", "throughput", "taskOverhead", "machines", "maxLineBytes"] as const) {
        if (p[k] !== undefined) o[k] = num(p, k);
      }
      if (p.queueBy !== undefined) o.queueBy = String(p.queueBy) as SwimLoadOptions["queueBy"];
      return loadSwim(o);
    }
    default:
      throw new InputError("--format", `unknown trace format '${format}' (known: ${TRACE_FORMATS.join(", ")})`);
  }
}

function num(p: Record<string, string | number>, k: string): number {
  const v = Number(p[k]);
  if (!Number.isFinite(v)) throw new InputError(`--param ${k}`, `must be a number, got '${p[k]}'`);
  return v;
}
