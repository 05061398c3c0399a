import type { KernelStatus } from "./status.js";

export type BackendKind = "wasm" | "js";

/** Staging views for one DRF call (SPEC §1 layout). Valid until the next stage call. */
export interface DrfStage {
  capacity: Float64Array; // K
  demands: Float64Array; // N*K, queue-major
  weights: Float64Array; // N
  offsets: Float64Array; // N
  lambda: Float64Array; // N, out
  allocation: Float64Array; // N*K, out
  dominantShare: Float64Array; // N, out
}

/**
 * The kernel interface both backends implement over flat Float64Arrays. The engine
 * writes inputs straight into the staged views (for WASM they live in linear memory),
 * runs the kernel, then copies results out for the caller.
 */
export interface KernelBackend {
  readonly kind: BackendKind;
  /** Views sized for n queues and k resources; throws InputError when too large for memory. */
  stageDrf(n: number, k: number): DrfStage;
  runDrf(n: number, k: number, useWeights: boolean, useOffsets: boolean): KernelStatus;
  /** One pass over the first `len` staged demand elements: the benchmark floor. */
  floorSum(len: number): number;
}
