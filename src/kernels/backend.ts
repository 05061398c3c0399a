// The kernel interface both backends implement (src/engine/wasm-backend.ts, js-backend.ts):
// blocks of one kernel's regions, and one typed call per kernel over them.
import type { BopfArgs, BopfStage } from "./bopf/contract.js";
import type { CrvArgs, CrvStage } from "./crv/contract.js";
import type { DrfArgs, DrfStage } from "./drf/contract.js";
import type { LtrfArgs, LtrfStage } from "./ltrf/contract.js";
import type { SrptArgs, SrptStage } from "./srpt/contract.js";

export type { BopfStage, CrvStage, DrfStage, LtrfStage, SrptStage };
export type BackendKind = "wasm" | "js";

/** The views of each kernel, by name (each kernel's regions are in its src/kernels/<kernel>/contract.ts). */
export interface KernelViews {
  drf: DrfStage;
  srpt: SrptStage;
  ltrf: LtrfStage;
  crv: CrvStage;
  bopf: BopfStage;
}
export type KernelName = keyof KernelViews;

/** The typed arguments of one call of each kernel, by name. */
export interface KernelArgs {
  drf: DrfArgs;
  srpt: SrptArgs;
  ltrf: LtrfArgs;
  crv: CrvArgs;
  bopf: BopfArgs;
}

/**
 * One problem's arrays (inputs, outputs and, for WASM, the kernel's scratch) for one kernel
 * and size, and the kernel call over them. `a`, `b` are (N, K), or (Q, T) for crv.
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
  run(args: KernelArgs[K]): number;
  errorIndex(): number;
  /** crv only: tasks reordered by the last successful run. */
  reordered(): number;
  /** Frees the block's memory (prepared blocks); views must not be used afterwards. */
  release(): void;
}

/**
 * The kernel interface both backends implement over flat typed arrays. The engine
 * writes inputs straight into a block's views (for WASM they live in linear memory),
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
  /**
   * True when stage(kernel, a, b) would grow the engine's memory, detaching every view of it
   * the caller holds (WASM); always false for JS, whose arrays never move. Call sites pass
   * such views through util/keep-views.ts so both backends read the same values.
   */
  stageGrows(kernel: KernelName, a: number, b: number): boolean;
  /** The buffer the engine's views live in (WASM: linear memory), or null when its arrays never move (JS). */
  memoryBuffer(): ArrayBufferLike | null;
}
