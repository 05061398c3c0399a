// Benchmark scenario for the bench/ harness: BoPF admission of 10,000 LQs (500 periodic
// bursts each) and 10,000 TQs, then one allocation round over all of them (the paper's
// §5.2.4 reports about 1 ms for admission and less than 1 ms for allocation). `build` makes
// the inputs once, both as the queues' reports (objects, for the admit() API) and as the
// columns a scheduler holding 20,000 queues keeps (for admitBatch); `run` is the timed
// decision: an empty admission control (reset, its rows reused) admits every queue from
// the columns, then one allocation round whose inputs are the admission's own arrays (no
// per-queue objects).
import type { Engine } from "../engine/engine.js";
import { BopfAdmissionControl, type BopfClass, type BopfQueueInput } from "./admission.js";
import { emptyAdmissionBatch, emptyBatchOutcome, setPeriodicRow, type AdmissionBatch, type BatchOutcome } from "./admission-batch.js";
import { allocateInstantFlat, InstantWorkspace, type InstantBatch } from "./allocate.js";
import type { PeriodicBursts } from "./bursts.js";

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
  classes: Record<BopfClass, number>;
  admitMs: number;
  allocateMs: number;
  /** Sum of the allocation (a checksum of the decision), computed when read, valid until the next run. */
  allocated: number;
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

/** Admits every queue (admitBatch), then computes one allocation with every guaranteed LQ inside a burst. */
export function runBopfBench(engine: Engine, input: BopfBenchInput): BopfBenchResult {
  const t0 = performance.now();
  const b = input.batch, n = b.n, k = input.capacity.length;
  const { ac, out, inst, rateRows, remainingRows } = scratchFor(input);
  ac.reset(); // empty: decides as a new control would, in the rows of the previous run
  ac.admitBatch(b, out);
  // the allocation round reads the admission's arrays: classes as they came out (the same
  // codes, inst.cls is out.cls), demands as given (inst.want is input.want); a guaranteed LQ
  // (hard or soft) is inside its burst: rate max_n r(n) (the admission's row of `rates`),
  // remaining = the burst's volume (its row of the columns). Without a rejection the
  // admission ids are the rows (an empty control numbers them from 0 in row order), so both
  // are read where they are; otherwise they are copied to the queues' rows.
  const counts = [0, 0, 0, 0];
  const hasGuarantee = inst.hasGuarantee;
  const cls = out.cls, kind = b.kind;
  for (let i = 0; i < n; i++) {
    const c = cls[i];
    counts[c]++;
    hasGuarantee[i] = (c === 0 || c === 1) && kind[i] === 1 ? 1 : 0;
  }
  if (counts[3] === 0) {
    inst.rate = ac.rates;
    inst.remaining = b.volume;
  } else {
    inst.rate = rateRows;
    inst.remaining = remainingRows;
    const rates = ac.rates, volume = b.volume, ids = out.id;
    for (let i = 0; i < n; i++) {
      if (hasGuarantee[i] === 0) continue;
      const row = ids[i] * k, base = i * k;
      for (let r = 0; r < k; r++) {
        rateRows[base + r] = rates[row + r];
        remainingRows[base + r] = volume[base + r];
      }
    }
  }
  const t1 = performance.now();
  const res = allocateInstantFlat(engine, input.capacity, inst, workspace, { steps: false });
  const t2 = performance.now();
  const classes: Record<BopfClass, number> = { hard: counts[0], soft: counts[1], elastic: counts[2], rejected: counts[3] };
  const allocation = res.allocation;
  return {
    classes, admitMs: t1 - t0, allocateMs: t2 - t1,
    // summed when read, not in the timed decision (the allocation is a view into the
    // reused workspace: read it before the next run)
    get allocated() {
      let sum = 0;
      for (let x = 0; x < allocation.length; x++) sum += allocation[x];
      return sum;
    },
  };
}

// reused across runs (the harness repeats the decision): the admission control's rows,
// the outcome, the instant batch and the step arrays
const workspace = new InstantWorkspace();
let cached: { input: BopfBenchInput; ac: BopfAdmissionControl; out: BatchOutcome; inst: InstantBatch; rateRows: Float64Array; remainingRows: Float64Array } | null = null;
function scratchFor(input: BopfBenchInput): { ac: BopfAdmissionControl; out: BatchOutcome; inst: InstantBatch; rateRows: Float64Array; remainingRows: Float64Array } {
  if (cached && cached.input === input) return cached;
  const n = input.batch.n, k = input.capacity.length;
  const out = emptyBatchOutcome(n);
  const rateRows = new Float64Array(n * k), remainingRows = new Float64Array(n * k);
  const inst: InstantBatch = { n, cls: out.cls, want: input.want, weight: null, hasGuarantee: new Uint8Array(n), rate: rateRows, remaining: remainingRows };
  cached = { input, ac: new BopfAdmissionControl(input.capacity), out, inst, rateRows, remainingRows };
  return cached;
}
