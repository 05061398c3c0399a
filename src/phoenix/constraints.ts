// Worker attributes and task constraints (docs/policies/phoenix.md).
//
// A worker is a vector of 8 numeric attributes; categorical ones (ISA, platform family) are
// small integer codes. A constraint is `attribute op value` with op in <, >, =, and is hard
// (must hold) or soft (may be relaxed when it cannot be met or, for Phoenix, when the
// resource it asks for is congested). Example: a worker <x86_64, 16 cores, 64 GB, 4 disks,
// kernel 4.4, platform 2, 2.6 GHz, 10 Gbps> satisfies `cores > 8` and `ethernet = 10` but not
// `clock > 3.0`.
import { InputError, describeValue } from "../errors.js";

export const ATTRIBUTES = ["isa", "cores", "memoryGb", "disks", "kernel", "platform", "clockGhz", "ethernetGbps"] as const;
export type Attribute = (typeof ATTRIBUTES)[number];
export const ATTR_INDEX: Record<Attribute, number> = Object.fromEntries(ATTRIBUTES.map((a, i) => [a, i])) as Record<Attribute, number>;
export const NUM_ATTRIBUTES = ATTRIBUTES.length;

/** Codes of the categorical attributes. */
export const ISA_NAMES = ["x86_64", "arm64", "power9"] as const;

export type Op = "<" | ">" | "=";

export interface Constraint {
  attr: Attribute;
  op: Op;
  value: number;
  /** Hard constraints must hold; soft ones may be relaxed. */
  hard: boolean;
}

/** Workers' attributes, worker-major: attrs[w * NUM_ATTRIBUTES + a]. */
export interface Machines {
  count: number;
  attrs: Float64Array;
}

export function satisfies(m: Machines, worker: number, c: Constraint): boolean {
  const x = m.attrs[worker * NUM_ATTRIBUTES + ATTR_INDEX[c.attr]];
  switch (c.op) {
    case "<": return x < c.value;
    case ">": return x > c.value;
    case "=": return x === c.value;
  }
}

export function satisfiesAll(m: Machines, worker: number, cs: readonly Constraint[]): boolean {
  for (const c of cs) if (!satisfies(m, worker, c)) return false;
  return true;
}

/** A stable text key, e.g. `cores>8!` (the `!` marks a hard constraint). */
export function constraintKey(c: Constraint): string {
  return `${c.attr}${c.op}${c.value}${c.hard ? "!" : "?"}`;
}

/** Checks a constraint's shape; `field` names it in errors, e.g. `jobs[3].constraints[1]`. */
export function validateConstraint(field: string, c: unknown): Constraint {
  if (c === null || typeof c !== "object") throw new InputError(field, `expected a constraint object, got ${describeValue(c)}`);
  const { attr, op, value, hard } = c as Record<string, unknown>;
  if (typeof attr !== "string" || !(attr in ATTR_INDEX)) throw new InputError(`${field}.attr`, `must be one of ${ATTRIBUTES.join(", ")}, got ${describeValue(attr)}`);
  if (op !== "<" && op !== ">" && op !== "=") throw new InputError(`${field}.op`, `must be '<', '>' or '=', got ${describeValue(op)}`);
  if (typeof value !== "number" || !Number.isFinite(value)) throw new InputError(`${field}.value`, `must be a finite number, got ${describeValue(value)}`);
  if (typeof hard !== "boolean") throw new InputError(`${field}.hard`, `must be true or false, got ${describeValue(hard)}`);
  return { attr: attr as Attribute, op, value, hard };
}

/**
 * Interns constraint sets and caches, per set, the workers that satisfy it and, per single
 * constraint, its supply (how many workers satisfy it): the CRV denominator.
 */
export class ConstraintIndex {
  readonly machines: Machines;
  private readonly ids = new Map<string, number>();
  readonly list: Constraint[] = [];
  readonly supply: number[] = [];
  /** Per constraint id, the workers that satisfy it as a bitset (bit w of word w >>> 5). */
  private readonly bits: Uint32Array[] = [];
  private readonly words: number;
  private readonly eligibleCache = new Map<string, Int32Array>();

  constructor(machines: Machines) {
    // a short attrs array would read undefined attributes: every comparison false, silently
    if (machines === null || typeof machines !== "object" || !Number.isInteger(machines.count) || machines.count < 0 ||
      !(machines.attrs instanceof Float64Array) || machines.attrs.length !== machines.count * NUM_ATTRIBUTES) {
      throw new InputError("machines", `expected {count, attrs: Float64Array(count * ${NUM_ATTRIBUTES})}, got ${describeValue(machines)}`);
    }
    this.machines = machines;
    this.words = (machines.count + 31) >>> 5;
  }

  /** Dense id of a single constraint (first use counts its supply). */
  id(c: Constraint): number {
    const key = constraintKey(c);
    let id = this.ids.get(key);
    if (id === undefined) {
      id = this.list.length;
      this.ids.set(key, id);
      this.list.push(c);
      const b = new Uint32Array(this.words);
      let n = 0;
      for (let w = 0; w < this.machines.count; w++) {
        if (satisfies(this.machines, w, c)) {
          n++;
          b[w >>> 5] |= 1 << (w & 31);
        }
      }
      this.supply.push(n);
      this.bits.push(b);
    }
    return id;
  }

  /**
   * Workers satisfying every constraint in `cs`, ascending: the AND of the constraints' bitsets
   * (a job's set is usually new, so this runs once per job; a word-wise AND instead of a
   * satisfiesAll per worker).
   */
  eligible(cs: readonly Constraint[]): Int32Array {
    const key = cs.map(constraintKey).sort().join("&");
    let e = this.eligibleCache.get(key);
    if (!e) {
      const count = this.machines.count;
      const out: number[] = [];
      if (cs.length === 0) {
        for (let w = 0; w < count; w++) out.push(w);
      } else {
        const sets = cs.map((c) => this.bits[this.id(c)]);
        for (let i = 0; i < this.words; i++) {
          let v = sets[0][i];
          for (let k = 1; k < sets.length && v !== 0; k++) v &= sets[k][i];
          while (v !== 0) {
            const low = v & -v;
            out.push((i << 5) + 31 - Math.clz32(low));
            v ^= low;
          }
        }
      }
      e = Int32Array.from(out);
      this.eligibleCache.set(key, e);
    }
    return e;
  }
}
