// `fairsched fuzz --scheduler "CMD"`: a whole scheduler behind the JSON-lines ops of
// `fairsched serve`, driven over time by checkScheduler (docs/testkit.md, "Fuzzing a whole
// scheduler over time"). The command's transport, with its bounds, is ./fuzz-transport.ts.
import { readFileSync } from "node:fs";
import { InputError } from "../errors.js";
import { checkScheduler, readSchedulerCase, replaySchedulerCase } from "../testkit/scheduler/check-scheduler.js";
import { FAIRSCHED_CLAIMS } from "../testkit/scheduler/claims.js";
import { SCHEDULER_PROPERTY_IDS, type SchedulerPropertyId, type SchedulerReport, type SchedulerTarget } from "../testkit/scheduler/types.js";
import { clip, openLineChannel } from "./fuzz-transport.js";
import { progressBar } from "./progress.js";

export interface SchedulerFuzzOptions {
  scheduler: string; properties?: string; claims?: string; init?: string; runs: number; seed?: number;
  replay?: string; timeoutMs: number; timeLimitMs: number; json?: boolean; maxQueues: number; maxResources: number;
  shareTolerance: number; maxAnswerChars?: number;
}

/** The command as a target: one request line, one JSON answer line. */
export function commandTarget(command: string, timeoutMs: number, maxLineBytes?: number): SchedulerTarget {
  const channel = openLineChannel(command, { timeoutMs, maxLineBytes });
  return {
    async send(req) {
      const line = await channel.exchange(JSON.stringify(req));
      let v: unknown;
      try {
        v = JSON.parse(line);
      } catch {
        channel.close();
        throw new Error(`the command printed garbage instead of a JSON line: ${JSON.stringify(clip(line))} (to ${JSON.stringify(req)})`);
      }
      return v as Record<string, unknown>;
    },
    close: channel.close,
  };
}

function parseProperties(list: string | undefined, claims: string | undefined): SchedulerPropertyId[] | undefined {
  if (list === undefined) return claims === undefined ? undefined : [...FAIRSCHED_CLAIMS[claims].properties];
  const ids = list.split(",").map((s) => s.trim()).filter(Boolean);
  if (ids.length === 0) throw new InputError("--properties", "lists no property");
  for (const id of ids) if (!(SCHEDULER_PROPERTY_IDS as readonly string[]).includes(id)) throw new InputError("--properties", `unknown property '${id}' (known: ${SCHEDULER_PROPERTY_IDS.join(", ")})`);
  return ids as SchedulerPropertyId[];
}

function parseInit(o: SchedulerFuzzOptions): Record<string, unknown> {
  if (o.claims !== undefined && !Object.hasOwn(FAIRSCHED_CLAIMS, o.claims)) throw new InputError("--claims", `unknown policy '${o.claims}' (known: ${Object.keys(FAIRSCHED_CLAIMS).join(", ")})`);
  let extra: unknown = {};
  if (o.init !== undefined) {
    try { extra = JSON.parse(o.init); } catch { throw new InputError("--init", "is not JSON"); }
    if (!extra || typeof extra !== "object" || Array.isArray(extra)) throw new InputError("--init", "must be a JSON object of init fields, e.g. '{\"policy\": \"drf\"}'");
  }
  return { ...(o.claims ? FAIRSCHED_CLAIMS[o.claims].init : {}), ...(extra as Record<string, unknown>) };
}

/** The report as text: one line per property, a failure's trace after it. */
export function formatSchedulerReport(r: SchedulerReport): string {
  const out: string[] = [r.passed ? `every property held (seed ${r.seed})` : `${r.failed.length} propert${r.failed.length === 1 ? "y" : "ies"} failed: ${r.failed.join(", ")} (seed ${r.seed})`];
  for (const p of r.properties) {
    if (p.skipped) out.push(`skip  ${p.property}: ${p.skipped}`);
    else if (p.passed) out.push(`ok    ${p.property} (${p.runs} scenarios)`);
    else {
      out.push(`FAIL  ${p.property}: ${p.message}`);
      if (p.trace) out.push("  shrunk trace (save the lines below to a file; rerun with --replay FILE):", ...p.trace.split("\n").map((l) => `  ${l}`));
    }
  }
  out.push(`${r.ops} requests in ${r.seconds.toFixed(1)} s (${Math.round(r.ops / Math.max(r.seconds, 1e-9))} requests/s)`);
  return out.join("\n");
}

const write = (stream: NodeJS.WriteStream, text: string) => new Promise<void>((done) => stream.write(text, () => done()));

export async function fuzzScheduler(o: SchedulerFuzzOptions): Promise<number> {
  const init = parseInit(o);
  const properties = parseProperties(o.properties, o.claims);
  let replay;
  if (o.replay) {
    let text: string;
    try { text = readFileSync(o.replay, "utf8"); } catch (e) { throw new InputError("--replay", `cannot read ${o.replay}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`); }
    replay = readSchedulerCase(text, "--replay");
  }
  const target = commandTarget(o.scheduler, o.timeoutMs, o.maxAnswerChars);
  if (replay) {
    // --claims / --init apply to the replay too (a trace from another scheduler may need a policy)
    const message = await replaySchedulerCase(target, { ...replay, init: { ...replay.init, ...init } });
    const out = o.json
      ? JSON.stringify({ property: replay.property, passed: message === null, message: message ?? undefined }, null, 2) + "\n"
      : message === null ? `${replay.property}: the case passes now\n` : `FAIL  ${replay.property}: ${message}\n`;
    await write(process.stdout, out);
    return message === null ? 0 : 1;
  }
  const bar = progressBar("fuzz");
  const report = await checkScheduler(target, {
    properties, init, runs: o.runs, seed: o.seed, timeLimitMs: o.timeLimitMs, tolerance: o.shareTolerance,
    maxQueues: o.maxQueues, maxResources: o.maxResources, onProgress: (done, total) => bar.update(done / total),
  });
  bar.done();
  await write(process.stdout, (o.json ? JSON.stringify(report, null, 2) : formatSchedulerReport(report)) + "\n");
  return report.passed ? 0 : 1;
}
