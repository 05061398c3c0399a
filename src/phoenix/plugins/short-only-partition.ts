// Partition "short-only-partition" (Hawk, Eagle): the first floor(workers x shortOnlyFraction)
// workers take short tasks only; the central scheduler places long tasks on the others.
import type { NodePlugin } from "../node/plugin.js";

export const shortOnlyPartition: NodePlugin = {
  name: "short-only-partition",
  fills: ["shortOnlyWorkers"],
  build: () => ({ shortOnlyWorkers: (workers, fraction) => Math.floor(workers * fraction) }),
};
