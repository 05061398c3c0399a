// The `justice` scenario on a fixed seed shows the paper's shape under the highly constrained
// capacity (docs/reproduction.md#headline-results): Justice's SDR and Jain's index above Baseline FS and Reactive FS and close
// to the Oracle; Justice's wasted-time ratio below Reactive FS's. Averages over deadline types.
import { describe, expect, it } from "vitest";
import { averageOverDeadlines, runJusticeGrid } from "../../src/scenarios/justice.js";

describe("justice scenario shape (seed 1)", () => {
  const g = runJusticeGrid(1);
  const avg = (a: string) => averageOverDeadlines(g.cells, "high", a);
  const J = avg("justice"), B = avg("baseline-fs"), R = avg("reactive-fs"), O = avg("oracle");

  it("covers every deadline type, both capacities and all four allocators", () => {
    expect(g.cells.length).toBe(2 * 7 * 4);
    expect(g.settings[0].capacity).toBeLessThan(g.settings[1].capacity);
  });
  it("SDR: Justice above both fair-share allocators, within 0.15 of the Oracle", () => {
    expect(J.sdr).toBeGreaterThan(B.sdr);
    expect(J.sdr).toBeGreaterThan(R.sdr);
    expect(O.sdr - J.sdr).toBeLessThan(0.15);
  });
  it("Jain's index: Justice above both fair-share allocators, within 0.1 of the Oracle", () => {
    expect(J.jain).toBeGreaterThan(B.jain);
    expect(J.jain).toBeGreaterThan(R.jain);
    expect(O.jain - J.jain).toBeLessThan(0.1);
  });
  it("WTR: Justice wastes less than Reactive FS; Baseline FS wastes the most; the Oracle nothing", () => {
    expect(J.wtr).toBeLessThan(R.wtr);
    expect(B.wtr).toBeGreaterThan(R.wtr);
    expect(O.wtr).toBe(0);
  });
  it("tight deadlines (Fixed1x, Jockey1x2x): Justice beats both fair-share allocators on SDR", () => {
    for (const d of ["Fixed1x", "Jockey1x2x"]) {
      const sdr = (a: string) => g.cells.find((c) => c.setting === "high" && c.deadline === d && c.allocator === a)!.metrics.sdr;
      expect(sdr("justice")).toBeGreaterThan(sdr("baseline-fs"));
      expect(sdr("justice")).toBeGreaterThan(sdr("reactive-fs"));
    }
  });
});
