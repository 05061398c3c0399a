// Benchmark scenario for the bench/ harness: BoPF admission of 10,000 LQs (500 periodic
// bursts each) and 10,000 TQs, then one allocation round over all of them (the paper's
// §5.2.4 reports about 1 ms for admission). `build` makes the inputs once; `run` is the
// timed decision: a fresh admission control, every queue admitted, one allocateInstant.
import type { Engine } from "../engine/engine.js";
import { BopfAdmissionControl, type BopfClass, type BopfQueueInput } from "./admission.js";
import { allocateInstant, type InstantQueue } from "./allocate.js";
import type { PeriodicBursts } from "./bursts.js";

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
  const classes: Record<BopfClass, number> = { hard: 0, soft: 0, elastic: 0, rejected: 0 };
  const cls = input.queues.map((q) => {
    const a = ac.admit(q);
    classes[a.class]++;
    return a.class;
  });
  const t1 = performance.now();
  const instant: InstantQueue[] = input.queues.map((q, i) => {
    const iq: InstantQueue = { class: cls[i], want: input.wants[i] };
    const series = ac.seriesOf(q.name);
    if (series && (cls[i] === "hard" || cls[i] === "soft")) {
      iq.guarantee = { rate: series.maxRate, remaining: series.burst(0).volume };
    }
    return iq;
  });
  const res = allocateInstant(engine, input.capacity, instant);
  const t2 = performance.now();
  let allocated = 0;
  for (let x = 0; x < res.allocation.length; x++) allocated += res.allocation[x];
  return { classes, admitMs: t1 - t0, allocateMs: t2 - t1, allocated };
}
