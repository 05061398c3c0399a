// engine.crvReorder: validates the caller's arrays, stages them for the kernel (assembly/crv.ts
// or its twin ./twin.ts) and turns kernel statuses into InputErrors naming the field and
// index. One call reorders every queue of a round.
import type { KernelBackend } from "../backend.js";
import { Status } from "../status.js";
import { InputError, describeValue } from "../../errors.js";
import { vectorLength } from "../marshal.js";
import { keepViews } from "../util/keep-views.js";
import { copyResults } from "../results.js";
import type { CrvStage } from "./contract.js";
import { crvError } from "./errors.js";

export type QueueMode = "fifo" | "srpt" | "crv" | 0 | 1 | 2;

export interface CrvReorderInput {
  /** Q+1 task offsets: queue j holds tasks queueOffsets[j] .. queueOffsets[j+1]-1, head first. */
  queueOffsets: ArrayLike<number>;
  /** Per task (T): CRV score, max over the task's constraints of demand/supply (0 = unconstrained). */
  crv: ArrayLike<number>;
  /** Per task (T): estimated (remaining) runtime in seconds, the SRPT key. */
  runtime: ArrayLike<number>;
  /** Per task (T): times the task was bypassed so far (whole number >= 0). */
  slack: ArrayLike<number>;
  /** Per queue (Q): 'fifo' (keep), 'srpt' or 'crv' (or 0 / 1 / 2). */
  mode: ArrayLike<QueueMode>;
  /** A task whose slack reached this is never bypassed again. Default 5, the paper's value (docs/policies/phoenix.md). */
  slackThreshold?: number;
}

export interface CrvReorderResult {
  /** T: order[k] = input index of the task now at global position k (queues stay in their ranges). */
  order: Uint32Array;
  /** T: updated slack of each task, indexed like the input. */
  slack: Int32Array;
  /** Tasks now ahead of a task that was ahead of them. */
  reordered: number;
}

export const DEFAULT_SLACK_THRESHOLD = 5;

const MODE_CODE: Record<string, number> = { fifo: 0, srpt: 1, crv: 2 };

/** `into`: optional caller arrays for order and slack (see CallOptions in src/kernels/results.ts). */
export function runCrvReorder(kernels: KernelBackend, input: CrvReorderInput, into?: unknown): CrvReorderResult {
  const { q, t } = crvShape(input);
  const thr = slackThresholdOf(input.slackThreshold);
  // views of the engine's memory among the arrays stay readable if staging grows it
  const keep = kernels.stageGrows("crv", q, t) ? keepViews(kernels, [input, into]) : null;
  const block = kernels.stage("crv", q, t);
  if (keep !== null) [input, into] = keep();
  const s = block.views();
  writeCrvInputs(input, s, q, t);
  const code = block.run({ slackThreshold: thr });
  if (code !== Status.OK) throw crvError(code, block.errorIndex(), block.views(), t);
  const { order, slack: slackOut } = copyResults("crv", s, into);
  return { order, slack: slackOut, reordered: block.reordered() };
}

/** The slack threshold (default 5), validated: a whole number >= 0. */
export function slackThresholdOf(v: unknown): number {
  const thr = v ?? DEFAULT_SLACK_THRESHOLD;
  if (typeof thr !== "number" || !Number.isInteger(thr) || thr < 0 || thr > 2 ** 31 - 1) {
    throw new InputError("slackThreshold", `must be a whole number >= 0 (got ${describeValue(thr)})`);
  }
  return thr;
}

/** Q and T of an input, with every length checked against them. */
export function crvShape(input: CrvReorderInput): { q: number; t: number } {
  if (input === null || typeof input !== "object") throw new InputError("input", `expected an object, got ${describeValue(input)}`);
  const { queueOffsets, crv, runtime, slack, mode } = input;
  const q1 = vectorLength("queueOffsets", queueOffsets);
  if (q1 === 0) throw new InputError("queueOffsets", "must hold Q+1 offsets (at least [0])");
  const q = q1 - 1;
  const t = vectorLength("crv", crv);
  for (const [field, v] of [["runtime", runtime], ["slack", slack]] as const) {
    const len = vectorLength(field, v);
    if (len !== t) throw new InputError(field, `has length ${len}, expected T=${t} (one per task, like crv)`);
  }
  const ml = vectorLength("mode", mode);
  if (ml !== q) throw new InputError("mode", `has length ${ml}, expected Q=${q} (one per queue)`);
  return { q, t };
}

/**
 * Writes a checked-shape input into the kernel's views, element checks on the way (an
 * InputError naming the element stops part way). Shared by engine.crvReorder and PreparedCrv.
 */
export function writeCrvInputs(input: CrvReorderInput, s: CrvStage, q: number, t: number): void {
  const { queueOffsets, crv, runtime, slack, mode } = input;
  for (let j = 0; j <= q; j++) s.offsets[j] = wholeNumber("queueOffsets", j, queueOffsets[j]);
  for (let j = 0; j < q; j++) {
    const m = mode[j];
    const code = typeof m === "string" ? MODE_CODE[m] : m;
    if (code !== 0 && code !== 1 && code !== 2) {
      throw new InputError(`mode[${j}]`, `must be 'fifo', 'srpt' or 'crv' (or 0, 1, 2), got ${describeValue(m)}`);
    }
    s.mode[j] = code;
  }
  for (let i = 0; i < t; i++) {
    s.score[i] = numberAt("crv", i, crv[i]);
    s.runtime[i] = numberAt("runtime", i, runtime[i]);
    const x = slack[i];
    if (typeof x !== "number" || !Number.isInteger(x) || x < 0 || x > 2 ** 31 - 2) {
      throw new InputError(`slack[${i}]`, `must be a whole number >= 0 (got ${describeValue(x)})`);
    }
    s.slack[i] = x;
  }
}

function wholeNumber(field: string, i: number, x: unknown): number {
  if (typeof x !== "number" || !Number.isInteger(x) || x < 0 || x > 2 ** 32 - 1) {
    throw new InputError(`${field}[${i}]`, `must be a whole number >= 0 (got ${describeValue(x)})`);
  }
  return x;
}

function numberAt(field: string, i: number, x: unknown): number {
  if (typeof x !== "number") throw new InputError(`${field}[${i}]`, `must be a number, got ${describeValue(x)}`);
  return x;
}
