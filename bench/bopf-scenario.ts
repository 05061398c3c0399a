// Benchmark scenario for the bench/ harness: BoPF admission of 10,000 LQs (500 periodic
// bursts each) and 10,000 TQs, then one allocation round over all of them (the paper's
// §5.2.4 reports about 1 ms for admission and less than 1 ms for allocation). `build` makes
// the inputs once, both as the queues' reports (objects, for the admit() API) and as the
// columns a scheduler holding 20,000 queues keeps (for admitBatch); `run` is the timed
// decision: an empty admission control (reset, its rows reused) admits every queue from
// the columns, then one allocation round over the admission's own outputs (decideRound: no
// per-queue objects, both halves in one pass of the engine's BoPF kernel).
import type { Engine } from "../src/engine/engine.js";
import { BopfAdmissionControl, type BopfClass, type BopfQueueInput } from "../src/bopf/admission.js";
import { emptyAdmissionBatch, setPeriodicRow, type AdmissionBatch } from "../src/bopf/admission-batch.js";
import { EngineAdmissionBatch } from "../src/kernels/bopf/batch.js";
import { decideRound, DecisionWorkspace } from "../src/bopf/decision.js";
import type { PeriodicBursts } from "../src/bopf/bursts.js";

export interface BopfBenchInput {
  capacity: number[];
  queues: BopfQueueInput[];
  /** Current demand per queue (K each) for the allocation round. */
  wants: number[][];
  /** The same queues as columns (row i = queues[i]). */
  batch: AdmissionBatch;
  /** The same demands, queue-major N*K. */
  want: Float64Array;
}

export interface BopfBenchResult {
  /** Class counts, computed when read, valid until the next run. */
  readonly classes: Record<BopfClass, number>;
  /** Wall time of the decision. */
  ms: number;
  /** Sum of the allocation (a checksum of the decision), computed when read, valid until the next run. */
  readonly allocated: number;
}

/**
 * Deterministic inputs: `lqs` LQs with `bursts` periodic bursts each and `tqs` TQs over 6
 * resources of capacity `capacity` each. The default 1e6 leaves the cluster uncontended
 * (every queue's whole demand fits); 3e5 makes the hard rates exceed C (soft LQs, SRPT) and
 * the elastic and spare DRF rounds bind.
 */
export function buildBopfBench(lqs = 10_000, tqs = 10_000, bursts = 500, seed = 1, capacityEach = 1e6): BopfBenchInput {
  let s = seed >>> 0 || 1;
  const rnd = () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32);
  const k = 6;
  const capacity = Array.from({ length: k }, () => capacityEach);
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
  const n = queues.length;
  const batch = emptyAdmissionBatch(n, k);
  const want = new Float64Array(n * k);
  for (let i = 0; i < n; i++) {
    const q = queues[i];
    if (q.kind === "LQ") setPeriodicRow(batch, i, q.bursts as PeriodicBursts, k);
    want.set(wants[i], i * k);
  }
  return { capacity, queues, wants, batch, want };
}

/**
 * Admits every queue, then computes one allocation with every guaranteed LQ inside a
 * burst: decideRound (src/bopf/decision.ts), both halves in one pass of the engine's BoPF
 * kernel over one staged block. `batch` and `want` default to the input's columns (copied into the
 * engine); an EngineAdmissionBatch filled with the same rows (and its `want`) is read in place.
 */
export function runBopfBench(engine: Engine, input: BopfBenchInput, batch: AdmissionBatch = input.batch, want: Float64Array = input.want): BopfBenchResult {
  const t0 = performance.now();
  const { ac, dw } = scratchFor(input);
  ac.reset(); // empty: decides as a new control would, in the rows of the previous run
  const { out, allocation } = decideRound(engine, ac, batch, want, dw);
  const ms = performance.now() - t0;
  const n = batch.n;
  const cls = out.cls;
  return {
    ms,
    // counted and summed when read, not in the timed decision (the outcome and the
    // allocation are reused: read them before the next run)
    get classes() {
      const counts = [0, 0, 0, 0];
      for (let i = 0; i < n; i++) counts[cls[i]]++;
      return { hard: counts[0], soft: counts[1], elastic: counts[2], rejected: counts[3] };
    },
    get allocated() {
      let sum = 0;
      for (let x = 0; x < allocation.length; x++) sum += allocation[x];
      return sum;
    },
  };
}

/** Fills an engine-resident batch (and its want) with the input's rows: the zero-copy form of the decision. */
export function engineBatchOf(engine: Engine, input: BopfBenchInput): EngineAdmissionBatch {
  const b = input.batch, k = input.capacity.length;
  const e = new EngineAdmissionBatch(engine, b.n, k);
  e.kind.set(b.kind.subarray(0, b.n));
  e.start.set(b.start.subarray(0, b.n));
  e.period.set(b.period.subarray(0, b.n));
  e.window.set(b.window.subarray(0, b.n));
  e.count.set(b.count.subarray(0, b.n));
  e.volume.set(b.volume.subarray(0, b.n * k));
  e.want.set(input.want.subarray(0, b.n * k));
  return e;
}

// reused across runs (the harness repeats the decision): the admission control's rows and
// the decision's workspace
let cached: { input: BopfBenchInput; ac: BopfAdmissionControl; dw: DecisionWorkspace } | null = null;
function scratchFor(input: BopfBenchInput): { ac: BopfAdmissionControl; dw: DecisionWorkspace } {
  if (cached && cached.input === input) return cached;
  cached = { input, ac: new BopfAdmissionControl(input.capacity), dw: new DecisionWorkspace() };
  return cached;
}
