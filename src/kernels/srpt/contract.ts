// The SRPT kernel's contract (BoPF soft LQs; assembly/srpt.ts, twin ./twin.ts): its regions
// and its call on each backend. It takes no arguments beyond its regions.
import type { KernelContract } from "../contract.js";
import { f64, nk } from "../region-table.js";
import { SrptScratch, srptKernel } from "./twin.js";

/** The views of one SRPT block. */
export interface SrptStage {
  capacity: Float64Array; // K: the key's scale
  available: Float64Array; // K: what is left after the hard guarantees
  demands: Float64Array; // N*K: what each soft LQ could hold now
  rates: Float64Array; // N*K: burst rate caps
  remaining: Float64Array; // N*K: remaining burst volume
  lambda: Float64Array; // N, out
  allocation: Float64Array; // N*K, out
}

/** SRPT reads nothing but its regions. */
export type SrptArgs = Readonly<Record<string, never>>;
export const SRPT_ARGS: SrptArgs = Object.freeze({});

export interface SrptExports {
  srpt(n: number, k: number, cap: number, avail: number, want: number, rate: number, rem: number, lam: number, alloc: number, scratch: number): number;
  srptScratchBytes(n: number, k: number): number;
}

export const SRPT: KernelContract<SrptStage, SrptArgs, SrptScratch, SrptExports> = {
  regions: {
    field: "demands",
    describe: nk,
    regions: (n, k) => ({
      capacity: f64(k), available: f64(k), demands: f64(n * k), rates: f64(n * k), remaining: f64(n * k),
      lambda: f64(n), allocation: f64(n * k),
    }),
    inputs: ["capacity", "available", "demands", "rates", "remaining"],
  },
  js: {
    scratch: () => new SrptScratch(),
    ensure: (s, n, k) => s.ensure(n, k),
    call: (v, s, n, k) => srptKernel(n, k, v.capacity, v.available, v.demands, v.rates, v.remaining, v.lambda, v.allocation, s),
  },
  wasm: {
    exports: ["srpt", "srptScratchBytes"],
    scratchBytes: (x, n, k) => x.srptScratchBytes(n, k),
    call: (x, p, n, k) => x.srpt(n, k, p.capacity, p.available, p.demands, p.rates, p.remaining, p.lambda, p.allocation, p.scratch),
  },
};
