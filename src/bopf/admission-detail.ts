// The explanation of an admission decision: what decided it (one of the D_* codes) and
// the numbers, kept at decision time and formatted into a sentence only when read
// (formatting 20,000 sentences would cost more than deciding them).
//
// Example (capacity 1, M + 1 = 3 queues with the new one): an LQ whose hard rates would
// reach 2 > 1 on r0 reads "r0: hard rates 1 + its rate 1 > C = 1"; one whose burst 0 needs
// 25 r0·s in a 60 s gap reads "burst 0 needs 25 r0·s > fair share C·gap/(M+1) = 20 with
// 3 queues".
import type { BopfAdmission, BopfClass, BopfReason } from "./admission-types.js";
import { GUARANTEE_CLASS_NAMES } from "../kernels/guarantee-class.js";
import type { BurstSeries } from "./bursts.js";

/**
 * The deciding queue of a safety or fairness decision, captured at decision time (its
 * series, name and class): the detail read later does not depend on the control's rows,
 * which later leaves, compaction or reset() reuse.
 */
export interface DetailQueue {
  series: BurstSeries;
  name: string;
  /** its class code (HARD, SOFT...) at decision time, or -1 when it is the new queue */
  cls: number;
  capacity: Float64Array;
}

/** What a detail sentence is made of: safety, a TQ admitted, fairness, resource, hard. */
export const D_SAFETY = 0, D_TQ = 1, D_FAIRNESS = 2, D_RESOURCE = 3, D_HARD = 4;
/** The reason of each D_* code. */
export const REASONS: readonly BopfReason[] = ["safety", "all-held", "fairness", "resource", "all-held"];
export const CLASS_NAMES: readonly BopfClass[] = GUARANTEE_CLASS_NAMES;

/**
 * One admission decision. `detail` is a getter: the numbers are kept and the sentence is
 * formatted on first access. JSON.stringify includes it (toJSON); object spread does not,
 * so copy it explicitly.
 */
export class Admission implements BopfAdmission {
  readonly class: BopfClass;
  readonly reason: BopfReason;
  private text: string | undefined;
  /** the deciding queue (safety, fairness), captured at decision time, and resource names */
  private readonly queue: DetailQueue | null;
  private readonly names: readonly string[];
  private readonly what: number;
  private readonly m1: number;
  private readonly res: number;
  private readonly a: number;
  private readonly b: number;
  private readonly c: number;

  constructor(cls: BopfClass, queue: DetailQueue | null, names: readonly string[], what: number, m1: number, res: number, a: number, b: number, c: number) {
    this.class = cls;
    this.reason = REASONS[what];
    this.text = undefined;
    this.queue = queue;
    this.names = names;
    this.what = what;
    this.m1 = m1;
    this.res = res;
    this.a = a;
    this.b = b;
    this.c = c;
  }

  get detail(): string {
    return (this.text ??= formatDetail(this.queue, this.names, this.what, this.m1, this.res, this.a, this.b, this.c, this.class));
  }

  toJSON(): { class: BopfClass; reason: BopfReason; detail: string } {
    return { class: this.class, reason: this.reason, detail: this.detail };
  }
}

/**
 * The sentence of a decision from the numbers kept at decision time: `what` a D_* code,
 * m1 = M + 1, `id` the deciding queue, and for D_RESOURCE the resource `res` with a = its
 * hard sum, b = the queue's rate, c = C; for D_SAFETY and D_HARD, a = the tolerance.
 */
export function formatDetail(q: DetailQueue | null, names: readonly string[], what: number, m1: number, res: number, a: number, b: number, c: number, cls: BopfClass): string {
  switch (what) {
    case D_SAFETY: {
      const s = q!.series;
      const bd = s.binding!;
      const burst = s.burst(bd.burst);
      const fair = (q!.capacity[bd.resource] * s.gap(bd.burst)) / m1;
      const jc = q!.cls >= 0 && q!.cls < CLASS_NAMES.length ? CLASS_NAMES[q!.cls] : "guaranteed";
      return `would break ${jc} ${q!.name}: its burst ${bd.burst} needs ${fmt(burst.volume[bd.resource])} ${names[bd.resource]}·s > ` +
        `C·gap/(M+1) = ${fmt(fair)} with ${m1} queues (it tolerates ${a})`;
    }
    case D_TQ:
      return `TQ: safety (1) holds with ${m1} queue(s)`;
    case D_FAIRNESS: {
      const s = q!.series;
      const bd = s.binding!;
      const fair = (q!.capacity[bd.resource] * s.gap(bd.burst)) / m1;
      return `burst ${bd.burst} needs ${fmt(s.burst(bd.burst).volume[bd.resource])} ${names[bd.resource]}·s > ` +
        `fair share C·gap/(M+1) = ${fmt(fair)} with ${m1} queues`;
    }
    case D_RESOURCE: {
      const detail = `${names[res]}: hard rates ${fmt(a)} + its rate ${fmt(b)} > C = ${fmt(c)}`;
      return cls === "soft" ? detail : `${detail} (N-BoPF has no soft class)`;
    }
    default:
      return `safety, fairness (tolerates ${a} queues) and resource conditions hold`;
  }
}

function fmt(x: number): string {
  return Number.isInteger(x) ? String(x) : x.toPrecision(4);
}
