// BoPF admission control's decisions and series are values of their own moment (issue 21,
// item 14): a detail read after reset() names the queues of its own decision, and the
// bursts a caller passed (periodic spec or explicit list) are copied, so changing them
// afterwards changes no series.
import { describe, expect, it } from "vitest";
import { BopfAdmissionControl, type BopfAdmission } from "../../src/bopf/admission.js";
import { burstSeries, type PeriodicBursts } from "../../src/bopf/bursts.js";
import type { BurstSpec } from "../../src/policy/model.js";

const lq = (name: string, period: number, volume: number): { name: string; kind: "LQ"; bursts: PeriodicBursts } => ({
  name, kind: "LQ", bursts: { start: 0, period, window: 25, volume: [volume, volume], count: 10 },
});

/** The worked example's five decisions (hard, soft, elastic by fairness, rejected by safety). */
function workedExample(ac: BopfAdmissionControl): BopfAdmission[] {
  return [ac.admit({ name: "TQ0", kind: "TQ" }), ac.admit(lq("LQ0", 150, 25)), ac.admit(lq("LQ1", 110, 25)), ac.admit(lq("LQ2", 60, 25)), ac.admit({ name: "TQ1", kind: "TQ" })];
}

describe("BoPF admission: decisions and series are not changed by later calls", () => {
  it("a detail read after reset() is the detail of its own decision", () => {
    const expected = workedExample(new BopfAdmissionControl([1, 1])).map((a) => a.detail);
    const ac = new BopfAdmissionControl([1, 1]);
    const held = workedExample(ac); // details not read yet
    ac.reset();
    // other queues under the same ids, with other numbers
    ac.admit({ name: "X0", kind: "TQ" });
    ac.admit(lq("X1", 400, 10));
    ac.admit(lq("X2", 300, 40));
    ac.admit(lq("X3", 500, 5));
    ac.admit(lq("X4", 90, 30));
    expect(held.map((a) => a.detail)).toEqual(expected);
    expect(held[3].detail).toContain("15");
    expect(held[4].detail).toContain("LQ1");
    // the control itself decides as a new one after reset
    const fresh = new BopfAdmissionControl([1, 1]);
    ac.reset();
    expect(workedExample(ac).map((a) => [a.class, a.reason, a.detail])).toEqual(workedExample(fresh).map((a) => [a.class, a.reason, a.detail]));
  });

  it("a periodic spec changed by the caller after admission changes no series", () => {
    const ac = new BopfAdmissionControl([1, 1]);
    const q = lq("LQ0", 150, 25);
    expect(ac.admit(q).class).toBe("hard");
    q.bursts.volume[0] = 99;
    q.bursts.period = 7;
    q.bursts.start = 1000;
    const s = ac.seriesOf("LQ0")!;
    expect(s.burst(1)).toEqual({ start: 150, window: 25, volume: [25, 25] });
    expect(s.gap(1)).toBe(150);
    const p: PeriodicBursts = { start: 0, period: 150, window: 25, volume: [25, 25], count: 3 };
    const series = burstSeries(p, [1, 1]);
    p.volume[1] = 50;
    p.period = 10;
    expect([series.burst(2), series.gap(0)]).toEqual([{ start: 300, window: 25, volume: [25, 25] }, 150]);
  });

  it("an explicit burst list changed by the caller after admission changes no series", () => {
    const ac = new BopfAdmissionControl([1, 1]);
    const list: BurstSpec[] = [{ start: 0, window: 25, volume: [25, 5] }, { start: 150, window: 25, volume: [20, 5] }];
    expect(ac.admit({ name: "LQ0", kind: "LQ", bursts: list }).class).toBe("hard");
    list[0].volume[0] = 99;
    list[1].window = 1;
    list[0] = { start: 0, window: 1, volume: [1, 1] };
    const s = ac.seriesOf("LQ0")!;
    expect([s.burst(0), s.burst(1)]).toEqual([{ start: 0, window: 25, volume: [25, 5] }, { start: 150, window: 25, volume: [20, 5] }]);
    expect(s.gap(1)).toBe(150);
  });
});

describe("admission state under churn (issue 21, finding 7)", () => {
  it("a hard leave re-sums the live hard queues only, not every id ever admitted (counted, not timed)", async () => {
    const { BopfAdmissionControl } = await import("../../src/bopf/admission.js");
    const ac = new BopfAdmissionControl([100, 100]);
    const hard = { start: 0, period: 1000, window: 10, volume: [1, 1], count: 3 };
    ac.admit({ name: "stay0", kind: "LQ", bursts: hard });
    ac.admit({ name: "stay1", kind: "LQ", bursts: hard });
    const rows = () => (ac as unknown as { rows: { hardSumVisits: number } }).rows;
    const before = rows().hardSumVisits;
    const churn = 20000;
    for (let i = 0; i < churn; i++) {
      expect(ac.admit({ name: `c${i}`, kind: "LQ", bursts: hard }).class).toBe("hard");
      expect(ac.leave(`c${i}`)).toBe(true);
    }
    // each leave visits the two queues that stay (it visited every id ever admitted: ~2 * 10^8 in all)
    expect(rows().hardSumVisits - before).toBe(2 * churn);
    expect(ac.admittedCount).toBe(2);
    // the hard sums are those of the two that stay, exactly
    expect(ac.admit({ name: "probe", kind: "TQ" }).class).toBe("elastic");
  });
});

describe("admission state proportional to the live queues (issue 21, finding 7, rest)", () => {
  type Rows = { used: number; cls: Uint8Array; compactMoves: number; hardSumVisits: number };
  const rowsOf = (ac: BopfAdmissionControl) => (ac as unknown as { rows: Rows }).rows;
  const hard = { start: 0, period: 1000, window: 10, volume: [1, 1], count: 3 };

  it("admit+leave churn of 20k/40k/80k: slots, array sizes and work stay bounded by the live queues (counted, not timed)", () => {
    const figures: Array<{ churn: number; used: number; capacity: number; moves: number; visits: number }> = [];
    for (const churn of [20_000, 40_000, 80_000]) {
      const ac = new BopfAdmissionControl([100, 100]);
      const stay = ["stay0", "stay1"].map((name) => (ac.admit({ name, kind: "LQ", bursts: hard }), ac.lastId));
      let maxUsed = 0;
      for (let i = 0; i < churn; i++) {
        ac.admit({ name: `c${i}`, kind: i % 3 === 0 ? "TQ" : "LQ", bursts: i % 3 === 0 ? undefined : hard });
        expect(ac.leave(`c${i}`)).toBe(true);
        maxUsed = Math.max(maxUsed, rowsOf(ac).used);
      }
      const r = rowsOf(ac);
      figures.push({ churn, used: maxUsed, capacity: r.cls.length, moves: r.compactMoves, visits: r.hardSumVisits });
      // ids are never reused: the queues that stay keep theirs, a left id names nothing
      expect(ac.lastId).toBe(churn + 1);
      expect(stay.map((id) => ac.classOfId(id))).toEqual(["hard", "hard"]);
      expect(ac.classOfId(2)).toBeUndefined();
      expect(ac.leaveId(2)).toBe(false);
      expect(ac.admittedCount).toBe(2);
    }
    for (const f of figures) {
      // at most 2 live + 64 + (live + 1) GONE slots before a compaction; arrays never past 256 rows
      expect(f.used).toBeLessThanOrEqual(2 + 64 + 3);
      expect(f.capacity).toBeLessThanOrEqual(256);
      // each compaction moves at most 2 * 67 slots and happens every >= 64 leaves: linear in the churn
      expect(f.moves).toBeLessThanOrEqual(3 * f.churn);
      expect(f.visits).toBeLessThanOrEqual(2 * f.churn);
    }
    // work per churn is the same at every size (linear, not quadratic)
    expect(figures[2].moves / figures[2].churn).toBeLessThanOrEqual((figures[0].moves / figures[0].churn) * 1.05 + 0.01);
  });

  it("batch admissions and leaveId churn compact too, with the same decisions and ids as a twin control fed the same calls", () => {
    const ac = new BopfAdmissionControl([100, 100]);
    const ref = new BopfAdmissionControl([100, 100]);
    const keep: number[] = [];
    for (let round = 0; round < 400; round++) {
      const b = { n: 3, kind: new Uint8Array([1, 0, 1]), start: new Float64Array(3), period: new Float64Array([1000, NaN, 500]), window: new Float64Array([10, 1, 20]), count: new Float64Array([3, 0, 2]), volume: new Float64Array([1, 1, 0, 0, 2, 1]) };
      const out = { cls: new Uint8Array(3), reason: new Uint8Array(3), id: new Int32Array(3) };
      ac.admitBatch(b, out);
      const out2 = { cls: new Uint8Array(3), reason: new Uint8Array(3), id: new Int32Array(3) };
      ref.admitBatch(b, out2);
      expect([Array.from(out.cls), Array.from(out.id)]).toEqual([Array.from(out2.cls), Array.from(out2.id)]);
      if (round % 50 === 0) keep.push(out.id[0]);
      for (let i = 0; i < 3; i++) if (out.id[i] >= 0 && !(i === 0 && round % 50 === 0)) {
        expect(ac.leaveId(out.id[i])).toBe(true);
        expect(ref.leaveId(out2.id[i])).toBe(true);
      }
    }
    expect(rowsOf(ac).used).toBeLessThanOrEqual(keep.length * 2 + 64 + 4);
    expect(keep.map((id) => ac.classOfId(id))).toEqual(keep.map((id) => ref.classOfId(id)));
    expect(keep.map((id) => ac.seriesOfId(id)?.gap(0))).toEqual(keep.map(() => 1000));
    expect(ac.rateOf(keep[0])).toEqual(new Float64Array([0.1, 0.1]));
    expect(ac.rateOf(keep[0] + 1)).toBeNull();
  });
});
