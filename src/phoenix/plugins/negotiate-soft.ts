// Admission "negotiate-soft" (Phoenix's negotiation, §III-C 2: "two out of three constraints of
// the job could be satisfied ... a scheduler could relax ... soft constraints"; wraps the
// admission it finds, e.g. relax-congested-soft): when none of the workers that satisfy a job's
// constraints has capacity now (idle with an empty queue; for a long job, outside the
// short-only partition), its soft constraints are dropped one at a time, in the job's order,
// until some eligible worker has capacity. A drop that is not needed to reach capacity is not
// made; when dropping every soft constraint still leaves no worker with capacity, none is
// dropped (relaxing would trade the job's performance for nothing). Each drop counts on the job
// (relaxedSoft) and in the run's relaxations.negotiated.
//
// Example: a short job asks `isa = x86_64` (hard) and `clockGhz > 3.0` (soft); the 40 workers
// with both are busy, 300 x86_64 workers are idle: `clockGhz > 3.0` is dropped, the job is
// placed over the 300 + 40 workers, relaxations.negotiated + 1.
import type { Constraint } from "../constraints.js";
import type { NodeModel } from "../node/model.js";
import type { NodePlugin } from "../node/plugin.js";
import { IDLE, type Job } from "../node/types.js";

/** Some worker that satisfies `cs` can take job j's work now. */
function hasCapacity(m: NodeModel, j: Job, cs: readonly Constraint[]): boolean {
  const from = j.long ? m.shortOnly : 0;
  for (const w of m.index.eligible(cs)) if (w >= from && m.state[w] === IDLE && m.queues[w].length === 0) return true;
  return false;
}

export const negotiateSoft: NodePlugin = {
  name: "negotiate-soft",
  fills: ["admit"],
  build: (m, hooks) => {
    const inner = hooks.admit;
    return {
      admit(j, constraints) {
        const cs = inner(j, constraints);
        if (!cs.some((c) => !c.hard) || hasCapacity(m, j, cs)) return cs;
        let kept = cs.slice();
        for (const c of cs) {
          if (c.hard) continue;
          kept = kept.filter((x) => x !== c);
          if (hasCapacity(m, j, kept)) {
            const dropped = cs.length - kept.length;
            j.relaxed += dropped;
            m.stats.relaxedNegotiated += dropped;
            return kept;
          }
        }
        return cs;
      },
    };
  },
};
