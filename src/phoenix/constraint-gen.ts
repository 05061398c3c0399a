// Synthetic task constraints with the Google distribution (papers/phoenix.txt Table II and
// Fig. 6, after Sharma et al. SoCC'11), for traces that carry none (Yahoo, Cloudera, and the
// Eagle-format Google subtrace).
//
// Per job, seeded:
//  1. constrained with probability `constrainedFraction` (0.5: "about 50% of the tasks are
//     constrained", §V-A); all tasks of a job share its constraints;
//  2. number of constraints k from Fig. 6: P(1..6) = .27 .33 .20 .10 .06 .04 (33% ask two,
//     20% ask four or more);
//  3. k distinct attributes drawn without replacement with weights = Table II "% share"
//     (ISA 80.64, cores 18.28, max disks 8.57, min disks 0.66, kernel 0.21, ethernet 0.18,
//     clock 0.16, platform 0.05; "number of nodes" 0.28 is a gang/placement constraint, not
//     a machine attribute, and is left out);
//  4. values from one template machine drawn from the fleet mix, so every set is satisfiable
//     by some machine type: `isa = template`, `cores = template` (p .95) or `cores > smaller`,
//     `disks < template+1` (max disks), `disks > smaller` (min disks), `kernel > older`
//     or `=`, `platform = template`, `clock > slower`, `ethernet = template` or `>`.
//  Clock speed and ethernet speed are soft (the paper's examples of negotiable
//  constraints, §III-A); the rest are hard.
//
// Worked example: template <arm64, 32 cores, ...>, k = 2 -> {isa = arm64, cores = 32}: 30% of
// generation 2-3 machines are arm64 and half of those have 32 cores, about 5% of the fleet;
// with x86_64 templates the same pair fits ~15%, which averages to the ~12% of Fig. 6.
import type { Rng } from "../sim/random.js";
import { ISA_NAMES, NUM_ATTRIBUTES, type Attribute, type Constraint } from "./constraints.js";
import { drawMachine } from "./machines.js";

export interface ConstraintGenOptions {
  /** Probability that a job is constrained. Default 0.5. */
  constrainedFraction?: number;
  /** P(k constraints) for k = 1..6. Default Fig. 6. */
  countWeights?: readonly number[];
}

export const TABLE_II_SHARE: ReadonlyArray<{ kind: string; attr: Attribute; share: number }> = [
  { kind: "isa", attr: "isa", share: 80.64 },
  { kind: "cores", attr: "cores", share: 18.28 },
  { kind: "maxDisks", attr: "disks", share: 8.57 },
  { kind: "minDisks", attr: "disks", share: 0.66 },
  { kind: "kernel", attr: "kernel", share: 0.21 },
  { kind: "ethernet", attr: "ethernetGbps", share: 0.18 },
  { kind: "clock", attr: "clockGhz", share: 0.16 },
  { kind: "platform", attr: "platform", share: 0.05 },
];

export const FIG6_COUNT_WEIGHTS: readonly number[] = [0.27, 0.33, 0.2, 0.1, 0.06, 0.04];

const CORE_STEPS = [4, 8, 12, 16, 24, 32, 48, 64];
const DISK_STEPS = [1, 2, 3, 4, 6, 8, 10, 12];
const KERNEL_STEPS = [310, 316, 404, 419, 504];
const CLOCK_STEPS = [2.0, 2.4, 2.6, 3.0, 3.4];

/** A value strictly below `x` from a catalogue, or null when x is the smallest. */
function below(rng: Rng, steps: readonly number[], x: number): number | null {
  const lower = steps.filter((v) => v < x);
  return lower.length ? rng.pick(lower) : null;
}

export class ConstraintGenerator {
  private readonly rng: Rng;
  private readonly p: number;
  private readonly countWeights: readonly number[];
  private readonly template = new Float64Array(NUM_ATTRIBUTES);

  constructor(rng: Rng, opts: ConstraintGenOptions = {}) {
    this.rng = rng;
    this.p = opts.constrainedFraction ?? 0.5;
    this.countWeights = opts.countWeights ?? FIG6_COUNT_WEIGHTS;
  }

  /** Constraints of the next job (empty = unconstrained). */
  next(): Constraint[] {
    const rng = this.rng;
    if (!rng.bernoulli(this.p)) return [];
    const k = 1 + weighted(rng, this.countWeights);
    drawMachine(rng, this.template, 0);
    const t = this.template;
    const pool = TABLE_II_SHARE.slice();
    const out: Constraint[] = [];
    while (out.length < k && pool.length > 0) {
      const i = weighted(rng, pool.map((x) => x.share));
      const kind = pool[i].kind;
      pool.splice(i, 1);
      // min and max disks both constrain `disks`: keep at most one of them
      if (kind === "maxDisks" || kind === "minDisks") {
        const other = kind === "maxDisks" ? "minDisks" : "maxDisks";
        const j = pool.findIndex((x) => x.kind === other);
        if (j >= 0) pool.splice(j, 1);
      }
      const c = this.make(kind, t);
      if (c) out.push(c);
    }
    return out;
  }

  private make(kind: string, t: Float64Array): Constraint | null {
    const rng = this.rng;
    switch (kind) {
      case "isa": return { attr: "isa", op: "=", value: t[0], hard: true };
      case "cores": {
        if (rng.bernoulli(0.95)) return { attr: "cores", op: "=", value: t[1], hard: true };
        const v = below(rng, CORE_STEPS, t[1]);
        return v === null ? { attr: "cores", op: "=", value: t[1], hard: true } : { attr: "cores", op: ">", value: v, hard: true };
      }
      case "maxDisks": return { attr: "disks", op: "<", value: t[3] + 1, hard: true };
      case "minDisks": {
        const v = below(rng, DISK_STEPS, t[3]);
        return v === null ? null : { attr: "disks", op: ">", value: v, hard: true };
      }
      case "kernel": {
        const v = rng.bernoulli(0.5) ? below(rng, KERNEL_STEPS, t[4]) : null;
        return v === null ? { attr: "kernel", op: "=", value: t[4], hard: true } : { attr: "kernel", op: ">", value: v, hard: true };
      }
      case "platform": return { attr: "platform", op: "=", value: t[5], hard: true };
      case "clock": {
        const v = below(rng, CLOCK_STEPS, t[6]);
        return v === null ? null : { attr: "clockGhz", op: ">", value: v, hard: false };
      }
      case "ethernet": return rng.bernoulli(0.5) || t[7] === 1
        ? { attr: "ethernetGbps", op: "=", value: t[7], hard: false }
        : { attr: "ethernetGbps", op: ">", value: 1, hard: false };
      default: return null;
    }
  }
}

function weighted(rng: Rng, w: readonly number[]): number {
  let u = rng.next() * w.reduce((a, b) => a + b, 0);
  for (let i = 0; i < w.length; i++) {
    u -= w[i];
    if (u < 0) return i;
  }
  return w.length - 1;
}

export function describeConstraint(c: Constraint): string {
  const v = c.attr === "isa" ? ISA_NAMES[c.value] ?? String(c.value) : String(c.value);
  return `${c.attr} ${c.op} ${v}${c.hard ? "" : " (soft)"}`;
}
