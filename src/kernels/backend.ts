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
  maxStarts: Float64Array; // 1: tasks the call may start one by one (assembly/ltrf.ts "Start limit")
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
 * Staging views for the BoPF decision (assembly/bopf.ts): admission of N queues over their
 * columns (run(0, 0)), and the allocation round's allocation-only pass (run(1, flags)).
 * Valid until the next stage call.
 */
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

/** The views of each kernel, by name (the region table is src/engine/regions.ts). */
export interface KernelViews {
  drf: DrfStage;
  srpt: SrptStage;
  ltrf: LtrfStage;
  crv: CrvStage;
  bopf: BopfStage;
}
export type KernelName = keyof KernelViews;

/**
 * One problem's arrays (inputs, outputs and, for WASM, the kernel's scratch) for one kernel
 * and size, and the kernel call over them. `a`, `b` are (N, K), or (Q, T) for crv.
 * The two scalar arguments of `run` are per kernel: drf (useWeights 0/1, useOffsets 0/1),
 * srpt (unused), ltrf (useWeights 0/1, flags), crv (slackThreshold, unused), bopf (0: admission,
 * its flags: bit 0 no rate/tol/bind rows, bit 1 and the round right after it, fused; 1: allocation,
 * its flags: bit 0 weights, bit 1 the round right after admission).
 */
export interface KernelBlock<K extends KernelName = KernelName> {
  readonly kernel: K;
  readonly a: number;
  readonly b: number;
  /**
   * The views. WASM memory growth detaches every view, so they are re-derived when the
   * memory's buffer changed; otherwise the same objects are returned (no allocation).
   */
  views(): KernelViews[K];
  /** False once released, or (a transient block) once the backend staged something else over it. */
  valid(): boolean;
  /** Runs the kernel in place; returns a Status code (errorIndex() tells where when not OK). */
  run(u: number, v: number): number;
  errorIndex(): number;
  /** crv only: tasks reordered by the last successful run. */
  reordered(): number;
  /** Frees the block's memory (prepared blocks); views must not be used afterwards. */
  release(): void;
}

/**
 * The kernel interface both backends implement over flat typed arrays. The engine
 * writes inputs straight into the staged views (for WASM they live in linear memory),
 * runs the kernel, then copies results out for the caller.
 */
export interface KernelBackend {
  readonly kind: BackendKind;
  /**
   * The backend's transient block for this kernel and size, reused while the size stays the
   * same. Every kernel's transient block shares one staging area (calls never interleave),
   * so its contents are meaningful only until the next stage of any kernel, and the block
   * itself until a prepare/release moves the staging area (valid() then says false).
   * Throws InputError when the problem is too large for memory.
   */
  stage<K extends KernelName>(kernel: K, a: number, b: number): KernelBlock<K>;
  /** A block with memory of its own, valid until release(), whatever else the backend runs. */
  prepare<K extends KernelName>(kernel: K, a: number, b: number): KernelBlock<K>;
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
