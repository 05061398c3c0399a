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
