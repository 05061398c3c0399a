// Task end "sticky-probes" (Eagle's sticky batch probing, SBP): a probe is not consumed by its
// task; while its job has unbound tasks it stays at the head of the worker's queue and, at each
// task end, competes again under the queue's order (Eagle's simulator keeps a successful short
// probe in `queued_probes` and re-runs its SRPT selection at every free slot). Under SRPT its
// job's remaining work has just shrunk, so it usually wins again; in a CRV-mode queue a probe of
// a more congested constraint can take the worker between two tasks of the sticky job.
//
// Example: worker runs job A (4 tasks left x 10 s, CRV 0.3); a probe of job B (6 tasks left x
// 10 s, CRV 2.5) waits. SRPT: A's key 40 s vs B's 60 s -> A again. CRV mode: B is promoted -> B
// runs, A's probe stays queued behind it (slack + 1).
//
// suspendWhenCongested (an ablation: one reading of "Phoenix does not rely on SBP"): a worker in
// CRV mode releases the probe instead.
import type { NodePlugin } from "../node/plugin.js";

export function stickyProbes(opts: { suspendWhenCongested: boolean } = { suspendWhenCongested: false }): NodePlugin {
  return {
    name: opts.suspendWhenCongested ? "sticky-probes-suspended-when-congested" : "sticky-probes",
    fills: ["keepProbe"],
    build: (m) => ({
      keepProbe: (w, entry) =>
        entry.task < 0 && entry.job.next < entry.job.n && !(opts.suspendWhenCongested && m.hooks.congestion.flagged(w)),
    }),
  };
}
