// Running a sweep on this machine: expand the grid (policies x params x seeds), run one shard of
// its cells in worker_threads (one engine per worker), and write the results as JSON lines
// (format: lines.ts) as cells finish, so an interrupted run keeps what it did. The returned lines
// are sorted by cell index, so they do not depend on worker count or timing.
import { createWriteStream, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { availableParallelism } from "node:os";
import { pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import { InputError } from "../errors.js";
import type { ScenarioReport } from "../scenarios/scenario.js";
import { expandGrid, fingerprint, normalizeSpec, shardCells, type Shard, type SweepCell, type SweepSpec } from "./grid.js";
import type { SweepHeader } from "./lines.js";
import type { WorkerInit, WorkerReply } from "./worker.js";

export interface SweepOptions {
  shard?: Shard;
  /** Worker threads; default min(available cores, cells). */
  workers?: number;
  /** Write JSON lines here as cells finish (a path, truncated first). */
  out?: string;
  /** Modules each worker imports first, to register users' own scenarios or policies (the built-ins need none). */
  modules?: Array<string | URL>;
  backend?: "wasm" | "js";
  /** Called with (0, cells of this shard) at the start, then (cells done, cells of this shard) after each finished cell; the CLI draws its progress bar from it. */
  onProgress?: (done: number, total: number) => void;
  /** Keep each report's charts (time series) in the lines. Default false: tables and metrics only. */
  keepCharts?: boolean;
}

// In the package the worker is compiled JS next to this file; under tsx/vitest this file is TS,
// and so is the worker, which then needs tsx's loader in its own thread.
const SELF_IS_TS = import.meta.url.endsWith(".ts");
const WORKER_URL = new URL(`./worker.${SELF_IS_TS ? "ts" : "js"}`, import.meta.url);

/**
 * Starts a worker. For the TS sources (tests, tsx) `--import tsx` in execArgv does not reach a
 * worker's own entry on Node 20, so a small eval'd bootstrap registers tsx's loader in the worker
 * thread first and then imports the TS worker.
 */
export function startWorker(workerData: WorkerInit): Worker {
  if (!SELF_IS_TS) return new Worker(WORKER_URL, { workerData });
  // The ESM entry of tsx/esm/api (require.resolve would give its CJS twin).
  const pkg = createRequire(import.meta.url).resolve("tsx/package.json");
  const entry = (JSON.parse(readFileSync(pkg, "utf8")) as { exports: Record<string, { import: { default: string } }> }).exports["./esm/api"].import.default;
  const tsxApi = new URL(entry, pathToFileURL(pkg)).href;
  const boot = `import(${JSON.stringify(tsxApi)}).then((m) => { (m.register ?? m.default.register)(); return import(${JSON.stringify(WORKER_URL.href)}); })`;
  return new Worker(boot, { eval: true, workerData });
}

/**
 * Runs the cells of `spec` (one shard of them if `opts.shard`), returns the JSON lines (header
 * first, then cells in index order) and writes them to `opts.out` as cells finish.
 */
export async function runSweep(spec: SweepSpec, opts: SweepOptions = {}): Promise<string[]> {
  const norm = normalizeSpec(spec);
  const fp = fingerprint(norm);
  const all = expandGrid(norm);
  const cells = shardCells(all, opts.shard);
  const header = sweepHeader(norm, all.length, opts.shard);
  const out = opts.out ? createWriteStream(opts.out) : null;
  const lines = new Map<number, string>();
  const write = (line: string) => out?.write(line + "\n");
  write(JSON.stringify(header));
  let done = 0;
  opts.onProgress?.(0, cells.length);
  try {
    await runCells(norm.scenario, cells, opts, (cell, json) => {
      const line = cellLine(fp, cell, opts.keepCharts ? json : stripCharts(json));
      lines.set(cell.index, line);
      write(line);
      opts.onProgress?.(++done, cells.length);
    });
  } finally {
    if (out) await new Promise<void>((res, rej) => out.end((e?: Error | null) => (e ? rej(e) : res())));
  }
  return [JSON.stringify(header), ...[...lines.keys()].sort((a, b) => a - b).map((k) => lines.get(k)!)];
}

/** One cell's JSON line (format: lines.ts); the local and the queue-backed sweep both write it. */
export function cellLine(fp: string, cell: SweepCell, reportJson: string): string {
  return `{"type":"cell","fingerprint":${JSON.stringify(fp)},"cell":${JSON.stringify(cell)},"report":${reportJson}}`;
}

/** The header line of a sweep (format: lines.ts). */
export function sweepHeader(norm: SweepSpec, cells: number, shard: Shard | undefined): SweepHeader {
  return {
    type: "sweep", version: 1, fingerprint: fingerprint(norm), spec: norm, cells,
    shard: shard ? `${shard.index}/${shard.count}` : "1/1",
  };
}

export function stripCharts(json: string): string {
  const r = JSON.parse(json) as ScenarioReport;
  delete r.charts;
  return JSON.stringify(r);
}

function runCells(scenario: string, cells: SweepCell[], opts: SweepOptions, onResult: (cell: SweepCell, json: string) => void): Promise<void> {
  if (cells.length === 0) return Promise.resolve();
  const n = Math.max(1, Math.min(opts.workers ?? availableParallelism(), cells.length));
  const init: WorkerInit = {
    scenario,
    modules: (opts.modules ?? []).map((m) => (m instanceof URL ? m.href : m)),
    backend: opts.backend ?? "wasm",
  };
  const queue = [...cells];
  const byIndex = new Map(cells.map((c) => [c.index, c]));
  const workers: Worker[] = [];
  const stopped = new Set<Worker>();
  const stop = (w: Worker) => {
    stopped.add(w);
    void w.terminate();
  };
  return new Promise<void>((resolve, reject) => {
    let pending = cells.length;
    let settled = false;
    const fail = (e: Error) => {
      if (settled) return;
      settled = true;
      workers.forEach(stop);
      reject(e);
    };
    const feed = (w: Worker) => {
      const next = queue.shift();
      if (next) w.postMessage(next);
      else stop(w);
    };
    for (let i = 0; i < n; i++) {
      const w = startWorker(init);
      workers.push(w);
      w.on("message", (msg: WorkerReply | { ready: true }) => {
        if ("ready" in msg) return feed(w);
        if ("error" in msg) {
          const cell = byIndex.get(msg.index);
          const where = cell ? `sweep cell ${cell.index} (policy ${cell.policy}, seed ${cell.seed}, params ${JSON.stringify(cell.params)})` : "sweep worker";
          return fail(msg.error.field !== undefined ? new InputError(where, msg.error.message) : new Error(`${where}: ${msg.error.message}`));
        }
        onResult(byIndex.get(msg.index)!, msg.json);
        if (--pending === 0) {
          settled = true;
          workers.forEach(stop);
          resolve();
        } else {
          feed(w);
        }
      });
      w.on("error", (e) => fail(e));
      // A worker we did not stop must not vanish with cells in flight (e.g. out of memory).
      w.on("exit", (code) => {
        if (!stopped.has(w)) fail(new Error(`sweep worker exited unexpectedly with code ${code}`));
      });
    }
  });
}

