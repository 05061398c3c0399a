// The two thresholds of Phoenix's monitor (the Phoenix paper §IV-B): the per-constraint
// CRV_threshold from Table II (src/phoenix/crv-threshold.ts) and the CRV table that applies it,
// and Qwait_threshold read as the E[W] of a worker at peak load (monitor.ts waitAtLoad).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CrvTable, WorkerHistory } from "../../src/phoenix/monitor.js";
import { tableIIThreshold, TABLE_II_SLOWDOWN } from "../../src/phoenix/crv-threshold.js";
import type { Constraint } from "../../src/phoenix/constraints.js";
import { simulateNodes } from "../../src/phoenix/node-sim.js";
import { loadEngineSync } from "../../src/index.js";

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

describe("Qwait_threshold at peak load (waitAtLoad)", () => {
  it("worked example: E[S] 5, E[S^2] 30 -> 27 s at load 0.9; 0 before two tasks", () => {
    const h = new WorkerHistory(2, 4);
    expect(h.waitAtLoad(0, 0.9)).toBe(0);
    for (const [at, s] of [[0, 2], [10, 4], [20, 6], [30, 8]]) h.record(0, at, s);
    expect(h.waitAtLoad(0, 0.9)).toBeCloseTo(27, 9);
    // the worker's measured load: 4 arrivals over 40 s (now = 40) -> lambda 0.1, rho 0.5, E[W] 3
    expect(h.expectedWait(0, 40)).toBeCloseTo(3, 9);
    expect(h.expectedWait(0, 40) > h.waitAtLoad(0, 0.9)).toBe(false);
    // the same tasks arriving over 20 s -> rho 1 -> E[W] infinite, above any finite limit
    expect(h.expectedWait(0, 20)).toBe(Infinity);
  });

  it("E[W] exceeds the wait at load r exactly when the measured load exceeds r (property)", () => {
    fc.assert(fc.property(
      fc.array(fc.double({ min: 0.5, max: 500, noNaN: true }), { minLength: 2, maxLength: 8 }),
      fc.double({ min: 1, max: 1e5, noNaN: true }),
      fc.double({ min: 0.05, max: 0.98, noNaN: true }),
      (services, span, r) => {
        const h = new WorkerHistory(1, 8);
        services.forEach((s, i) => h.record(0, (i * span) / services.length, s));
        const n = services.length;
        const es = services.reduce((a, b) => a + b, 0) / n;
        const rho = (n / span) * es; // arrivals over [0, span), now = span
        const w = h.expectedWait(0, span);
        const limit = h.waitAtLoad(0, r);
        // away from the boundary (running sums round), the comparison is the load comparison
        if (Math.abs(rho - r) > 1e-9 * Math.max(1, r)) expect(w > limit).toBe(rho > r);
      }));
  });
});

describe("the thresholds in the simulator (Phoenix)", () => {
  const engine = loadEngineSync();
  // one worker <x86_64, ...>; constraint `isa = x86_64` has supply 1
  const machines = { count: 1, attrs: Float64Array.from([0, 16, 64, 4, 404, 2, 2.6, 10]) };
  const job = (arrival: number, durations: number[], estimate: number, constraints: Constraint[] = []) =>
    ({ arrival, durations: Float64Array.from(durations), estimate, constraints });
  const run = (cTasks: number, tableIIThresholds: boolean) => simulateNodes(
    // X: 4 x 10 s from t = 0 (sticky); at t = 21 C (cTasks x 5 s, isa-constrained) and U (1 x 1 s)
    [job(0, [10, 10, 10, 10], 10), job(21, Array(cTasks).fill(5), 5, [c("isa", "=", 0)]), job(21, [1], 1)],
    // qwaitLoad 0.5: at the t = 27 heartbeat the worker's measured load is 2 x 10 s / 27 s = 0.74
    { engine, policy: "phoenix", workers: 1, seed: 1, cutoff: 90, machines, qwaitLoad: 0.5, tableIIThresholds },
  );
  const ends = (r: ReturnType<typeof simulateNodes>) => r.jobs.map((j) => Math.round(j.end));

  it("CRV 2 of the ISA constraint: congested under the uniform threshold 1, not under Table II's 2.03", () => {
    // uniform: CRV mode at t = 27, C is promoted at X's task end (30): C 30-40, U 40-41, X 41-51
    const u = run(2, false);
    expect(u.hotHeartbeats).toBe(1);
    expect(u.crvWorkerBeats).toBe(1);
    expect(ends(u)).toEqual([51, 40, 41]);
    // Table II: nothing congested, SRPT: U (1 s) 30-31, X (10 s left) 31-41, C (2 x 5 s) 41-51
    const t = run(2, true);
    expect(t.hotHeartbeats).toBe(0);
    expect(ends(t)).toEqual([41, 51, 31]);
  });

  it("CRV 3 exceeds 2.03 too: both promote C until its CRV falls to 1 (two tasks started)", () => {
    // C 30-40, then C's CRV is 1: SRPT gives U (1 s) 40-41, C's last task 41-46, X 46-56
    for (const t2 of [false, true]) expect(ends(run(3, t2))).toEqual([56, 46, 41]);
  });

  it("rejects bad threshold options with the field name", () => {
    const o = { engine, policy: "phoenix", workers: 1, seed: 1, cutoff: 90 };
    expect(() => simulateNodes([], { ...o, qwaitLoad: 1 })).toThrow(/^qwaitLoad:/);
    expect(() => simulateNodes([], { ...o, qwaitLoad: -0.1 })).toThrow(/^qwaitLoad:/);
    expect(() => simulateNodes([], { ...o, tableIIThresholds: 1 as never })).toThrow(/^tableIIThresholds:/);
  });
});
