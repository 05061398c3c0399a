// Response-time percentiles of the node-level mode (docs/policies/phoenix.md): p50/p90/p99 for
// short and long jobs, constrained and unconstrained, by the nearest-rank definition of
// src/sim/stats.ts percentileSorted (p-th percentile of n sorted values = value at rank
// ceil(p/100 * n), e.g. p90 of 1..10 = 9).
import { percentileSorted } from "../stats/summary.js";
import type { JobOutcome } from "./node/result.js";

export interface Percentiles {
  count: number;
  p50: number | null;
  p90: number | null;
  p99: number | null;
}

export function percentiles(values: number[]): Percentiles {
  const s = Float64Array.from(values).sort();
  return { count: s.length, p50: percentileSorted(s, 50), p90: percentileSorted(s, 90), p99: percentileSorted(s, 99) };
}

export type Group = "short" | "short-constrained" | "short-unconstrained" | "long" | "long-constrained" | "long-unconstrained";
export const GROUPS: readonly Group[] = ["short", "short-constrained", "short-unconstrained", "long", "long-constrained", "long-unconstrained"];

export function groupStats(jobs: readonly JobOutcome[]): Record<Group, Percentiles> {
  const pick = (long: boolean, c: boolean | null) =>
    percentiles(jobs.filter((j) => !j.rejected && j.long === long && (c === null || j.constrained === c)).map((j) => j.response));
  return {
    short: pick(false, null), "short-constrained": pick(false, true), "short-unconstrained": pick(false, false),
    long: pick(true, null), "long-constrained": pick(true, true), "long-unconstrained": pick(true, false),
  };
}

/**
 * Mean busy fraction the given arrivals find: the busy profile's value (node-sim busyProfile,
 * windows of `window` s from `firstArrival`) at the window of each arrival, averaged. For short
 * jobs it is the load a short job meets on arrival, blind to silent stretches of the trace (an
 * arrival-span average is not). Example: profile [0.2, 1.0], window 100, first arrival 0,
 * arrivals at 10, 150, 160 -> (0.2 + 1.0 + 1.0) / 3 = 0.733. No arrivals -> null.
 */
export function busyAtArrivals(profile: ArrayLike<number>, window: number, firstArrival: number, arrivals: readonly number[]): number | null {
  if (arrivals.length === 0) return null;
  let s = 0;
  for (const t of arrivals) s += profile[Math.floor((t - firstArrival) / window)] ?? 0;
  return s / arrivals.length;
}

/**
 * Longest stretch, in seconds, of consecutive profile windows whose busy fraction is at least
 * `level`: how long the cluster stays saturated. Example: [0.5, 0.97, 0.99, 0.9, 0.96], window
 * 1000, level 0.95 -> 2000.
 */
export function saturatedSpan(profile: ArrayLike<number>, window: number, level: number): number {
  let best = 0, run = 0;
  for (let k = 0; k < profile.length; k++) {
    run = profile[k] >= level ? run + 1 : 0;
    if (run > best) best = run;
  }
  return best * window;
}
