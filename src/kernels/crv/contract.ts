// The Phoenix CRV/SRPT reordering kernel's contract (assembly/crv.ts, twin ./twin.ts): its
// regions (q worker queues holding t tasks in all, concatenated head first) and its call on
// each backend.
import type { KernelContract } from "../contract.js";
import { f64 } from "../region-table.js";
import { CrvScratch, crvReorderKernel } from "./twin.js";

/** The views of one reordering block. */
export interface CrvStage {
  offsets: Uint32Array; // q+1: queue j holds tasks offsets[j] .. offsets[j+1]-1
  score: Float64Array; // t: CRV score of each task (>= 0)
  runtime: Float64Array; // t: estimated (remaining) runtime, the SRPT key
  slack: Int32Array; // t: times each task was bypassed so far
  mode: Uint8Array; // q: 0 keep, 1 SRPT, 2 CRV
  order: Uint32Array; // t, out: global index of the task now at each global position
  slackOut: Int32Array; // t, out: updated slack, indexed like the input
}

/** One reordering round. */
export interface CrvArgs {
  /** A task whose slack reached this is never bypassed again (whole number >= 0). */
  slackThreshold: number;
}

export interface CrvExports {
  crvReorder(q: number, t: number, off: number, score: number, rt: number, slack: number, mode: number, thr: number, order: number, slackOut: number, scratch: number): number;
  crvScratchBytes(t: number): number;
}

export const CRV: KernelContract<CrvStage, CrvArgs, CrvScratch, CrvExports> = {
  regions: {
    field: "runtime",
    describe: (q, t) => `Q=${q}, T=${t}`,
    // f64 regions first; every region starts 8-byte aligned anyway (see regionBytes)
    regions: (q, t) => ({
      score: f64(t), runtime: f64(t), offsets: [Uint32Array, q + 1], slack: [Int32Array, t],
      order: [Uint32Array, t], slackOut: [Int32Array, t], mode: [Uint8Array, q],
    }),
    inputs: ["offsets", "score", "runtime", "slack", "mode"],
  },
  js: {
    scratch: () => new CrvScratch(),
    ensure: (s, _q, t) => s.ensure(t),
    call: (v, s, q, t, a) => crvReorderKernel(q, t, v.offsets, v.score, v.runtime, v.slack, v.mode, a.slackThreshold, v.order, v.slackOut, s),
  },
  wasm: {
    exports: ["crvReorder", "crvScratchBytes"],
    scratchBytes: (x, _q, t) => x.crvScratchBytes(t),
    call: (x, p, q, t, a) => x.crvReorder(q, t, p.offsets, p.score, p.runtime, p.slack, p.mode, a.slackThreshold, p.order, p.slackOut, p.scratch),
  },
};
