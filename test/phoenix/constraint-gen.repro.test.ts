// Phoenix's constraint generator calibrated on the full Google subtrace (Table II / Fig. 6) and
// the .tr loader on the full Yahoo and Google files (FAIRSCHED_TRACES, found by
// test/helpers/traces.ts). The loader on samples and the generator's floor: node-sim.test.ts.
import { describe, expect, it } from "vitest";
import { join } from "node:path";
import { ConstraintIndex, type Constraint } from "../../src/phoenix/constraints.js";
import { generateMachines } from "../../src/phoenix/machines.js";
import { loadEagleTrace, EAGLE_CUTOFFS, cutoffForTrace } from "../../src/traces/eagle.js";
import { attachConstraints } from "../../src/phoenix/workload.js";
import { Rng } from "../../src/random/rng.js";
import { tracePath } from "../helpers/traces.js";

const TRACES = tracePath("eagle-format");

describe("constraint generator (Google distribution, Table II / Fig. 6)", () => {
  // Paper targets (the Phoenix paper §V-A, Fig. 6, Table II), checked on a fixed seed (the
  // Google subtrace, constraints seed 42, 5,000 workers seed 1). Measured at calibration:
  // constrained tasks 46%; k = 1..6: 26/32/20/10/6/4% of constrained jobs, fitting on average
  // 37.8, 14.9, 10.2, 9.3, 7.7, 7.3% of workers; ISA in 85% of constrained jobs. Since issue 19
  // every job fits >= 5% of the calibration fleet (the paper's floor), which lifts the means of
  // k = 2 and 6 above Fig. 6's 12% and 5% (before the floor: 13.6% and 4.9%, with 16% of
  // constrained jobs under 5%): values narrower than the floor are no longer drawn, and the
  // discrete attribute values leave few choices just above it (docs/reproduction-phoenix.md).
  const fixture = async () => {
    const tr = await loadEagleTrace(join(TRACES, "GOOG_subtrace.tr"));
    const jobs = attachConstraints(tr.jobs, new Rng(42));
    const machines = generateMachines(5000, new Rng(1));
    return { jobs, machines, idx: new ConstraintIndex(machines), cons: jobs.filter((j) => j.constraints.length) };
  };
  it("about half the tasks are constrained; 33% of constrained jobs ask for two, ~20% for four or more, none for more than six", async () => {
    const { jobs, cons } = await fixture();
    let tasks = 0, constrained = 0;
    for (const j of jobs) {
      tasks += j.durations.length;
      if (j.constraints.length) constrained += j.durations.length;
    }
    expect(constrained / tasks).toBeGreaterThan(0.4); // "approximately 50% of the tasks"
    expect(constrained / tasks).toBeLessThan(0.6);
    const share = (f: (k: number) => boolean) => cons.filter((j) => f(j.constraints.length)).length / cons.length;
    expect(share((k) => k === 2)).toBeGreaterThan(0.29); // 33%
    expect(share((k) => k === 2)).toBeLessThan(0.37);
    expect(share((k) => k >= 4)).toBeGreaterThan(0.16); // "cumulatively about 20%"
    expect(share((k) => k >= 4)).toBeLessThan(0.24);
    expect(share((k) => k > 6)).toBe(0);
  });
  it("Fig. 6 with the 5% floor: jobs with 2 constraints fit ~12-15% of workers, with 6 5-8.5%, decreasing in between", async () => {
    const { idx, machines, cons } = await fixture();
    const fit: number[] = [];
    for (let k = 1; k <= 6; k++) {
      const js = cons.filter((j) => j.constraints.length === k);
      expect(js.length).toBeGreaterThan(100);
      fit[k] = js.reduce((a, j) => a + idx.eligible(j.constraints).length, 0) / (js.length * machines.count);
    }
    expect(fit[2]).toBeGreaterThan(0.09); // "only 12% of the worker nodes could satisfy"
    expect(fit[2]).toBeLessThan(0.16); // 14.9% measured: the floor lifts it (above)
    expect(fit[6]).toBeGreaterThan(0.05); // "as low as 5% in case of 6 constraints": the floor
    expect(fit[6]).toBeLessThan(0.085);
    for (let k = 3; k <= 5; k++) {
      expect(fit[k]).toBeGreaterThan(0.05); // between the two points the paper gives
      expect(fit[k]).toBeLessThan(0.12);
    }
    for (let k = 2; k <= 6; k++) expect(fit[k]).toBeLessThan(fit[k - 1] * 1.05); // fewer fit as k grows
  });
  it("Table II: ISA is in ~80% of constrained jobs, then cores, then max disks; the rest are rare", async () => {
    const { cons } = await fixture();
    const has = (p: (c: Constraint) => boolean) => cons.filter((j) => j.constraints.some(p)).length / cons.length;
    const isa = has((c) => c.attr === "isa"), cores = has((c) => c.attr === "cores");
    const maxDisks = has((c) => c.attr === "disks" && c.op === "<"), minDisks = has((c) => c.attr === "disks" && c.op === ">");
    expect(isa).toBeGreaterThan(0.7264); // 80.64% +- 8
    expect(isa).toBeLessThan(0.8864);
    expect(cores).toBeLessThan(isa);
    expect(maxDisks).toBeLessThan(cores);
    expect(minDisks).toBeLessThan(maxDisks);
    for (const a of ["kernel", "ethernetGbps", "clockGhz", "platform"] as const) expect(has((c) => c.attr === a)).toBeLessThan(0.05); // <= 0.21% share each
  });
  it("every generated job fits some worker of a large fleet", async () => {
    const { idx, cons } = await fixture();
    expect(cons.filter((j) => idx.eligible(j.constraints).length === 0).length).toBe(0);
  });
  it("minSupply 0 restores the generator without a floor (16% of constrained jobs under 5%); bad values are InputErrors", async () => {
    const { jobs, machines } = await fixture();
    const tr = await loadEagleTrace(join(TRACES, "GOOG_subtrace.tr"));
    const idx = new ConstraintIndex(machines);
    const under = (js: typeof jobs) => {
      const c = js.filter((j) => j.constraints.length > 0);
      return c.filter((j) => idx.eligible(j.constraints).length < 0.05 * machines.count).length / c.length;
    };
    expect(under(attachConstraints(tr.jobs, new Rng(42), { minSupply: 0 }))).toBeGreaterThan(0.1);
    // the default floor is on the reference fleet: a 5,000-machine cluster sees it up to sampling noise
    expect(under(jobs)).toBeLessThan(0.04);
    expect(under(attachConstraints(tr.jobs, new Rng(42), { fleet: machines }))).toBe(0);
    expect(() => attachConstraints(tr.jobs, new Rng(42), { minSupply: 2 })).toThrow(/minSupply/);
    expect(() => attachConstraints(tr.jobs, new Rng(42), { fleet: { count: 2, attrs: new Float64Array(3) } })).toThrow(/fleet.attrs/);
  });
});

describe("Hawk/Eagle .tr loader, the full files", () => {
  it("loads YH2_sub.tr: 3,363 jobs, first and last job", async () => {
    const r = await loadEagleTrace(join(TRACES, "YH2_sub.tr"));
    expect(r.jobs.length).toBe(3363);
    expect(r.skipped).toBe(0);
    const first = r.jobs[0], last = r.jobs[r.jobs.length - 1];
    expect(first.arrival).toBe(65013.2);
    expect(first.durations.length).toBe(1651);
    expect(first.meanDuration).toBeCloseTo(15197.4537759, 6);
    expect(first.durations[0]).toBeCloseTo(15263.2808885, 6);
    expect(last.arrival).toBe(104729);
    expect(last.durations.length).toBe(41);
    expect(last.meanDuration).toBeCloseTo(7.91477657916, 9);
    expect(cutoffForTrace("YH2_sub.tr")).toBe(EAGLE_CUTOFFS.yahoo);
    const long = r.jobs.filter((j) => j.meanDuration > EAGLE_CUTOFFS.yahoo).length;
    expect(long / r.jobs.length).toBeGreaterThan(0.08); // ~10% long with Eagle's 90.5811 s cutoff
    expect(long / r.jobs.length).toBeLessThan(0.12);
  });
  it("loads GOOG_subtrace.tr: 10,000 jobs, first and last job", async () => {
    const r = await loadEagleTrace(join(TRACES, "GOOG_subtrace.tr"));
    expect(r.jobs.length).toBe(10000);
    expect(r.jobs[0].arrival).toBe(1406471);
    expect(r.jobs[0].durations.length).toBe(45);
    expect(r.jobs[0].meanDuration).toBeCloseTo(81384.12092488888, 6);
    const last = r.jobs[9999];
    expect(last.arrival).toBe(1499997);
    expect(last.durations.length).toBe(1);
    expect(last.durations[0]).toBeCloseTo(14.356589, 6);
  });
});
