// LTRF task-level selection (Algorithm 1; assembly/ltrf.ts, src/kernels/ltrf/twin.ts):
// validation, bucket queue, one start per task, sweeps of the queues set aside once the
// cluster fills. Work-conserving, with weights (instance: bench/workload.ts). Floor: one pass
// over the task demands (N*K) and the four per-queue inputs (pending, usage, weights, increments).
import type { Size } from "./cases.js";
import { kernelModule } from "./kernel-module.js";
import { ltrfInstance, type LtrfInstance } from "./workload.js";

let cached: LtrfInstance | null = null;
function instance({ n, k }: Size): LtrfInstance {
  if (!cached || cached.n !== n || cached.k !== k) cached = ltrfInstance(n, k);
  return cached;
}

/** Weighted, work-conserving, no partial results. */
const ARGS = { useWeights: true, blocking: false, partial: false };

export const ltrfModule = kernelModule({
  id: "ltrf",
  name: "LTRF task selection (Algorithm 1, docs/policies/ltrf.md)",
  kernelLabel: "LTRF kernel",
  floorLabel: "one pass over tasks, pending, usage, weights, increments",
  stage(kernels, size) {
    const x = instance(size);
    const block = kernels.stage("ltrf", x.n, x.k);
    const s = block.views();
    s.free.set(x.free);
    s.tasks.set(x.tasks);
    s.pending.set(x.pending);
    s.usage.set(x.usage);
    s.weights.set(x.weights);
    s.increments.set(x.increments);
    s.maxStarts[0] = Infinity; // the bench instance starts far fewer than any limit
    return {
      run: () => block.run(ARGS),
      errorIndex: () => block.errorIndex(),
      floorViews: [s.tasks, s.pending, s.usage, s.weights, s.increments],
    };
  },
  calls: {
    into(engine, size) {
      const x = instance(size);
      const input = { free: x.free, tasks: x.tasks, pending: x.pending, usage: x.usage, weights: x.weights, increments: x.increments };
      const options = { into: { count: new Float64Array(x.n), usage: new Float64Array(x.n), free: new Float64Array(x.k) } };
      return () => engine.ltrf(input, options);
    },
    prepared(engine, size) {
      const x = instance(size);
      const p = engine.prepareLtrf(x.n, x.k, { weights: true })
        .load({ free: x.free, tasks: x.tasks, pending: x.pending, usage: x.usage, weights: x.weights, increments: x.increments });
      return () => p.solve();
    },
  },
});
