// createScheduler's options: their type and their checks (InputErrors naming the field, before
// anything is built).
import type { Engine } from "../engine/engine.js";
import { InputError, describeValue } from "../errors.js";
import type { PolicyFactory } from "../policy/policy.js";
import { checkKeys, checkWeight, plainJson } from "./validate.js";

export interface SchedulerOptions {
  policy: string;
  capacity: number[];
  resources?: string[];
  engine?: Engine;
  /** Seconds; default Date.now() / 1000. Inject a fake clock in tests. */
  clock?: () => number;
  /** Hold unguaranteed queues while a guaranteed one is below its target (default false). */
  reservation?: boolean;
  /**
   * The dispatch's starvation guard (src/dispatch/head-reservation.ts): room is reserved for the
   * head of the elastic phase's DRF order when its next task does not fit (default true).
   */
  starvationGuard?: boolean;
  /** The policy's options, as in simulate({ policyOptions }) (e.g. LTRF window, quantum, tWait, groupWeights; BoPF expiry; M-BVT lag). */
  policyOptions?: Record<string, unknown>;
  /** Seed of the random numbers a policy may draw (H-LTRF tieBreak 'random'). Default 0. */
  seed?: number;
}

/** The options after their checks. */
export interface CheckedOptions {
  policy: string;
  factory: PolicyFactory;
  capacity: Float64Array;
  resources: string[];
  engine: Engine | undefined;
  clock: (() => number) | undefined;
  reservation: boolean;
  starvationGuard: boolean;
  policyOptions: Record<string, unknown> | undefined;
  seed: number;
}

const OPTION_KEYS = ["policy", "capacity", "resources", "engine", "clock", "reservation", "starvationGuard", "policyOptions", "seed"];

/** Checks createScheduler's options; `lookup` finds a policy factory by name (the policy registry). */
export function checkOptions(options: SchedulerOptions, lookup: (name: string) => PolicyFactory | undefined, known: () => string[]): CheckedOptions {
  if (options === null || typeof options !== "object") throw new InputError("options", `expected {policy, capacity, ...}, got ${describeValue(options)}`);
  checkKeys("options", options, OPTION_KEYS);
  const { policy, capacity, resources, clock, reservation, starvationGuard, policyOptions, seed } = options;
  if (typeof policy !== "string") throw new InputError("policy", `expected a policy name, got ${describeValue(policy)}`);
  const factory = lookup(policy);
  if (!factory) throw new InputError("policy", `unknown policy '${policy}' (live: ${known().join(", ")})`);
  if (!Array.isArray(capacity) || capacity.length === 0) throw new InputError("capacity", `expected a non-empty array of numbers, got ${describeValue(capacity)}`);
  // index loops: forEach and every skip an array's holes ([1, , 1])
  for (let r = 0; r < capacity.length; r++) {
    const c = capacity[r];
    if (!(typeof c === "number" && Number.isFinite(c) && c > 0)) throw new InputError(`capacity[${r}]`, `must be a finite number > 0 (got ${describeValue(c)})`);
  }
  const k = capacity.length;
  if (resources !== undefined && !(Array.isArray(resources) && resources.length === k && Array.from(resources).every((s) => typeof s === "string"))) throw new InputError("resources", `expected ${k} names, got ${describeValue(resources)}`);
  if (clock !== undefined && typeof clock !== "function") throw new InputError("clock", `expected a function returning seconds, got ${describeValue(clock)}`);
  if (reservation !== undefined && typeof reservation !== "boolean") throw new InputError("reservation", `must be true or false (got ${describeValue(reservation)})`);
  if (starvationGuard !== undefined && typeof starvationGuard !== "boolean") throw new InputError("starvationGuard", `must be true or false (got ${describeValue(starvationGuard)})`);
  if (policyOptions !== undefined && (policyOptions === null || typeof policyOptions !== "object" || Array.isArray(policyOptions))) throw new InputError("policyOptions", `expected an object, got ${describeValue(policyOptions)}`);
  if (seed !== undefined && !(typeof seed === "number" && Number.isInteger(seed))) throw new InputError("seed", `must be an integer (got ${describeValue(seed)})`);
  const plainOptions = policyOptions === undefined ? undefined : plainJson(policyOptions, "policyOptions") as Record<string, unknown>;
  const gw = plainOptions?.groupWeights;
  if (gw !== null && typeof gw === "object") {
    // checked here: the policy sees only the groups its queues have (groups may come later)
    for (const [key, w] of Object.entries(gw)) checkWeight(`policyOptions.groupWeights.${key}`, w);
  }
  return {
    policy, factory,
    capacity: Float64Array.from(capacity),
    resources: resources ? [...resources] : capacity.map((_, r) => `r${r}`),
    engine: options.engine, clock,
    reservation: reservation === true,
    starvationGuard: starvationGuard !== false,
    policyOptions: plainOptions,
    seed: seed ?? 0,
  };
}
