// The errors every layer throws: InputError for misuse (the caller can fix it), SimulationError
// for a broken simulation invariant (a bug), and describeValue for their messages.
/**
 * Thrown for misuse: malformed or out-of-range input, or a problem too large for memory.
 * The message starts with the field and index, e.g. `demands[3][1]: must be a finite number >= 0 (got NaN)`.
 * Expected scheduling outcomes (rejections, infeasible deadlines) are never errors: they are result values.
 */
export class InputError extends Error {
  readonly field: string;
  constructor(field: string, problem: string) {
    super(`${field}: ${problem}`);
    this.name = "InputError";
    this.field = field;
  }
}

/** Shows a value in an error message without dumping huge objects. */
export function describeValue(v: unknown): string {
  if (typeof v === "number") return Number.isNaN(v) ? "NaN" : String(v);
  if (typeof v === "string") return JSON.stringify(v.length > 40 ? v.slice(0, 40) + "…" : v);
  if (v === null) return "null";
  if (v === undefined) return "undefined";
  if (Array.isArray(v)) return `an array of length ${v.length}`;
  return typeof v;
}

/** An invariant of the simulation broke (docs/policies/simulator.md): names the time, queue and job involved. */
export class SimulationError extends Error {
  readonly time: number;
  readonly queue?: string;
  readonly job?: string;
  constructor(problem: string, where: { time: number; queue?: string; job?: string }) {
    const parts = [`t=${where.time}`];
    if (where.queue !== undefined) parts.push(`queue ${where.queue}`);
    if (where.job !== undefined) parts.push(`job ${where.job}`);
    super(`simulation invariant violated at ${parts.join(", ")}: ${problem}`);
    this.name = "SimulationError";
    this.time = where.time;
    this.queue = where.queue;
    this.job = where.job;
  }
}
