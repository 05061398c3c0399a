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
import { randomUUID } from "node:crypto";
import type { ConnectionOptions, Job, Worker } from "bullmq";
import { InputError, describeValue } from "../errors.js";
import { createScheduler, type Scheduler, type SchedulerSnapshot } from "../live/scheduler.js";
import { loadBullmq } from "../util/optional-peer.js";
import { restorePoolScheduler } from "./restore.js";

export interface FairJobData {
  /** Per resource, in the pool's order (e.g. [cpu, memoryGiB, gpu]). */
  demand: number[];
  [key: string]: unknown;
}

export interface TenantOptions {
  /** The tenant's BullMQ queue name (default: the tenant's name). */
  queue?: string;
  /** DRF weight (default 1). */
  weight?: number;
}

export interface FairPoolOptions {
  /** BullMQ connection (ioredis options or instance). */
  connection: ConnectionOptions;
  /** BullMQ key prefix (default BullMQ's "bull"). */
  prefix?: string;
  /** Tenant name -> its queue and weight. */
  tenants: Record<string, TenantOptions>;
  /** The pool's capacity per resource; a job's `data.demand` has one number per resource. */
  capacity: number[];
  resources?: string[];
  /** A live policy (default drf). */
  policy?: string;
  /** Runs one job; its result completes the job, a throw fails it (BullMQ's attempts and backoff apply). */
  process: (job: Job<FairJobData>, tenant: string) => Promise<unknown>;
  /**
   * At most this many jobs per tenant held fetched but not started (default 32). Within it a
   * tenant holds enough for the scheduler to see its whole usable demand (jobs of its last shape
   * that fit the pool, minus those running) and to replace all its running jobs at once.
   */
  prefetch?: number;
  /** Lock of a held job (ms); a dead pool's jobs go back to their queues about this long after it died (default 30000). */
  lockMs?: number;
  /** How often the stalled check runs (ms; default lockMs). */
  stalledIntervalMs?: number;
  /** BullMQ's maxStalledCount: a job that stalls more often than this fails (default 1, BullMQ's). */
  maxStalledCount?: number;
  /** Longest blocking wait of an idle tenant's worker (s; default 1). */
  idleWaitSeconds?: number;
  /** Resume from this snapshot (a restarted pool). */
  snapshot?: SchedulerSnapshot;
  /** Redis key where the pool persists its scheduler snapshot; read at start when `snapshot` is not given. */
  snapshotKey?: string;
  /** How often the snapshot is persisted (ms; default 1000; also at close). */
  snapshotEveryMs?: number;
  /** Errors the pool cannot hand to a caller (Redis failures in the background); default: ignored, retried. */
  onError?: (error: unknown) => void;
}

export interface FairPool {
  readonly scheduler: Scheduler;
  /** Jobs whose `process` runs now, per tenant. */
  running(): Record<string, number>;
  /** Jobs fetched (active, locked) but not started, per tenant. */
  buffered(): Record<string, number>;
  snapshot(): SchedulerSnapshot;
  /** Persists the snapshot to `snapshotKey` now (no-op without one). */
  persist(): Promise<void>;
  /** Stops fetching, waits for running jobs, returns buffered jobs to their queues, persists, disconnects. */
  close(): Promise<void>;
}

interface Held {
  tenant: string;
  job: Job<FairJobData>;
  running: boolean;
}

interface TenantState {
  name: string;
  worker: Worker<FairJobData>;
  buffered: number;
  running: number;
  fetching: number;
  /** The last fetch found no job: the next one blocks on BullMQ's marker. */
  empty: boolean;
  /** Jobs of its last fetched shape that fit the whole pool (1 before the first). */
  fitAlone: number;
  /** Its first fill is done (buffer full, queue empty or an error): the first decision waits for every tenant's. */
  settled: boolean;
}

function positiveInt(field: string, v: unknown, dflt: number): number {
  if (v === undefined) return dflt;
  if (!(typeof v === "number" && Number.isInteger(v) && v >= 1)) throw new InputError(field, `must be an integer >= 1 (got ${describeValue(v)})`);
  return v;
}

function positive(field: string, v: unknown, dflt: number): number {
  if (v === undefined) return dflt;
  if (!(typeof v === "number" && Number.isFinite(v) && v > 0)) throw new InputError(field, `must be a finite number > 0 (got ${describeValue(v)})`);
  return v;
}

/** How many jobs of this demand fit in the capacity at once (at least 1: a job that fits was accepted). */
function fitCount(demand: readonly number[], capacity: readonly number[]): number {
  let n = Infinity;
  for (let r = 0; r < capacity.length; r++) if (demand[r] > 0) n = Math.min(n, Math.floor(capacity[r] / demand[r] + 1e-9));
  return Math.max(1, n);
}

/** The scheduler task id of a job: unique across tenants (job ids are unique per queue only). */
const taskId = (tenant: string, jobId: string) => `${tenant.length}:${tenant}:${jobId}`;

export async function startFairPool(opts: FairPoolOptions): Promise<FairPool> {
  if (opts === null || typeof opts !== "object") throw new InputError("options", `expected an object, got ${describeValue(opts)}`);
  if (typeof opts.process !== "function") throw new InputError("process", `expected a function (job, tenant) => Promise, got ${describeValue(opts.process)}`);
  if (opts.tenants === null || typeof opts.tenants !== "object") throw new InputError("tenants", `expected an object, got ${describeValue(opts.tenants)}`);
  const names = Object.keys(opts.tenants);
  if (names.length === 0) throw new InputError("tenants", "names no tenant");
  for (const t of names) {
    const o = opts.tenants[t];
    if (o === null || typeof o !== "object") throw new InputError(`tenants.${t}`, `expected {queue?, weight?}, got ${describeValue(o)}`);
    if (o.queue !== undefined && (typeof o.queue !== "string" || o.queue === "")) throw new InputError(`tenants.${t}.queue`, `expected a queue name, got ${describeValue(o.queue)}`);
  }
  const prefetch = positiveInt("prefetch", opts.prefetch, 32);
  const lockMs = positiveInt("lockMs", opts.lockMs, 30_000);
  const stalledMs = positiveInt("stalledIntervalMs", opts.stalledIntervalMs, lockMs);
  const idleWait = positive("idleWaitSeconds", opts.idleWaitSeconds, 1);
  const snapshotEvery = positiveInt("snapshotEveryMs", opts.snapshotEveryMs, 1000);
  const maxStalledCount = opts.maxStalledCount ?? 1;
  if (!(Number.isInteger(maxStalledCount) && maxStalledCount >= 0)) throw new InputError("maxStalledCount", `must be an integer >= 0 (got ${describeValue(maxStalledCount)})`);
  if (opts.snapshotKey !== undefined && (typeof opts.snapshotKey !== "string" || opts.snapshotKey === "")) throw new InputError("snapshotKey", `expected a Redis key, got ${describeValue(opts.snapshotKey)}`);
  const report = (e: unknown) => { try { opts.onError?.(e); } catch { /* the handler's own failure is not the pool's */ } };
  const { Worker, UnrecoverableError } = await loadBullmq("fairsched/bullmq");

  // Scheduler: fresh, or from the snapshot given / persisted (its held tasks released).
  const workerOpts = () => ({
    connection: opts.connection, ...(opts.prefix !== undefined ? { prefix: opts.prefix } : {}), autorun: false,
    lockDuration: lockMs, stalledInterval: stalledMs, maxStalledCount, drainDelay: idleWait,
  });
  const tenants = new Map<string, TenantState>();
  const closeWorkers = () => Promise.all([...tenants.values()].map((s) => s.worker.close(true)));
  for (const t of names) {
    const queue = opts.tenants[t].queue ?? t;
    tenants.set(t, { name: t, worker: new Worker<FairJobData>(queue, null, workerOpts()), buffered: 0, running: 0, fetching: 0, empty: false, fitAlone: 1, settled: false });
  }
  let scheduler: Scheduler;
  const first = tenants.values().next().value!.worker;
  try {
    await Promise.all([...tenants.values()].map((s) => s.worker.waitUntilReady()));
    let snap = opts.snapshot;
    if (!snap && opts.snapshotKey) {
      const text = await (await first.backend.client).get(opts.snapshotKey);
      if (text) {
        try { snap = JSON.parse(text) as SchedulerSnapshot; } catch (e) {
          throw new InputError("snapshotKey", `Redis key '${opts.snapshotKey}' holds no JSON snapshot (${(e as Error).message})`);
        }
      }
    }
    scheduler = snap
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
  } catch (e) {
    await closeWorkers();
    throw e;
  }

  const token = randomUUID();
  const held = new Map<string, Held>();
  const inflight = new Set<Promise<void>>();
  let closing = false;
  // The first decision waits for every tenant's first fill, so no tenant starts with the pool to itself.
  let unsettled = tenants.size;
  const settle = (s: TenantState) => { if (!s.settled) { s.settled = true; unsettled--; } };
  const track = (p: Promise<void>) => { inflight.add(p); void p.finally(() => inflight.delete(p)); };

  // Start what the scheduler picks now; every job it can pick is already fetched, so this is synchronous.
  const pump = () => {
    if (closing || unsettled > 0) return;
    for (const { id } of scheduler.schedule()) launch(id, held.get(id)!);
  };

  const launch = (id: string, h: Held) => {
    const s = tenants.get(h.tenant)!;
    h.running = true;
    s.buffered--;
    s.running++;
    fill(s);
    track((async () => {
      let result: unknown, failure: unknown, failed = false;
      try { result = await opts.process(h.job, h.tenant); } catch (e) { failed = true; failure = e; }
      // The work is done: its capacity goes to the next job in this same tick, then Redis is told.
      scheduler.finish(id);
      held.delete(id);
      s.running--;
      pump();
      try {
        if (failed) await h.job.moveToFailed(failure instanceof Error ? failure : new Error(String(failure)), token, false);
        else await h.job.moveToCompleted(result, token, false);
      } catch (e) { report(e); }
    })());
  };

  // A fetched job: its demand goes to the scheduler (a bad demand fails the job for good, naming the field).
  const accept = (s: TenantState, job: Job<FairJobData>) => {
    const id = taskId(s.name, job.id!);
    if (held.has(id)) return; // its lock had lapsed and it came back to us: we hold it already
    if (closing) { track(job.moveToWait(token).then(() => {}, report)); return; }
    try {
      scheduler.submit(s.name, { id, demand: (job.data as FairJobData | undefined)?.demand as number[] });
    } catch (e) {
      if (!(e instanceof InputError)) throw e;
      const why = new UnrecoverableError(`job ${job.id} of tenant '${s.name}': ${e.message.replace(/^task\.demand/, "job.data.demand")}`);
      track(job.moveToFailed(why, token, false).then(() => {}, report));
      return;
    }
    held.set(id, { tenant: s.name, job, running: false });
    s.buffered++;
    s.fitAlone = fitCount(job.data.demand, opts.capacity);
  };

  // How many of a tenant's jobs to hold fetched: its usable demand beyond what runs (DRF caps a
  // tenant at the demand it shows) and a replacement for each running job (all may end together).
  const target = (s: TenantState) => Math.min(prefetch, Math.max(1, s.fitAlone - s.running, s.running));
  // Keeps a tenant's buffer at its target; one blocking fetch at a time when its queue is empty.
  const fill = (s: TenantState) => {
    while (!closing && s.buffered + s.fetching < target(s) && !(s.empty && s.fetching > 0)) {
      s.fetching++;
      track(s.worker.getNextJob(token, { block: s.empty }).then(
        (job) => {
          s.fetching--;
          try {
            if (job) {
              s.empty = false;
              accept(s, job);
            } else {
              s.empty = true;
              settle(s);
            }
            if (s.fetching === 0 && s.buffered >= target(s)) settle(s);
            pump();
          } catch (e) { report(e); }
          fill(s);
        },
        (e) => {
          s.fetching--;
          report(e);
          settle(s);
          if (!closing) setTimeout(() => fill(s), 250);
        },
      ));
    }
  };

  // Locks of every held job (buffered or running), renewed at half their duration.
  const renew = setInterval(() => {
    const ids = new Map<string, string[]>();
    for (const h of held.values()) {
      const list = ids.get(h.tenant);
      if (list) list.push(h.job.id!); else ids.set(h.tenant, [h.job.id!]);
    }
    for (const [t, list] of ids) void tenants.get(t)!.worker.extendJobLocks(list, list.map(() => token), lockMs).catch(report);
  }, Math.max(10, Math.floor(lockMs / 2)));

  const persist = async () => {
    if (!opts.snapshotKey) return;
    await (await first.backend.client).set(opts.snapshotKey, JSON.stringify(scheduler.snapshot()));
  };
  const persisting = opts.snapshotKey ? setInterval(() => { void persist().catch(report); }, snapshotEvery) : null;

  for (const s of tenants.values()) {
    void s.worker.startStalledCheckTimer().catch(report);
    fill(s);
  }
  const count = (f: (s: TenantState) => number) => Object.fromEntries([...tenants.values()].map((s) => [s.name, f(s)]));

  let closed: Promise<void> | null = null;
  return {
    scheduler,
    running: () => count((s) => s.running),
    buffered: () => count((s) => s.buffered),
    snapshot: () => scheduler.snapshot(),
    persist,
    close() {
      closed ??= (async () => {
        closing = true;
        if (persisting) clearInterval(persisting);
        // Buffered jobs go back to the head of their queue; running ones finish (locks still renewed).
        for (const [id, h] of held) {
          if (h.running) continue;
          held.delete(id);
          scheduler.cancel(id);
          tenants.get(h.tenant)!.buffered--;
          track(h.job.moveToWait(token).then(() => {}, report));
        }
        while (inflight.size) await Promise.all(inflight);
        clearInterval(renew);
        await persist().catch(report);
        await closeWorkers();
      })();
      return closed;
    },
  };
}
