// checkAllocator / assertFair / replayCase: one implementation (runAxiom) behind thin
// builders. Each axiom is a fast-check async property over its own input arbitrary; a
// failure is shrunk by fast-check, then its idle queues dropped (drop-idle-queues.ts), and
// reported as a self-contained case plus seed and path.
import fc from "fast-check";
import { InputError } from "../errors.js";
import type { Engine } from "../engine/engine.js";
import { loadEngineSync } from "../engine/load.js";
import { cloneState, resolveStateOptions, type ClusterStateOptions } from "./arbitraries.js";
import { AXIOMS, AllocatorFault, type AxiomContext } from "./axioms.js";
import { dropIdleQueues } from "./drop-idle-queues.js";
import { describeThrown, formatReport } from "./format.js";
import { readAllocation } from "./model.js";
import { AXIOM_IDS, type Allocator, type AxiomId, type AxiomInput, type AxiomReport, type CheckReport, type ClusterState, type FuzzCase } from "./types.js";

export interface CheckAllocatorOptions extends ClusterStateOptions {
  /** Axioms to check (default: all). */
  axioms?: readonly AxiomId[];
  /** Inputs per axiom (default 100). */
  runs?: number;
  /** fast-check seed (default: random; the report gives it). */
  seed?: number;
  /** With `seed`: replay this counterexample path (from a report) instead of searching. */
  path?: string;
  /** Relative tolerance of every comparison (default 1e-9). */
  tolerance?: number;
  /** matches-drf: allowed difference per entry as a fraction of capacity (default 1e-7). */
  drfTolerance?: number;
  /** Task-granular mode: demands are whole tasks and the axioms take their relaxed forms (default false; tasks default 1..10). */
  taskGranular?: boolean;
  /** Per allocate call, for async allocators: a call that takes longer is a finding (default: none). */
  timeoutMs?: number;
  /** Per axiom: stop searching or shrinking after this long (default: none). */
  timeLimitMs?: number;
  /** The reference engine for matches-drf (default: loadEngineSync(), WASM). */
  engine?: Engine;
  /** Called after every input tried: done / total over all axioms. */
  onProgress?: (done: number, total: number, axiom: AxiomId) => void;
}

const DEFAULT_RUNS = 100;
export const DEFAULT_TOLERANCE = 1e-9;
export const DEFAULT_DRF_TOLERANCE = 1e-7;
export const DEFAULT_TASKS = { min: 1, max: 10 };

let sharedEngine: Engine | null = null;
const defaultEngine = () => (sharedEngine ??= loadEngineSync());

/** The allocate function as the checks see it: fresh copy in, N x K numbers out, faults thrown with their input. */
function guarded(allocate: Allocator, timeoutMs: number | undefined): AxiomContext["allocate"] {
  return async (state: ClusterState) => {
    const copy = cloneState(state);
    let raw: unknown;
    try {
      const out = allocate(copy);
      if (out && typeof (out as Promise<unknown>).then === "function") {
        if (timeoutMs === undefined) raw = await out;
        else {
          let timer: ReturnType<typeof setTimeout> | undefined;
          const expired = new Promise<never>((_, reject) => {
            timer = setTimeout(() => reject(new AllocatorFault(`the allocator did not answer within ${timeoutMs} ms`, state, true)), timeoutMs);
          });
          try { raw = await Promise.race([out, expired]); } finally { clearTimeout(timer); }
        }
      } else raw = out;
    } catch (e) {
      if (isFault(e)) throw e;
      throw new AllocatorFault(`the allocator threw: ${describeThrown(e)}`, state);
    }
    let rows: number[][] | string;
    try {
      rows = readAllocation(raw, state.demands.length, state.capacity.length);
    } catch (e) {
      // a row or entry whose getter (or Proxy trap) throws
      throw new AllocatorFault(`the allocator's answer cannot be read: reading it threw: ${describeThrown(e)}`, state);
    }
    if (typeof rows === "string") throw new AllocatorFault(rows, state);
    return rows;
  };
}

/** `e instanceof AllocatorFault`, false where asking throws (a Proxy's getPrototypeOf trap). */
function isFault(e: unknown): e is AllocatorFault {
  try {
    return e instanceof AllocatorFault;
  } catch {
    return false;
  }
}

/** One check of one input: null, or what broke (a fault names its input). */
async function runOnce(id: AxiomId, input: AxiomInput, ctx: AxiomContext): Promise<{ message: string; hang: boolean } | null> {
  try {
    const message = await AXIOMS.get(id)!.check(input, ctx);
    return message === null ? null : { message, hang: false };
  } catch (e) {
    if (isFault(e)) return { message: `${e.message} (input: ${JSON.stringify(e.state)})`, hang: e.hang };
    // anything else the check met is a finding about this input too, never an escape
    return { message: `checking the answer threw: ${describeThrown(e)} (input: ${JSON.stringify(input.state)})`, hang: false };
  }
}

interface Resolved {
  axioms: AxiomId[];
  runs: number;
  seed: number;
  ctx: AxiomContext;
  stateOptions: Required<ClusterStateOptions>;
}

function resolve(allocate: Allocator, options: CheckAllocatorOptions): Resolved {
  if (typeof allocate !== "function") throw new InputError("allocate", `expected a function, got ${typeof allocate}`);
  const axioms = [...(options.axioms ?? AXIOM_IDS)];
  for (const a of axioms) if (!AXIOMS.has(a)) throw new InputError("axioms", `unknown axiom '${a}' (known: ${AXIOM_IDS.join(", ")})`);
  const runs = options.runs ?? DEFAULT_RUNS;
  if (!Number.isInteger(runs) || runs < 1) throw new InputError("runs", `expected an integer >= 1, got ${runs}`);
  const seed = options.seed ?? (Math.random() * 2 ** 31) | 0;
  if (!Number.isInteger(seed)) throw new InputError("seed", `expected an integer, got ${seed}`);
  const tasks = options.taskGranular ?? false;
  const stateOptions = resolveStateOptions({ ...options, tasks: tasks ? options.tasks || DEFAULT_TASKS : false });
  const engine = options.engine;
  return {
    axioms, runs, seed, stateOptions,
    ctx: {
      allocate: guarded(allocate, options.timeoutMs),
      tolerance: options.tolerance ?? DEFAULT_TOLERANCE,
      drfTolerance: options.drfTolerance ?? DEFAULT_DRF_TOLERANCE,
      tasks,
      engine: engine ? () => engine : defaultEngine,
    },
  };
}

/** Runs the axioms against `allocate` and reports each (never throws for a failing allocator). */
export async function checkAllocator(allocate: Allocator, options: CheckAllocatorOptions = {}): Promise<CheckReport> {
  const r = resolve(allocate, options);
  const reports: AxiomReport[] = [];
  let done = 0;
  const total = r.runs * r.axioms.length;
  for (const id of r.axioms) {
    let lastFailure: { message: string; hang: boolean } | null = null;
    let tried = 0;
    const property = fc.asyncProperty(AXIOMS.get(id)!.input(r.stateOptions), async (input) => {
      const failure = await runOnce(id, input, r.ctx);
      if (tried < r.runs) { tried++; done++; options.onProgress?.(Math.min(done, total), total, id); }
      if (failure !== null) { lastFailure = failure; return false; }
      return true;
    });
    const params = { numRuns: r.runs, seed: r.seed, interruptAfterTimeLimit: options.timeLimitMs, markInterruptAsFailure: false };
    // first find a failure without shrinking; shrink it (a rerun from its path) unless it is a hang
    let details = await fc.check(property, { ...params, path: options.path, endOnFailure: true });
    let shrunk = false;
    const runs = details.numRuns;
    const first = lastFailure as { message: string; hang: boolean } | null;
    if (details.failed && details.counterexamplePath && first && !first.hang) {
      const again = await fc.check(property, { ...params, path: details.counterexamplePath });
      if (again.failed) { details = again; shrunk = true; }
    }
    done += r.runs - tried;
    const report: AxiomReport = { axiom: id, passed: !details.failed, runs, seed: r.seed };
    if (details.interrupted && runs === 0) report.interrupted = true;
    if (details.failed) {
      let input = details.counterexample?.[0] as AxiomInput | undefined;
      const last = lastFailure as { message: string; hang: boolean } | null;
      let message = last?.message ?? details.errorInstance?.toString() ?? "the property failed";
      if (input && shrunk) {
        const again = (x: AxiomInput) => runOnce(id, x, r.ctx).then((f) => (f && !f.hang ? f.message : null));
        ({ input, message } = await dropIdleQueues(input, message, r.stateOptions.minQueues, again));
      }
      report.message = message + (shrunk ? "" : " (not shrunk)");
      if (input) report.counterexample = { axiom: id, tasks: r.ctx.tasks, tolerance: r.ctx.tolerance, input };
      if (details.counterexamplePath) report.path = details.counterexamplePath;
    }
    reports.push(report);
  }
  const failed = reports.filter((x) => !x.passed).map((x) => x.axiom);
  return { passed: failed.length === 0, seed: r.seed, tasks: r.ctx.tasks, axioms: reports, failed };
}

/** Like checkAllocator, but throws an Error whose message is the readable report when an axiom fails. */
export async function assertFair(allocate: Allocator, options: CheckAllocatorOptions = {}): Promise<void> {
  const report = await checkAllocator(allocate, options);
  if (!report.passed) throw new Error(`allocator is not fair: ${report.failed.join(", ")}\n${formatReport(report)}`);
}

/** Reruns one saved case (a report's `counterexample`, or a `fairsched fuzz` case file): null when it now passes, else the sentence. */
export async function replayCase(allocate: Allocator, c: FuzzCase, options: Pick<CheckAllocatorOptions, "timeoutMs" | "drfTolerance" | "engine"> = {}): Promise<string | null> {
  if (!c || typeof c !== "object" || !AXIOMS.has(c.axiom)) throw new InputError("case.axiom", `expected one of ${AXIOM_IDS.join(", ")}, got ${JSON.stringify(c?.axiom)}`);
  if (!c.input || typeof c.input !== "object" || !c.input.state) throw new InputError("case.input.state", "missing");
  const r = resolve(allocate, { taskGranular: !!c.tasks, tolerance: c.tolerance, ...options, axioms: [c.axiom] });
  return (await runOnce(c.axiom, c.input, r.ctx))?.message ?? null;
}
