// BopfAdmissionControl.admitBatch (columns) against admit() one by one: the same classes,
// reasons, ids and admission state for random sequences of TQs and periodic LQs, with
// batches split anywhere, object admissions and leaves in between; and its input errors.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { InputError } from "../../src/index.js";
import { BopfAdmissionControl } from "../../src/bopf/admission.js";
import {
  BATCH_REASONS, KIND_LQ, emptyAdmissionBatch, emptyBatchOutcome, setPeriodicRow, type AdmissionBatch,
} from "../../src/bopf/admission-batch.js";
import { CLASS_CODE } from "../../src/bopf/allocate.js";
import { specArb as specsOver, type Spec } from "../helpers/bopf-specs.js";

const K = 2;
const CAP = [4, 3];

const specArb = specsOver(K);
// a step: a batch of specs, or one object admission, or a leave
const stepArb = fc.oneof(
  { weight: 3, arbitrary: fc.record({ op: fc.constant("batch" as const), specs: fc.array(specArb, { maxLength: 12 }) }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant("one" as const), spec: specArb }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant("leave" as const), which: fc.nat() }) },
);

function batchOf(specs: Spec[]): AdmissionBatch {
  const b = emptyAdmissionBatch(specs.length, K);
  specs.forEach((s, i) => {
    if (s.kind === "LQ") setPeriodicRow(b, i, s.bursts, K);
    else b.period[i] = NaN; // TQ rows' spec cells are ignored
  });
  return b;
}

describe("BoPF batch admission", () => {
  it("gives the same classes, reasons, ids and state as admit() one by one", () => {
    fc.assert(fc.property(fc.array(stepArb, { maxLength: 12 }), fc.constantFrom("bopf" as const, "nbopf" as const), (steps, variant) => {
      const a = new BopfAdmissionControl(CAP, { variant }); // reference: admit() only
      const b = new BopfAdmissionControl(CAP, { variant }); // batches where the steps say so
      const live: Array<{ refName: string; id: number }> = [];
      let seq = 0;
      const admitRef = (s: Spec) => {
        const name = `q${seq++}`;
        const r = a.admit(s.kind === "TQ" ? { name, kind: "TQ" } : { name, kind: "LQ", bursts: s.bursts });
        return { name, r, id: r.class === "rejected" ? -1 : a.lastId };
      };
      for (const st of steps) {
        if (st.op === "batch") {
          const out = emptyBatchOutcome(st.specs.length);
          b.admitBatch(batchOf(st.specs), out);
          st.specs.forEach((s, i) => {
            const { name, r, id } = admitRef(s);
            expect(out.cls[i]).toBe(CLASS_CODE[r.class]);
            expect(BATCH_REASONS[out.reason[i]]).toBe(r.reason);
            expect(out.id[i]).toBe(id);
            if (id >= 0) live.push({ refName: name, id });
          });
        } else if (st.op === "one") {
          const { name, r, id } = admitRef(st.spec);
          const name2 = `q${seq - 1}`;
          const r2 = b.admit(st.spec.kind === "TQ" ? { name: name2, kind: "TQ" } : { name: name2, kind: "LQ", bursts: st.spec.bursts });
          expect(r2.class).toBe(r.class);
          expect(r2.reason).toBe(r.reason);
          expect(r2.class === "rejected" ? -1 : b.lastId).toBe(id);
          if (id >= 0) live.push({ refName: name, id });
        } else if (live.length > 0) {
          const [gone] = live.splice(st.which % live.length, 1);
          expect(a.leave(gone.refName)).toBe(true);
          expect(b.leaveId(gone.id)).toBe(true);
          expect(b.leaveId(gone.id)).toBe(false);
        }
        // the admission state: M, every live queue's class and summary, the hard-rate sums
        // (seen through the next decision of every kind, which the next step makes)
        expect(b.admittedCount).toBe(a.admittedCount);
        for (const q of live) {
          expect(b.classOfId(q.id)).toBe(a.classOf(q.refName));
          const sa = a.seriesOf(q.refName), sb = b.seriesOfId(q.id);
          expect(sb === null).toBe(sa === null);
          if (sa && sb) {
            expect(sb.tolerance).toBe(sa.tolerance);
            expect(Array.from(sb.maxRate)).toEqual(Array.from(sa.maxRate));
            expect(sb.binding).toEqual(sa.binding);
            expect(sb.count).toBe(sa.count);
            expect(sb.burst(1)).toEqual(sa.burst(1));
          }
        }
        expect(Array.from(b.rates.subarray(0, b.lastId * K + K))).toEqual(Array.from(a.rates.subarray(0, a.lastId * K + K)));
      }
    }), { numRuns: 300 });
  });

  it("the worked example as a batch, and a later admit() naming a batch queue in its detail", () => {
    const ac = new BopfAdmissionControl([1, 1]);
    const specs: Spec[] = [{ kind: "TQ" }, ...[150, 110, 60].map((period) => ({ kind: "LQ" as const, bursts: { start: 0, period, window: 25, volume: [25, 25], count: 10 } }))];
    const out = emptyBatchOutcome(4);
    ac.admitBatch(batchOf(specs), out);
    expect(Array.from(out.cls)).toEqual([2, 0, 1, 2]); // elastic, hard, soft, elastic
    expect(Array.from(out.reason, (r) => BATCH_REASONS[r])).toEqual(["all-held", "all-held", "resource", "fairness"]);
    expect(Array.from(out.id)).toEqual([0, 1, 2, 3]);
    const r = ac.admit({ name: "TQ1", kind: "TQ" });
    expect(r).toMatchObject({ class: "rejected", reason: "safety" });
    expect(r.detail).toContain("queue #2 (batch)"); // LQ-1 (soft, tolerates 4)
    expect(r.detail).toContain("25");
    expect(ac.leaveId(2)).toBe(true);
    expect(ac.admit({ name: "TQ1", kind: "TQ" }).class).toBe("elastic");
  });

  it("keeps its own copy of the specs (the caller may reuse the columns)", () => {
    const ac = new BopfAdmissionControl([1, 1]);
    const b = batchOf([{ kind: "LQ", bursts: { start: 3, period: 150, window: 25, volume: [25, 5], count: 10 } }]);
    const out = emptyBatchOutcome(1);
    ac.admitBatch(b, out);
    b.volume.fill(99);
    b.start[0] = 0;
    expect(ac.seriesOfId(out.id[0])!.burst(2)).toEqual({ start: 303, window: 25, volume: [25, 5] });
  });

  it("rejects bad rows by column and index, admitting nothing", () => {
    const ac = new BopfAdmissionControl([1, 1]);
    const ok: Spec = { kind: "LQ", bursts: { start: 0, period: 150, window: 25, volume: [25, 25], count: 10 } };
    const cases: Array<[(b: AdmissionBatch) => void, RegExp]> = [
      [(b) => { b.period[1] = 0; }, /batch\.period\[1\]/],
      [(b) => { b.window[1] = Infinity; }, /batch\.window\[1\]/],
      [(b) => { b.start[1] = NaN; }, /batch\.start\[1\]/],
      [(b) => { b.count[1] = 2.5; }, /batch\.count\[1\]/],
      [(b) => { b.count[1] = -1; }, /batch\.count\[1\]/],
      [(b) => { b.volume[1 * K + 1] = -3; }, /batch\.volume\[1\]\[1\]/],
      [(b) => { b.kind[1] = 7; }, /batch\.kind\[1\]/],
      [(b) => { b.volume = new Float64Array(1); }, /batch\.volume/],
      [(b) => { b.n = 1.5; }, /batch\.n/],
    ];
    for (const [spoil, msg] of cases) {
      const b = batchOf([ok, ok]);
      spoil(b);
      expect(() => ac.admitBatch(b, emptyBatchOutcome(2))).toThrow(InputError);
      expect(() => ac.admitBatch(b, emptyBatchOutcome(2))).toThrow(msg);
      expect(ac.admittedCount).toBe(0);
    }
    expect(() => ac.admitBatch(batchOf([ok, ok]), emptyBatchOutcome(1))).toThrow(/out/);
    // a TQ row's spec cells are not read
    const b = batchOf([{ kind: "TQ" }]);
    b.window[0] = -1;
    expect(b.kind[0]).not.toBe(KIND_LQ);
    const out = emptyBatchOutcome(1);
    ac.admitBatch(b, out);
    expect(out.cls[0]).toBe(CLASS_CODE.elastic);
  });
});
