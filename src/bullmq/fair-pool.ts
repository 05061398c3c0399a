// Fair share for BullMQ (docs/bullmq.md): one BullMQ queue per tenant, one pool of capacity (any
// resources: CPU, memory, GPU, ...) that runs jobs, and fairsched's live scheduler deciding whose
// job starts next. The pool is the only consumer of the tenant queues: it peeks at each tenant's
// waiting jobs (their demand is `job.data.demand`), submits them to the scheduler, and for each
// task the scheduler starts takes that tenant's next job with a manual BullMQ worker (locks kept
// alive while the job runs; BullMQ's stalled check returns a dead pool's jobs to their queues).
import { randomUUID } from "node:crypto";
import { Queue, Worker, type ConnectionOptions, type Job } from "bullmq";
import { InputError } from "../errors.js";
import { createScheduler, restoreScheduler, type Scheduler, type SchedulerSnapshot } from "../live/scheduler.js";

export interface FairJobData {
  /** Per resource, in the pool's order (e.g. [cpu, memoryGiB, gpu]). */
  demand: number[];
  [key: string]: unknown;
}

export interface FairPoolOptions {
  connection: ConnectionOptions;
  /** Tenant name -> its BullMQ queue name and weight. */
  tenants: Record<string, { queue?: string; weight?: number }>;
  capacity: number[];
  resources?: string[];
  /** A live policy: drf (default), sp, fifo. */
  policy?: string;
  /** Runs one job; its result completes the job, a throw fails it (BullMQ's attempts apply). */
  process: (job: Job<FairJobData>, tenant: string) => Promise<unknown>;
  /** Waiting jobs per tenant the scheduler sees at once. Default 64. */
  lookahead?: number;
  /** Lock of a running job (ms); a dead pool's jobs go back to their queues after about this long. Default 30000. */
  lockMs?: number;
  /** How often the pool looks for new jobs when idle (ms). Default 100. */
  pollMs?: number;
  /** Resume from this snapshot (a restarted pool): its accumulated usage is kept. */
  snapshot?: SchedulerSnapshot;
}

export interface FairPool {
  readonly scheduler: Scheduler;
  /** Jobs running now, per tenant. */
  running(): Record<string, number>;
  snapshot(): SchedulerSnapshot;
  close(): Promise<void>;
}

export async function startFairPool(opts: FairPoolOptions): Promise<FairPool> {
  const tenants = Object.keys(opts.tenants);
  if (tenants.length === 0) throw new InputError("tenants", "names no tenant");
  const lookahead = opts.lookahead ?? 64;
  const lockMs = opts.lockMs ?? 30_000;
  const pollMs = opts.pollMs ?? 100;
  const scheduler = opts.snapshot
    ? restoreScheduler(opts.snapshot)
    : createScheduler({ policy: opts.policy ?? "drf", capacity: opts.capacity, resources: opts.resources });
  const queueName = (t: string) => opts.tenants[t].queue ?? t;
  const queues = new Map<string, Queue<FairJobData>>();
  const workers = new Map<string, Worker<FairJobData>>();
  const token = randomUUID();
  const known = new Set<string>(); // job ids the scheduler holds (waiting or running)
  const runningBy = new Map<string, number>(tenants.map((t) => [t, 0]));
  // After a restart from a snapshot, tasks it shows running were either finished or returned to
  // their queue by the stalled check: release them (their accumulated usage stays).
  if (opts.snapshot) {
    for (const q of opts.snapshot.queues) {
      for (const r of q.running) scheduler.finish(r.id);
      for (const w of q.waiting) scheduler.cancel(w.id);
    }
  }
  const existing = new Set(scheduler.shares().map((s) => s.queue));
  for (const t of tenants) {
    if (!existing.has(t)) scheduler.addQueue(t, { weight: opts.tenants[t].weight ?? 1 });
    queues.set(t, new Queue<FairJobData>(queueName(t), { connection: opts.connection }));
    const w = new Worker<FairJobData>(queueName(t), null, { connection: opts.connection, lockDuration: lockMs, stalledInterval: lockMs, maxStalledCount: 5 });
    workers.set(t, w);
    await w.waitUntilReady();
    void w.startStalledCheckTimer();
  }
  let closed = false;
  let wake: (() => void) | null = null;
  const poke = () => { wake?.(); wake = null; };
  const inflight = new Set<Promise<void>>();

  const run = async (tenant: string, job: Job<FairJobData>) => {
    const renew = setInterval(() => { void job.extendLock(token, lockMs).catch(() => {}); }, Math.max(10, lockMs / 3));
    try {
      const result = await opts.process(job, tenant);
      await job.moveToCompleted(result, token, false);
    } catch (e) {
      await job.moveToFailed(e as Error, token, false).catch(() => {});
    } finally {
      clearInterval(renew);
      scheduler.finish(job.id!);
      known.delete(job.id!);
      runningBy.set(tenant, runningBy.get(tenant)! - 1);
      poke();
    }
  };

  const startScheduled = async () => {
    const started = scheduler.schedule();
    const jobs = await Promise.all(started.map(({ queue: t }) => workers.get(t)!.getNextJob(token, { block: false })));
    for (let i = 0; i < started.length; i++) {
      const { id, queue: t } = started[i];
      const job = jobs[i];
      if (!job) { scheduler.cancel(id); known.delete(id); continue; }
      if (job.id !== id) {
        // Not the job the scheduler chose (another consumer, priorities): give both back.
        scheduler.cancel(id);
        known.delete(id);
        await job.moveToDelayed(Date.now(), token);
        continue;
      }
      runningBy.set(t, runningBy.get(t)! + 1);
      const p = run(t, job);
      inflight.add(p);
      void p.finally(() => inflight.delete(p));
    }
  };

  const loop = async () => {
    while (!closed) {
      try {
        // Start what already fits first (no Redis round trip before a freed slot is refilled),
        // then learn of new jobs and start again.
        await startScheduled();
        const low = tenants.filter((t) => scheduler.explain(t).waiting < lookahead / 2);
        const peeked = await Promise.all(low.map((t) => queues.get(t)!.getWaiting(0, lookahead - 1)));
        low.forEach((t, i) => {
          for (const j of peeked[i]) {
            if (!j.id || known.has(j.id)) continue;
            scheduler.submit(t, { id: j.id, demand: (j.data as FairJobData).demand });
            known.add(j.id);
          }
        });
        await startScheduled();
      } catch {
        // Redis unreachable: try again after a pause.
      }
      await new Promise<void>((r) => { wake = r; setTimeout(r, pollMs); });
    }
  };
  const looping = loop();
  return {
    scheduler,
    running: () => Object.fromEntries(runningBy),
    snapshot: () => scheduler.snapshot(),
    async close() {
      closed = true;
      poke();
      await looping;
      await Promise.all(inflight);
      await Promise.all([...workers.values()].map((w) => w.close()));
      await Promise.all([...queues.values()].map((q) => q.close()));
    },
  };
}
