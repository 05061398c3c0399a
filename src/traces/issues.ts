// What every loader returns besides the workload, and the strict/lenient handling of bad lines.
import { InputError } from "../errors.js";
import type { Workload } from "../policy/model.js";
import { sanitizeForTerminal } from "../util/terminal.js";

export interface LoadSummary {
  /** Lines read (all files of the trace, blank lines included). */
  lines: number;
  /** Jobs in the workload. */
  jobs: number;
  /** Tasks in the workload (sum of stage task counts). */
  tasks: number;
  /** Malformed lines skipped (lenient mode only; strict mode throws on the first). */
  skipped: number;
  /** Skipped lines per reason code, e.g. { "columns": 2, "event_type": 1 }. */
  skippedByReason: Record<string, number>;
  /** The first few skipped lines as "file:line: problem", so a lenient load is still auditable. */
  firstSkipped: string[];
  /**
   * Well-formed records left out of the workload by the documented mapping (not errors), per
   * reason, e.g. Google tasks never scheduled inside the slice. Counts of tasks or jobs as named.
   */
  excluded: Record<string, number>;
  /** Records kept but changed by the mapping, per reason (e.g. durations clipped at the slice's edge). */
  adjusted: Record<string, number>;
}

export interface LoadResult {
  workload: Workload;
  summary: LoadSummary;
}

/** A pure line parser's verdict on a bad line: a short reason code and a message for humans. */
export class LineProblem {
  constructor(
    readonly reason: string,
    readonly message: string,
  ) {}
}

const KEEP_EXAMPLES = 10;

/** Collects skipped lines in lenient mode, throws InputError("file:line", ...) in strict mode. */
export class IssueLog {
  skipped = 0;
  readonly byReason: Record<string, number> = {};
  readonly examples: string[] = [];
  readonly excluded: Record<string, number> = {};
  readonly adjusted: Record<string, number> = {};

  constructor(private readonly lenient: boolean) {}

  bad(file: string, lineNo: number, p: LineProblem): void {
    // file names and quoted values come from the user's files: printed escaped
    const where = `${sanitizeForTerminal(file)}:${lineNo}`;
    const message = sanitizeForTerminal(p.message);
    if (!this.lenient) throw new InputError(where, message);
    this.skipped++;
    this.byReason[p.reason] = (this.byReason[p.reason] ?? 0) + 1;
    if (this.examples.length < KEEP_EXAMPLES) this.examples.push(`${where}: ${message}`);
  }

  exclude(reason: string, n = 1): void {
    if (n > 0) this.excluded[reason] = (this.excluded[reason] ?? 0) + n;
  }

  adjust(reason: string, n = 1): void {
    if (n > 0) this.adjusted[reason] = (this.adjusted[reason] ?? 0) + n;
  }

  summary(lines: number, workload: Workload): LoadSummary {
    let tasks = 0;
    for (const j of workload.jobs) for (const s of j.stages) tasks += s.tasks;
    return {
      lines,
      jobs: workload.jobs.length,
      tasks,
      skipped: this.skipped,
      skippedByReason: sortedRecord(this.byReason),
      firstSkipped: this.examples,
      excluded: sortedRecord(this.excluded),
      adjusted: sortedRecord(this.adjusted),
    };
  }
}

/** Same keys in sorted order, so summaries print and compare deterministically. */
export function sortedRecord(r: Record<string, number>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const k of Object.keys(r).sort()) out[k] = r[k];
  return out;
}

/** Validates a numeric option of a loader: finite and within [min, max]. */
export function checkOption(name: string, v: number, min: number, max = Infinity, integer = false): number {
  if (typeof v !== "number" || !Number.isFinite(v) || v < min || v > max || (integer && !Number.isInteger(v))) {
    const range = max === Infinity ? `>= ${min}` : `in [${min}, ${max}]`;
    throw new InputError(`options.${name}`, `must be a${integer ? "n integer" : " finite number"} ${range} (got ${String(v)})`);
  }
  return v;
}
