// The whole BoPF decision of a round right after admission (the paper's overhead
// experiment, §5.2.4): admitBatch of N queues, then one allocation round in which every
// guaranteed LQ (hard or soft) is inside its first burst — its rate is its admitted max
// rate, its remaining volume the whole burst volume — and every queue wants `want`.
// Both halves run in ONE pass of the engine's BoPF kernel (assembly/bopf.ts, bopfAdmit
// with flag bit 1) over one staged block: each row's allocation is computed as soon as its
// class is known, its rate straight from the division that admitted it, so nothing by row
// is written for the round to read back; the round goes to the general path (the steps of
// allocate-steps.ts: SRPT, DRF) only when it is contended, with the same numbers as
// allocateInstantFlat(.., { steps: false }) over the equivalent InstantBatch.
//
// Worked example (K = 2, C = <1, 1>): a TQ wanting <0.1, 0.1>, then an LQ bursting
// <25, 25> in 25 s every 150 s (rate <1, 1>) wanting <0.5, 0.5>. Admission: TQ elastic,
// LQ hard. Allocation: step 1 gives the LQ min(rate, want, left) = <0.5, 0.5>, left
// <0.5, 0.5>; the TQ's <0.1, 0.1> clearly fits: it gets it whole; nobody has unmet demand:
// [<0.1, 0.1>, <0.5, 0.5>], in the kernel. Add a second such LQ (soft: the hard rates
// would exceed C) and the round needs SRPT: the general path. test/bopf.kernel.test.ts
// compares every round with admitBatch + allocateInstantFlat bit for bit. Edge values:
// N = 0 gives an empty allocation; a rejected queue gets nothing; a bad row, or a `want`
// that is not N*K numbers, throws an InputError and admits nothing.
import type { Engine } from "../engine/engine.js";
import { InputError } from "../errors.js";
import { Status } from "../kernels/status.js";
import type { BopfAdmissionControl } from "./admission.js";
import { KIND_LQ, emptyBatchOutcome, type AdmissionBatch, type BatchOutcome } from "./admission-batch.js";
import { allocateSteps } from "./allocate-steps.js";
import { InstantWorkspace, type InstantBatch } from "./instant-batch.js";
import { validateInstantBatch } from "./instant-validate.js";
import { blockFor, columnsOf } from "../kernels/bopf/batch.js";

/** What decideRound reuses across calls (grows as needed). */
export class DecisionWorkspace {
  out: BatchOutcome = emptyBatchOutcome(0);
  readonly ws = new InstantWorkspace();
  /** the general path's InstantBatch rows (guarantees by row) */
  private rate = new Float64Array(0);
  private remaining = new Float64Array(0);
  private hasGuarantee = new Uint8Array(0);
  /** the demands, copied out of the engine's memory (the general path stages other kernels, which may grow it) */
  private want = new Float64Array(0);

  ensure(n: number): void {
    if (this.out.cls.length < n) this.out = emptyBatchOutcome(n);
  }

  /** The round as an InstantBatch (the general path's input): guarantees copied to their queues' rows. */
  instantBatch(b: AdmissionBatch, want: Float64Array, k: number): InstantBatch {
    const n = b.n, nk = n * k;
    if (this.rate.length < nk) {
      this.rate = new Float64Array(nk);
      this.remaining = new Float64Array(nk);
    }
    if (this.hasGuarantee.length < n) this.hasGuarantee = new Uint8Array(n);
    if (this.want.length < nk) this.want = new Float64Array(nk);
    const w = this.want.subarray(0, nk);
    w.set(want.subarray(0, nk));
    const cls = this.out.cls;
    // the guarantee's rate is the admission's (volume / window, the kernel's division; 0 for
    // count 0), from the batch's columns: not ac.rates, which would derive every admitted
    // row's summary (tolerance counts included) to read the guaranteed rows' rates
    const { volume, window, count, kind } = b;
    const hg = this.hasGuarantee, rate = this.rate, rem = this.remaining;
    for (let i = 0; i < n; i++) {
      const c = cls[i];
      const g = (c === 0 || c === 1) && kind[i] === KIND_LQ;
      hg[i] = g ? 1 : 0;
      if (!g) continue;
      const base = i * k, w = window[i], some = count[i] > 0;
      for (let r = 0; r < k; r++) {
        const v = volume[base + r];
        rate[base + r] = some ? v / w : 0;
        rem[base + r] = v;
      }
    }
    return { n, cls: this.out.cls.subarray(0, n), want: w, weight: null, hasGuarantee: hg, rate, remaining: rem };
  }
}

/** The general path's checks of the round, with its cells named as decideRound's caller knows them. */
function checkRound(capacity: Float64Array, inst: InstantBatch, field: string): void {
  try {
    validateInstantBatch(capacity, inst);
  } catch (e) {
    const m = e instanceof InputError ? /^(rate|remaining)(\[\d+\]\[\d+\])$/.exec(e.field) : null;
    // the guarantee's rate and remaining come from the row's spec (volume / window, volume)
    if (m !== null) throw new InputError(`${field}.volume${m[2]}`, `the burst rate volume / window is beyond f64 (${e instanceof Error ? e.message : ""}); rescale the units`);
    throw e;
  }
}

/** decideRound's result: the outcome by row and the allocation (N*K). */
export interface RoundDecision {
  out: BatchOutcome;
  /**
   * Queue-major N*K. A view of the engine's memory (or of the workspace on the general
   * path): valid until the engine's next call; copy it to keep it.
   */
  allocation: Float64Array;
}

/**
 * Admits the batch into `ac` (ac.admitBatch on `engine`) and computes the round's
 * allocation (header). `want` is N*K (it may be an EngineAdmissionBatch's own `want`:
 * then nothing is copied in at all). `capacity` must be the control's.
 */
export function decideRound(
  engine: Engine, ac: BopfAdmissionControl, b: AdmissionBatch, want: Float64Array, dw: DecisionWorkspace, field = "batch",
): RoundDecision {
  const k = ac.capacity.length, n = b.n, nk = n * k;
  // checked before admission: a misuse must not leave the batch admitted without its round
  if (!(want instanceof Float64Array) || want.length < nk) throw new InputError("want", `expected a Float64Array of N*K = ${nk} numbers`);
  dw.ensure(n);
  // a round the kernel could not finish (contended, or a bad cell) runs the general path,
  // which validates its cells: checked before admission commits, so a bad `want` (or a
  // guaranteed burst whose rate volume / window overflows) admits nothing
  const built: { inst: InstantBatch | null } = { inst: null };
  const check = (round: number): void => {
    if (round === Status.OK) return;
    built.inst = dw.instantBatch(columnsOf(b), want, k);
    checkRound(ac.capacity, built.inst, field);
  };
  const code = ac.admitRows(b, dw.out, field, engine, want, check);
  // the block admission ran on (a transient block is still the staged one: nothing was staged since)
  if (code === Status.OK) return { out: dw.out, allocation: blockFor(engine, b, k).views().allocation.subarray(0, nk) };
  // contended: the same round over the InstantBatch the check built (its cells checked)
  const inst = built.inst ?? dw.instantBatch(columnsOf(b), want, k);
  return { out: dw.out, allocation: allocateSteps(engine, ac.capacity, inst, dw.ws, true).allocation };
}
