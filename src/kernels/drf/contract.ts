// The DRF kernel's contract (assembly/drf.ts, twin ./twin.ts): its regions and its call on
// each backend. Inputs: capacity (K), demands (N*K, queue-major), weights and offsets (N);
// outputs: lambda (N), allocation (N*K), dominantShare (N).
import type { KernelContract } from "../contract.js";
import { f64, nk } from "../region-table.js";
import { DrfScratch, drfKernel } from "./twin.js";

/** The views of one DRF block (layout of docs/policies/drf.md). */
export interface DrfStage {
  capacity: Float64Array; // K
  demands: Float64Array; // N*K, queue-major
  weights: Float64Array; // N
  offsets: Float64Array; // N
  lambda: Float64Array; // N, out
  allocation: Float64Array; // N*K, out
  dominantShare: Float64Array; // N, out
}

/** One DRF call: whether the kernel reads the weights and offsets regions (else all 1 / all 0). */
export interface DrfArgs {
  useWeights: boolean;
  useOffsets: boolean;
}

export interface DrfExports {
  drf(n: number, k: number, cap: number, dem: number, w: number, o: number, lam: number, alloc: number, ds: number, scratch: number): number;
  drfScratchBytes(n: number, k: number): number;
}

/** The four argument objects, so a call allocates none. */
export const DRF_ARGS = {
  plain: { useWeights: false, useOffsets: false },
  weights: { useWeights: true, useOffsets: false },
  offsets: { useWeights: false, useOffsets: true },
  both: { useWeights: true, useOffsets: true },
} as const satisfies Record<string, DrfArgs>;

export function drfArgs(useWeights: boolean, useOffsets: boolean): DrfArgs {
  return useWeights ? (useOffsets ? DRF_ARGS.both : DRF_ARGS.weights) : useOffsets ? DRF_ARGS.offsets : DRF_ARGS.plain;
}

export const DRF: KernelContract<DrfStage, DrfArgs, DrfScratch, DrfExports> = {
  regions: {
    field: "demands",
    describe: nk,
    regions: (n, k) => ({
      capacity: f64(k), demands: f64(n * k), weights: f64(n), offsets: f64(n),
      lambda: f64(n), allocation: f64(n * k), dominantShare: f64(n),
    }),
    inputs: ["capacity", "demands", "weights", "offsets"],
  },
  js: {
    scratch: () => new DrfScratch(),
    ensure(s, n, k) {
      s.ensure(n, k);
      s.radix.ensure(n);
    },
    call: (v, s, n, k, a) =>
      drfKernel(n, k, v.capacity, v.demands, a.useWeights ? v.weights : null, a.useOffsets ? v.offsets : null, v.lambda, v.allocation, v.dominantShare, s),
  },
  wasm: {
    exports: ["drf", "drfScratchBytes"],
    scratchBytes: (x, n, k) => x.drfScratchBytes(n, k),
    call: (x, p, n, k, a) =>
      x.drf(n, k, p.capacity, p.demands, a.useWeights ? p.weights : 0, a.useOffsets ? p.offsets : 0, p.lambda, p.allocation, p.dominantShare, p.scratch),
  },
};
