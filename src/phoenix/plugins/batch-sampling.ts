// Probe placement "batch-sampling" (Sparrow): a job's probes go to a uniform sample of its
// eligible workers; with fewer eligible workers than probes, the rest go round the set again.
import type { NodePlugin } from "../node/plugin.js";
import { fillRoundRobin } from "../node/sampler.js";

export const batchSampling: NodePlugin = {
  name: "batch-sampling",
  fills: ["placeProbes"],
  build: (m) => ({
    placeProbes(j, eligible, count) {
      const targets = fillRoundRobin(m.sampler.sample(eligible, count), count);
      for (const w of targets) m.send(w, j, -1, m.now + m.rtt / 2);
    },
  }),
};
