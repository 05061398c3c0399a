// Our queue-level simulator against IRFsim, the BoPF authors' simulator, on the same jobs
// (test/fixtures/irfsim/README.md): per-LQ average completion time of DRF, SP, N-BoPF and BoPF.
//
// Like with like: IRFsim reports end - first task start; our simulator end - arrival. The
// fixture keeps IRFsim's per-job first start and end, so IRFsim's times are converted to
// end - arrival (its end minus the job's arrival in the converted workload) and compared with
// ours. Both runs stop at IRFsim's SIM_END_TIME (our `horizon`); averages are over the LQ jobs
// both finished before it (the sets are also compared: at most one job apart per LQ).
// Deterministic: one run per setup and policy, no seeds involved.
// Like IRFsim's dispatch, ours runs without its starvation guard (`starvationGuard: false`, the
// simulator's default) and without preemption; the guard's effect is checked at the end.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { loadEngine } from "../../src/index.js";
import "../../src/policies/index.js";
import { simulate } from "../../src/sim/simulator.js";
import type { Workload } from "../../src/policy/model.js";

interface IrfsimRun {
  endTime: number;
  policies: Record<string, { lq: Record<string, { n: number; fromStart: number; fromArrival: number }>; jobs: Array<[string, number, number]> }>;
}

const dir = new URL("../fixtures/irfsim/", import.meta.url);
const results = JSON.parse(readFileSync(new URL("irfsim-results.json", dir), "utf8")) as Record<string, IrfsimRun>;
const SETUPS = ["fig10", "lq1tq8"] as const;
const POLICIES = ["drf", "sp", "nbopf", "bopf"] as const;

export interface LqGap {
  setup: string;
  policy: string;
  queue: string;
  jobs: number;
  irfsim: number;
  ours: number;
  /** (ours - irfsim) / irfsim */
  gap: number;
  /** |finished by IRFsim| - |finished by ours| for this LQ */
  finishedDiff: number;
}

/** Admission classes our bopf / nbopf runs gave each queue, per setup. */
const classes: Record<string, Record<string, Record<string, string>>> = {};

/** One run per setup and policy; `starvationGuard` off unless asked for: IRFsim's dispatch has none. */
async function compare(shareDecimals?: number, starvationGuard = false): Promise<LqGap[]> {
  const engine = await loadEngine({ backend: "js" }); // same results as WASM, bit for bit; no build needed
  const out: LqGap[] = [];
  for (const setup of SETUPS) {
    const w = JSON.parse(readFileSync(new URL(`${setup}.workload.json`, dir), "utf8")) as Workload;
    const arrival = new Map(w.jobs.map((j) => [j.id, j.arrival]));
    const lqOf = new Map(w.jobs.filter((j) => w.queues.find((q) => q.name === j.queue)!.kind === "LQ").map((j) => [j.id, j.queue]));
    const run = results[setup];
    for (const policy of POLICIES) {
      const r = simulate(w, { policy, engine, horizon: run.endTime, shareDecimals, starvationGuard });
      const admitted: Record<string, string> = {};
      w.queues.forEach((q, i) => { if (r.admissions[i]) admitted[q.name] = r.admissions[i]!.class; });
      if (shareDecimals === undefined && !starvationGuard) (classes[setup] ??= {})[policy] = admitted;
      const ours = new Map<string, number>();
      for (const j of r.jobs) if (j.outcome.status === "finished" && lqOf.has(j.id)) ours.set(j.id, j.completionTime!);
      const theirs = new Map<string, number>();
      for (const [id, , end] of run.policies[policy].jobs) if (lqOf.has(id)) theirs.set(id, end - arrival.get(id)!);
      for (const queue of [...new Set(lqOf.values())]) {
        const both = [...theirs.keys()].filter((id) => lqOf.get(id) === queue && ours.has(id));
        const mean = (m: Map<string, number>) => both.reduce((s, id) => s + m.get(id)!, 0) / both.length;
        const count = (m: Map<string, number>) => [...m.keys()].filter((id) => lqOf.get(id) === queue).length;
        out.push({ setup, policy, queue, jobs: both.length, irfsim: mean(theirs), ours: mean(ours), gap: mean(ours) / mean(theirs) - 1, finishedDiff: count(theirs) - count(ours) });
      }
    }
  }
  return out;
}

let cached: Promise<LqGap[]> | null = null;
const gaps = () => (cached ??= compare());
let cachedGuarded: Promise<LqGap[]> | null = null;
/** The same comparison with the dispatch's starvation guard on (the live scheduler's default). */
const guardedGaps = () => (cachedGuarded ??= compare(undefined, true));

describe("IRFsim agreement (per-LQ average completion time, same jobs)", () => {
  it("the fixture's own numbers: IRFsim's per-LQ averages recomputed from its per-job records", () => {
    for (const setup of SETUPS) {
      const w = JSON.parse(readFileSync(new URL(`${setup}.workload.json`, dir), "utf8")) as Workload;
      const arrival = new Map(w.jobs.map((j) => [j.id, j.arrival]));
      const queue = new Map(w.jobs.map((j) => [j.id, j.queue]));
      for (const policy of POLICIES) {
        const p = results[setup].policies[policy];
        for (const [q, s] of Object.entries(p.lq)) {
          const mine = p.jobs.filter(([id]) => queue.get(id) === q);
          expect(mine.length).toBe(s.n);
          expect(mine.reduce((a, [, st, e]) => a + e - st, 0) / s.n).toBeCloseTo(s.fromStart, 5);
          expect(mine.reduce((a, [id, , e]) => a + e - arrival.get(id)!, 0) / s.n).toBeCloseTo(s.fromArrival, 5);
        }
      }
    }
  });

  it("both simulators finish the same LQ jobs before the end, give or take one per LQ", { timeout: 1_800_000 }, async () => {
    for (const g of await gaps()) {
      expect(g.jobs, `${g.setup} ${g.policy} ${g.queue}`).toBeGreaterThan(0);
      expect(Math.abs(g.finishedDiff), `${g.setup} ${g.policy} ${g.queue}`).toBeLessThanOrEqual(1);
    }
  });

  it("measured gap (regression guard): every per-LQ average within the gap measured with today's dispatch", { timeout: 1_800_000 }, async () => {
    const all = await gaps();
    console.table(all.map((g) => ({ ...g, irfsim: +g.irfsim.toFixed(2), ours: +g.ours.toFixed(2), gap: `${(100 * g.gap).toFixed(1)}%` })));
    for (const g of all) expect(Math.abs(g.gap), `${g.setup} ${g.policy} ${g.queue}: ours ${g.ours} vs IRFsim ${g.irfsim}`).toBeLessThanOrEqual(MEASURED_GAP);
  });

  // docs/reproduction-bopf.md, "The paper's claims, on these runs": each holds in IRFsim's
  // numbers (the fixture) and in ours. One exact run each (no randomness on either side).
  describe("the paper's claims (Fig. 10/11, Table 4) on the same jobs", () => {
    const avg = async (who: "irfsim" | "ours", setup: string, policy: string, queue: string) => {
      const g = (await gaps()).find((x) => x.setup === setup && x.policy === policy && x.queue === queue)!;
      return g[who];
    };
    it("Fig. 10: ours admits LQ-0 hard, LQ-1 soft, LQ-2 elastic (N-BoPF: LQ-1 elastic), as IRFsim does", { timeout: 1_800_000 }, async () => {
      await gaps();
      expect(classes.fig10.bopf).toMatchObject({ bursty0: "hard", bursty1: "soft", bursty2: "elastic", batch0: "elastic" });
      expect(classes.fig10.nbopf).toMatchObject({ bursty0: "hard", bursty1: "elastic", bursty2: "elastic" });
    });
    for (const who of ["irfsim", "ours"] as const) {
      it(`Fig. 11 (${who}): N-BoPF best for LQ-0; BoPF beats SP on LQ-0 and LQ-1; BoPF's LQ-1 far better than N-BoPF's and DRF's`, { timeout: 1_800_000 }, async () => {
        const a = (policy: string, q: string) => avg(who, "fig10", policy, q);
        expect(await a("nbopf", "bursty0")).toBeLessThan(await a("bopf", "bursty0"));
        expect(await a("bopf", "bursty0")).toBeLessThan(await a("sp", "bursty0"));
        expect(await a("bopf", "bursty1")).toBeLessThan(await a("sp", "bursty1"));
        expect(await a("bopf", "bursty1")).toBeLessThan(0.7 * (await a("nbopf", "bursty1")));
        expect(await a("bopf", "bursty1")).toBeLessThan(0.7 * (await a("drf", "bursty1")));
      });
      it(`Table 4 (${who}): BoPF's LQ speed-up over DRF with 8 TQs (BB) is within 10% of the paper's 4.09`, { timeout: 1_800_000 }, async () => {
        const f = (await avg(who, "lq1tq8", "drf", "bursty0")) / (await avg(who, "lq1tq8", "bopf", "bursty0"));
        expect(f).toBeGreaterThan(4.09 * 0.9);
        expect(f).toBeLessThan(4.09 * 1.1);
      });
    }
  });

  // docs/policies/bopf.md and docs/reproduction-bopf.md, "BoPF options": the expiry rules on Fig. 10.
  it("expiry on Fig. 10: 'volume' gives the default's ('window-or-volume') numbers; 'deadline' puts LQ-0 more than 10% above IRFsim", { timeout: 1_800_000 }, async () => {
    const engine = await loadEngine({ backend: "js" });
    const w = JSON.parse(readFileSync(new URL("fig10.workload.json", dir), "utf8")) as Workload;
    const run = (expiry: string) => simulate(w, { policy: "bopf", engine, horizon: results.fig10.endTime, policyOptions: { expiry }, starvationGuard: false }).jobs;
    const byDefault = simulate(w, { policy: "bopf", engine, horizon: results.fig10.endTime, starvationGuard: false }).jobs;
    expect(run("volume")).toEqual(byDefault);
    const deadline = run("deadline");
    const lq0 = (jobs: typeof deadline) => {
      const ids = new Set(results.fig10.policies.bopf.jobs.map(([id]) => id));
      const xs = jobs.filter((j) => j.queue === "bursty0" && j.outcome.status === "finished" && ids.has(j.id)).map((j) => j.completionTime!);
      return xs.reduce((a, b) => a + b, 0) / xs.length;
    };
    const irf = results.fig10.policies.bopf.lq.bursty0.fromArrival;
    // the shared dispatch (class by class, then online DRF) gives IRFsim's LQ-0 average here (1.7% above it with the old dispatch)
    expect(lq0(byDefault) / irf - 1).toBeCloseTo(0, 2);
    expect(lq0(deadline) / irf - 1).toBeGreaterThan(0.1); // 12.9% with the shared dispatch, over 15% with the old one
  });

  // The claim "every per-LQ average within 5% of IRFsim's" misses once in 16, N-BoPF's LQ-0 in
  // Fig. 10 (its burst at 500 s finishes in 55 s here, 40 s in IRFsim): IRFsim's online DRF
  // compares dominant shares rounded to 0.01, and from the first decision that rounding changes
  // (t = 155 s) the elastic queues' histories drift apart. With that rounding (next test) all 16
  // are within 1%: the miss is arithmetic, not model (docs/reproduction-bopf.md, "After the
  // priority tiers").
  it("measured miss: 15 of 16 per-LQ averages within 5% of IRFsim's; N-BoPF's LQ-0 in Fig. 10 is +6.9%", { timeout: 1_800_000 }, async () => {
    const misses = (await gaps()).filter((g) => Math.abs(g.gap) > 0.05);
    expect(misses.map((g) => `${g.setup} ${g.policy} ${g.queue}`)).toEqual(["fig10 nbopf bursty0"]);
    expect(misses[0].gap, `measured ${misses[0].gap}`).toBeCloseTo(MEASURED_MISS, 3);
  });

  // The miss above is IRFsim's arithmetic, not its model: with its share rounding (shareDecimals:
  // 2) and its queue order (the fixtures', convertIrfsim) every per-LQ average is within 1%.
  it("with IRFsim's share rounding (shareDecimals: 2) every per-LQ average within 1% of IRFsim's", { timeout: 1_800_000 }, async () => {
    const all = await compare(2);
    console.table(all.map((g) => ({ ...g, irfsim: +g.irfsim.toFixed(2), ours: +g.ours.toFixed(2), gap: `${(100 * g.gap).toFixed(1)}%` })));
    for (const g of all) {
      expect(Math.abs(g.gap), `${g.setup} ${g.policy} ${g.queue}`).toBeLessThanOrEqual(0.01);
      expect(g.finishedDiff, `${g.setup} ${g.policy} ${g.queue}`).toBe(0);
    }
  });

  // The dispatch's optional starvation guard (docs/policies/simulator.md, "Starvation guard"; off
  // in the simulator by default, on in the live scheduler); IRFsim's has none. With it: 15 of 16 within 5%
  // as without, the one miss N-BoPF's LQ-0 at +7.4% (+6.9% without), SP's three within 2.1%
  // (0.0% without), the same LQ jobs finished (docs/reproduction-bopf.md, "The starvation guard").
  it("with the starvation guard: the same LQ jobs finished, as many within 5% as without it, none beyond 8%", { timeout: 1_800_000 }, async () => {
    const all = await guardedGaps();
    console.table(all.map((g) => ({ ...g, irfsim: +g.irfsim.toFixed(2), ours: +g.ours.toFixed(2), gap: `${(100 * g.gap).toFixed(1)}%` })));
    for (const g of all) {
      expect(Math.abs(g.finishedDiff), `${g.setup} ${g.policy} ${g.queue}`).toBeLessThanOrEqual(1);
      expect(Math.abs(g.gap), `${g.setup} ${g.policy} ${g.queue}`).toBeLessThanOrEqual(GUARDED_GAP);
    }
    const within = (xs: LqGap[]) => xs.filter((g) => Math.abs(g.gap) <= 0.05).length;
    expect(within(all)).toBeGreaterThanOrEqual(within(await gaps()));
  });

  // With the starvation guard the paper's "N-BoPF best for LQ-0" (Fig. 11) is not strict: Fig. 10's
  // LQ-0 averages the same under N-BoPF and BoPF (one N-BoPF burst 1 s slower than without the
  // guard; docs/reproduction-bopf.md, "The starvation guard").
  it("measured miss, starvation guard (ours): Fig. 10's LQ-0 averages 46.6 s under N-BoPF and under BoPF, a tie", { timeout: 1_800_000 }, async () => {
    const lq0 = (policy: string) => guardedGaps().then((all) => all.find((x) => x.setup === "fig10" && x.policy === policy && x.queue === "bursty0")!.ours);
    const nbopf = await lq0("nbopf"), bopf = await lq0("bopf");
    expect(nbopf, `N-BoPF ${nbopf}`).toBeCloseTo(GUARDED_LQ0.nbopf, 2);
    expect(bopf, `BoPF ${bopf}`).toBeCloseTo(GUARDED_LQ0.bopf, 2);
    expect(nbopf).toBeGreaterThanOrEqual(bopf);
  });
});

/** The largest |gap| with the starvation guard, rounded up: fig10 nbopf bursty0, +7.4%. */
const GUARDED_GAP = 0.08;

/** The largest |gap| measured on these fixtures with today's dispatch, rounded up (docs/reproduction-bopf.md). */
const MEASURED_GAP = 0.07; // largest measured: fig10 nbopf bursty0, +6.9% (SP's +10.9% closed by its priority tiers)

/** The one per-LQ average beyond 5% without the guard, measured: fig10 nbopf bursty0. */
const MEASURED_MISS = 0.0691; // 0.06912: (ours - IRFsim) / IRFsim

/** Fig. 10's LQ-0 average with the starvation guard (ours, s from arrival), measured. */
const GUARDED_LQ0 = { nbopf: 46.6, bopf: 46.6 };
