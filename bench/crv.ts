// Phoenix CRV/SRPT reordering of every worker queue in one round (assembly/crv.ts,
// src/kernels/crv/twin.ts). N = tasks T; K sets the mean queue length 4K (see crvInstance).
// Floor: one pass over the per-task f64 inputs, CRV score and runtime (2*T).
import type { Size } from "./cases.js";
import { kernelModule } from "./kernel-module.js";
import { crvInstance, type CrvInstance } from "./workload.js";

let cached: { n: number; k: number; x: CrvInstance } | null = null;
function instance({ n, k }: Size): CrvInstance {
  if (!cached || cached.n !== n || cached.k !== k) cached = { n, k, x: crvInstance(n, k) };
  return cached.x;
}

export const crvModule = kernelModule({
  id: "crv",
  name: "Phoenix CRV reordering (docs/policies/phoenix.md; N = tasks, queues of ~4K tasks)",
  kernelLabel: "CRV reorder kernel",
  floorLabel: "one pass over score, runtime",
  stage(kernels, size) {
    const x = instance(size);
    const block = kernels.stage("crv", x.q, x.t);
    const s = block.views();
    s.offsets.set(x.offsets);
    s.score.set(x.score);
    s.runtime.set(x.runtime);
    s.slack.set(x.slack);
    s.mode.set(x.mode);
    const args = { slackThreshold: x.slackThreshold };
    return { run: () => block.run(args), errorIndex: () => block.errorIndex(), floorViews: [s.score, s.runtime] };
  },
  calls: {
    into(engine, size) {
      const x = instance(size);
      const input = { queueOffsets: x.offsets, crv: x.score, runtime: x.runtime, slack: x.slack, mode: x.mode as unknown as ArrayLike<0 | 1 | 2>, slackThreshold: x.slackThreshold };
      const options = { into: { order: new Uint32Array(x.t), slack: new Int32Array(x.t) } };
      return () => engine.crvReorder(input, options);
    },
    prepared(engine, size) {
      const x = instance(size);
      const p = engine.prepareCrv(x.q, x.t, { slackThreshold: x.slackThreshold });
      p.queueOffsets.set(x.offsets);
      p.crv.set(x.score);
      p.runtime.set(x.runtime);
      p.slack.set(x.slack);
      p.mode.set(x.mode);
      return () => p.solve();
    },
  },
});
