// fast-check arbitraries of cluster states. Built from flat arrays (queues as records, the
// resource count as an integer) rather than chained generators, so that fast-check shrinks a
// failing state by dropping queues and resources: counterexamples end up small.
import fc from "fast-check";
import { InputError } from "../errors.js";
import type { ClusterState } from "./types.js";

export interface Range {
  min: number;
  max: number;
}

/** The generator's knobs; every field optional. */
export interface ClusterStateOptions {
  /** Queues N (default 1..8). */
  minQueues?: number;
  maxQueues?: number;
  /** Resources K (default 1..4). */
  minResources?: number;
  maxResources?: number;
  /** Capacity of each resource (default 0.1..100). */
  capacity?: Range;
  /** Each positive demand entry, in resource units (default 0.01..60). */
  demand?: Range;
  /** Probability that a demand entry is 0 (default 0.2); ignored with `allPositive`. */
  zeroDemandProbability?: number;
  /** Every demand entry > 0 (default false). */
  allPositive?: boolean;
  /** Weights drawn from this range, or false for all 1 (default 0.05..20). */
  weights?: Range | false;
  /** Offsets drawn from this range, or false for none (default false). */
  offsets?: Range | false;
  /** Task-granular: each queue's demand is this many equal tasks (default false: divisible demands). */
  tasks?: Range | false;
}

export const DEFAULT_STATE_OPTIONS = {
  minQueues: 1, maxQueues: 8, minResources: 1, maxResources: 4,
  capacity: { min: 0.1, max: 100 }, demand: { min: 0.01, max: 60 }, zeroDemandProbability: 0.2,
  allPositive: false, weights: { min: 0.05, max: 20 } as Range | false, offsets: false as Range | false, tasks: false as Range | false,
};

const real = ({ min, max }: Range) => fc.double({ min, max, noNaN: true, noDefaultInfinity: true });

/**
 * A real in the range that shrinks to a round value (1, or the nearest bound) first, one draw
 * in `1 / roundOdds` exactly that value: counterexamples read [1, 1] rather than [0.0500000001, 0.05].
 */
function roundish(range: Range, roundOdds = 5): fc.Arbitrary<number> {
  const round = Math.min(range.max, Math.max(range.min, 1));
  return fc.oneof({ withCrossShrink: true }, { weight: 1, arbitrary: fc.constant(round) }, { weight: roundOdds - 1, arbitrary: real(range) });
}

function checkRange(name: string, r: Range, positive: boolean): void {
  if (!(Number.isFinite(r.min) && Number.isFinite(r.max) && r.min <= r.max && (positive ? r.min > 0 : r.min >= 0))) {
    throw new InputError(name, `expected finite min <= max with min ${positive ? "> 0" : ">= 0"}, got ${JSON.stringify(r)}`);
  }
}

/** The options with defaults filled in, validated (an InputError names the bad knob). */
export function resolveStateOptions(o: ClusterStateOptions = {}): Required<ClusterStateOptions> {
  const r = { ...DEFAULT_STATE_OPTIONS, ...Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) } as Required<ClusterStateOptions>;
  for (const key of ["minQueues", "maxQueues", "minResources", "maxResources"] as const) {
    if (!Number.isInteger(r[key]) || r[key] < 1) throw new InputError(key, `expected an integer >= 1, got ${r[key]}`);
  }
  if (r.minQueues > r.maxQueues) throw new InputError("minQueues", `${r.minQueues} > maxQueues ${r.maxQueues}`);
  if (r.minResources > r.maxResources) throw new InputError("minResources", `${r.minResources} > maxResources ${r.maxResources}`);
  checkRange("capacity", r.capacity, true);
  checkRange("demand", r.demand, true);
  if (r.weights) checkRange("weights", r.weights, true);
  if (r.offsets) checkRange("offsets", r.offsets, false);
  if (r.tasks && !(Number.isInteger(r.tasks.min) && Number.isInteger(r.tasks.max) && r.tasks.min >= 1 && r.tasks.min <= r.tasks.max)) {
    throw new InputError("tasks", `expected integers 1 <= min <= max, got ${JSON.stringify(r.tasks)}`);
  }
  if (!(r.zeroDemandProbability >= 0 && r.zeroDemandProbability <= 1)) throw new InputError("zeroDemandProbability", `expected 0..1, got ${r.zeroDemandProbability}`);
  return r;
}

/** Random cluster states (see ClusterStateOptions for the knobs). */
export function clusterStateArb(options: ClusterStateOptions = {}): fc.Arbitrary<ClusterState> {
  const o = resolveStateOptions(options);
  const zeroWeight = Math.round(o.zeroDemandProbability * 1000);
  const arms = [
    { weight: zeroWeight, arbitrary: fc.constant(0) },
    { weight: 1000 - zeroWeight, arbitrary: roundish(o.demand) },
  ].filter((a) => a.weight > 0);
  const entry = o.allPositive ? roundish(o.demand) : fc.oneof({ withCrossShrink: true }, ...arms);
  const queue = fc.record({
    demand: fc.array(entry, { minLength: o.maxResources, maxLength: o.maxResources }),
    weight: o.weights ? roundish(o.weights) : fc.constant(1),
    offset: o.offsets ? real(o.offsets) : fc.constant(0),
    tasks: o.tasks ? fc.integer(o.tasks) : fc.constant(1),
  });
  return fc.record({
    k: fc.integer({ min: o.minResources, max: o.maxResources }),
    capacity: fc.array(roundish(o.capacity), { minLength: o.maxResources, maxLength: o.maxResources }),
    queues: fc.array(queue, { minLength: o.minQueues, maxLength: o.maxQueues }),
  }).map(({ k, capacity, queues }) => {
    const s: ClusterState = {
      capacity: capacity.slice(0, k),
      demands: queues.map((q) => q.demand.slice(0, k)),
      weights: queues.map((q) => q.weight),
    };
    if (o.offsets) s.offsets = queues.map((q) => q.offset);
    if (o.tasks) s.tasks = queues.map((q) => q.tasks);
    return s;
  });
}

/** A deep copy (the allocator gets its own). */
export function cloneState(s: ClusterState): ClusterState {
  const c: ClusterState = { capacity: s.capacity.slice(), demands: s.demands.map((d) => d.slice()), weights: s.weights.slice() };
  if (s.offsets) c.offsets = s.offsets.slice();
  if (s.tasks) c.tasks = s.tasks.slice();
  return c;
}
