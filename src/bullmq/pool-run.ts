// A started fair pool (src/bullmq/fair-pool.ts opens it): the jobs it holds, per tenant the
// buffer it keeps fetched, the pump that starts what the scheduler picks, lock renewal, snapshot
// persistence and close.
import { randomUUID } from "node:crypto";
import type { Job, UnrecoverableError, Worker } from "bullmq";
import { InputError } from "../errors.js";
import type { Scheduler } from "../live/scheduler.js";
import type { FairJobData, FairPool, FairPoolOptions, PoolSettings } from "./pool-options.js";

interface Held {
  tenant: string;
  job: Job<FairJobData>;
  running: boolean;
}

export interface TenantState {
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

/** How many jobs of this demand fit in the capacity at once (at least 1: a job that fits was accepted). */
function fitCount(demand: readonly number[], capacity: readonly number[]): number {
  let n = Infinity;
  for (let r = 0; r < capacity.length; r++) if (demand[r] > 0) n = Math.min(n, Math.floor(capacity[r] / demand[r] + 1e-9));
  return Math.max(1, n);
}

/** The scheduler task id of a job: unique across tenants (job ids are unique per queue only). */
const taskId = (tenant: string, jobId: string) => `${tenant.length}:${tenant}:${jobId}`;

export class PoolRun {
  private readonly token = randomUUID();
  private readonly held = new Map<string, Held>();
  private readonly inflight = new Set<Promise<void>>();
  private closing = false;
  // The first decision waits for every tenant's first fill, so no tenant starts with the pool to itself.
  private unsettled: number;
  private renew: ReturnType<typeof setInterval> | null = null;
  private persisting: ReturnType<typeof setInterval> | null = null;
  private closed: Promise<void> | null = null;

  constructor(
    private readonly opts: FairPoolOptions,
    private readonly settings: PoolSettings,
    private readonly tenants: Map<string, TenantState>,
    private readonly scheduler: Scheduler,
    /** The worker whose Redis client reads and writes the snapshot. */
    private readonly first: Worker<FairJobData>,
    private readonly closeWorkers: () => Promise<unknown>,
    private readonly report: (e: unknown) => void,
    /** bullmq's class, loaded with the optional peer (a failure BullMQ must not retry). */
    private readonly Unrecoverable: typeof UnrecoverableError,
  ) {
    this.unsettled = tenants.size;
  }

  /** Starts lock renewal, snapshot persistence, the stalled checks and every tenant's first fill; returns the pool. */
  start(): FairPool {
    const { tenants, report } = this;
    const lockMs = this.settings.lockMs;
    // Locks of every held job (buffered or running), renewed at half their duration.
    this.renew = setInterval(() => {
      const ids = new Map<string, string[]>();
      for (const h of this.held.values()) {
        const list = ids.get(h.tenant);
        if (list) list.push(h.job.id!); else ids.set(h.tenant, [h.job.id!]);
      }
      for (const [t, list] of ids) void tenants.get(t)!.worker.extendJobLocks(list, list.map(() => this.token), lockMs).catch(report);
    }, Math.max(10, Math.floor(lockMs / 2)));
    this.persisting = this.opts.snapshotKey ? setInterval(() => { void this.persist().catch(report); }, this.settings.snapshotEvery) : null;

    for (const s of tenants.values()) {
      void s.worker.startStalledCheckTimer().catch(report);
      this.fill(s);
    }
    const count = (f: (s: TenantState) => number) => Object.fromEntries([...tenants.values()].map((s) => [s.name, f(s)]));
    const scheduler = this.scheduler;
    return {
      scheduler,
      running: () => count((s) => s.running),
      buffered: () => count((s) => s.buffered),
      snapshot: () => scheduler.snapshot(),
      persist: () => this.persist(),
      close: () => this.close(),
    };
  }

  private settle(s: TenantState): void {
    if (!s.settled) { s.settled = true; this.unsettled--; }
  }

  private track(p: Promise<void>): void {
    this.inflight.add(p);
    void p.finally(() => this.inflight.delete(p));
  }

  /** Starts what the scheduler picks now; every job it can pick is already fetched, so this is synchronous. */
  private pump(): void {
    if (this.closing || this.unsettled > 0) return;
    for (const { id } of this.scheduler.schedule()) this.launch(id, this.held.get(id)!);
  }

  private launch(id: string, h: Held): void {
    const s = this.tenants.get(h.tenant)!;
    h.running = true;
    s.buffered--;
    s.running++;
    this.fill(s);
    this.track((async () => {
      let result: unknown, failure: unknown, failed = false;
      try { result = await this.opts.process(h.job, h.tenant); } catch (e) { failed = true; failure = e; }
      // The work is done: its capacity goes to the next job in this same tick, then Redis is told.
      this.scheduler.finish(id);
      this.held.delete(id);
      s.running--;
      this.pump();
      try {
        if (failed) await h.job.moveToFailed(failure instanceof Error ? failure : new Error(String(failure)), this.token, false);
        else await h.job.moveToCompleted(result, this.token, false);
      } catch (e) { this.report(e); }
    })());
  }

  /** A fetched job: its demand goes to the scheduler (a bad demand fails the job for good, naming the field). */
  private accept(s: TenantState, job: Job<FairJobData>): void {
    const id = taskId(s.name, job.id!);
    if (this.held.has(id)) return; // its lock had lapsed and it came back to us: we hold it already
    if (this.closing) { this.track(job.moveToWait(this.token).then(() => {}, this.report)); return; }
    try {
      this.scheduler.submit(s.name, { id, demand: (job.data as FairJobData | undefined)?.demand as number[] });
    } catch (e) {
      if (!(e instanceof InputError)) throw e;
      const why = new this.Unrecoverable(`job ${job.id} of tenant '${s.name}': ${e.message.replace(/^task\.demand/, "job.data.demand")}`);
      this.track(job.moveToFailed(why, this.token, false).then(() => {}, this.report));
      return;
    }
    this.held.set(id, { tenant: s.name, job, running: false });
    s.buffered++;
    s.fitAlone = fitCount(job.data.demand, this.opts.capacity);
  }

  /**
   * How many of a tenant's jobs to hold fetched: its usable demand beyond what runs (DRF caps a
   * tenant at the demand it shows) and a replacement for each running job (all may end together).
   */
  private target(s: TenantState): number {
    return Math.min(this.settings.prefetch, Math.max(1, s.fitAlone - s.running, s.running));
  }

  /** Keeps a tenant's buffer at its target; one blocking fetch at a time when its queue is empty. */
  private fill(s: TenantState): void {
    while (!this.closing && s.buffered + s.fetching < this.target(s) && !(s.empty && s.fetching > 0)) {
      s.fetching++;
      this.track(s.worker.getNextJob(this.token, { block: s.empty }).then(
        (job) => {
          s.fetching--;
          try {
            if (job) {
              s.empty = false;
              this.accept(s, job);
            } else {
              s.empty = true;
              this.settle(s);
            }
            if (s.fetching === 0 && s.buffered >= this.target(s)) this.settle(s);
            this.pump();
          } catch (e) { this.report(e); }
          this.fill(s);
        },
        (e) => {
          s.fetching--;
          this.report(e);
          this.settle(s);
          if (!this.closing) setTimeout(() => this.fill(s), 250);
        },
      ));
    }
  }

  private async persist(): Promise<void> {
    if (!this.opts.snapshotKey) return;
    await (await this.first.backend.client).set(this.opts.snapshotKey, JSON.stringify(this.scheduler.snapshot()));
  }

  /** Stops fetching, waits for running jobs, returns buffered jobs to their queues, persists, disconnects. */
  private close(): Promise<void> {
    this.closed ??= (async () => {
      this.closing = true;
      if (this.persisting) clearInterval(this.persisting);
      // Buffered jobs go back to the head of their queue; running ones finish (locks still renewed).
      for (const [id, h] of this.held) {
        if (h.running) continue;
        this.held.delete(id);
        this.scheduler.cancel(id);
        this.tenants.get(h.tenant)!.buffered--;
        this.track(h.job.moveToWait(this.token).then(() => {}, this.report));
      }
      while (this.inflight.size) await Promise.all(this.inflight);
      if (this.renew) clearInterval(this.renew);
      await this.persist().catch(this.report);
      await this.closeWorkers();
    })();
    return this.closed;
  }
}
