// Admission "relax-congested-soft" (Phoenix's admission control by demand / supply): a job's
// soft constraints whose CRV is above their CRV_threshold at arrival are dropped before
// placement, counted on the job (relaxedSoft) and in the run's relaxations.congested.
import type { NodePlugin } from "../node/plugin.js";

export const relaxCongestedSoft: NodePlugin = {
  name: "relax-congested-soft",
  fills: ["admit"],
  build: (m) => ({
    admit(j, cs) {
      if (!cs.some((c) => !c.hard)) return cs;
      const kept = cs.filter((c) => c.hard || !m.crv.congested(m.index.id(c)));
      j.relaxed += cs.length - kept.length;
      m.stats.relaxedCongested += cs.length - kept.length;
      return kept;
    },
  }),
};
