// SRPT among BoPF's soft LQs (assembly/srpt.ts, src/kernels/srpt/twin.ts): one scan
// (validation, keys, rate caps, masks), one bucket pass by key, the greedy step over the
// queues not blocked by an exhausted resource (sorted exactly bucket by bucket), one
// allocation pass. Floor: one pass over want, rate and remaining (3*N*K).
import { SRPT_ARGS } from "../src/kernels/srpt/contract.js";
import type { Size } from "./cases.js";
import { kernelModule } from "./kernel-module.js";
import { srptInstance, type SrptInstance } from "./workload.js";

let cached: SrptInstance | null = null;
function instance({ n, k }: Size): SrptInstance {
  if (!cached || cached.n !== n || cached.k !== k) cached = srptInstance(n, k);
  return cached;
}

export const srptModule = kernelModule({
  id: "srpt",
  name: "SRPT among soft LQs (BoPF, docs/policies/bopf.md)",
  kernelLabel: "SRPT kernel",
  floorLabel: "one pass over want, rate, remaining",
  stage(kernels, size) {
    const x = instance(size);
    const block = kernels.stage("srpt", x.n, x.k);
    const s = block.views();
    s.capacity.set(x.capacity);
    s.available.set(x.available);
    s.demands.set(x.demands);
    s.rates.set(x.rates);
    s.remaining.set(x.remaining);
    return { run: () => block.run(SRPT_ARGS), errorIndex: () => block.errorIndex(), floorViews: [s.demands, s.rates, s.remaining] };
  },
  calls: {
    into(engine, size) {
      const x = instance(size);
      const input = { capacity: x.capacity, available: x.available, demands: x.demands, rates: x.rates, remaining: x.remaining };
      const options = { into: { fraction: new Float64Array(x.n), allocation: new Float64Array(x.n * x.k) } };
      return () => engine.srpt(input, options);
    },
    prepared(engine, size) {
      const x = instance(size);
      const p = engine.prepareSrpt(x.n, x.k).load({ capacity: x.capacity, available: x.available, demands: x.demands, rates: x.rates, remaining: x.remaining });
      return () => p.solve();
    },
  },
});
