// Queue order "srpt-queues" (Eagle): every queue is reordered by the remaining work of the
// entry's job (the estimate x the tasks not yet bound, at least one), least first, with the
// kernel's slack bound (a task bypassed slackThreshold times is not bypassed again).
import type { NodePlugin } from "../node/plugin.js";
import type { Entry } from "../node/types.js";

/** Remaining work of the entry's job, as the scheduler estimates it. */
export const srptKey = (e: Entry): number => e.job.spec.estimate * Math.max(1, e.job.n - e.job.next);

export const srptQueues: NodePlugin = {
  name: "srpt-queues",
  fills: ["queueOrder"],
  build: () => ({ queueOrder: { mode: () => 1, key: srptKey, score: () => 0 } }),
};
