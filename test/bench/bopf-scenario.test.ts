// The bench decision (bench/bopf-scenario.ts: admitBatch over columns, then the
// allocation-only round reading the admission's arrays, without copies when nothing was
// rejected) against the object API one queue at a time (admit(), then allocateInstant over
// InstantQueue objects): the same classes and the same allocation, summed in the same
// order, bit for bit; uncontended, contended (soft LQs) and with rejections (the copy path).
import { describe, expect, it } from "vitest";
import { BopfAdmissionControl, type BopfClass } from "../../src/bopf/admission.js";
import { allocateInstant, type InstantQueue } from "../../src/bopf/allocate.js";
import { buildBopfBench, runBopfBench } from "../../bench/bopf-scenario.js";
import { backends } from "../helpers/engines.js";

describe.each(backends)("bench decision = object API (%s)", (_name, make) => {
  const engine = make();
  it.each([
    [30, 20, 1e6], [30, 20, 500], [60, 10, 40], [200, 100, 60],
  ])("%i LQs, %i TQs, C = %d", (lqs, tqs, c) => {
    const x = buildBopfBench(lqs, tqs, 50, 3, c);
    const ac = new BopfAdmissionControl(x.capacity);
    const counts: Record<BopfClass, number> = { hard: 0, soft: 0, elastic: 0, rejected: 0 };
    const queues: InstantQueue[] = x.queues.map((q, i) => {
      const cls = ac.admit(q).class;
      counts[cls]++;
      const iq: InstantQueue = { class: cls, want: x.wants[i] };
      const s = ac.seriesOf(q.name);
      if (s && (cls === "hard" || cls === "soft")) iq.guarantee = { rate: s.maxRate, remaining: s.burst(0).volume };
      return iq;
    });
    const ref = allocateInstant(engine, x.capacity, queues).allocation;
    let sum = 0;
    for (let j = 0; j < ref.length; j++) sum += ref[j];
    for (let rep = 0; rep < 2; rep++) {
      const got = runBopfBench(engine, x);
      expect(got.classes).toEqual(counts);
      expect(Object.is(got.allocated, sum)).toBe(true);
    }
    if (c === 40 || c === 60) expect(counts.rejected).toBeGreaterThan(0);
    if (c === 500) expect(counts.soft).toBeGreaterThan(0);
  });
});
