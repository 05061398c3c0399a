// The inputs and outputs of one BoPF allocation round (docs/policies/bopf.md, allocation):
// the queues as objects (InstantQueue, what allocateInstant takes) or as columns
// (InstantBatch, what every path runs on), the result with its four steps, and the
// reusable workspace the round's arrays live in.
import type { BopfClass } from "./admission-types.js";

export interface InstantQueue {
  class: BopfClass;
  /** What the queue could hold now (usage + runnable tasks), length K. */
  want: ArrayLike<number>;
  /** DRF weight, default 1. */
  weight?: number;
  /** Present while the LQ's current burst is guaranteed (inside its window, volume not yet consumed). */
  guarantee?: { rate: ArrayLike<number>; remaining: ArrayLike<number> } | null;
}

export interface InstantAllocation {
  /** Total target allocation, queue-major N*K. */
  allocation: Float64Array;
  /** The parts given by each step (sum = allocation), for reports and tests. */
  steps: { hard: Float64Array; soft: Float64Array; elastic: Float64Array; spare: Float64Array };
}

/** Class codes of the flat entry point (allocateInstantFlat). */
export const CLASS_CODE: Readonly<Record<BopfClass, number>> = { hard: 0, soft: 1, elastic: 2, rejected: 3 };

/**
 * The queues of one instant as flat arrays (struct of arrays), N queues of K resources:
 * what allocateInstant builds from InstantQueue objects, and what a caller holding many
 * queues can fill directly.
 */
export interface InstantBatch {
  n: number;
  /** CLASS_CODE per queue. */
  cls: Uint8Array;
  /** Queue-major N*K. */
  want: Float64Array;
  /** N weights (> 0); null: all 1. */
  weight: Float64Array | null;
  /** 1 where the queue has a guarantee (rate and remaining rows below are read), else 0. */
  hasGuarantee: Uint8Array;
  rate: Float64Array;
  remaining: Float64Array;
}

/**
 * Reusable arrays for allocateInstantFlat: the returned allocation and steps are views into
 * it, valid until its next use. Grows as needed; nothing is cleared (every step writes
 * every cell it owns).
 */
export class InstantWorkspace {
  hard = new Float64Array(0);
  soft = new Float64Array(0);
  elastic = new Float64Array(0);
  spare = new Float64Array(0);
  allocation = new Float64Array(0);
  /** wants of a step (N*K) */
  wants = new Float64Array(0);
  /** 1 where the queue's guarantee is live */
  live = new Uint8Array(0);
  /** the soft LQs with a live guarantee, in queue order */
  softIdx = new Int32Array(0);
  left = new Float64Array(0);
  /** per resource: C * EXHAUSTED, and the sums of step 3's and step 4's demands */
  thr = new Float64Array(0);
  sum3 = new Float64Array(0);
  sum4 = new Float64Array(0);
  ensure(nk: number, n: number, k: number): void {
    if (this.hard.length < nk) {
      this.hard = new Float64Array(nk);
      this.soft = new Float64Array(nk);
      this.elastic = new Float64Array(nk);
      this.spare = new Float64Array(nk);
      this.allocation = new Float64Array(nk);
      this.wants = new Float64Array(nk);
    }
    if (this.live.length < n) {
      this.live = new Uint8Array(n);
      this.softIdx = new Int32Array(n);
    }
    if (this.left.length < k) {
      this.left = new Float64Array(k);
      this.thr = new Float64Array(k);
      this.sum3 = new Float64Array(k);
      this.sum4 = new Float64Array(k);
    }
  }
}

/** Options of allocateInstantFlat. */
export interface FlatOptions {
  /** Validate the batch (default true). */
  check?: boolean;
  /**
   * Also return the four step arrays (default true). false: only the allocation (steps is
   * null), with the same numbers bit for bit, in fewer passes and fewer arrays written:
   * what an embedder applying the decision needs (a researcher reads the steps).
   */
  steps?: boolean;
}

/** allocateInstantFlat's result: steps is null when asked for the allocation only. */
export interface FlatAllocation {
  allocation: Float64Array;
  steps: InstantAllocation["steps"] | null;
}
