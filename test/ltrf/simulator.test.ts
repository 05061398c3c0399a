// The registered MLRF / LTRF / H-LTRF policies on the queue-level simulator, and the
// ltrf-macro scenario's done-criterion: Omega returns to 0 under LTRF, stays negative under MLRF.
import { describe, expect, it } from "vitest";
import { InputError, loadEngineSync } from "../../src/index.js";
import { getScenario } from "../../src/scenarios/index.js";
import { simulate } from "../../src/sim/simulator.js";
import { MACRO_DEFAULTS, macroWorkload } from "../../src/ltrf/macro-workload.js";
import type { FairnessSeries } from "../../src/ltrf/fairness.js";

const engine = loadEngineSync();
const small = { ...MACRO_DEFAULTS, horizon: 900, purdueRounds: 1 };

describe("LTRF policies on the simulator", () => {
  it("are deterministic for a seed and work-conserving enough to finish every job", () => {
    const w = macroWorkload({ ...small, horizon: Infinity }, 3);
    for (const policy of ["mlrf", "ltrf", "h-ltrf"]) {
      const a = simulate(w, { policy, engine, seed: 3 });
      const b = simulate(w, { policy, engine, seed: 3 });
      expect(a.jobs).toEqual(b.jobs);
      expect(a.jobs.every((j) => j.outcome.status === "finished")).toBe(true);
    }
  });

  it("Theorem 1 in the simulator: h-ltrf with tWait = 0 runs exactly like ltrf", () => {
    const w = macroWorkload(small, 5);
    w.queues = w.queues.map((q, i) => ({ ...q, path: [i < 2 ? "g1" : "g2"] }));
    const a = simulate(w, { policy: "ltrf", engine, seed: 5, horizon: small.horizon });
    const b = simulate(w, { policy: "h-ltrf", policyOptions: { tWait: 0 }, engine, seed: 5, horizon: small.horizon });
    expect(b.jobs).toEqual(a.jobs);
  });

  it("max share caps a queue's dominant share", () => {
    const w = macroWorkload(small, 2);
    w.queues[1] = { ...w.queues[1], params: { maxShare: 0.3 } };
    const r = simulate(w, { policy: "ltrf", engine, seed: 2, horizon: small.horizon, sampleInterval: 1 });
    expect(Math.max(...r.series.dominantShare[1])).toBeLessThanOrEqual(0.3 + 1e-9);
  });

  it("bad options -> InputError naming the option", () => {
    const w = macroWorkload(small, 1);
    expect(() => simulate(w, { policy: "ltrf", policyOptions: { window: -1 }, engine })).toThrow(/^policyOptions\.window/);
    expect(() => simulate(w, { policy: "ltrf", policyOptions: { bogus: 1 }, engine })).toThrow(InputError);
    const bad = macroWorkload(small, 1);
    bad.queues[2] = { ...bad.queues[2], params: { minShare: 2 } };
    expect(() => simulate(bad, { policy: "ltrf", engine })).toThrow(/^queues\[2\]\.params\.minShare/);
  });
});

describe("ltrf-macro scenario", () => {
  it("Omega returns to 0 under LTRF and stays negative under MLRF; the report prints Psi and Omega for both", () => {
    const rep = getScenario("ltrf-macro")!.run({ seed: 1, engine });
    const m = rep.metrics as Record<string, { policyReport: { fairness: FairnessSeries } }>;
    const ltrf = m.ltrf.policyReport.fairness, mlrf = m.mlrf.policyReport.fairness;
    // LTRF: some sharing loss early (late arrivals wait for running tasks), then 0 and it stays 0
    expect(Math.min(...ltrf.omega)).toBeLessThan(0);
    const firstZero = ltrf.t.findIndex((t, j) => t > 0 && ltrf.omega.slice(j).every((o) => o === 0));
    expect(firstZero).toBeGreaterThan(0);
    expect(ltrf.t[firstZero]).toBeLessThan(0.75 * MACRO_DEFAULTS.horizon);
    // MLRF: negative at every sample after the start-up
    mlrf.t.forEach((t, j) => { if (t >= 300) expect(mlrf.omega[j]).toBeLessThan(-0.01); });
    // the tables
    const cols = rep.tables[0].columns;
    for (const c of ["mlrf Psi", "mlrf Omega", "ltrf Psi", "ltrf Omega"]) expect(cols).toContain(c);
    expect(rep.tables[1].rows.map((r) => r[0])).toEqual(["mlrf", "ltrf"]);
  });
});
