// Loader for the Hawk/Eagle simulator trace format (`.tr`; where to get the traces: README):
//   arrival_time_s  number_of_tasks  mean_task_duration_s  duration_1 ... duration_n
// one job per line, space separated (the files use runs of spaces and tabs).
//
// `parseEagleLine` is pure (testable on strings); `loadEagleTrace` streams a file line by line
// through node:readline (gunzip when the name ends in .gz) and reports a malformed line as an
// InputError naming file and line, or, with `lenient`, skips and counts it.
//
// Short vs long (Eagle's definition): a job is long when its mean task duration is above the
// trace's cutoff, the values the Hawk/Eagle simulator ships with: Yahoo 90.5811 s, Google
// 1129.532 s, Cloudera 272.783 s, Facebook 76.5951 s. On YH2_sub.tr 90.5811 s makes 10.1% of
// the jobs long (the Phoenix paper's Table III reports 91.56% short jobs for its Yahoo trace);
// those jobs carry 99% of the work, which is why long jobs set the cluster's utilization.
import { InputError } from "../errors.js";
import { nodeBuiltin, type NodeBuiltinId } from "../util/node-builtins.js";

/**
 * A Node built-in module, reached when loadEagleTrace runs (no static `node:` import: the package
 * entry reaches this file through the phoenix scenario and must load in browsers; the Node entry
 * points provide the modules, src/util/node-builtins.ts).
 */
function nodeModule<T>(id: NodeBuiltinId): T {
  const m = nodeBuiltin<T>(id);
  if (!m) throw new Error(`loadEagleTrace needs Node's ${id}: import fairsched through its "node" export condition (Node, Deno, Bun)`);
  return m;
}

export interface TraceJob {
  /** Submission time, seconds. */
  arrival: number;
  /** Task durations, seconds (length = number_of_tasks). */
  durations: Float64Array;
  /** The trace's mean task duration (the estimate schedulers use, as in Eagle). */
  meanDuration: number;
}

export interface TraceLoadResult {
  jobs: TraceJob[];
  /** Malformed lines skipped (lenient mode only). */
  skipped: number;
  /** The first skipped lines' messages, at most 10. */
  skippedExamples: string[];
  lines: number;
}

export interface LoadOptions {
  /** Skip malformed lines and count them instead of throwing. Default false. */
  lenient?: boolean;
  /** Stop after this many jobs (a prefix of the trace). */
  maxJobs?: number;
}

/** Long-job cutoffs of the Hawk/Eagle simulator (mean task duration, seconds). */
export const EAGLE_CUTOFFS: Readonly<Record<string, number>> = {
  yahoo: 90.5811,
  google: 1129.532,
  cloudera: 272.783,
  facebook: 76.5951,
};

/** Picks the cutoff from a trace file name (YH*, GOOG*, CC*, FB*), or null when unknown. */
export function cutoffForTrace(fileName: string): number | null {
  const n = fileName.replace(/^.*[\\/]/, "").toUpperCase();
  if (n.startsWith("YH")) return EAGLE_CUTOFFS.yahoo;
  if (n.startsWith("GOOG")) return EAGLE_CUTOFFS.google;
  if (n.startsWith("CC")) return EAGLE_CUTOFFS.cloudera;
  if (n.startsWith("FB")) return EAGLE_CUTOFFS.facebook;
  return null;
}

export function isLongJob(job: TraceJob, cutoff: number): boolean {
  return job.meanDuration > cutoff;
}

/**
 * Parses one line. Returns null for a blank line; throws a plain Error describing the
 * problem (the callers add file and line).
 */
export function parseEagleLine(line: string): TraceJob | null {
  const f = line.trim().split(/\s+/);
  if (f.length === 1 && f[0] === "") return null;
  if (f.length < 3) throw new Error(`expected 'arrival tasks mean d1 ... dn', got ${f.length} field(s)`);
  const arrival = num(f[0], "arrival_time_s");
  if (arrival < 0) throw new Error(`arrival_time_s must be >= 0, got ${f[0]}`);
  const n = Number(f[1]);
  if (!Number.isInteger(n) || n < 1) throw new Error(`number_of_tasks must be a whole number >= 1, got '${f[1]}'`);
  const mean = num(f[2], "mean_task_duration_s");
  if (mean < 0) throw new Error(`mean_task_duration_s must be >= 0, got ${f[2]}`);
  if (f.length !== 3 + n) throw new Error(`number_of_tasks is ${n} but the line lists ${f.length - 3} duration(s)`);
  const durations = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const d = num(f[3 + i], `duration_${i + 1}`);
    if (d < 0) throw new Error(`duration_${i + 1} must be >= 0, got ${f[3 + i]}`);
    durations[i] = d;
  }
  return { arrival, durations, meanDuration: mean };
}

function num(s: string, name: string): number {
  const x = Number(s);
  if (s === "" || !Number.isFinite(x)) throw new Error(`${name} must be a finite number, got '${s}'`);
  return x;
}

/** Parses a whole trace held in a string (tests, small inputs); `file` names it in errors. */
export function parseEagleTrace(text: string, file = "<string>", opts: LoadOptions = {}): TraceLoadResult {
  const acc = new Accumulator(file, opts);
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) if (!acc.add(lines[i], i + 1)) break;
  return acc.result();
}

/** Streams a `.tr` or `.tr.gz` file. */
export async function loadEagleTrace(path: string, opts: LoadOptions = {}): Promise<TraceLoadResult> {
  const { createReadStream } = nodeModule<typeof import("node:fs")>("node:fs");
  const { createGunzip } = nodeModule<typeof import("node:zlib")>("node:zlib");
  const { createInterface } = nodeModule<typeof import("node:readline")>("node:readline");
  const acc = new Accumulator(path, opts);
  const file = createReadStream(path);
  const input = path.endsWith(".gz") ? file.pipe(createGunzip()) : file;
  const failed = new Promise<never>((_, reject) => {
    const fail = (e: Error) => reject(new InputError(path, `cannot read: ${e.message}`));
    file.on("error", fail);
    input.on("error", fail);
  });
  const rl = createInterface({ input, crlfDelay: Infinity });
  const read = (async () => {
    let n = 0;
    for await (const line of rl) {
      if (!acc.add(line, ++n)) break;
    }
  })();
  try {
    await Promise.race([read, failed]);
  } finally {
    rl.close();
    file.destroy();
  }
  return acc.result();
}

class Accumulator {
  private readonly jobs: TraceJob[] = [];
  private skipped = 0;
  private readonly examples: string[] = [];
  private lines = 0;
  private lastArrival = -Infinity;
  constructor(private readonly file: string, private readonly opts: LoadOptions) {}

  /** False once maxJobs is reached. */
  add(line: string, lineNo: number): boolean {
    this.lines = lineNo;
    let job: TraceJob | null;
    try {
      job = parseEagleLine(line);
    } catch (e) {
      const msg = `${this.file}:${lineNo}: ${(e as Error).message}`;
      if (!this.opts.lenient) throw new InputError(`${this.file}:${lineNo}`, (e as Error).message);
      this.skipped++;
      if (this.examples.length < 10) this.examples.push(msg);
      return true;
    }
    if (job) {
      this.jobs.push(job);
      if (job.arrival < this.lastArrival) this.unsorted = true;
      this.lastArrival = job.arrival;
    }
    return this.opts.maxJobs === undefined || this.jobs.length < this.opts.maxJobs;
  }
  private unsorted = false;

  result(): TraceLoadResult {
    // real traces are sorted; an unsorted one is sorted stably by arrival (its quirk, not an error)
    if (this.unsorted) this.jobs.sort((a, b) => a.arrival - b.arrival);
    return { jobs: this.jobs, skipped: this.skipped, skippedExamples: this.examples, lines: this.lines };
  }
}
