// Seed aggregation of a sweep (src/sweep/aggregate.ts) on a hand-built sweep with known numbers
// (test/fixtures/sweep-merged.ts): means and 95% Student-t intervals, rows matched across seeds by
// their labels, the "LQ x vs drf" column filled from the drf cell with the same parameters and
// seed, and the merged title common to the cells rather than the first cell's.
import { describe, expect, it } from "vitest";
import { aggregateSweep } from "../../src/sweep/aggregate.js";
import { sweepTables } from "../../src/sweep/tables.js";
import { formatMeanCi, formatSweep } from "../../src/report/sweep-text.js";
import { handMergedSweep } from "../fixtures/sweep-merged.js";

const T2 = 4.303; // t(0.975, 2)

describe("aggregateSweep", () => {
  const [times, shares] = aggregateSweep(handMergedSweep());

  it("one row per (policy, parameters), seeds counted, label and metric columns told apart", () => {
    expect(times.paramKeys).toEqual(["tqs"]);
    expect(times.labelColumns).toEqual([]);
    expect(times.metricColumns).toEqual(["LQ avg s", "LQ x vs drf", "TQs", "LQ met"]);
    expect(times.rows.map((r) => [r.policy, ...r.params, r.seeds])).toEqual([["drf", 1, 3], ["drf", 4, 3], ["bopf", 1, 3], ["bopf", 4, 3]]);
    expect(shares.labelColumns).toEqual(["queue"]);
  });

  it("mean and 95% t-interval: drf's LQ avg s over 10, 20, 30 is 20 ± 4.303 * 10 / sqrt(3)", () => {
    const s = times.rows[0].stats[0]!;
    expect(s.n).toBe(3);
    expect(s.mean).toBe(20);
    expect(s.half).toBeCloseTo((T2 * 10) / Math.sqrt(3), 9);
    expect(s.lo).toBeCloseTo(20 - 24.843, 3);
    expect(s.hi).toBeCloseTo(20 + 24.843, 3);
  });

  it("LQ x vs drf is filled per seed from the drf cell (ratios 1, 2, 3: mean 2, half-width 2.484); drf's own is 1", () => {
    for (const row of times.rows.filter((r) => r.policy === "bopf")) {
      const s = row.stats[1]!;
      expect(s.n).toBe(3);
      expect(s.mean).toBeCloseTo(2, 12);
      expect(s.half).toBeCloseTo(T2 / Math.sqrt(3), 9);
    }
    expect(times.rows[0].stats[1]).toMatchObject({ mean: 1, half: 0 });
    expect(times.notes[0]).toBe("LQ x vs drf: the drf cell's LQ avg s with the same parameters and seed / this row's LQ avg s (factor of improvement over drf; > 1: faster than drf)");
  });

  it("a value missing on a seed is left out of that row's interval (n = 2)", () => {
    const s = times.rows[3].stats[3]!; // bopf, tqs 4, LQ met: 0.6, 0.7 (null on seed 3)
    expect(s.n).toBe(2);
    expect(s.mean).toBeCloseTo(0.65, 12);
    expect(s.half).toBeCloseTo((12.706 * Math.sqrt(0.005)) / Math.sqrt(2), 9);
    expect(formatMeanCi(s, 3)).toBe("0.650 ± 0.635 (n=2)");
  });

  it("rows are matched across seeds by their labels, not their position (seed 2 lists q1 first)", () => {
    const q0 = shares.rows.filter((r) => r.labels[0] === "q0");
    const q1 = shares.rows.filter((r) => r.labels[0] === "q1");
    expect(q0).toHaveLength(4);
    for (const r of q0) expect(r.stats[0]!.mean).toBeCloseTo(0.2, 12);
    for (const r of q1) expect(r.stats[0]).toMatchObject({ n: 3, mean: 0.5 });
  });

  it("the title is the cells' common one, not the first cell's, and says what the interval is", () => {
    expect(times.name).toBe("hand sweep: Completion times (per cell)");
    expect(times.title).toBe("hand sweep: Completion times (per cell), mean ± 95% t-interval over 3 seeds");
    expect(times.title).not.toContain("seed 1");
    expect(times.notes.at(-1)).toMatch(/95% Student-t interval over the seeds, t\(0\.975, n-1\)·s\/√n/);
  });
});

describe("the sweep's text", () => {
  it("several seeds: mean ± half-width per cell; a value equal on every seed once", () => {
    const text = formatSweep(handMergedSweep());
    const lines = text.split("\n");
    expect(lines[0]).toBe("hand sweep: Completion times (per cell), mean ± 95% t-interval over 3 seeds");
    expect(lines[1]).toBe("policy  tqs  seeds    LQ avg s  LQ x vs drf  TQs               LQ met");
    expect(lines[3]).toBe("drf       1      3  20 ± 24.84            1    1        0.700 ± 0.248");
    expect(lines[5]).toBe("bopf      1      3          10     2 ± 2.48    1        0.700 ± 0.248");
    expect(lines[6]).toBe("bopf      4      3          10     2 ± 2.48    4  0.650 ± 0.635 (n=2)");
    expect(text).toContain("12/12 cells of sweep f");
  });

  it("one seed: one row per cell as before, with the ratio filled from the drf cell", () => {
    const m = handMergedSweep();
    m.header.spec.seeds = [2];
    m.cells = m.cells.filter((c) => c.cell.seed === 2);
    const [t] = sweepTables(m);
    expect(t.title).toBe("hand sweep: Completion times (seed 2), 1 LQ");
    expect(t.columns).toEqual(["policy", "tqs", "seed", "LQ avg s", "LQ x vs drf", "TQs", "LQ met"]);
    expect(t.rows.map((r) => r[4])).toEqual([1, 1, 2, 2]);
    expect(formatSweep(m).split("\n")[1]).toBe("policy  tqs  seed  LQ avg s  LQ x vs drf  TQs  LQ met");
  });
});
