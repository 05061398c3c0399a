// Long-job placement "probed-long-jobs" (Sparrow): long jobs are placed by the probe placement,
// like short ones.
import type { NodePlugin } from "../node/plugin.js";

export const probedLongJobs: NodePlugin = {
  name: "probed-long-jobs",
  fills: ["placeLong"],
  build: (m) => ({ placeLong: (j, eligible) => m.sendProbes(j, eligible) }),
};
