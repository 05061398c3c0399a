// Queue order "newest-probe-first" (an ablation, in no registered policy by default): queues are
// sorted with short probes newest first (bounded by the slack threshold) and long entries behind
// every short probe in SRPT order. It is the order Eagle's published simulator actually runs
// (docs/notes/phoenix.md says why): the Eagle-C baseline the Phoenix paper was measured against.
// Eagle bounds the bypassing by a delay budget of 5x a probe's estimated duration; here the
// kernel's bypass count (slackThreshold) stands in for it.
//
// Example: queue [A arrived 10 s, B 12 s, C 15 s], all slack 0: SRPT serves the least remaining
// work, this order serves C, then B, then A (A and B each bypassed, slack + 1).
import type { NodePlugin } from "../node/plugin.js";
import { srptKey } from "./srpt-queues.js";

export const newestProbeFirst: NodePlugin = {
  name: "newest-probe-first",
  fills: ["queueOrder"],
  build: (m) => {
    // above every probe arrival time (the last job arrival plus a day), so keys stay >= 0
    const base = m.jobs.reduce((mx, j) => Math.max(mx, j.spec.arrival), 0) + 86400;
    return {
      queueOrder: {
        mode: () => 1,
        key: (e) => (e.task < 0 && !e.job.long ? base - e.arrived : base + srptKey(e)),
        score: () => 0,
      },
    };
  },
};
