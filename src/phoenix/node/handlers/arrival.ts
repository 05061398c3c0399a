// A job arrives: admission (the admit hook, then the soft constraints no worker satisfies are
// relaxed), CRV demand, then long placement or probes. A job no worker can run is rejected.
import type { Constraint } from "../../constraints.js";
import type { NodeModel } from "../model.js";
import type { Job } from "../types.js";

export function onArrival(m: NodeModel, jobIndex: number): void {
  m.firstArrival = Math.min(m.firstArrival, m.now);
  const j = m.jobs[jobIndex];
  const eligible = admit(m, j);
  if (!eligible) return;
  m.active++;
  m.addDemand(j);
  if (!j.long) {
    m.activeShort++;
    m.hooks.shortJobArrived();
  }
  if (j.long) m.hooks.placeLong(j, eligible);
  else m.sendProbes(j, eligible);
}

/** The workers job j may run on, fixing the constraints it runs with; null = rejected. */
function admit(m: NodeModel, j: Job): Int32Array | null {
  let cs = m.hooks.admit(j, j.spec.constraints);
  let e = m.index.eligible(cs);
  if (e.length === 0 && cs.some((c) => !c.hard)) {
    // soft constraints are relaxed when no worker satisfies them
    const hard = cs.filter((c) => c.hard);
    j.relaxed += cs.length - hard.length;
    m.stats.relaxedUnsatisfiable += cs.length - hard.length;
    cs = hard;
    e = m.index.eligible(cs);
  }
  if (e.length === 0) {
    j.rejected = "no worker satisfies its hard constraints";
    return null;
  }
  j.active = cs as Constraint[];
  j.ids = cs.map((c) => m.index.id(c));
  return e;
}
