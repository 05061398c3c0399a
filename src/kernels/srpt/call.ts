// engine.srpt: the caller's arrays checked for shape, written into an SRPT block, the kernel
// run, its status turned into an InputError naming field and index, the results copied out.
import type { KernelBackend } from "../backend.js";
import { Status } from "../status.js";
import { InputError, describeValue } from "../../errors.js";
import { matrixRows, vectorLength, writeMatrix, writeVector, type Matrix, type Vector } from "../marshal.js";
import { keepViews } from "../util/keep-views.js";
import { copyResults } from "../results.js";
import { SRPT_ARGS } from "./contract.js";
import { srptError } from "./errors.js";

export interface SrptInput {
  /** Capacity per resource, length K, every entry > 0: scales the remaining volume into a dominant share. */
  capacity: Vector;
  /** What is left for the soft LQs (C minus the hard guarantees), length K, entries >= 0. */
  available: Vector;
  /** What each soft LQ could hold now: N rows of K (or flat N*K), entries >= 0. */
  demands: Matrix;
  /** Each LQ's burst rate r_i(n) = d_i(n) / t_i(n): the cap of its guarantee, N x K, entries >= 0. */
  rates: Matrix;
  /** Each LQ's remaining burst volume d_i(n) - consumed, N x K, entries >= 0: the SRPT key. */
  remaining: Matrix;
}

export interface SrptResult {
  /** Fraction of each LQ's demand granted, in [0, 1]. */
  fraction: Float64Array;
  /** fraction[i] * demands[i], queue-major N*K. */
  allocation: Float64Array;
}

/** `into`: optional caller arrays for the results (see CallOptions in src/kernels/results.ts). */
export function runSrpt(kernels: KernelBackend, input: SrptInput, into?: unknown): SrptResult {
  if (input === null || typeof input !== "object") throw new InputError("input", `expected an object, got ${describeValue(input)}`);
  const k = vectorLength("capacity", input.capacity);
  if (k === 0) throw new InputError("capacity", "must list at least one resource");
  const n = matrixRows("demands", input.demands, k);
  for (const f of ["rates", "remaining"] as const) {
    const m = matrixRows(f, input[f], k);
    if (m !== n) throw new InputError(f, `has ${m} rows, expected N=${n} (one per LQ, like demands)`);
  }
  const ka = vectorLength("available", input.available);
  if (ka !== k) throw new InputError("available", `has length ${ka}, expected K=${k} (the capacity's length)`);
  // views of the engine's memory among the arrays stay readable if staging grows it
  const keep = kernels.stageGrows("srpt", n, k) ? keepViews(kernels, [input, into]) : null;
  const block = kernels.stage("srpt", n, k);
  if (keep !== null) [input, into] = keep();
  const s = block.views();
  writeVector("capacity", input.capacity, s.capacity, k);
  writeVector("available", input.available, s.available, k);
  writeMatrix("demands", input.demands, s.demands, n, k);
  writeMatrix("rates", input.rates, s.rates, n, k);
  writeMatrix("remaining", input.remaining, s.remaining, n, k);
  const code = block.run(SRPT_ARGS);
  if (code !== Status.OK) throw srptError(code, block.errorIndex(), k, s);
  return copyResults("srpt", s, into);
}
