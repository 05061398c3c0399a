// A heterogeneous machine mix: four platform generations, each with its own ranges of ISA,
// cores, memory, disks, kernel, clock and ethernet, so attributes are correlated the way
// they are in a real fleet (a newer platform has more cores, a newer kernel, a faster NIC).
// That correlation is why a job with 6 constraints can still fit ~5% of workers
// (the Phoenix paper's Fig. 6, docs/policies/phoenix.md; constraint-gen.ts picks the values) instead of the 0.1%
// independent attributes would give.
//
// Example: generation 2 draws ISA x86_64 (40%) or arm64 (60%), 16, 24 or 32 cores, 64 or 128 GB,
// 4, 6 or 8 disks, kernel 4.4 or 4.19, 2.6 or 3.0 GHz, 10 or 25 Gbps.
import type { Rng } from "../random/rng.js";
import { NUM_ATTRIBUTES, type Machines } from "./constraints.js";
import { InputError, describeValue } from "../errors.js";

export interface Generation {
  share: number;
  /** ISA code (index into ISA_NAMES) -> probability. */
  isa: readonly number[];
  cores: readonly number[];
  memoryGb: readonly number[];
  disks: readonly number[];
  /** Kernel versions as major*100 + minor (4.19 -> 419). */
  kernel: readonly number[];
  clockGhz: readonly number[];
  ethernetGbps: readonly number[];
}

export const GENERATIONS: readonly Generation[] = [
  { share: 0.25, isa: [0.6, 0, 0.4], cores: [4, 8], memoryGb: [16, 32], disks: [1, 2], kernel: [310, 316], clockGhz: [2.0, 2.4], ethernetGbps: [1] },
  { share: 0.3, isa: [0.5, 0.5, 0], cores: [8, 12, 16], memoryGb: [32, 64], disks: [2, 3, 4], kernel: [316, 404], clockGhz: [2.4, 2.6], ethernetGbps: [1, 10] },
  { share: 0.3, isa: [0.4, 0.6, 0], cores: [16, 24, 32], memoryGb: [64, 128], disks: [4, 6, 8], kernel: [404, 419], clockGhz: [2.6, 3.0], ethernetGbps: [10, 25] },
  { share: 0.15, isa: [0.3, 0.5, 0.2], cores: [32, 48, 64], memoryGb: [128, 256], disks: [8, 10, 12], kernel: [419, 504], clockGhz: [3.0, 3.4], ethernetGbps: [25, 40] },
];

function pickWeighted(rng: Rng, weights: readonly number[]): number {
  let u = rng.next() * weights.reduce((a, b) => a + b, 0);
  for (let i = 0; i < weights.length; i++) {
    u -= weights[i];
    if (u < 0) return i;
  }
  return weights.length - 1;
}

/** One machine's attribute vector written at `out[at .. at+8)`. */
export function drawMachine(rng: Rng, out: Float64Array, at: number): void {
  const g = pickWeighted(rng, GENERATIONS.map((x) => x.share));
  const gen = GENERATIONS[g];
  out[at + 0] = pickWeighted(rng, gen.isa);
  out[at + 1] = rng.pick(gen.cores);
  out[at + 2] = rng.pick(gen.memoryGb);
  out[at + 3] = rng.pick(gen.disks);
  out[at + 4] = rng.pick(gen.kernel);
  out[at + 5] = g;
  out[at + 6] = rng.pick(gen.clockGhz);
  out[at + 7] = rng.pick(gen.ethernetGbps);
}

export function generateMachines(count: number, rng: Rng): Machines {
  if (typeof count !== "number" || !Number.isInteger(count) || count < 0 || count > 2 ** 24) throw new InputError("count", `must be a whole number in 0..2^24 (got ${describeValue(count)})`);
  if (rng === null || typeof rng !== "object" || typeof rng.next !== "function") throw new InputError("rng", `expected an Rng, got ${describeValue(rng)}`);
  const attrs = new Float64Array(count * NUM_ATTRIBUTES);
  for (let w = 0; w < count; w++) drawMachine(rng, attrs, w * NUM_ATTRIBUTES);
  return { count, attrs };
}
