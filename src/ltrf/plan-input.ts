// What one LTRF / MLRF / H-LTRF scheduling point plans over (src/ltrf/planned-policy.ts), and the
// flat decision: the min-share phase, then the rest through engine.ltrf (Algorithm 1).
import type { Engine } from "../engine/engine.js";

/** What plan() gets: per queue its next task, how many may start, its ledger and per-task charge. */
export interface PlanInput {
  time: number;
  free: Float64Array;
  tasks: Float64Array;
  pending: Float64Array;
  /** Tasks to start first to reach the queue's min share (a subset of pending). */
  minPending: Float64Array;
  usage: Float64Array;
  increments: Float64Array;
  weights: Float64Array;
  count: Float64Array;
  /** The counts as decided (count is consumed as tasks start). */
  planned: Float64Array;
  /** The queue of each row (rows are queues in index order: all of them, or those with an active job). */
  queues: Int32Array;
}

/** `a` with one more value, a view of a buffer that grows by doubling (amortised O(1)). */
export function appended(a: Float64Array, v: number): Float64Array {
  const n = a.length;
  if ((n + 1) * 8 <= a.buffer.byteLength - a.byteOffset) {
    const b = new Float64Array(a.buffer, a.byteOffset, n + 1);
    b[n] = v;
    return b;
  }
  const b = new Float64Array(Math.max(16, 2 * n));
  b.set(a);
  b[n] = v;
  return b.subarray(0, n + 1);
}

/** Runs the min-share phase and then the rest through engine.ltrf (flat LTRF and MLRF). */
export function decideFlat(engine: Engine, p: PlanInput, blocking: boolean): void {
  const n = p.count.length;
  let free: Float64Array = p.free;
  let usage: Float64Array = p.usage;
  const given = new Float64Array(n);
  if (p.minPending.some((m) => m > 0)) {
    const r = engine.ltrf({ free, tasks: p.tasks, pending: p.minPending, usage, weights: p.weights, increments: p.increments, blocking });
    given.set(r.count);
    free = r.free;
    usage = r.usage;
  }
  const rest = Float64Array.from(p.pending, (x, i) => x - given[i]);
  const r = engine.ltrf({ free, tasks: p.tasks, pending: rest, usage, weights: p.weights, increments: p.increments, blocking });
  for (let i = 0; i < n; i++) p.count[i] = given[i] + r.count[i];
}
