// InputErrors raised below the CLI name the engine's arrays (`demands[1]`, `weights[0]`);
// `fairsched allocate` users wrote `queues[1].demand` and `queues[0].weight`. This renames
// an error's field (and the message's leading field) to the user's, keeping the rest.
//
// Example: InputError("demands[1]", "... beyond f64 precision") -> InputError("queues[1].demand",
// "... beyond f64 precision"). Edge values: `demands[1][2]` -> `queues[1].demand[2]`; a field
// that is not per queue (`capacity[0]`) is kept; errors other than InputError pass through.
import { InputError } from "../errors.js";

/** Engine field (per queue) -> the key of `queues[i]` the user wrote it in. */
const PER_QUEUE: ReadonlyArray<readonly [RegExp, string]> = [
  [/^demands\[(\d+)\](.*)$/, "demand"],
  [/^usage\[(\d+)\](.*)$/, "usage"],
  [/^usages\[(\d+)\](.*)$/, "usage"],
  [/^weights\[(\d+)\](.*)$/, "weight"],
  [/^offsets\[(\d+)\](.*)$/, "usage"],
];

/** The user's name of an engine field, or the field itself when it is not per queue. */
export function userField(field: string): string {
  for (const [re, key] of PER_QUEUE) {
    const m = re.exec(field);
    if (m !== null) return `queues[${m[1]}].${key}${m[2]}`;
  }
  return field;
}

/** Runs f, renaming the field of an InputError it throws to the user's (userField). */
export function inUserFields<T>(f: () => T): T {
  try {
    return f();
  } catch (e) {
    if (!(e instanceof InputError)) throw e;
    const field = userField(e.field);
    if (field === e.field) throw e;
    const problem = e.message.startsWith(`${e.field}: `) ? e.message.slice(e.field.length + 2) : e.message;
    throw new InputError(field, problem);
  }
}

/**
 * The command-line name of a scenario's field: `params.X` was written `--param X` (or `--grid X`
 * for a sweep), `policies` was `--policies`. Edge values: `params.deadlines[2]` -> `--param
 * deadlines[2]`; any other field is kept.
 */
export function flagField(field: string, paramFlag = "--param"): string {
  if (field.startsWith("params.")) return `${paramFlag} ${field.slice("params.".length)}`;
  if (field === "policies" || field.startsWith("policies[")) return `--policies${field.slice("policies".length)}`;
  return field;
}

/** An InputError with its field renamed to the command line's (flagField); other errors as they are. */
export function withFlagField(e: unknown, paramFlag = "--param"): unknown {
  if (!(e instanceof InputError)) return e;
  const field = flagField(e.field, paramFlag);
  if (field === e.field) return e;
  const problem = e.message.startsWith(`${e.field}: `) ? e.message.slice(e.field.length + 2) : e.message;
  return new InputError(field, problem);
}
