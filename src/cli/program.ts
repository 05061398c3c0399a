// The `fairsched` command line. Bad arguments and bad files end with one line on stderr
// naming the problem and a non-zero exit, never a stack trace (FAIRSCHED_DEBUG=1 shows it).
import { readFileSync } from "node:fs";
import { Command, CommanderError, InvalidArgumentError } from "commander";
import { loadEngineSync } from "../engine/load.js";
import { InputError } from "../errors.js";
import { MissingPeerError } from "../util/optional-peer.js";
import { formatTable } from "../report/table.js";
import { getScenario, listScenarios } from "../scenarios/registry.js";
import type { ScenarioReport } from "../scenarios/scenario.js";
import { replayTrace } from "../scenarios/trace-replay.js";
import { SimulationError } from "../errors.js";
import { listPolicies } from "../sim/registry.js";
import { listAllocators } from "../justice/registry.js";
import { listNodePolicies } from "../phoenix/policies.js";
import { checkScenarioParams } from "../scenarios/params.js";
import { checkTraceFile, jsonText, writeData, writeStatus } from "./output.js";
import { allocate } from "./allocate.js";
import { docsHelpText } from "./docs-link.js";
import { addFuzzCommand } from "./fuzz.js";
import { progressBar } from "./progress.js";
import { reportFileFormat, writeReportFile } from "./report-file.js";
import { withFlagField } from "./user-fields.js";
import { skippedNote } from "./skipped-note.js";
import { addSweepCommands } from "./sweep-commands.js";
import { DEFAULT_SERVE_LIMITS, serveStreams, serveTcp } from "./serve.js";

function intArg(name: string) {
  return (v: string): number => {
    if (!/^-?\d+$/.test(v)) throw new InvalidArgumentError(`${name} must be an integer, got '${v}'`);
    return Number(v);
  };
}

function positiveIntArg(name: string) {
  return (v: string): number => {
    if (!/^[1-9]\d*$/.test(v) || !Number.isSafeInteger(Number(v))) throw new InvalidArgumentError(`${name} must be an integer >= 1, got '${v}'`);
    return Number(v);
  };
}

function paramArg(v: string, acc: Record<string, string | number>): Record<string, string | number> {
  const eq = v.indexOf("=");
  if (eq <= 0) throw new InvalidArgumentError(`expected name=value, got '${v}'`);
  const key = v.slice(0, eq);
  const raw = v.slice(eq + 1);
  acc[key] = raw !== "" && Number.isFinite(Number(raw)) ? Number(raw) : raw;
  return acc;
}

export function renderReport(r: ScenarioReport): string {
  const head = `scenario ${r.scenario}, seed ${r.seed}, policies ${r.policies.join(", ")}`;
  return [head, ...r.tables.map(formatTable)].join("\n\n") + "\n";
}

function readInput(file: string): unknown {
  let text: string;
  try {
    text = file === "-" ? readFileSync(0, "utf8") : readFileSync(file, "utf8");
  } catch (e) {
    throw new InputError("--input", `cannot read ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new InputError("--input", `${file} is not valid JSON: ${(e as Error).message}`);
  }
}

/** The package's version, from its package.json (two levels up from src/cli and dist/cli). */
export function packageVersion(): string {
  return (JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version: string }).version;
}

interface SimulateCliOptions {
  scenario: string; policies?: string; seed: number; param: Record<string, string | number>;
  json?: boolean; out?: string; trace?: string; format?: string; lenient?: boolean;
}

/** `fairsched simulate`: a scenario or a trace under each policy, as a table, JSON or a report file. */
async function simulate(o: SimulateCliOptions): Promise<void> {
  const policies = o.policies?.split(",").map((s) => s.trim()).filter(Boolean);
  if (policies && policies.length === 0) throw new InputError("--policies", "lists no policy");
  if (o.out) reportFileFormat(o.out); // before the run: a bad name costs nothing
  const engine = loadEngineSync();
  let report: ScenarioReport;
  const eagle = o.trace !== undefined && (o.format === "eagle" || (o.format === undefined && /\.tr(\.gz)?$/i.test(o.trace)));
  if (o.trace) checkTraceFile(o.trace);
  if (eagle) {
    // Hawk/Eagle .tr: the node-level model, run as the phoenix scenario on this one file
    const scenario = getScenario("phoenix")!;
    checkScenarioParams(scenario, Object.keys(o.param));
    const bar = progressBar("simulate eagle trace", process.stderr, { delayMs: 1000 });
    report = scenario.run({ policies, seed: o.seed, params: { ...o.param, traceFile: o.trace! }, engine, onProgress: (f) => bar.update(f) });
    bar.done();
  } else if (o.trace) {
    const bar = progressBar("simulate trace", process.stderr, { delayMs: 1000 });
    const r = await replayTrace(o.trace, { format: o.format, lenient: o.lenient, params: o.param, policies, seed: o.seed, engine, onProgress: (f) => bar.update(f) });
    bar.done();
    writeStatus(skippedNote(r.summary));
    report = r.report;
  } else {
    const scenario = getScenario(o.scenario);
    if (!scenario) throw new InputError("--scenario", `unknown scenario '${o.scenario}' (known: ${listScenarios().map((s) => s.name).join(", ")})`);
    checkScenarioParams(scenario, Object.keys(o.param));
    const bar = progressBar(`simulate ${scenario.name}`, process.stderr, { delayMs: 1000 });
    report = scenario.run({ policies, seed: o.seed, params: o.param, engine, onProgress: (f) => bar.update(f) });
    bar.done();
  }
  if (o.out) writeReportFile(o.out, [report]);
  if (o.json) process.stdout.write(jsonText(report));
  else writeData(renderReport(report));
  if (o.out) writeStatus(`report written to ${o.out}\n`);
}

export function buildProgram(): Command {
  const program = new Command();
  program
    .name("fairsched")
    .version(packageVersion(), "-V, --version", "print the version and exit")
    .description("Multi-resource cluster scheduling policies (DRF, BoPF, LTRF, Justice, Phoenix) and a trace-driven simulator")
    .exitOverride()
    .configureOutput({ outputError: () => {} })
    .showHelpAfterError(false)
    .addHelpText("after", docsHelpText);

  program
    .command("simulate")
    .description("run a scenario (or replay a trace) under each policy and print a comparison table")
    .option("--scenario <name>", "scenario name (see `fairsched list`)", "default")
    .option("--policies <list>", "comma-separated policy names (default: the scenario's own)")
    .option("--seed <n>", "random seed", intArg("--seed"), 1)
    .option("--param <name=value>", "scenario or trace-loader parameter (repeatable)", paramArg, {})
    .option("--trace <file>", "replay a real trace (Google 2011 task_events .csv[.gz], SWIM .tsv, Hawk/Eagle .tr) instead of a scenario")
    .option("--format <name>", "trace format: google2011 | swim | eagle (default: from the file name)")
    .option("--lenient", "skip malformed trace lines and count them instead of failing")
    .option("--json", "print the report as JSON")
    .option("--out <file>", "also write the report to a file: .html = self-contained offline HTML report, .json = JSON (other extensions are refused)")
    .action((o: SimulateCliOptions) => simulate(o).catch((e: unknown) => { throw withFlagField(e); }));

  program
    .command("allocate")
    .description("read a JSON cluster state and print one policy decision as JSON: targets per queue, tasks to start (cli.md)")
    .requiredOption("--policy <name>", "a queue-level policy of `fairsched list`, e.g. drf, bopf, fifo")
    .option("--input <file>", "JSON file, or - for stdin", "-")
    .action((o: { policy: string; input: string }) => {
      const out = allocate(o.policy, readInput(o.input), loadEngineSync());
      process.stdout.write(jsonText(out));
    });

  program
    .command("serve")
    .description("the live scheduler as a sidecar: JSON lines over stdin/stdout (live-scheduler.md)")
    .option("--listen <port>", "serve over TCP on 127.0.0.1:PORT instead (0 = any free port)", intArg("--listen"))
    .option("--max-line-bytes <n>", "longest request line; a longer one closes its session", positiveIntArg("--max-line-bytes"), DEFAULT_SERVE_LIMITS.maxLineBytes)
    .option("--max-queued-bytes <n>", "answers waiting for a client that does not read them; past it its session is closed", positiveIntArg("--max-queued-bytes"), DEFAULT_SERVE_LIMITS.maxQueuedBytes)
    .option("--max-queues <n>", "queues per session", positiveIntArg("--max-queues"), DEFAULT_SERVE_LIMITS.maxQueues)
    .option("--max-tasks <n>", "tasks held per session (waiting and running; a restore's handles are below it)", positiveIntArg("--max-tasks"), DEFAULT_SERVE_LIMITS.maxTasks)
    .action(async (o: { listen?: number; maxLineBytes: number; maxQueuedBytes: number; maxQueues: number; maxTasks: number }) => {
      const engine = loadEngineSync();
      const limits = { maxLineBytes: o.maxLineBytes, maxQueuedBytes: o.maxQueuedBytes, maxQueues: o.maxQueues, maxTasks: o.maxTasks };
      if (o.listen !== undefined) await serveTcp(engine, o.listen, limits);
      else {
        await serveStreams(engine, process.stdin, process.stdout, limits);
        process.stdin.destroy();
      }
    });

  program
    .command("list")
    .description("list scenarios and the policies of every model")
    .action(() => {
      const lines = ["scenarios:"];
      const item = (name: string, description: string) => lines.push(`  ${name.padEnd(24)} ${description}`);
      for (const s of listScenarios()) item(s.name, s.description);
      lines.push("policies (queue-level simulator: simulate, sweep, allocate):");
      for (const p of listPolicies()) item(p.name, p.description);
      lines.push("allocators (Justice deadline mode: --scenario justice --policies ...):");
      for (const a of listAllocators()) item(a.name, a.description);
      lines.push("node policies (Phoenix node-level model: --scenario phoenix, --format eagle):");
      for (const p of listNodePolicies()) item(p.name, p.description);
      writeData(lines.join("\n") + "\n");
    });
  addSweepCommands(program, (name) => getScenario(name)?.defaultPolicies ?? []);
  addFuzzCommand(program);
  return program;
}

export async function main(argv: string[]): Promise<number> {
  try {
    await buildProgram().parseAsync(argv, { from: "user" });
    return 0;
  } catch (e) {
    if (e instanceof CommanderError) {
      if (e.code === "commander.helpDisplayed" || e.code === "commander.version" || e.code === "commander.help") return 0;
      writeStatus(`fairsched: ${e.message.replace(/^error: /, "")}\n`);
      return 2;
    }
    if (e instanceof InputError || e instanceof SimulationError || e instanceof MissingPeerError) {
      writeStatus(`fairsched: ${e.message}\n`);
      if (process.env.FAIRSCHED_DEBUG) process.stderr.write(`${e.stack}\n`);
      return e instanceof SimulationError ? 3 : 2;
    }
    writeStatus(`fairsched: internal error: ${(e as Error)?.message ?? String(e)}\n`);
    if (process.env.FAIRSCHED_DEBUG) process.stderr.write(`${(e as Error)?.stack}\n`);
    return 1;
  }
}
