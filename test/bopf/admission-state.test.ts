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
