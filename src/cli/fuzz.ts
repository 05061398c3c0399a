// `fairsched fuzz`: checks anyone's allocator against the fairness axioms, or (--scheduler,
// ./fuzz-scheduler.ts) a whole scheduler over time (docs/testkit.md).
// Exit 0: every axiom held; 1: one failed (named, with the shrunk case); 2: usage error.
import { readFileSync } from "node:fs";
import { resolve as resolvePath } from "node:path";
import { InvalidArgumentError, type Command } from "commander";
import { InputError } from "../errors.js";
import { checkAllocator, replayCase } from "../testkit/check-allocator.js";
import { formatReport } from "../testkit/format.js";
import { AXIOM_IDS, type AxiomId, type FuzzCase } from "../testkit/types.js";
import { fuzzScheduler, type SchedulerFuzzOptions } from "./fuzz-scheduler.js";
import { SCHEDULER_PROPERTY_IDS } from "../testkit/scheduler/types.js";
import { FAIRSCHED_CLAIMS } from "../testkit/scheduler/claims.js";
import { commandAllocator, moduleAllocator, type RemoteAllocator } from "./fuzz-remote.js";
import { progressBar } from "./progress.js";

interface FuzzOptions extends Partial<Omit<SchedulerFuzzOptions, "scheduler" | "runs" | "timeoutMs" | "timeLimitMs" | "maxQueues" | "maxResources">> {
  allocator?: string; cmd?: string; scheduler?: string; axioms?: string; runs?: number; seed?: number; tasks?: boolean;
  replay?: string; timeoutMs: number; timeLimitMs: number; json?: boolean; maxQueues?: number; maxResources?: number; tolerance: number;
  shareTolerance: number; maxAnswerChars?: number;
}

const int = (name: string, min: number) => (v: string): number => {
  if (!/^-?\d+$/.test(v) || Number(v) < min) throw new InvalidArgumentError(`${name} must be an integer >= ${min}, got '${v}'`);
  return Number(v);
};
const positive = (name: string) => (v: string): number => {
  const x = Number(v);
  if (!(x > 0 && Number.isFinite(x))) throw new InvalidArgumentError(`${name} must be a number > 0, got '${v}'`);
  return x;
};

function parseAxioms(list: string | undefined): AxiomId[] | undefined {
  if (list === undefined) return undefined;
  const ids = list.split(",").map((s) => s.trim()).filter(Boolean);
  if (ids.length === 0) throw new InputError("--axioms", "lists no axiom");
  for (const id of ids) if (!(AXIOM_IDS as readonly string[]).includes(id)) throw new InputError("--axioms", `unknown axiom '${id}' (known: ${AXIOM_IDS.join(", ")})`);
  return ids as AxiomId[];
}

function readCase(file: string): FuzzCase {
  let c: FuzzCase;
  try {
    c = JSON.parse(readFileSync(file, "utf8")) as FuzzCase;
  } catch (e) {
    throw new InputError("--replay", `cannot read ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  if (!c || typeof c !== "object" || !(AXIOM_IDS as readonly string[]).includes(c.axiom) || !c.input?.state) {
    throw new InputError("--replay", `${file} is not a fuzz case (expected {"axiom", "tasks", "tolerance", "input": {"state": ...}} as printed by a failing run)`);
  }
  return c;
}

/** Writes `text` and resolves once it is flushed (the process exits right after). */
const write = (stream: NodeJS.WriteStream, text: string) => new Promise<void>((done) => stream.write(text, () => done()));

async function fuzz(o: FuzzOptions): Promise<number> {
  if ([o.allocator, o.cmd, o.scheduler].filter((x) => x !== undefined).length !== 1) {
    throw new InputError("--allocator", "give exactly one of --allocator FILE.mjs, --cmd \"COMMAND\" and --scheduler \"COMMAND\"");
  }
  if (o.scheduler !== undefined) {
    return fuzzScheduler({ ...o, scheduler: o.scheduler, runs: o.runs ?? 50, maxQueues: o.maxQueues ?? 4, maxResources: o.maxResources ?? 2 });
  }
  for (const [flag, v] of [["--properties", o.properties], ["--claims", o.claims], ["--init", o.init]] as const) {
    if (v !== undefined) throw new InputError(flag, "is an option of --scheduler");
  }
  const axioms = parseAxioms(o.axioms);
  const replay = o.replay ? readCase(o.replay) : undefined;
  const remote: RemoteAllocator = o.cmd ? commandAllocator(o.cmd, o.timeoutMs, o.maxAnswerChars) : await moduleAllocator(resolvePath(o.allocator!), o.timeoutMs);
  try {
    if (replay) {
      const message = await replayCase(remote.allocate, replay);
      const out = o.json
        ? JSON.stringify({ axiom: replay.axiom, passed: message === null, message: message ?? undefined }, null, 2) + "\n"
        : message === null ? `${replay.axiom}: the case passes now\n` : `FAIL  ${replay.axiom}: ${message}\n`;
      await write(process.stdout, out);
      return message === null ? 0 : 1;
    }
    const bar = progressBar("fuzz");
    const report = await checkAllocator(remote.allocate, {
      // no timeoutMs here: the remote enforces it (with a restart and one retry)
      axioms, runs: o.runs ?? 100, seed: o.seed, taskGranular: !!o.tasks, timeLimitMs: o.timeLimitMs,
      maxQueues: o.maxQueues ?? 8, maxResources: o.maxResources ?? 4, tolerance: o.tolerance,
      onProgress: (done, total) => bar.update(done / total),
    });
    bar.done();
    let out: string;
    if (o.json) out = JSON.stringify(report, null, 2) + "\n";
    else {
      out = formatReport(report) + "\n";
      if (!report.passed) out += "\nsave a shrunk case (the JSON after 'shrunk case:') to a file and rerun it with --replay FILE\n";
    }
    await write(process.stdout, out);
    return report.passed ? 0 : 1;
  } finally {
    remote.close();
  }
}

/** Registers `fuzz` on the program. */
export function addFuzzCommand(program: Command): void {
  program
    .command("fuzz")
    .description("check an allocator (a JS module or any command speaking JSON lines) against the fairness axioms, or a whole scheduler (--scheduler) over time")
    .option("--allocator <file.mjs>", "ES module whose default export is allocate(state) -> N x K allocation (sync or async)")
    .option("--cmd <command>", "command that reads one JSON request line per call on stdin and prints one JSON response line")
    .option("--scheduler <command>", "a whole scheduler speaking the JSON-lines ops of `fairsched serve`, fuzzed over time against the temporal properties")
    .option("--properties <list>", `--scheduler: comma-separated property ids (default: all, or the --claims policy's): ${SCHEDULER_PROPERTY_IDS.join(", ")}`)
    .option("--claims <policy>", `--scheduler: check what this fairsched policy claims, with its init fields (${Object.keys(FAIRSCHED_CLAIMS).join(", ")})`)
    .option("--init <json>", "--scheduler: extra fields of every init request, e.g. '{\"policy\": \"drf\"}'")
    .option("--share-tolerance <x>", "--scheduler: slack of long-run-share and split-resistance beyond the largest task's dominant share", positive("--share-tolerance"), 0.05)
    .option("--max-answer-chars <n>", "--cmd, --scheduler: longest answer line accepted (a longer one is a finding)", int("--max-answer-chars", 1), 16 * 2 ** 20)
    .option("--axioms <list>", `comma-separated axiom ids (default: all): ${AXIOM_IDS.join(", ")}`)
    .option("--runs <n>", "inputs per axiom (default 100; --scheduler: scenarios per property, default 50)", int("--runs", 1))
    .option("--seed <n>", "fast-check seed (default: random, printed)", int("--seed", -(2 ** 31)))
    .option("--tasks", "task-granular mode: demands are whole tasks, axioms in their relaxed forms")
    .option("--replay <file>", "rerun one shrunk case printed by a failing run (--scheduler: the saved trace)")
    .option("--timeout-ms <n>", "per allocate call; a slower call is a finding (the child is restarted)", int("--timeout-ms", 1), 5000)
    .option("--time-limit-ms <n>", "per axiom: stop searching or shrinking after this long", int("--time-limit-ms", 1), 60000)
    .option("--max-queues <n>", "largest N generated (default 8; --scheduler: tenants, default 4)", int("--max-queues", 1))
    .option("--max-resources <n>", "largest K generated (default 4; --scheduler: 2)", int("--max-resources", 1))
    .option("--tolerance <x>", "relative tolerance of every comparison", positive("--tolerance"), 1e-9)
    .option("--json", "print the report as JSON")
    .action(async (o: FuzzOptions) => {
      const code = await fuzz(o);
      // the report is flushed; end now even if a misbehaving allocator left handles open
      process.exit(code);
    });
}
