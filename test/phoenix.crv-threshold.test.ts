// Per-constraint CRV_threshold from Table II (src/phoenix/crv-threshold.ts, papers/phoenix.txt
// §IV-B) and the CRV table that applies it (src/phoenix/monitor.ts).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CrvTable } from "../src/phoenix/monitor.js";
import { tableIIThreshold, TABLE_II_SLOWDOWN } from "../src/phoenix/crv-threshold.js";
import type { Constraint } from "../src/phoenix/constraints.js";

const c = (attr: Constraint["attr"], op: Constraint["op"], value: number): Constraint => ({ attr, op, value, hard: true });

describe("Table II CRV thresholds", () => {
  it("map each constraint to its Table II relative slowdown; memory (no row) keeps the fallback", () => {
    expect(tableIIThreshold(c("isa", "=", 1), 1)).toBe(2.03);
    expect(tableIIThreshold(c("cores", ">", 8), 1)).toBe(1.9);
    expect(tableIIThreshold(c("disks", "<", 6), 1)).toBe(1.9); // maximum disks
    expect(tableIIThreshold(c("disks", "=", 4), 1)).toBe(1.9);
    expect(tableIIThreshold(c("disks", ">", 2), 1)).toBe(0.91); // minimum disks
    expect(tableIIThreshold(c("kernel", ">", 404), 1)).toBe(1.77);
    expect(tableIIThreshold(c("platform", "=", 2), 1)).toBe(1.77);
    expect(tableIIThreshold(c("clockGhz", ">", 2.4), 1)).toBe(1.76);
    expect(tableIIThreshold(c("ethernetGbps", "=", 10), 1)).toBe(1.91);
    expect(tableIIThreshold(c("memoryGb", ">", 32), 1.25)).toBe(1.25);
    // Table II's column, as printed
    expect(Object.values(TABLE_II_SLOWDOWN)).toEqual([2.03, 1.9, 1.9, 0.91, 1.77, 1.77, 1.76, 1.91]);
  });

  it("worked example: ISA at CRV 1.5 is not congested under its 2.03, min disks at 1.2 is under its 0.91", () => {
    // ids: 0 = isa (supply 400), 1 = disks > 4 (supply 250)
    const thr = [2.03, 0.91];
    const t = new CrvTable([400, 250], (id) => thr[id]);
    t.add(0, 600);
    t.add(1, 300);
    expect(t.refresh()).toBe(true);
    expect(t.value).toEqual([1.5, 1.2]);
    expect(t.congested(0)).toBe(false);
    expect(t.congested(1)).toBe(true);
    expect(t.score([0, 1])).toBe(1.5); // largest CRV
    expect(t.congestedScore([0, 1])).toBe(1.2); // largest congested CRV
    expect(t.congestedScore([0])).toBe(0);
    // the uniform default (1) calls both congested
    const u = new CrvTable([400, 250]);
    u.add(0, 600);
    u.add(1, 300);
    u.refresh();
    expect(u.congestedScore([0, 1])).toBe(1.5);
  });

  it("edge values: CRV exactly at the threshold is not congested; no supply means CRV 0; unseen ids are not congested", () => {
    const t = new CrvTable([100, 0], () => 2);
    t.add(0, 200);
    t.add(1, 50);
    expect(t.refresh()).toBe(false);
    expect(t.value).toEqual([2, 0]);
    expect(t.congested(0)).toBe(false);
    expect(t.congested(7)).toBe(false);
    expect(t.congestedScore([7])).toBe(0);
    t.add(0, 1);
    expect(t.refresh()).toBe(true);
    expect(t.congested(0)).toBe(true);
  });

  it("with one threshold for all, congestedScore is the score when the score exceeds it, else 0 (the former rule) (property)", () => {
    fc.assert(fc.property(
      fc.array(fc.tuple(fc.integer({ min: 1, max: 1000 }), fc.integer({ min: 0, max: 3000 })), { minLength: 1, maxLength: 8 }),
      fc.double({ min: 0, max: 4, noNaN: true }),
      (rows, thr) => {
        const t = new CrvTable(rows.map((r) => r[0]), () => thr);
        rows.forEach((r, i) => t.add(i, r[1]));
        const hot = t.refresh();
        const ids = rows.map((_, i) => i);
        const s = t.score(ids);
        expect(t.congestedScore(ids)).toBe(s > thr ? s : 0);
        expect(hot).toBe(s > thr);
      }));
  });
});
