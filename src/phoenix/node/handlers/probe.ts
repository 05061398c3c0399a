// A probe or a centrally placed task reaches its worker and joins the queue; the queue is
// reordered and served at this instant's reordering round (flush.ts).
import type { NodeModel } from "../model.js";

export function onProbe(m: NodeModel, worker: number, entryId: number): void {
  m.enqueue(worker, m.land(entryId));
}
