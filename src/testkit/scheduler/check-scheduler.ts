// checkScheduler / replaySchedulerCase: fuzz a whole scheduler over time. One implementation
// under `fairsched fuzz --scheduler CMD` (a command behind JSON lines) and the library (an
// in-process object behind ./adapter.ts). Each property is a fast-check async property over
// scenarios; a failure is shrunk by fast-check and reported with the requests that show it.
import fc from "fast-check";
import { InputError } from "../../errors.js";
import { methodsTarget, type SchedulerFactory } from "./adapter.js";
import { checkProperty, NEEDS_PREEMPT, type Finding, type PropertyContext } from "./properties.js";
import { scenarioArb, type ScenarioOptions } from "./workload.js";
import {
  SCHEDULER_PROPERTY_IDS, type Scenario, type SchedulerCase, type SchedulerPropertyId, type SchedulerPropertyReport,
  type SchedulerReport, type SchedulerSupports, type SchedulerTarget,
} from "./types.js";

export interface CheckSchedulerOptions extends ScenarioOptions {
  /** Properties to check (default: all). */
  properties?: readonly SchedulerPropertyId[];
  /** Scenarios per property (default 100). */
  runs?: number;
  /** fast-check seed (default: random; the report gives it). */
  seed?: number;
  /** Extra fields of every `init` request (e.g. `{ policy: "drf" }`). */
  init?: Record<string, unknown>;
  /** long-run-share and split-resistance: allowed slack beyond the largest task's dominant share (default 0.05). */
  tolerance?: number;
  /** Per property: stop searching or shrinking after this long (default: none). */
  timeLimitMs?: number;
  /** Called after every scenario tried: done / total over all properties. */
  onProgress?: (done: number, total: number, property: SchedulerPropertyId) => void;
}

export const DEFAULT_SCHEDULER_RUNS = 100;
export const DEFAULT_SHARE_TOLERANCE = 0.05;

const isTarget = (x: unknown): x is SchedulerTarget => !!x && typeof x === "object" && typeof (x as SchedulerTarget).send === "function";

function toTarget(scheduler: SchedulerFactory | SchedulerTarget): SchedulerTarget {
  if (isTarget(scheduler)) return scheduler;
  if (typeof scheduler !== "function") throw new InputError("scheduler", `expected a factory function or a target with send(), got ${typeof scheduler}`);
  return methodsTarget(scheduler);
}

/** What the scheduler declares at init (a probe with one resource). */
async function probeSupports(target: SchedulerTarget, init: Record<string, unknown>): Promise<SchedulerSupports> {
  const a = await target.send({ ...init, op: "init", capacity: [8], clock: "manual", time: 0 });
  return a && typeof a === "object" && a.supports && typeof a.supports === "object" ? (a.supports as SchedulerSupports) : {};
}

/** The failing runs as JSON lines: a `{"fuzz": case}` line, then each run's requests (a `{"fuzz": {"run": label}}` line before each). */
export function formatTrace(c: SchedulerCase, finding: Finding): string {
  const lines = [JSON.stringify({ fuzz: c })];
  for (const run of finding.runs) {
    lines.push(JSON.stringify({ fuzz: { run: run.label } }));
    for (const r of run.requests) lines.push(JSON.stringify(r));
  }
  return lines.join("\n");
}

function resolveIds(list: readonly SchedulerPropertyId[] | undefined): SchedulerPropertyId[] {
  const ids = [...(list ?? SCHEDULER_PROPERTY_IDS)];
  for (const p of ids) if (!(SCHEDULER_PROPERTY_IDS as readonly string[]).includes(p)) throw new InputError("properties", `unknown property '${p}' (known: ${SCHEDULER_PROPERTY_IDS.join(", ")})`);
  return ids;
}

/** Runs the properties against the scheduler and reports each (never throws for a failing scheduler). */
export async function checkScheduler(scheduler: SchedulerFactory | SchedulerTarget, options: CheckSchedulerOptions = {}): Promise<SchedulerReport> {
  const started = performance.now();
  const target = toTarget(scheduler);
  const ids = resolveIds(options.properties);
  const runs = options.runs ?? DEFAULT_SCHEDULER_RUNS;
  if (!Number.isInteger(runs) || runs < 1) throw new InputError("runs", `expected an integer >= 1, got ${runs}`);
  const seed = options.seed ?? (Math.random() * 2 ** 31) | 0;
  if (!Number.isInteger(seed)) throw new InputError("seed", `expected an integer, got ${seed}`);
  const init = options.init ?? {};
  const tolerance = options.tolerance ?? DEFAULT_SHARE_TOLERANCE;
  const ctx: PropertyContext = { target, init, tolerance, cache: new Map(), counter: { ops: 0 } };
  const arb = scenarioArb(options);
  let supports: SchedulerSupports;
  try {
    supports = await probeSupports(target, init);
  } catch (e) {
    supports = {};
    void e; // the first property's run reports a target that cannot start
  }
  const reports: SchedulerPropertyReport[] = [];
  let done = 0;
  const total = runs * ids.length;
  for (const id of ids) {
    if (NEEDS_PREEMPT.includes(id) && !supports.preempt) {
      reports.push({ property: id, passed: true, runs: 0, seed, skipped: "the scheduler does not preempt (its init answer does not declare \"supports\": {\"preempt\": true})" });
      done += runs;
      continue;
    }
    let last: { scenario: Scenario; finding: Finding } | null = null;
    let tried = 0;
    const property = fc.asyncProperty(arb, async (scenario) => {
      const finding = await runChecked(id, scenario, ctx);
      if (tried < runs) { tried++; done++; options.onProgress?.(done, total, id); }
      if (finding) { last = { scenario, finding }; return false; }
      return true;
    });
    const params = { numRuns: runs, seed, interruptAfterTimeLimit: options.timeLimitMs, markInterruptAsFailure: false };
    let details = await fc.check(property, { ...params, endOnFailure: true });
    let shrunk = false;
    if (details.failed && details.counterexamplePath) {
      const again = await fc.check(property, { ...params, path: details.counterexamplePath });
      if (again.failed) { details = again; shrunk = true; }
    }
    done += runs - tried;
    const report: SchedulerPropertyReport = { property: id, passed: !details.failed, runs: details.numRuns, seed };
    const found = last as { scenario: Scenario; finding: Finding } | null;
    if (details.failed && found) {
      const c: SchedulerCase = { property: id, scenario: found.scenario, init, tolerance };
      report.message = found.finding.message + (shrunk ? "" : " (not shrunk)");
      report.counterexample = c;
      report.trace = formatTrace(c, found.finding);
    } else if (details.failed) report.message = details.errorInstance?.toString() ?? "the property failed";
    reports.push(report);
  }
  target.close?.();
  const failed = reports.filter((r) => !r.passed).map((r) => r.property);
  return { passed: failed.length === 0, seed, properties: reports, failed, ops: ctx.counter.ops, seconds: (performance.now() - started) / 1000 };
}

/** One check, with a target that broke (hung, crashed, printed garbage) reported as the finding. */
async function runChecked(id: SchedulerPropertyId, scenario: Scenario, ctx: PropertyContext): Promise<Finding | null> {
  try {
    return await checkProperty(id, scenario, ctx);
  } catch (e) {
    ctx.cache.clear();
    return { message: `the scheduler broke: ${(e as Error)?.message ?? String(e)}`, runs: [] };
  }
}

/** Reads a case from a trace printed by a failing run (its `{"fuzz": case}` line). */
export function readSchedulerCase(text: string, field = "case"): SchedulerCase {
  for (const line of text.split("\n")) {
    const t = line.trim();
    if (!t.startsWith("{\"fuzz\"")) continue;
    let v: { fuzz?: Partial<SchedulerCase> };
    try { v = JSON.parse(t); } catch { continue; }
    const c = v.fuzz;
    if (c && typeof c.property === "string" && c.scenario && typeof c.scenario === "object") {
      if (!(SCHEDULER_PROPERTY_IDS as readonly string[]).includes(c.property)) throw new InputError(field, `unknown property '${c.property}'`);
      return { property: c.property, scenario: c.scenario, init: c.init ?? {}, tolerance: c.tolerance ?? DEFAULT_SHARE_TOLERANCE };
    }
  }
  throw new InputError(field, "has no {\"fuzz\": {\"property\", \"scenario\", ...}} line (as printed by a failing run)");
}

/** Reruns one saved case: null when it passes now, else the finding's sentence. */
export async function replaySchedulerCase(scheduler: SchedulerFactory | SchedulerTarget, c: SchedulerCase): Promise<string | null> {
  const target = toTarget(scheduler);
  try {
    const ctx: PropertyContext = { target, init: c.init, tolerance: c.tolerance, cache: new Map(), counter: { ops: 0 } };
    if (NEEDS_PREEMPT.includes(c.property) && !(await probeSupports(target, c.init)).preempt) return null;
    return (await runChecked(c.property, c.scenario, ctx))?.message ?? null;
  } finally {
    target.close?.();
  }
}
