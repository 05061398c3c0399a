// Deadline types of the Justice paper §3.1 and docs/policies/justice.md. A job's deadline is D_i = x * T_i,
// T_i its runtime with all the CPUs it can use (model.ts optimalRuntime), x the expansion factor:
//   Fixed1x, Fixed2x       x = 1, x = 2
//   Jockey1x2x, Jockey2x4x x picked from {1, 2} / {2, 4} with equal probability
//   90loose                x = 2 with probability 0.9, else 1
//   Aria1x3x, Aria2x4x     x uniform in [1, 3] / [2, 4]
// Example: 10 tasks of 20 s on a cluster of >= 10 CPUs: T = 20 s; Fixed2x gives D = 40 s.
// With capacity 4, T = 3 waves * 20 s = 60 s and Fixed2x gives 120 s.
import { InputError, describeValue } from "../errors.js";
import type { Rng } from "../random/rng.js";
import { type DeadlineJob, RUNTIME_MODELS, type RuntimeModel, optimalRuntime, taskDuration } from "./model.js";

/**
 * What T_i is. "capacity" (default): the runtime with min(requestedTasks, capacity) CPUs on this
 * cluster in the run's runtime model, so x * T_i is at least the runtime on every CPU the job
 * could get and every deadline is feasible, as the paper assumes (§2: "the deadline is
 * feasible"). "requested" (the option): one wave of d = compTime / requestedTasks seconds, the
 * runtime with every CPU the job asks for on an unconstrained cluster; a job with more tasks
 * than the cluster's CPUs then has an infeasible deadline (the Oracle drops it at submission).
 */
export type DeadlineBasis = "requested" | "capacity";
import { checkInt } from "./validate.js";

export const DEADLINE_TYPES = ["Fixed1x", "Fixed2x", "Jockey1x2x", "Jockey2x4x", "90loose", "Aria1x3x", "Aria2x4x"] as const;
export type DeadlineType = (typeof DEADLINE_TYPES)[number];

/**
 * The expansion factor x for the deadline type from one uniform draw u in [0, 1) (every type
 * consumes exactly one draw, so the same job gets the same u under every type).
 */
export function expansionFactor(type: DeadlineType, rng: Rng): number {
  const u = rng.next();
  switch (type) {
    case "Fixed1x": return 1;
    case "Fixed2x": return 2;
    case "Jockey1x2x": return u < 0.5 ? 1 : 2;
    case "Jockey2x4x": return u < 0.5 ? 2 : 4;
    case "90loose": return u < 0.9 ? 2 : 1;
    case "Aria1x3x": return 1 + 2 * u;
    case "Aria2x4x": return 2 + 2 * u;
    default: throw new InputError("deadlineType", `unknown deadline type ${describeValue(type)} (known: ${DEADLINE_TYPES.join(", ")})`);
  }
}

/**
 * Returns copies of the jobs with `deadline = x * T_i` for the type, x drawn in job order from
 * `rng` (one draw per job, fixed types included, so every type consumes the stream alike),
 * T_i = the runtime with min(requestedTasks, capacity) CPUs in the given runtime model.
 */
export function assignDeadlines<J extends Omit<DeadlineJob, "deadline">>(
  jobs: readonly J[], type: DeadlineType, capacity: number, rng: Rng, runtime: RuntimeModel = "waves",
  basis: DeadlineBasis = "capacity",
): Array<J & { deadline: number; expansion: number }> {
  if (!Array.isArray(jobs)) throw new InputError("jobs", `expected an array of jobs, got ${describeValue(jobs)}`);
  if (!DEADLINE_TYPES.includes(type)) expansionFactor(type, rng); // throws the InputError
  checkInt("capacity", capacity, 1);
  if (!RUNTIME_MODELS.includes(runtime)) throw new InputError("runtime", `must be one of ${RUNTIME_MODELS.join(", ")} (got ${describeValue(runtime)})`);
  return jobs.map((j) => {
    const x = expansionFactor(type, rng);
    const T = basis === "requested" ? taskDuration(j) : optimalRuntime(j, capacity, runtime);
    return { ...j, deadline: x * T, expansion: x };
  });
}
