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

/** Staging views for one SRPT call (BoPF soft LQs, assembly/srpt.ts). Valid until the next stage call. */
export interface SrptStage {
  capacity: Float64Array; // K: the key's scale
  available: Float64Array; // K: what is left after the hard guarantees
  demands: Float64Array; // N*K: what each soft LQ could hold now
  rates: Float64Array; // N*K: burst rate caps
  remaining: Float64Array; // N*K: remaining burst volume
  lambda: Float64Array; // N, out
  allocation: Float64Array; // N*K, out
}

/** Staging views for one LTRF call (Algorithm 1, assembly/ltrf.ts). Valid until the next stage call. */
export interface LtrfStage {
  free: Float64Array; // K: resources free now
  tasks: Float64Array; // N*K: demand of one task of each queue
  pending: Float64Array; // N: whole numbers of tasks waiting
  usage: Float64Array; // N: accumulated usage U_i
  weights: Float64Array; // N
  increments: Float64Array; // N: usage added per task started
  count: Float64Array; // N, out: tasks started
  usageOut: Float64Array; // N, out: U_i after the call
  freeOut: Float64Array; // K, out: free resources left
}

/**
 * Staging views for one Phoenix reordering round (assembly/crv.ts): q worker queues with t
 * tasks in all, concatenated head first. Valid until the next stage call.
 */
export interface CrvStage {
  offsets: Uint32Array; // q+1: queue j holds tasks offsets[j] .. offsets[j+1]-1
  score: Float64Array; // t: CRV score of each task (>= 0)
  runtime: Float64Array; // t: estimated (remaining) runtime, the SRPT key
  slack: Int32Array; // t: times each task was bypassed so far
  mode: Uint8Array; // q: 0 keep, 1 SRPT, 2 CRV
  order: Uint32Array; // t, out: global index of the task now at each global position
  slackOut: Int32Array; // t, out: updated slack, indexed like the input
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
  /** Views for n soft LQs and k resources (SRPT, BoPF §4.3 step 2). */
  stageSrpt(n: number, k: number): SrptStage;
  runSrpt(n: number, k: number): KernelStatus;
  /** Views for n queues and k resources (LTRF task-level selection, SPEC §5). */
  stageLtrf(n: number, k: number): LtrfStage;
  /** flags bit 0: blocking (stop at the first task that does not fit). */
  runLtrf(n: number, k: number, useWeights: boolean, flags: number): KernelStatus;
  /** Views for one CRV/SRPT reordering round over q queues holding t tasks (Phoenix, SPEC §7). */
  stageCrv(q: number, t: number): CrvStage;
  /** Returns the status and, when OK, the number of reordered tasks in `reordered`. */
  runCrv(q: number, t: number, slackThreshold: number): KernelStatus & { reordered: number };
  /** One pass over the first `len` staged demand elements: the benchmark floor. */
  floorSum(len: number): number;
}
