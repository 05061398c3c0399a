// What crosses Redis is checked on both sides (docs/sweeps.md, "What a worker trusts"). A worker
// runs only a cell the submitting side could have built from the worker's own registry: a known
// scenario and backend, parameter names the scenario declares with plain values, an integer
// seed and index; and a trace file only by name inside the directory its operator named
// (--trace-dir): after realpath inside it, a regular file, at most a bounded size. The submitter
// takes a result only if it is a report of the very cell it asked for.
import { realpathSync, statSync } from "node:fs";
import { isAbsolute, relative, resolve, sep } from "node:path";
import { InputError, describeValue } from "../errors.js";
import { checkScenarioParams } from "../scenarios/params.js";
import { getScenario } from "../scenarios/registry.js";
import type { ScenarioReport } from "../scenarios/scenario.js";
import type { ParamValue, SweepCell } from "./grid.js";

/** What one job carries: enough for any worker to run the cell. */
export interface CellJob {
  fingerprint: string;
  scenario: string;
  backend: "wasm" | "js";
  keepCharts: boolean;
  cell: SweepCell;
}

export interface TraceAccess {
  /** The only directory a job's trace file may be in (the worker's --trace-dir); none: jobs name no file. */
  dir?: string;
  /** Largest trace file in bytes (default DEFAULT_MAX_TRACE_BYTES). */
  maxBytes?: number;
}

export const DEFAULT_MAX_TRACE_BYTES = 256 * 2 ** 20;
/** Longest policy name or string parameter value a job may carry. */
const MAX_NAME = 200;
/** Parameters that name files; a queue job may name one only as traceFile inside --trace-dir. */
const FILE_PARAMS = new Set(["traceFile", "traceDir"]);

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);

function exactKeys(o: Record<string, unknown>, keys: readonly string[], field: string): void {
  for (const k of Object.keys(o)) if (!keys.includes(k)) throw new InputError(`${field}.${k.slice(0, MAX_NAME)}`, "is not a field of a sweep job");
  for (const k of keys) if (!(k in o)) throw new InputError(`${field}.${k}`, "missing");
}

/**
 * A job's data checked against this worker's registry; returns the job to run, its trace file
 * (if any) replaced by the resolved path inside the trace directory. Throws an InputError naming
 * the field (never a file's contents) for anything else.
 */
export function checkCellJob(data: unknown, access: TraceAccess = {}): CellJob {
  if (!isObject(data)) throw new InputError("job", `expected a sweep cell job, got ${describeValue(data)}`);
  exactKeys(data, ["fingerprint", "scenario", "backend", "keepCharts", "cell"], "job");
  const { fingerprint, scenario, backend, keepCharts, cell } = data;
  if (typeof fingerprint !== "string" || !/^[0-9a-f]{16}$/.test(fingerprint)) throw new InputError("job.fingerprint", `expected 16 hex digits, got ${describeValue(fingerprint)}`);
  const sc = typeof scenario === "string" ? getScenario(scenario) : undefined;
  if (!sc) throw new InputError("job.scenario", `${describeValue(scenario)} is not a scenario this worker knows (its registry and --module files)`);
  if (backend !== "wasm" && backend !== "js") throw new InputError("job.backend", `expected 'wasm' or 'js', got ${describeValue(backend)}`);
  if (typeof keepCharts !== "boolean") throw new InputError("job.keepCharts", `expected true or false, got ${describeValue(keepCharts)}`);
  if (!isObject(cell)) throw new InputError("job.cell", `expected {index, policy, params, seed}, got ${describeValue(cell)}`);
  exactKeys(cell, ["index", "policy", "params", "seed"], "job.cell");
  if (!(typeof cell.index === "number" && Number.isSafeInteger(cell.index) && cell.index >= 0)) throw new InputError("job.cell.index", `expected an integer >= 0, got ${describeValue(cell.index)}`);
  if (!(typeof cell.policy === "string" && cell.policy !== "" && cell.policy.length <= MAX_NAME)) throw new InputError("job.cell.policy", `expected a policy name, got ${describeValue(cell.policy)}`);
  if (!(typeof cell.seed === "number" && Number.isSafeInteger(cell.seed))) throw new InputError("job.cell.seed", `expected an integer, got ${describeValue(cell.seed)}`);
  if (!isObject(cell.params)) throw new InputError("job.cell.params", `expected an object, got ${describeValue(cell.params)}`);
  checkScenarioParams(sc, Object.keys(cell.params), "job.cell.params");
  const params: Record<string, ParamValue> = {};
  for (const [k, v] of Object.entries(cell.params)) {
    if (!((typeof v === "number" && Number.isFinite(v)) || (typeof v === "string" && v.length <= MAX_NAME))) throw new InputError(`job.cell.params.${k}`, `expected a finite number or a string of at most ${MAX_NAME} characters, got ${describeValue(v)}`);
    params[k] = v;
  }
  for (const k of Object.keys(params)) if (FILE_PARAMS.has(k)) params[k] = traceFileIn(k, params[k], access);
  return { fingerprint, scenario: sc.name, backend, keepCharts, cell: { index: cell.index, policy: cell.policy, params, seed: cell.seed } };
}

/** The real path of a job's trace file inside the trace directory, or an InputError saying only which rule it broke. */
function traceFileIn(param: string, value: ParamValue, access: TraceAccess): string {
  const field = `job.cell.params.${param}`;
  if (param !== "traceFile") throw new InputError(field, "a queue worker reads trace files only as traceFile=NAME inside its --trace-dir");
  if (!access.dir) throw new InputError(field, "this worker reads no trace files (start it with --trace-dir DIR)");
  const dir = realpathSync(access.dir);
  const name = String(value);
  // one answer for missing, outside and not regular: a job cannot probe for files elsewhere
  const refuse = () => new InputError(field, `${describeValue(name)} is not a regular file inside the worker's --trace-dir`);
  if (isAbsolute(name)) throw refuse();
  let real: string;
  try {
    real = realpathSync(resolve(dir, name));
  } catch {
    throw refuse();
  }
  const rel = relative(dir, real);
  if (rel === "" || rel.startsWith(`..${sep}`) || rel === ".." || isAbsolute(rel)) throw refuse();
  const st = statSync(real);
  if (!st.isFile()) throw refuse();
  const max = access.maxBytes ?? DEFAULT_MAX_TRACE_BYTES;
  if (st.size > max) throw new InputError(field, `${describeValue(name)} is ${st.size} bytes, past the worker's bound of ${max} (--max-trace-bytes)`);
  return real;
}

/**
 * The report JSON a worker returned for `cell`, checked to be a report of that cell (its seed,
 * its one policy, its parameters, tables); returns it re-serialised, or a sentence saying why not.
 */
export function checkCellResult(cell: SweepCell, returned: unknown): { json: string } | { forged: string } {
  if (typeof returned !== "string") return { forged: `the result is ${describeValue(returned)}, not a report` };
  let r: unknown;
  try {
    r = JSON.parse(returned);
  } catch {
    return { forged: "the result is not JSON" };
  }
  if (!isObject(r)) return { forged: "the result is not a report object" };
  const report = r as unknown as ScenarioReport;
  // a scenario may name itself otherwise in its report (a fixture reusing another's run): a name, not compared
  if (typeof report.scenario !== "string") return { forged: "the report names no scenario" };
  if (report.seed !== cell.seed) return { forged: `the report is of seed ${describeValue(report.seed)}, not ${cell.seed}` };
  if (!Array.isArray(report.policies) || report.policies.length !== 1 || report.policies[0] !== cell.policy) return { forged: `the report is of policies ${describeValue(report.policies)}, not ['${cell.policy}']` };
  if (!Array.isArray(report.tables) || !report.tables.every((t) => isObject(t) && Array.isArray((t as { rows?: unknown }).rows))) return { forged: "the report's tables are not a list of tables" };
  if (!isObject(report.params)) return { forged: "the report has no params object" };
  for (const [k, v] of Object.entries(cell.params)) {
    if (FILE_PARAMS.has(k)) continue; // the worker names its own resolved file
    // compared as text: a scenario may keep a parsed value ("0.9,0.4" as [0.9, 0.4])
    if (k in report.params && String(report.params[k]) !== String(v)) return { forged: `the report's params.${k} is ${describeValue(report.params[k])}, not ${describeValue(v)}` };
  }
  return { json: JSON.stringify(r) };
}
