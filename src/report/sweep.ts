// Parameter sweeps: expand a grid (policies x params x seeds), run one shard of its cells in
// worker_threads (one engine per worker), write the results as JSON lines, and merge JSON-lines
// files from any number of shards/machines into the tables one machine would print.
//
// File format (one JSON object per line):
//   {"type":"sweep","version":1,"fingerprint":"…","spec":{…},"cells":N,"shard":"i/n"}   header
//   {"type":"cell","fingerprint":"…","cell":{"index":k,"policy":…,"params":{…},"seed":s},"report":{…}}
// Cell lines are written as cells finish (so an interrupted run keeps what it did); merge sorts
// them by cell index, so the printed output does not depend on sharding, worker count or timing.
import { createWriteStream, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { availableParallelism } from "node:os";
import { pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import { InputError } from "../engine/errors.js";
import type { ScenarioReport } from "../sim/scenario.js";
import { cellProgress } from "./progress.js";
import { expandGrid, fingerprint, normalizeSpec, shardCells, type Shard, type SweepCell, type SweepSpec } from "./sweep-grid.js";
import type { WorkerInit, WorkerReply } from "./sweep-worker.js";
import { formatTable, type Table } from "./table.js";

export { expandGrid, fingerprint, parseShard, shardCells, type Shard, type SweepCell, type SweepSpec, type ParamValue } from "./sweep-grid.js";

export interface SweepOptions {
  shard?: Shard;
  /** Worker threads; default min(available cores, cells). */
  workers?: number;
  /** Write JSON lines here as cells finish (a path, truncated first). */
  out?: string;
  /** Modules each worker imports to register scenarios; default the built-in scenarios. */
  modules?: Array<string | URL>;
  backend?: "wasm" | "js";
  /** Progress with ETA goes here when it is a TTY (default process.stderr). false: none. */
  progress?: NodeJS.WriteStream | false;
  /** Keep each report's charts (time series) in the lines. Default false: tables and metrics only. */
  keepCharts?: boolean;
}

export interface SweepHeader {
  type: "sweep";
  version: 1;
  fingerprint: string;
  spec: SweepSpec;
  cells: number;
  shard: string;
}

export interface SweepLine {
  type: "cell";
  fingerprint: string;
  cell: SweepCell;
  report: ScenarioReport;
}

// In the package the worker is compiled JS next to this file; under tsx/vitest this file is TS,
// and so is the worker, which then needs tsx's loader in its own thread.
const SELF_IS_TS = import.meta.url.endsWith(".ts");
const WORKER_URL = new URL(`./sweep-worker.${SELF_IS_TS ? "ts" : "js"}`, import.meta.url);
const DEFAULT_MODULES = [new URL(`../scenarios/index.${SELF_IS_TS ? "ts" : "js"}`, import.meta.url)];

/**
 * Starts a worker. For the TS sources (tests, tsx) `--import tsx` in execArgv does not reach a
 * worker's own entry on Node 20, so a small eval'd bootstrap registers tsx's loader in the worker
 * thread first and then imports the TS worker.
 */
function startWorker(workerData: WorkerInit): Worker {
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
  const header: SweepHeader = {
    type: "sweep", version: 1, fingerprint: fp, spec: norm, cells: all.length,
    shard: opts.shard ? `${opts.shard.index}/${opts.shard.count}` : "1/1",
  };
  const out = opts.out ? createWriteStream(opts.out) : null;
  const lines = new Map<number, string>();
  const write = (line: string) => out?.write(line + "\n");
  write(JSON.stringify(header));
  const progress = cellProgress(`sweep ${norm.scenario}`, cells.length, opts.progress === false ? undefined : opts.progress ?? process.stderr);
  try {
    await runCells(norm.scenario, cells, opts, (cell, json) => {
      const report = opts.keepCharts ? json : stripCharts(json);
      const line = `{"type":"cell","fingerprint":${JSON.stringify(fp)},"cell":${JSON.stringify(cell)},"report":${report}}`;
      lines.set(cell.index, line);
      write(line);
      progress.tick();
    });
  } finally {
    progress.done();
    if (out) await new Promise<void>((res, rej) => out.end((e?: Error | null) => (e ? rej(e) : res())));
  }
  return [JSON.stringify(header), ...[...lines.keys()].sort((a, b) => a - b).map((k) => lines.get(k)!)];
}

function stripCharts(json: string): string {
  const r = JSON.parse(json) as ScenarioReport;
  delete r.charts;
  return JSON.stringify(r);
}

function runCells(scenario: string, cells: SweepCell[], opts: SweepOptions, onResult: (cell: SweepCell, json: string) => void): Promise<void> {
  if (cells.length === 0) return Promise.resolve();
  const n = Math.max(1, Math.min(opts.workers ?? availableParallelism(), cells.length));
  const init: WorkerInit = {
    scenario,
    modules: (opts.modules ?? DEFAULT_MODULES).map((m) => (m instanceof URL ? m.href : m)),
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

export interface MergedSweep {
  header: SweepHeader;
  /** Cell lines parsed, sorted by cell index, one per cell. */
  cells: SweepLine[];
  /** Indices of the grid's cells that no input had (empty unless allowPartial). */
  missing: number[];
}

/**
 * Merges JSON lines from shards (any order, any grouping into files). Each input is the text of a
 * file or its lines; `names` label the inputs in error messages. Throws InputError on mixed
 * sweeps, conflicting duplicates, bad lines, or missing cells (unless allowPartial).
 */
export function mergeSweepLines(inputs: Array<string | string[]>, opts: { names?: string[]; allowPartial?: boolean } = {}): MergedSweep {
  let header: SweepHeader | null = null;
  const cells = new Map<number, { text: string; line: SweepLine }>();
  inputs.forEach((input, f) => {
    const name = opts.names?.[f] ?? `input ${f + 1}`;
    const lines = typeof input === "string" ? input.split("\n") : input;
    lines.forEach((text, i) => {
      if (text.trim() === "") return;
      const where = `${name}:${i + 1}`;
      let obj: SweepHeader | SweepLine;
      try {
        obj = JSON.parse(text);
      } catch (e) {
        throw new InputError(where, `not JSON (${(e as Error).message})`);
      }
      if (obj?.type === "sweep") {
        if (header && header.fingerprint !== obj.fingerprint) {
          throw new InputError(where, `belongs to another sweep (fingerprint ${obj.fingerprint}, expected ${header.fingerprint}): shards of different grids cannot merge`);
        }
        header ??= obj;
        return;
      }
      if (obj?.type !== "cell" || typeof obj.cell?.index !== "number" || typeof obj.report !== "object") {
        throw new InputError(where, "expected a sweep header or cell line");
      }
      if (header && obj.fingerprint !== header.fingerprint) throw new InputError(where, `cell of another sweep (fingerprint ${obj.fingerprint})`);
      const prev = cells.get(obj.cell.index);
      if (prev && prev.text !== text) throw new InputError(where, `cell ${obj.cell.index} appears twice with different results (a run is not deterministic, or the shards ran different code)`);
      cells.set(obj.cell.index, { text, line: obj });
    });
  });
  if (!header) throw new InputError(opts.names?.join(", ") ?? "merge", "no sweep header line: not sweep output");
  const h: SweepHeader = header;
  for (const { line } of cells.values()) {
    if (line.fingerprint !== h.fingerprint) throw new InputError("merge", `cell ${line.cell.index} belongs to another sweep`);
    if (line.cell.index >= h.cells) throw new InputError("merge", `cell index ${line.cell.index} is outside the grid of ${h.cells} cells`);
  }
  const missing: number[] = [];
  for (let i = 0; i < h.cells; i++) if (!cells.has(i)) missing.push(i);
  if (missing.length && !opts.allowPartial) {
    throw new InputError("merge", `${missing.length} of ${h.cells} cells missing (first: ${missing.slice(0, 10).join(", ")}): merge every shard's output`);
  }
  return { header: h, cells: [...cells.keys()].sort((a, b) => a - b).map((k) => cells.get(k)!.line), missing };
}

/** Reads JSON-lines files and merges them (see mergeSweepLines). */
export function mergeSweepFiles(files: string[], opts: { allowPartial?: boolean } = {}): MergedSweep {
  const texts = files.map((f) => {
    try {
      return readFileSync(f, "utf8");
    } catch (e) {
      throw new InputError(f, `cannot read (${(e as Error).message})`);
    }
  });
  return mergeSweepLines(texts, { names: files, allowPartial: opts.allowPartial });
}

/**
 * The sweep's tables: the k-th table of every cell's report, stacked into one table per
 * (position, columns), each row prefixed with the cell's parameters and seed (and its policy when
 * the table has no policy column). Titles are the first cell's.
 */
export function sweepTables(m: MergedSweep): Table[] {
  const keys = Object.keys(m.header.spec.params ?? {});
  const groups = new Map<string, Table>();
  for (const { cell, report } of m.cells) {
    report.tables.forEach((t, k) => {
      const hasPolicy = t.columns[0] === "policy";
      const id = `${k}\u0000${t.columns.join("\u0000")}`;
      let g = groups.get(id);
      if (!g) {
        g = {
          title: `${m.header.spec.scenario} sweep: ${t.title}`,
          // The policy first: the cell's own, or the scenario table's policy column moved up.
          columns: ["policy", ...keys, "seed", ...(hasPolicy ? t.columns.slice(1) : t.columns)],
          rows: [],
        };
        groups.set(id, g);
      }
      for (const row of t.rows) {
        const prefix = [...keys.map((key) => cell.params[key]), cell.seed];
        g.rows.push(hasPolicy ? [row[0], ...prefix, ...row.slice(1)] : [cell.policy, ...prefix, ...row]);
      }
    });
  }
  return [...groups.values()];
}

/** The text a sweep prints: every table, then a line saying how complete it is. */
export function formatSweep(m: MergedSweep): string {
  const parts = sweepTables(m).map(formatTable);
  const done = m.header.cells - m.missing.length;
  parts.push(`${done}/${m.header.cells} cells of sweep ${m.header.fingerprint}${m.missing.length ? ` (missing: ${m.missing.join(", ")})` : ""}`);
  return parts.join("\n\n") + "\n";
}
