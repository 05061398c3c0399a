// Benchmark scenario for the bench/ harness: BoPF admission of 10,000 LQs (500 periodic
// bursts each) and 10,000 TQs, then one allocation round over all of them (the paper's
// §5.2.4 reports about 1 ms for admission). `build` makes the inputs once; `run` is the
// timed decision: a fresh admission control, every queue admitted, one allocateInstant.
import type { Engine } from "../engine/engine.js";
import { BopfAdmissionControl, type BopfClass, type BopfQueueInput } from "./admission.js";
import { allocateInstantFlat, CLASS_CODE, InstantWorkspace, type InstantBatch } from "./allocate.js";
import { isPeriodic, type BurstsInput, type PeriodicBursts } from "./bursts.js";
import type { BurstSpec } from "../sim/model.js";

export interface BopfBenchInput {
  capacity: number[];
  queues: BopfQueueInput[];
  /** Current demand per queue (K each) for the allocation round. */
  wants: number[][];
}

export interface BopfBenchResult {
  classes: Record<BopfClass, number>;
  admitMs: number;
  allocateMs: number;
  /** Sum of the allocation (a checksum so the work cannot be optimised away). */
  allocated: number;
}

/** Deterministic inputs: `lqs` LQs with `bursts` periodic bursts each and `tqs` TQs over 6 resources. */
export function buildBopfBench(lqs = 10_000, tqs = 10_000, bursts = 500, seed = 1): BopfBenchInput {
  let s = seed >>> 0 || 1;
  const rnd = () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32);
  const k = 6;
  const capacity = Array.from({ length: k }, () => 1e6);
  const queues: BopfQueueInput[] = [];
  const wants: number[][] = [];
  for (let i = 0; i < tqs; i++) {
    queues.push({ name: `TQ${i}`, kind: "TQ" });
    wants.push(Array.from({ length: k }, () => 10 + rnd() * 100));
  }
  for (let i = 0; i < lqs; i++) {
    const period = 200 + rnd() * 2000;
    const spec: PeriodicBursts = {
      start: rnd() * period, period, window: 5 + rnd() * 50, count: bursts,
      volume: Array.from({ length: k }, () => rnd() * 2000),
    };
    queues.push({ name: `LQ${i}`, kind: "LQ", bursts: spec });
    wants.push(Array.from({ length: k }, () => rnd() * 50));
  }
  return { capacity, queues, wants };
}

/** Admits every queue, then computes one allocation with every guaranteed LQ inside a burst. */
export function runBopfBench(engine: Engine, input: BopfBenchInput): BopfBenchResult {
  const t0 = performance.now();
  const ac = new BopfAdmissionControl(input.capacity);
  const counts = [0, 0, 0, 0];
  const queues = input.queues;
  const n = queues.length, k = input.capacity.length;
  // the allocation round's inputs are filled while admitting: no per-queue objects
  const batch = batchFor(n, k);
  const { cls, want, hasGuarantee, rate, remaining } = batch;
  for (let i = 0; i < n; i++) {
    const q = queues[i];
    const c = CLASS_CODE[ac.admitClass(q)];
    counts[c]++;
    cls[i] = c;
    const w = input.wants[i], base = i * k;
    for (let r = 0; r < k; r++) want[base + r] = w[r];
    // the guarantee of the burst that is open: rate max_n r(n), remaining = burst 0's volume
    if (q.kind === "LQ" && (c === 0 || c === 1)) {
      hasGuarantee[i] = 1;
      const rates = ac.rates, row = ac.lastId * k;
      const vol = burstVolume(q.bursts!);
      for (let r = 0; r < k; r++) {
        rate[base + r] = rates[row + r];
        remaining[base + r] = vol[r];
      }
    } else {
      hasGuarantee[i] = 0;
    }
  }
  const t1 = performance.now();
  const res = allocateInstantFlat(engine, input.capacity, batch, workspace);
  const t2 = performance.now();
  let allocated = 0;
  for (let x = 0; x < res.allocation.length; x++) allocated += res.allocation[x];
  const classes: Record<BopfClass, number> = { hard: counts[0], soft: counts[1], elastic: counts[2], rejected: counts[3] };
  return { classes, admitMs: t1 - t0, allocateMs: t2 - t1, allocated };
}

/** Burst 0's volume of an LQ's report (what series.burst(0).volume gives). */
function burstVolume(b: BurstsInput | readonly BurstSpec[]): ArrayLike<number> {
  return isPeriodic(b as BurstsInput) ? (b as PeriodicBursts).volume : (b as readonly BurstSpec[])[0].volume;
}

// reused across runs (the harness repeats the decision): the batch and the step arrays
const workspace = new InstantWorkspace();
let cachedBatch: InstantBatch | null = null;
function batchFor(n: number, k: number): InstantBatch {
  if (cachedBatch && cachedBatch.n === n && cachedBatch.want.length === n * k) return cachedBatch;
  cachedBatch = {
    n, cls: new Uint8Array(n), want: new Float64Array(n * k), weight: null, hasGuarantee: new Uint8Array(n),
    rate: new Float64Array(n * k), remaining: new Float64Array(n * k),
  };
  return cachedBatch;
}
