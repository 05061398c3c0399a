// engine.prepareSrpt: an SRPT problem whose inputs and results live in the engine's memory.
import type { KernelBackend } from "../backend.js";
import { InputError, describeValue } from "../../errors.js";
import { matrixRows, writeMatrix, writeVector } from "../marshal.js";
import { PreparedProblem, checkDim, checkPreparedLength } from "../prepared-problem.js";
import type { Into } from "../results.js";
import type { SrptInput, SrptResult } from "./call.js";
import { SRPT_ARGS } from "./contract.js";
import { srptError } from "./errors.js";

/**
 * An SRPT problem (BoPF soft LQs) prepared in the engine's memory (engine.prepareSrpt): inputs
 * `capacity`, `available` (K), `demands`, `rates`, `remaining` (N*K); solve() gives `fraction`
 * and `allocation` views. Same lifetime rules as PreparedDrf.
 */
export class PreparedSrpt extends PreparedProblem<"srpt"> {
  readonly n: number;
  readonly k: number;

  constructor(kernels: KernelBackend, n: number, k: number) {
    checkDim("n", n, 0);
    checkDim("k", k, 1);
    super(kernels, "srpt", n, k);
    this.n = n;
    this.k = k;
  }

  get capacity(): Float64Array {
    return this.input("capacity");
  }
  get available(): Float64Array {
    return this.input("available");
  }
  get demands(): Float64Array {
    return this.input("demands");
  }
  get rates(): Float64Array {
    return this.input("rates");
  }
  get remaining(): Float64Array {
    return this.input("remaining");
  }

  /** Copies a whole engine.srpt input in (shapes must match the prepared N and K). */
  load(input: SrptInput): this {
    if (input === null || typeof input !== "object") throw new InputError("input", `expected an object, got ${describeValue(input)}`);
    const { n, k } = this;
    checkPreparedLength("capacity", input.capacity, k, "K");
    checkPreparedLength("available", input.available, k, "K");
    for (const f of ["demands", "rates", "remaining"] as const) {
      const rows = matrixRows(f, input[f], k);
      if (rows !== n) throw new InputError(f, `has ${rows} rows, expected N=${n} (the prepared size)`);
    }
    const s = this.views();
    this.partlyLoaded = true;
    writeVector("capacity", input.capacity, s.capacity, k);
    writeVector("available", input.available, s.available, k);
    writeMatrix("demands", input.demands, s.demands, n, k);
    writeMatrix("rates", input.rates, s.rates, n, k);
    writeMatrix("remaining", input.remaining, s.remaining, n, k);
    this.partlyLoaded = false;
    return this;
  }

  solve(): SrptResult {
    return this.solveWith(SRPT_ARGS, (code, i, s) => srptError(code, i, this.k, s));
  }
  override get results(): SrptResult {
    return super.results;
  }
  override copyResults(into?: Into<SrptResult>): SrptResult {
    return super.copyResults(into);
  }
}
