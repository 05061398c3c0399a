// Options shared by the MLRF / LTRF / H-LTRF simulator policies, checked once at creation.
import { InputError, describeValue } from "../errors.js";

export interface LtrfPolicyOptions {
  /** Round length L in seconds: accumulated usage resets at every multiple of L. Default Infinity. */
  window: number;
  /** The administrator's quantum threshold Q0 in seconds: a started task counts at least this long until it ends. Default 10. */
  quantum: number;
  /** Self-tune the quanta from finished tasks (Fig. 4). Default true; false keeps Q0 everywhere. */
  adaptive: boolean;
  /** Quantum updater refresh period in seconds. Default 1 (the paper's). */
  refreshInterval: number;
  /** Fairness series sampling period in seconds. Default 10. */
  sampleInterval: number;
  /** Stop at the first smallest-usage queue whose task does not fit (Algorithm 1 literally). Default false. */
  blocking: boolean;
  /** H-LTRF starvation threshold in seconds. Default 10. */
  tWait: number;
  /** H-LTRF sibling tie-break. Default "index". */
  tieBreak: "index" | "random";
  /** H-LTRF group weights by path ("G1", "org/team"); default: the sum of their queues' weights. */
  groupWeights: Record<string, number>;
}

const DEFAULTS: LtrfPolicyOptions = {
  window: Infinity, quantum: 10, adaptive: true, refreshInterval: 1, sampleInterval: 10, blocking: false,
  tWait: 10, tieBreak: "index", groupWeights: {},
};

export function parseLtrfOptions(o: Record<string, unknown> = {}): LtrfPolicyOptions {
  const out: LtrfPolicyOptions = { ...DEFAULTS, groupWeights: {} };
  for (const [key, v] of Object.entries(o)) {
    const field = `policyOptions.${key}`;
    switch (key) {
      case "window":
      case "tWait":
        if (typeof v !== "number" || !(v >= 0) || (key === "window" && v === 0)) throw new InputError(field, `must be a number ${key === "window" ? "> 0" : ">= 0"} or Infinity (got ${describeValue(v)})`);
        out[key] = v;
        break;
      case "quantum":
      case "refreshInterval":
      case "sampleInterval":
        if (typeof v !== "number" || !(v >= 0) || !Number.isFinite(v) || (key === "sampleInterval" && v === 0)) throw new InputError(field, `must be a finite number ${key === "sampleInterval" ? "> 0" : ">= 0"} (got ${describeValue(v)})`);
        out[key] = v;
        break;
      case "adaptive":
      case "blocking":
        if (typeof v !== "boolean") throw new InputError(field, `must be a boolean (got ${describeValue(v)})`);
        out[key] = v;
        break;
      case "tieBreak":
        if (v !== "index" && v !== "random") throw new InputError(field, `must be 'index' or 'random' (got ${describeValue(v)})`);
        out.tieBreak = v;
        break;
      case "groupWeights":
        if (v === null || typeof v !== "object") throw new InputError(field, `must be an object of path -> weight (got ${describeValue(v)})`);
        out.groupWeights = v as Record<string, number>;
        break;
      default:
        throw new InputError(field, `unknown option (known: ${Object.keys(DEFAULTS).join(", ")})`);
    }
  }
  return out;
}

/** A queue's min/max share from QueueSpec.params (dominant-share fractions in [0, 1]). */
export function shareParam(params: Record<string, unknown> | undefined, name: "minShare" | "maxShare", queue: number): number | undefined {
  const v = params?.[name];
  if (v === undefined) return undefined;
  if (typeof v !== "number" || !(v >= 0 && v <= 1)) throw new InputError(`queues[${queue}].params.${name}`, `must be a fraction in [0, 1] (got ${describeValue(v)})`);
  return v;
}
