// The `sweep` and `merge` commands, attached to the CLI's commander program by program.ts. Their
// actions are async: the program must be run with parseAsync.
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { Command, InvalidArgumentError } from "commander";
import { formatSweep } from "../report/sweep-text.js";
import { DEFAULT_MAX_TRACE_BYTES, mergeSweepFiles, mergeSweepLines, parseShard, runSweep, runSweepOnQueue, startQueueWorker, type ParamValue } from "../sweep/index.js";
import { InputError } from "../errors.js";
import { checkScenarioParams } from "../scenarios/params.js";
import { getScenario } from "../scenarios/registry.js";
import { writeData, writeStatus } from "./output.js";
import { cellProgress } from "./progress.js";
import { writeSweepFiles } from "./sweep-files.js";

/** `name=v1,v2,...` (numbers where numeric), accumulated over repeated --grid options. */
export function gridArg(v: string, acc: Record<string, ParamValue[]>): Record<string, ParamValue[]> {
  const eq = v.indexOf("=");
  if (eq <= 0 || eq === v.length - 1) throw new InvalidArgumentError(`expected name=v1,v2,..., got '${v}'`);
  const key = v.slice(0, eq);
  if (acc[key]) throw new InvalidArgumentError(`--grid ${key} given twice`);
  // A copy: commander passes the shared default object on the first call.
  return { ...acc, [key]: v.slice(eq + 1).split(",").map((x) => x.trim()).filter((x) => x !== "").map((x) => (Number.isFinite(Number(x)) ? Number(x) : x)) };
}

/** `1,2,5` or a range `1..10` (inclusive). */
export function seedsArg(v: string): number[] {
  const range = /^\s*(-?\d+)\s*\.\.\s*(-?\d+)\s*$/.exec(v);
  if (range) {
    const [a, b] = [Number(range[1]), Number(range[2])];
    if (b < a || b - a >= 100_000) throw new InvalidArgumentError(`--seeds range ${v} is empty or too long`);
    return Array.from({ length: b - a + 1 }, (_, i) => a + i);
  }
  const seeds = v.split(",").map((x) => x.trim());
  if (!seeds.every((x) => /^-?\d+$/.test(x))) throw new InvalidArgumentError(`--seeds must be integers like 1,2,3 or a range 1..10, got '${v}'`);
  return seeds.map(Number);
}

interface SweepCliOptions {
  scenario: string;
  policies?: string;
  seeds: number[];
  grid: Record<string, ParamValue[]>;
  shard?: string;
  workers?: number;
  out?: string;
  backend?: "wasm" | "js";
  queue?: string;
  csv?: string;
  html?: string;
}

function positiveInt(flag: string) {
  return (v: string) => {
    if (!/^\d+$/.test(v) || Number(v) < 1) throw new InvalidArgumentError(`${flag} must be an integer >= 1, got '${v}'`);
    return Number(v);
  };
}

export function addSweepCommands(program: Command, defaultPolicies: (scenario: string) => string[]): void {
  program
    .command("sweep")
    .description("run a grid (policies x --grid params x seeds) in worker threads, print its tables, write JSON lines")
    .option("--scenario <name>", "scenario name (see `fairsched list`)", "default")
    .option("--policies <list>", "comma-separated policy names (default: the scenario's own)")
    .option("--seeds <list>", "seeds: 1,2,3 or 1..10", seedsArg, [1])
    .option("--grid <name=v1,v2>", "scenario parameter values to sweep (repeatable)", gridArg, {})
    .option("--shard <i/n>", "run only shard i of n (cells split round-robin); merge the outputs with `fairsched merge`")
    .option("--workers <n>", "worker threads (default: the number of cores)", (v: string) => {
      if (!/^\d+$/.test(v) || Number(v) < 1) throw new InvalidArgumentError(`--workers must be an integer >= 1, got '${v}'`);
      return Number(v);
    })
    .option("--out <file>", "also write the JSON lines here as cells finish (needed with --shard, for `fairsched merge`; default: none)")
    .option("--queue <redis://host:port/name>", "run the cells on `fairsched worker` processes pulling from this Redis queue (BullMQ) instead of local threads")
    .option("--csv <file>", "also write the results as CSV: one row per cell without its seed, each metric's mean and 95% interval (lo, hi) over the seeds")
    .option("--html <file>", "also write a self-contained HTML report: each metric's mean with its 95% interval as charts, then the tables")
    .action(async (o: SweepCliOptions) => {
      if (o.shard && (o.csv || o.html)) throw new InputError(o.csv ? "--csv" : "--html", "needs every cell, not one shard: give it to `fairsched merge` of the shards");
      // a user's scenario registered only in the workers (--import) is checked there, not here
      const scenario = getScenario(o.scenario);
      if (scenario) checkScenarioParams(scenario, Object.keys(o.grid), "--grid");
      const policies = o.policies ? o.policies.split(",").map((s) => s.trim()).filter(Boolean) : defaultPolicies(o.scenario);
      const shard = o.shard ? parseShard(o.shard) : undefined;
      // nothing is written unasked; a shard is only useful through its file
      if (shard && !o.out) throw new InputError("--out", `--shard ${shard.index}/${shard.count} needs --out FILE: the shard's JSON lines, for \`fairsched merge\``);
      const out = o.out;
      const spec = { scenario: o.scenario, policies, params: o.grid, seeds: o.seeds };
      let bar: ReturnType<typeof cellProgress> | undefined;
      let shown = 0;
      const onProgress = (done: number, total: number) => {
        bar ??= cellProgress(`sweep ${o.scenario}${o.queue ? " (queue)" : ""}`, total, process.stderr);
        for (; shown < done; shown++) bar.tick();
      };
      let warned = false;
      const lines = await (o.queue
        ? runSweepOnQueue(spec, o.queue, {
          shard, out, backend: o.backend, onProgress,
          onRedisError: (e) => {
            if (!warned) process.stderr.write(`fairsched sweep: Redis unreachable (${e.message}); retrying\n`);
            warned = true;
          },
        })
        : runSweep(spec, { shard, workers: o.workers, out, backend: o.backend, onProgress })
      ).finally(() => bar?.done());
      if (shard) {
        writeStatus(`${lines.length - 1} cells of shard ${shard.index}/${shard.count} written to ${out}; combine every shard with \`fairsched merge\`\n`);
      } else {
        const merged = mergeSweepLines([lines], { names: [out ?? "sweep"] });
        writeData(formatSweep(merged));
        if (out) writeStatus(`results written to ${out}\n`);
        writeSweepFiles(merged, o);
      }
    });

  program
    .command("worker")
    .description("pull sweep cells from a Redis queue (`fairsched sweep --queue`) and run them on this machine's cores; stops on SIGTERM/SIGINT after its running cells")
    .requiredOption("--queue <redis://host:port/name>", "the queue the sweep was submitted to")
    .option("--workers <n>", "worker threads (default: the number of cores)", positiveInt("--workers"))
    .option("--module <file>", "module to import in each thread first, registering your own scenarios or policies (repeatable)", (v: string, acc: string[]) => [...acc, v], [] as string[])
    .option("--lock-ms <ms>", "a cell's lock without renewal: a killed worker's cell is retried after about this long", positiveInt("--lock-ms"), 30_000)
    .option("--trace-dir <dir>", "the only directory a job's traceFile may name a file in (default: jobs name no file)")
    .option("--max-trace-bytes <n>", "largest trace file a job may name", positiveInt("--max-trace-bytes"), DEFAULT_MAX_TRACE_BYTES)
    .option("--stop-ms <ms>", "on SIGTERM/SIGINT, wait this long for running cells, then abandon them (another worker reruns them) and exit", positiveInt("--stop-ms"), 10_000)
    .action(async (o: { queue: string; workers?: number; module: string[]; lockMs: number; traceDir?: string; maxTraceBytes: number; stopMs: number }) => {
      const modules = o.module.map((m) => pathToFileURL(resolve(m)));
      let failed = 0, ran = 0;
      const w = await startQueueWorker(o.queue, {
        workers: o.workers, modules, lockMs: o.lockMs, traceDir: o.traceDir, maxTraceBytes: o.maxTraceBytes,
        onCell: (_cell, ok) => { ran++; if (!ok) failed++; },
        onError: (e) => writeStatus(`fairsched worker: ${e.message}\n`),
      });
      writeStatus(`fairsched worker: pulling cells from ${o.queue}\n`);
      await new Promise<void>((done) => {
        const stop = () => {
          process.off("SIGTERM", stop);
          process.off("SIGINT", stop);
          void w.close(o.stopMs).then(done);
        };
        process.on("SIGTERM", stop);
        process.on("SIGINT", stop);
      });
      writeStatus(`fairsched worker: stopped after ${ran} cells (${failed} failed)\n`);
      // a thread stuck past the deadline must not keep the process: the stop time is a promise
      process.exit(0);
    });

  program
    .command("merge")
    .description("merge the JSON-lines files of a sharded sweep into the tables one machine would print")
    .argument("<files...>", "JSON-lines files from `fairsched sweep`")
    .option("--allow-partial", "print what there is when cells are missing")
    .option("--csv <file>", "also write the results as CSV (as `fairsched sweep --csv`)")
    .option("--html <file>", "also write a self-contained HTML report with charts (as `fairsched sweep --html`)")
    .action((files: string[], o: { allowPartial?: boolean; csv?: string; html?: string }) => {
      const merged = mergeSweepFiles(files, { allowPartial: o.allowPartial });
      writeData(formatSweep(merged));
      writeSweepFiles(merged, o);
    });
}
