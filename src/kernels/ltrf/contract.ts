// The LTRF kernel's contract (Algorithm 1; assembly/ltrf.ts, twin ./twin.ts): its regions
// and its call on each backend.
import type { KernelContract } from "../contract.js";
import { f64, nk } from "../region-table.js";
import { LtrfScratch, ltrfKernel } from "./twin.js";

/** The views of one LTRF block. */
export interface LtrfStage {
  free: Float64Array; // K: resources free now
  tasks: Float64Array; // N*K: demand of one task of each queue
  pending: Float64Array; // N: whole numbers of tasks waiting
  usage: Float64Array; // N: accumulated usage U_i
  weights: Float64Array; // N
  increments: Float64Array; // N: usage added per task started
  maxStarts: Float64Array; // 1: tasks the call may start one by one (assembly/ltrf.ts "Start limit")
  count: Float64Array; // N, out: tasks started
  usageOut: Float64Array; // N, out: U_i after the call
  freeOut: Float64Array; // K, out: free resources left
}

/** One LTRF call. */
export interface LtrfArgs {
  /** The kernel reads the weights region (else all 1). */
  useWeights: boolean;
  /** Stop at the first smallest-usage queue whose task does not fit (Algorithm 1 literally). */
  blocking: boolean;
  /** Reaching maxStarts returns the prefix (OK) instead of the StartLimit status. */
  partial: boolean;
}

export interface LtrfExports {
  ltrf(n: number, k: number, free: number, task: number, pend: number, use: number, w: number, inc: number, limit: number, flags: number, cnt: number, useOut: number, freeOut: number, scratch: number): number;
  ltrfScratchBytes(n: number): number;
}

/** The kernel's flags word: bit 0 blocking, bit 1 partial results at the start limit (assembly/ltrf.ts). */
export function ltrfFlags(a: LtrfArgs): number {
  return (a.blocking ? 1 : 0) | (a.partial ? 2 : 0);
}

export const LTRF: KernelContract<LtrfStage, LtrfArgs, LtrfScratch, LtrfExports> = {
  regions: {
    field: "tasks",
    describe: nk,
    regions: (n, k) => ({
      free: f64(k), tasks: f64(n * k), pending: f64(n), usage: f64(n), weights: f64(n), increments: f64(n), maxStarts: f64(1),
      count: f64(n), usageOut: f64(n), freeOut: f64(k),
    }),
    inputs: ["free", "tasks", "pending", "usage", "weights", "increments", "maxStarts"],
  },
  js: {
    scratch: () => new LtrfScratch(),
    ensure: (s, n) => s.ensure(n),
    call: (v, s, n, k, a) =>
      ltrfKernel(n, k, v.free, v.tasks, v.pending, v.usage, a.useWeights ? v.weights : null, v.increments, v.maxStarts, ltrfFlags(a), v.count, v.usageOut, v.freeOut, s),
  },
  wasm: {
    exports: ["ltrf", "ltrfScratchBytes"],
    scratchBytes: (x, n) => x.ltrfScratchBytes(n),
    call: (x, p, n, k, a) =>
      x.ltrf(n, k, p.free, p.tasks, p.pending, p.usage, a.useWeights ? p.weights : 0, p.increments, p.maxStarts, ltrfFlags(a), p.count, p.usageOut, p.freeOut, p.scratch),
  },
};
