// `--param`/`--grid` names checked against what a scenario reads: a misspelt name is an error
// listing the known ones, never a silently ignored column.
import { InputError } from "../errors.js";
import { sanitizeForTerminal } from "../util/terminal.js";
import type { Scenario } from "./scenario.js";

/** The simulator's own options every queue-level scenario accepts (common.ts simParamsFrom). */
export const SIM_PARAMS = ["preemption", "updateInterval", "starvationGuard"] as const;

/** Throws an InputError naming the first of `names` that `known` does not list. */
export function checkParamNames(names: Iterable<string>, known: readonly string[], field: string, owner: string): void {
  for (const n of names) {
    if (!known.includes(n)) {
      throw new InputError(field, `unknown parameter '${sanitizeForTerminal(n)}' of ${owner} (known: ${known.length ? [...known].sort().join(", ") : "none"})`);
    }
  }
}

/** Checks parameter names against a scenario's declared `params`. */
export function checkScenarioParams(s: Scenario, names: Iterable<string>, field = "--param"): void {
  if (s.params) checkParamNames(names, s.params, field, `scenario '${s.name}'`);
}
