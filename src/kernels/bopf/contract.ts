// The BoPF decision kernel's contract (assembly/bopf.ts, twin ./twin.ts): its regions and its
// two passes on each backend: admission of N queues over their columns, and the allocation
// round's allocation-only pass.
import type { KernelContract } from "../contract.js";
import { f64, nk } from "../region-table.js";
import { BopfScratch, bopfAdmitKernel, bopfAllocateKernel } from "./twin.js";

/** The views of one BoPF block. */
export interface BopfStage {
  capacity: Float64Array; // K
  bound: Float64Array; // K: C * (1 + tolerance), the resource condition's bound
  hard: Float64Array; // K, in/out: the hard LQs' rate sums
  state: Float64Array; // 8, in/out: M, smallest guaranteed tolerance, variant, id0; out [4]: rows admitted, [5]: guaranteed admitted, [6]: id of the new smallest (-1: unchanged), [7]: the fused round's status
  start: Float64Array; // N
  period: Float64Array; // N
  window: Float64Array; // N
  count: Float64Array; // N
  volume: Float64Array; // N*K
  want: Float64Array; // N*K: the allocation round's demands
  rate: Float64Array; // N*K: out of admission (by admission row), in of allocation
  remaining: Float64Array; // N*K
  weight: Float64Array; // N
  tol: Float64Array; // N, out: tolerance by admission row
  allocation: Float64Array; // N*K, out
  id: Int32Array; // N, out: admission id by row (-1 rejected)
  bind: Int32Array; // N, out: binding resource by admission row
  gkey: Float64Array; // N, out: the tolerances of the queues admitted hard or soft, in admission order
  gid: Int32Array; // N, out: their ids
  kind: Uint8Array; // N: 0 TQ, 1 LQ
  cls: Uint8Array; // N: out of admission, in of allocation (class codes 0-3)
  reason: Uint8Array; // N, out: reason codes (BATCH_REASONS)
  hasGuarantee: Uint8Array; // N
  clsById: Uint8Array; // N, out: class code by admission row
  kindById: Uint8Array; // N, out: 1 LQ, 2 TQ by admission row
}

/** One BoPF call: an admission pass or an allocation pass. */
export type BopfArgs =
  | {
    pass: "admit";
    /** Skip the rate, tolerance and binding-resource rows (the caller derives them from the specs). */
    noSummaryRows: boolean;
    /** Run the allocation round right after admission in the same pass (its status in state[7]). */
    fusedRound: boolean;
  }
  | {
    pass: "allocate";
    /** The kernel reads the weight region (else all 1). */
    useWeights: boolean;
    /** The round right after admission: the remaining volumes are the admission's burst volumes. */
    afterAdmission: boolean;
  };

export interface BopfExports {
  bopfAdmit(n: number, k: number, flags: number, cap: number, bound: number, hard: number, state: number, kind: number, start: number, period: number, window: number, count: number, volume: number, want: number, cls: number, reason: number, id: number, rate: number, tol: number, bind: number, clsById: number, kindById: number, gkey: number, gid: number, alloc: number, scratch: number): number;
  bopfAllocate(n: number, k: number, flags: number, cap: number, cls: number, hasG: number, kind: number, id: number, state: number, want: number, rate: number, rem: number, weight: number, alloc: number, scratch: number): number;
  bopfScratchBytes(n: number, k: number): number;
}

/** The kernel's flags word (assembly/bopf.ts): admission bit 0 no summary rows, bit 1 fused round; allocation bit 0 weights, bit 1 after admission. */
export function bopfFlags(a: BopfArgs): number {
  return a.pass === "admit" ? (a.noSummaryRows ? 1 : 0) | (a.fusedRound ? 2 : 0) : (a.useWeights ? 1 : 0) | (a.afterAdmission ? 2 : 0);
}

export const BOPF: KernelContract<BopfStage, BopfArgs, BopfScratch, BopfExports> = {
  regions: {
    field: "volume",
    describe: nk,
    regions: (n, k) => ({
      capacity: f64(k), bound: f64(k), hard: f64(k), state: f64(8),
      start: f64(n), period: f64(n), window: f64(n), count: f64(n), volume: f64(n * k),
      want: f64(n * k), rate: f64(n * k), remaining: f64(n * k), weight: f64(n), tol: f64(n), allocation: f64(n * k), gkey: f64(n),
      id: [Int32Array, n], bind: [Int32Array, n], gid: [Int32Array, n],
      kind: [Uint8Array, n], cls: [Uint8Array, n], reason: [Uint8Array, n], hasGuarantee: [Uint8Array, n],
      clsById: [Uint8Array, n], kindById: [Uint8Array, n],
    }),
    inputs: ["capacity", "bound", "hard", "state", "start", "period", "window", "count", "volume", "kind", "want", "rate", "remaining", "weight", "cls", "hasGuarantee"],
  },
  js: {
    scratch: () => new BopfScratch(),
    ensure: (s, n, k) => s.ensure(n, k),
    call: (v, s, n, k, a) => a.pass === "admit"
      ? bopfAdmitKernel(n, k, bopfFlags(a), v.capacity, v.bound, v.hard, v.state, v.kind, v.start, v.period, v.window, v.count, v.volume, v.want, v.cls, v.reason, v.id, v.rate, v.tol, v.bind, v.clsById, v.kindById, v.gkey, v.gid, v.allocation, s)
      : bopfAllocateKernel(n, k, bopfFlags(a), v.capacity, v.cls, v.hasGuarantee, v.kind, v.id, v.state, v.want, v.rate, a.afterAdmission ? v.volume : v.remaining, v.weight, v.allocation, s),
  },
  wasm: {
    exports: ["bopfAdmit", "bopfAllocate", "bopfScratchBytes"],
    scratchBytes: (x, n, k) => x.bopfScratchBytes(n, k),
    call: (x, p, n, k, a) => a.pass === "admit"
      ? x.bopfAdmit(n, k, bopfFlags(a), p.capacity, p.bound, p.hard, p.state, p.kind, p.start, p.period, p.window, p.count, p.volume, p.want, p.cls, p.reason, p.id, p.rate, p.tol, p.bind, p.clsById, p.kindById, p.gkey, p.gid, p.allocation, p.scratch)
      : x.bopfAllocate(n, k, bopfFlags(a), p.capacity, p.cls, p.hasGuarantee, p.kind, p.id, p.state, p.want, p.rate, a.afterAdmission ? p.volume : p.remaining, p.weight, p.allocation, p.scratch),
  },
};
