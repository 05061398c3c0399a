// Fair share for BullMQ (docs/bullmq.md): one BullMQ queue per tenant, one pool of capacity (any
// resources: CPU, memory, GPU, ...) that runs jobs, and fairsched's live scheduler deciding whose
// job starts next.
//
// Each tenant has a manual BullMQ worker (no processor: `getNextJob` / `moveToCompleted` /
// `moveToFailed`, locks extended by the pool). The pool keeps a small buffer per tenant of jobs it
// has fetched (active and locked in Redis) but not started, each submitted to the scheduler with
// its demand (`job.data.demand`). So the scheduler always sees every backlogged tenant's next
// demand, and when a job ends its capacity is handed out in the same tick, with no Redis round
// trip between "a slot is free" and "the chosen job starts"; the buffer is refilled behind it.
// When a tenant's queue is empty, its worker waits on BullMQ's marker (a blocking pop) instead of
// polling. A pool that dies stops renewing its locks and BullMQ's stalled check (run by every
// pool's workers) returns its active jobs, started or only buffered, to their queues.
import type { Worker } from "bullmq";
import { InputError } from "../errors.js";
import { createScheduler, type Scheduler, type SchedulerSnapshot } from "../live/scheduler.js";
import { loadBullmq } from "../util/optional-peer.js";
import { restorePoolScheduler } from "./restore.js";
import { poolSettings, type FairJobData, type FairPool, type FairPoolOptions, type PoolSettings } from "./pool-options.js";
import { PoolRun, type TenantState } from "./pool-run.js";

export type { FairJobData, FairPool, FairPoolOptions, TenantOptions } from "./pool-options.js";

export async function startFairPool(opts: FairPoolOptions): Promise<FairPool> {
  const settings = poolSettings(opts);
  const report = (e: unknown) => { try { opts.onError?.(e); } catch { /* the handler's own failure is not the pool's */ } };
  const bullmq = await loadBullmq("fairsched/bullmq");
  const tenants = new Map<string, TenantState>();
  const closeWorkers = () => Promise.all([...tenants.values()].map((s) => s.worker.close(true)));
  for (const t of settings.names) {
    const queue = opts.tenants[t].queue ?? t;
    tenants.set(t, { name: t, worker: new bullmq.Worker<FairJobData>(queue, null, workerOptions(opts, settings)), buffered: 0, running: 0, fetching: 0, empty: false, fitAlone: 1, settled: false });
  }
  const first = tenants.values().next().value!.worker;
  let scheduler: Scheduler;
  try {
    await Promise.all([...tenants.values()].map((s) => s.worker.waitUntilReady()));
    scheduler = await poolScheduler(opts, settings.names, tenants, first);
  } catch (e) {
    await closeWorkers();
    throw e;
  }
  return new PoolRun(opts, settings, tenants, scheduler, first, closeWorkers, report, bullmq.UnrecoverableError).start();
}

/** A tenant worker's options: manual (no processor, not autorun), the pool's locks and stalled check. */
function workerOptions(opts: FairPoolOptions, s: PoolSettings) {
  return {
    connection: opts.connection, ...(opts.prefix !== undefined ? { prefix: opts.prefix } : {}), autorun: false,
    lockDuration: s.lockMs, stalledInterval: s.stalledMs, maxStalledCount: s.maxStalledCount, drainDelay: s.idleWait,
  };
}

/** The scheduler: fresh, or from the snapshot given / persisted (its held tasks released), with the tenants as queues. */
async function poolScheduler(opts: FairPoolOptions, names: readonly string[], tenants: ReadonlyMap<string, TenantState>, first: Worker<FairJobData>): Promise<Scheduler> {
  let snap = opts.snapshot;
  if (!snap && opts.snapshotKey) {
    const text = await (await first.backend.client).get(opts.snapshotKey);
    if (text) {
      try { snap = JSON.parse(text) as SchedulerSnapshot; } catch (e) {
        throw new InputError("snapshotKey", `Redis key '${opts.snapshotKey}' holds no JSON snapshot (${(e as Error).message})`);
      }
    }
  }
  const scheduler = snap
    ? restorePoolScheduler(snap, { policy: opts.policy, capacity: opts.capacity, resources: opts.resources })
    : createScheduler({ policy: opts.policy ?? "drf", capacity: opts.capacity, resources: opts.resources });
  // (the queue names from the snapshot, not scheduler.shares(): DRF caches its weights at the first shares() call)
  const existing = new Set(snap ? snap.queues.map((q) => q.name) : []);
  for (const q of existing) if (!tenants.has(q)) scheduler.removeQueue(q);
  for (const t of names) {
    const weight = opts.tenants[t].weight ?? 1;
    if (existing.has(t)) scheduler.updateQueue(t, { weight });
    else scheduler.addQueue(t, { weight });
  }
  return scheduler;
}
