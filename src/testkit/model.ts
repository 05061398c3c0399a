// Leontief reference math the axioms are stated in: utilities, dominant shares, weighted
// water-filling of one resource, and the shape check of an allocator's answer.
import { describeReturned } from "./format.js";

/** Leontief utility of bundle x for a queue whose true demand is d: the fraction of d it can run, capped at 1 (0 for no demand). */
export function utility(d: ArrayLike<number>, x: ArrayLike<number>): number {
  let u = Infinity;
  for (let k = 0; k < d.length; k++) if (d[k] > 0) u = Math.min(u, x[k] / d[k]);
  return u === Infinity ? 0 : Math.min(1, Math.max(0, u));
}

export { dominantShare } from "../policy/dominant-share.js";

/** Weighted max-min (water-filling) of one resource, by the textbook sort-and-fill. */
export function waterFill(cap: number, demands: number[], weights: number[]): number[] {
  const n = demands.length;
  const order = [...Array(n).keys()].filter((i) => demands[i] > 0).sort((a, b) => demands[a] / weights[a] - demands[b] / weights[b]);
  const out = new Array<number>(n).fill(0);
  let left = cap;
  let wLeft = order.reduce((s, i) => s + weights[i], 0);
  for (const i of order) {
    const fair = (left * weights[i]) / wLeft;
    const give = Math.min(demands[i], fair);
    out[i] = give;
    left -= give;
    wLeft -= weights[i];
  }
  return out;
}

/**
 * The allocator's answer as N rows of K finite numbers, or a sentence saying why it is not one
 * (accepts rows or a flat queue-major array of N*K).
 */
export function readAllocation(a: unknown, n: number, k: number): number[][] | string {
  const isList = (v: unknown): v is ArrayLike<unknown> => Array.isArray(v) || ArrayBuffer.isView(v);
  if (!isList(a)) return `the allocator returned ${describe(a)}, expected ${n} rows of ${k} numbers`;
  const rows: number[][] = [];
  if (a.length === n * k && (n * k === 0 || typeof a[0] === "number")) {
    for (let i = 0; i < n; i++) rows.push(Array.from({ length: k }, (_, r) => a[i * k + r] as number));
  } else {
    if (a.length !== n) return `the allocator returned ${a.length} rows, expected ${n} (one per queue) of ${k} numbers`;
    for (let i = 0; i < n; i++) {
      const row = a[i];
      if (!isList(row) || row.length !== k) return `the allocator's row ${i} is ${describe(row)}, expected ${k} numbers`;
      rows.push(Array.from(row as ArrayLike<unknown>) as number[]);
    }
  }
  for (let i = 0; i < n; i++) {
    for (let r = 0; r < k; r++) {
      const v = rows[i][r];
      if (typeof v !== "number" || !Number.isFinite(v)) return `the allocator gave queue ${i} ${describe(v)} of resource ${r}, expected a finite number`;
    }
  }
  return rows;
}

/** A returned value in a sentence (format.ts describeReturned: never throws, BigInts with their n). */
export const describe = describeReturned;

/** Round for messages: 6 significant digits, not 17. */
export const fmt = (x: number): string => (Number.isInteger(x) ? String(x) : Number(x.toPrecision(6)).toString());

/** Two numbers compared in a message, with as many digits as it takes to tell them apart. */
export function fmtPair(a: number, b: number): [string, string] {
  for (let p = 6; p < 17; p++) {
    const sa = Number(a.toPrecision(p)).toString(), sb = Number(b.toPrecision(p)).toString();
    if (sa !== sb) return [sa, sb];
  }
  return [String(a), String(b)];
}
