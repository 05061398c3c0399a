// Per-constraint CRV thresholds from the paper's Table II (docs/policies/phoenix.md; the paper's §IV-B: "The
// CRV_threshold for each constraint is determined based on the task execution statistics given
// in the Table II"). Table II's only execution statistic is the relative slowdown of a job with
// that constraint w.r.t. an equivalent unconstrained job; its other columns (% share,
// occurrence) count jobs. So constraint c counts as congested when its CRV (demand / supply)
// exceeds its slowdown: a resource whose jobs already run ~2x slower when it is merely scarce is
// only called congested when twice as many tasks wait for it as there are workers holding it.
//
// Table II row per constraint of the generator (constraint-gen.ts):
//   isa 2.03; cores 1.90; disks `<` (maximum disks) 1.90, `=` (a maximum and a minimum: the
//   maximum-disks row, the stricter of the two) 1.90, `>` (minimum disks) 0.91; kernel 1.77;
//   platform 1.77; clock 1.76; ethernet 1.91. Memory has no Table II row: it keeps the uniform
//   `fallback` (the simulator's crvThreshold option).
//
// Example: 600 tasks wait for `isa = arm64`, held by 400 workers: CRV 1.5 < 2.03, not congested
// (with the uniform threshold 1 it would be); 300 tasks wait for `disks > 4`, held by 250
// workers: CRV 1.2 > 0.91, congested. Edge values: CRV exactly at the threshold is not
// congested ("goes beyond", strict >); a constraint no worker holds has CRV 0 (monitor.ts).
import type { Constraint } from "./constraints.js";

/** Table II "Relative Slowdown", by the constraint rows the generator draws from. */
export const TABLE_II_SLOWDOWN = {
  isa: 2.03, cores: 1.9, maxDisks: 1.9, minDisks: 0.91, kernel: 1.77, platform: 1.77, clock: 1.76, ethernet: 1.91,
} as const;

/** CRV_threshold of one constraint: its Table II slowdown, or `fallback` when it has no row. */
export function tableIIThreshold(c: Constraint, fallback: number): number {
  switch (c.attr) {
    case "isa": return TABLE_II_SLOWDOWN.isa;
    case "cores": return TABLE_II_SLOWDOWN.cores;
    case "disks": return c.op === ">" ? TABLE_II_SLOWDOWN.minDisks : TABLE_II_SLOWDOWN.maxDisks;
    case "kernel": return TABLE_II_SLOWDOWN.kernel;
    case "platform": return TABLE_II_SLOWDOWN.platform;
    case "clockGhz": return TABLE_II_SLOWDOWN.clock;
    case "ethernetGbps": return TABLE_II_SLOWDOWN.ethernet;
    default: return fallback;
  }
}
