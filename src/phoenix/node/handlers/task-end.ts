// A task ends: busy time, the worker's E[W] history, the job's progress, then the task-end
// hook decides whether the probe stays at the head of the queue (sticky batch probing) before
// the worker takes its next entry.
import type { NodeModel } from "../model.js";

export function onTaskEnd(m: NodeModel, w: number): void {
  const now = m.now;
  const entry = m.current[w]!;
  const j = entry.job;
  const start = m.taskStart[w];
  m.busy.add(start, now);
  m.history.record(w, entry.enq, now - start);
  if (entry.task >= 0) m.longLoad[w]--;
  j.done++;
  if (j.done === j.n) {
    j.end = now;
    m.active--;
    if (!j.long) m.activeShort--;
  }
  m.release(w);
  if (m.hooks.keepProbe(w, entry)) {
    // the probe competes again under the queue's discipline: reordered first when the queue
    // is sorted, then dispatched at this instant's round
    entry.enq = now;
    const q = m.queues[w];
    q.unshift(entry);
    if (q.length >= 2 && m.hooks.queueOrder.mode(w) !== 0) m.markDirty(w);
    else m.dispatch(w);
  } else m.dispatch(w);
}
