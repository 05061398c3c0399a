// A sweep on a BullMQ queue in Redis: the submitting side enqueues every cell (job id = sweep
// fingerprint + cell index, so enqueueing twice is a no-op and a restarted submitter resumes),
// polls for results and writes the same JSON lines as the local sweep (format: lines.ts); any
// number of `fairsched worker` processes pull cells and run them in worker threads.
// Faults (docs/sweeps.md): a worker killed mid-cell stops renewing its lock, so BullMQ's stalled
// check hands the cell to another worker; a cell whose scenario throws fails at once
// (UnrecoverableError) and is reported with its parameters and seed; a thread crash is retried
// (attempts); jobs that vanish (Redis restarted without persistence) are enqueued again; results are
// keyed by cell index, so a late duplicate completion is counted once.
// Neither side trusts what it reads from Redis (job-check.ts): a worker runs only cells its own
// registry could have built and reads trace files only inside its --trace-dir; the submitter
// writes a result only if it is a report of the cell it asked for, and reports a forged one.
import { createWriteStream, statSync } from "node:fs";
import { availableParallelism } from "node:os";
import type { Job } from "bullmq";
import { InputError } from "../errors.js";
import { loadBullmq } from "../util/optional-peer.js";
import { expandGrid, normalizeSpec, shardCells, type SweepCell, type SweepSpec } from "./grid.js";
import { CellError, CellPool } from "./pool.js";
import { parseQueueUrl, type QueueAddress } from "./queue-url.js";
import { checkCellJob, checkCellResult, type CellJob } from "./job-check.js";
import { cellLine, stripCharts, sweepHeader, type SweepOptions } from "./run.js";

export type { CellJob } from "./job-check.js";

export interface QueueSweepOptions extends Omit<SweepOptions, "workers" | "modules"> {
  /** How often the submitter looks for finished cells (ms). Default 200. */
  pollMs?: number;
  /** Attempts per cell for failures that are not the cell's own (a worker thread crashed). Default 3. */
  attempts?: number;
  /** Keep the jobs in Redis after a successful sweep (default: removed). */
  keepJobs?: boolean;
  /** Called when Redis cannot be reached (the submitter keeps trying). */
  onRedisError?: (e: Error) => void;
  /** Called with the number of cells whose jobs had vanished from Redis (a restart without persistence) and were enqueued again. */
  onRequeue?: (cells: number) => void;
}

export class SweepCellsFailed extends Error {
  constructor(readonly failures: Array<{ cell: SweepCell; reason: string }>, readonly lines: string[]) {
    super(`${failures.length} sweep cell(s) failed:\n` + failures.map(({ cell, reason }) => `  ${describeCell(cell)}: ${reason}`).join("\n"));
    this.name = "SweepCellsFailed";
  }
}

function describeCell(cell: SweepCell): string {
  return `cell ${cell.index} (policy ${cell.policy}, seed ${cell.seed}, params ${JSON.stringify(cell.params)})`;
}

function connection(addr: QueueAddress, worker: boolean) {
  return {
    host: addr.host, port: addr.port, username: addr.username, password: addr.password,
    // Workers must wait through Redis outages (BullMQ requires null); the submitter polls, and
    // catches and retries its own failed requests.
    maxRetriesPerRequest: worker ? null : 1,
    enableAutoPipelining: true,
    retryStrategy: (times: number) => Math.min(50 * times, 1000),
  };
}

const jobId = (fp: string, index: number) => `${fp}-${index}`;

/**
 * Runs `spec` (one shard of it if `opts.shard`) on the queue at `url` (redis://HOST:PORT/NAME) and
 * returns the same lines as runSweep: header, then cells in index order. Throws SweepCellsFailed
 * (with the lines that did finish) when cells failed.
 */
export async function runSweepOnQueue(spec: SweepSpec, url: string, opts: QueueSweepOptions = {}): Promise<string[]> {
  const addr = parseQueueUrl(url);
  const norm = normalizeSpec(spec);
  const all = expandGrid(norm);
  const cells = shardCells(all, opts.shard);
  const header = sweepHeader(norm, all.length, opts.shard);
  const fp = header.fingerprint;
  const attempts = opts.attempts ?? 3;
  if (!Number.isInteger(attempts) || attempts < 1) throw new InputError("attempts", `must be an integer >= 1, got ${attempts}`);
  const pollMs = opts.pollMs ?? 200;
  const { Queue } = await loadBullmq("fairsched sweep --queue");
  const queue = new Queue<CellJob, string>(addr.name, { connection: connection(addr, false) });
  queue.on("error", (e) => opts.onRedisError?.(e));
  const out = opts.out ? createWriteStream(opts.out) : null;
  out?.write(JSON.stringify(header) + "\n");
  const lines = new Map<number, string>();
  const failures = new Map<number, string>();
  const pending = new Map(cells.map((c) => [c.index, c]));
  const enqueue = (list: SweepCell[]) =>
    queue.addBulk(list.map((cell) => ({
      name: "cell",
      data: { fingerprint: fp, scenario: norm.scenario, backend: opts.backend ?? "wasm", keepCharts: !!opts.keepCharts, cell },
      opts: { jobId: jobId(fp, cell.index), attempts, removeOnComplete: false, removeOnFail: false },
    })));
  opts.onProgress?.(0, cells.length);
  try {
    await retrying(() => enqueue(cells), opts);
    while (pending.size > 0) {
      const batch = [...pending.values()];
      let jobs: Array<Job<CellJob, string> | undefined>;
      try {
        jobs = await Promise.all(batch.map((c) => queue.getJob(jobId(fp, c.index))));
      } catch (e) {
        opts.onRedisError?.(e as Error);
        await sleep(pollMs);
        continue;
      }
      const lost: SweepCell[] = [];
      batch.forEach((cell, i) => {
        const job = jobs[i];
        if (!job) return lost.push(cell);
        if (job.returnvalue !== undefined && job.returnvalue !== null) {
          // Keyed by index: a second completion of the same cell cannot be counted again.
          if (lines.has(cell.index)) return;
          const checked = sameCell(job.data, fp, cell) ? checkCellResult(cell, job.returnvalue) : { forged: "the job in Redis is not the cell this sweep submitted" };
          if ("forged" in checked) {
            failures.set(cell.index, `forged result, not written: ${checked.forged}`);
            pending.delete(cell.index);
            opts.onProgress?.(lines.size + failures.size, cells.length);
            return;
          }
          const line = cellLine(fp, cell, checked.json);
          lines.set(cell.index, line);
          pending.delete(cell.index);
          out?.write(line + "\n");
          opts.onProgress?.(lines.size + failures.size, cells.length);
        } else if (job.finishedOn) {
          failures.set(cell.index, job.failedReason || "failed");
          pending.delete(cell.index);
          opts.onProgress?.(lines.size + failures.size, cells.length);
        }
      });
      if (lost.length) {
        try {
          await enqueue(lost);
          opts.onRequeue?.(lost.length);
        } catch (e) {
          opts.onRedisError?.(e as Error);
        }
      }
      if (pending.size > 0) await sleep(pollMs);
    }
    if (!opts.keepJobs && failures.size === 0) {
      await retrying(() => Promise.all(cells.map((c) => queue.remove(jobId(fp, c.index)))), opts);
    }
  } finally {
    if (out) await new Promise<void>((res, rej) => out.end((e?: Error | null) => (e ? rej(e) : res())));
    await queue.close();
  }
  const sorted = [JSON.stringify(header), ...[...lines.keys()].sort((a, b) => a - b).map((k) => lines.get(k)!)];
  if (failures.size) {
    const byIndex = new Map(cells.map((c) => [c.index, c]));
    throw new SweepCellsFailed([...failures.keys()].sort((a, b) => a - b).map((k) => ({ cell: byIndex.get(k)!, reason: failures.get(k)! })), sorted);
  }
  return sorted;
}

/** The job's data is the cell this sweep submitted under this id (a forger may have replaced it). */
function sameCell(data: unknown, fp: string, cell: SweepCell): boolean {
  const d = data as Partial<CellJob> | null;
  return d !== null && typeof d === "object" && d.fingerprint === fp && JSON.stringify(d.cell) === JSON.stringify(cell);
}

async function retrying<T>(f: () => Promise<T>, opts: QueueSweepOptions): Promise<T> {
  for (let delay = 100; ; delay = Math.min(delay * 2, 2000)) {
    try {
      return await f();
    } catch (e) {
      opts.onRedisError?.(e as Error);
      await sleep(delay);
    }
  }
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export interface QueueWorkerOptions {
  /** Worker threads (cells run at once); default the number of cores. */
  workers?: number;
  /** Modules each thread imports first (users' own scenarios and policies). */
  modules?: Array<string | URL>;
  /** How long a cell's lock lasts without renewal (ms): a killed worker's cell is retried after about this long. Default 30000. */
  lockMs?: number;
  /** Stalled-cell check interval (ms). Default lockMs. */
  stalledMs?: number;
  /** Times a cell may be found stalled (its worker died) before it fails. Default 5. */
  maxStalled?: number;
  /** The only directory a job's `traceFile` may name a file in (docs/sweeps.md); none: jobs name no file. */
  traceDir?: string;
  /** Largest trace file a job may name, in bytes (default 256 MiB). */
  maxTraceBytes?: number;
  /** Called after each cell this worker finished (or failed). */
  onCell?: (cell: SweepCell, ok: boolean) => void;
  /** Redis errors, refused jobs, and the full reason of a cell with a trace file (kept out of Redis). */
  onError?: (e: Error) => void;
}

export interface QueueWorker {
  /**
   * Stops taking cells and waits for the running ones, then stops the threads. With `deadlineMs`,
   * cells still running then are abandoned (their threads terminated; their locks lapse and
   * another worker runs them), so it resolves within about deadlineMs + 1 s.
   */
  close(deadlineMs?: number): Promise<void>;
}

/** Pulls cells from the queue at `url` and runs them on `workers` threads (one engine each). */
export async function startQueueWorker(url: string, opts: QueueWorkerOptions = {}): Promise<QueueWorker> {
  const addr = parseQueueUrl(url);
  const size = opts.workers ?? availableParallelism();
  if (!Number.isInteger(size) || size < 1) throw new InputError("--workers", `must be an integer >= 1, got ${size}`);
  const lockMs = opts.lockMs ?? 30_000;
  const modules = (opts.modules ?? []).map((m) => (m instanceof URL ? m.href : m));
  // here too: a job is checked against the registry these modules complete
  for (const m of modules) await import(m);
  const access = { dir: opts.traceDir, maxBytes: opts.maxTraceBytes };
  if (access.dir !== undefined) checkTraceDir(access.dir);
  // One pool per (scenario, backend) of the registry: a worker serves any sweep on its queue.
  const pools = new Map<string, CellPool>();
  const poolFor = (d: CellJob) => {
    const key = `${d.scenario}\u0000${d.backend}`;
    let p = pools.get(key);
    if (!p) pools.set(key, (p = new CellPool({ scenario: d.scenario, backend: d.backend, modules }, size)));
    return p;
  };
  const { Worker: BullWorker, UnrecoverableError } = await loadBullmq("fairsched worker");
  const worker = new BullWorker<unknown, string>(
    addr.name,
    async (job) => {
      let d: CellJob;
      try {
        d = checkCellJob(job.data, access);
      } catch (e) {
        const reason = e instanceof InputError ? e.message : "the job could not be checked";
        opts.onError?.(new Error(`refused job ${String(job.id).slice(0, 100)}: ${reason}`));
        throw new UnrecoverableError(`refused by the worker: ${reason}`);
      }
      try {
        const json = await poolFor(d).run(d.cell);
        opts.onCell?.(d.cell, true);
        return d.keepCharts ? json : stripCharts(json);
      } catch (e) {
        opts.onCell?.(d.cell, false);
        if (!(e instanceof CellError)) throw e;
        if (d.cell.params.traceFile === undefined) throw new UnrecoverableError(e.message);
        // a trace file's contents may be in the message: it stays in this worker's log
        opts.onError?.(new Error(`cell ${d.cell.index} with trace file ${d.cell.params.traceFile}: ${e.message}`));
        throw new UnrecoverableError(`the cell failed on its trace file${e.field !== undefined ? ` (${e.field})` : ""}; the reason is in the worker's log`);
      }
    },
    {
      connection: connection(addr, true),
      concurrency: size,
      lockDuration: lockMs,
      stalledInterval: opts.stalledMs ?? lockMs,
      maxStalledCount: opts.maxStalled ?? 5,
    },
  );
  worker.on("error", (e) => opts.onError?.(e));
  await worker.waitUntilReady();
  const stopThreads = () => Promise.all([...pools.values()].map((p) => p.close()));
  return {
    async close(deadlineMs?: number) {
      const graceful = worker.close().then(() => true);
      if (deadlineMs === undefined) {
        await graceful;
        await stopThreads();
        return;
      }
      const inTime = await Promise.race([graceful, sleep(deadlineMs).then(() => false)]);
      // past the deadline: the threads go first (a running cell's processor then fails), then
      // the worker without waiting for its jobs
      await Promise.race([stopThreads(), sleep(500)]);
      if (!inTime) await Promise.race([worker.close(true), sleep(500)]);
    },
  };
}

/** The trace directory exists and is a directory (a worker refuses to start otherwise). */
function checkTraceDir(dir: string): void {
  let ok = false;
  try {
    ok = statSync(dir).isDirectory();
  } catch {
    ok = false;
  }
  if (!ok) throw new InputError("--trace-dir", `${dir} is not a directory`);
}
