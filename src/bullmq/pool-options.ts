// The options of a fair pool (src/bullmq/fair-pool.ts) and their checks: each bad option is an
// InputError naming it, thrown before anything connects to Redis.
import type { ConnectionOptions, Job } from "bullmq";
import { InputError, describeValue } from "../errors.js";
import type { Scheduler, SchedulerSnapshot } from "../live/scheduler.js";

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

/** The checked numbers of the options, defaults applied. */
export interface PoolSettings {
  prefetch: number;
  lockMs: number;
  stalledMs: number;
  idleWait: number;
  snapshotEvery: number;
  maxStalledCount: number;
  /** Tenant names, in the options' order. */
  names: string[];
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

/** Checks the options (an InputError naming the first bad one) and applies the defaults. */
export function poolSettings(opts: FairPoolOptions): PoolSettings {
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
  return { prefetch, lockMs, stalledMs, idleWait, snapshotEvery, maxStalledCount, names };
}
