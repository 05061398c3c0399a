// The scheduler of a restarted pool (docs/bullmq.md, "Snapshot and restart"): the snapshot a dead
// pool persisted, with every task it held released at the snapshot's own time. Those jobs were
// either finished by the dead pool or are still active in Redis under its lock, which BullMQ's
// stalled check returns to their queue; the new pool fetches them again like any other job. What
// the snapshot carries on is the per-tenant history (accumulated dominant share x seconds, queue
// specs), so a long-term policy resumes where it was.
import { InputError } from "../errors.js";
import { restoreScheduler, type Scheduler, type SchedulerSnapshot } from "../live/scheduler.js";

export interface PoolSchedulerSpec {
  policy?: string;
  capacity: number[];
  resources?: string[];
}

const same = (a: readonly unknown[], b: readonly unknown[]) => a.length === b.length && a.every((x, i) => x === b[i]);

/** A scheduler from `snapshot` with nothing waiting or running; InputError if the snapshot is for another pool shape. */
export function restorePoolScheduler(snapshot: SchedulerSnapshot, spec: PoolSchedulerSpec): Scheduler {
  // Releases happen at the snapshot's time, so the dead interval is not credited to anyone.
  let frozen: number | null = null;
  const scheduler = restoreScheduler(snapshot, { clock: () => frozen ?? Date.now() / 1000 });
  if (spec.policy !== undefined && spec.policy !== snapshot.policy) {
    throw new InputError("snapshot.policy", `is '${snapshot.policy}' but the pool asks for '${spec.policy}' (start without the snapshot to change policy)`);
  }
  if (!same(snapshot.capacity, spec.capacity)) {
    throw new InputError("snapshot.capacity", `is [${snapshot.capacity}] but the pool's capacity is [${spec.capacity}] (start without the snapshot to resize)`);
  }
  if (spec.resources !== undefined && !same(snapshot.resources, spec.resources)) {
    throw new InputError("snapshot.resources", `are [${snapshot.resources}] but the pool names [${spec.resources}]`);
  }
  frozen = snapshot.time + (snapshot.origin ?? 0); // the clock's reading at the snapshot's time
  for (const q of snapshot.queues) {
    for (const t of q.running) scheduler.cancel(t.id);
    for (const t of q.waiting) scheduler.cancel(t.id);
  }
  frozen = null;
  return scheduler;
}
