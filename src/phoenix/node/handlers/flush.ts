// The reordering round of one instant: every queue that changed is reordered in one kernel
// call (never one call per queue), then each of their workers takes its head if idle. It runs
// behind every event already queued for the instant, so probes that land together are ordered
// together.
import type { NodeModel } from "../model.js";

export function onFlush(m: NodeModel): void {
  const ws = m.takeDirty();
  m.reorder(ws);
  for (const w of ws) m.dispatch(w);
}
