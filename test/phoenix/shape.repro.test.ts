// The Phoenix paper's headline shapes on the real Yahoo trace (YH2_sub.tr, all 3,363 jobs) with
// generated constraints, asserted over seeds with 95% confidence intervals (src/stats/confidence.ts;
// issue 19). The same runs over 20 seeds, and the Google steady window, are in
// docs/reproduction-phoenix.md (bench/phoenix/reproduce.mjs, docs/data/phoenix-issue19-runs.jsonl);
// this file reruns the first seeds of them (bit-identical runs) to keep its time down.
//
// Setting (as the bench): constraints seed s ^ 0x5eed calibrated on the simulated cluster
// (machines seed s ^ 0x3a7e, so every constrained job fits >= 5% of its workers), simulation
// seed s, workers for 90% offered load (~0.8 busy where short jobs arrive: the high-utilization
// regime) and 40%, the model's defaults (long-job CRV demand released when a task starts, any
// idle Hawk-C worker steals, Phoenix negotiates soft constraints).
//
// What holds, with a margin: at high load Phoenix and Eagle-C are statistically the same on the
// short-job tail (the paper's 1.9x does NOT reproduce: asserted below as the measured
// numbers); at low load the two coincide; long jobs are not hurt; Phoenix is far ahead of
// Hawk-C (further than the paper's 5.5x: the measured number below); and placing probes by estimated wait
// over all eligible workers gives a gain of the paper's size, to Phoenix and to Eagle-C alike: it
// comes from placement, not from CRV reordering. 44 simulations.
import { beforeAll, describe, expect, it } from "vitest";
import { loadEngineSync } from "../../src/index.js";
import { loadEagleTrace, EAGLE_CUTOFFS } from "../../src/traces/eagle.js";
import { attachConstraints, workersForUtilization, type PhoenixJob } from "../../src/phoenix/workload.js";
import { generateMachines } from "../../src/phoenix/machines.js";
import { simulateNodes } from "../../src/phoenix/node-sim.js";
import { busyAtArrivals, groupStats, saturatedSpan } from "../../src/phoenix/metrics.js";
import { getNodePolicy, type NodePolicyOptions } from "../../src/phoenix/policies.js";
import { meanCi95 } from "../../src/stats/confidence.js";
import { Rng } from "../../src/random/rng.js";
import type { Machines } from "../../src/phoenix/constraints.js";
import { tracePath } from "../helpers/traces.js";

type Run = { g: ReturnType<typeof groupStats>; r: ReturnType<typeof simulateNodes>; busyShort: number; saturated: number };
const WINDOW = 1000;
const seeds = (n: number) => Array.from({ length: n }, (_, i) => i + 1);
/** Runs by key `${policy}/${config}@${load}`, one per seed (index seed - 1). */
const runs = new Map<string, Run[]>();
const get = (key: string) => runs.get(key)!;

beforeAll(async () => {
  const engine = loadEngineSync();
  const tr = await loadEagleTrace(tracePath("eagle-format/YH2_sub.tr"));
  const setups = new Map<string, { jobs: PhoenixJob[]; machines: Machines; workers: number; shortArrivals: number[] }>();
  const setup = (seed: number, u: number) => {
    const k = `${seed}@${u}`;
    if (!setups.has(k)) {
      const workers = workersForUtilization(attachConstraints(tr.jobs, new Rng(0), { constrainedFraction: 0 }), u);
      const machines = generateMachines(workers, new Rng(seed ^ 0x3a7e));
      const jobs = attachConstraints(tr.jobs, new Rng(seed ^ 0x5eed), { fleet: machines });
      setups.set(k, { jobs, machines, workers, shortArrivals: jobs.filter((j) => !(j.estimate > EAGLE_CUTOFFS.yahoo)).map((j) => j.arrival) });
    }
    return setups.get(k)!;
  };
  const run = (policy: string, config: string, options: NodePolicyOptions, u: number, n: number) => {
    const out: Run[] = [];
    for (const seed of seeds(n)) {
      const s = setup(seed, u);
      const r = simulateNodes(s.jobs, { engine, policy: getNodePolicy(policy, options), workers: s.workers, machines: s.machines, seed, cutoff: EAGLE_CUTOFFS.yahoo, busyWindow: WINDOW });
      out.push({ g: groupStats(r.jobs), r, busyShort: busyAtArrivals(r.busyProfile, WINDOW, s.jobs[0].arrival, s.shortArrivals)!, saturated: saturatedSpan(r.busyProfile, WINDOW, 0.95) });
    }
    runs.set(`${policy}/${config}@${u}`, out);
  };
  run("phoenix", "default", {}, 0.9, 10);
  run("eagle-c", "default", {}, 0.9, 10);
  run("hawk-c", "default", {}, 0.9, 6);
  run("phoenix", "default", {}, 0.4, 3);
  run("eagle-c", "default", {}, 0.4, 3);
  run("phoenix", "wait-aware", { waitAwareAllEligible: true }, 0.9, 6);
  run("eagle-c", "wait-aware", { waitAwareAllEligible: true }, 0.9, 6);
}, 3_600_000); // 44 simulations: over 15 min on two busy cores

type Pick = (x: Run) => number;
const p99: Pick = (x) => x.g.short.p99!;
/** Geometric mean of the per-seed ratio a / b and its 95% interval (t interval on the log ratios). */
function ratioCi(a: Run[], b: Run[], pick: Pick) {
  const n = Math.min(a.length, b.length);
  const c = meanCi95(Array.from({ length: n }, (_, i) => Math.log(pick(a[i]) / pick(b[i]))));
  return { mean: Math.exp(c.mean), lo: Math.exp(c.lo!), hi: Math.exp(c.hi!) };
}

/** A ratio (geometric mean and 95% interval) within 0.0005 of the measured one (3 decimals). */
function expectRatio(c: ReturnType<typeof ratioCi>, measured: { mean: number; lo: number; hi: number }, what: string): void {
  const msg = `${what}: ${c.mean.toFixed(4)} [${c.lo.toFixed(4)}, ${c.hi.toFixed(4)}], measured ${measured.mean} [${measured.lo}, ${measured.hi}]`;
  expect(c.mean, msg).toBeCloseTo(measured.mean, 3);
  expect(c.lo, msg).toBeCloseTo(measured.lo, 3);
  expect(c.hi, msg).toBeCloseTo(measured.hi, 3);
}

describe("Phoenix vs Eagle-C and Hawk-C on Yahoo (95% intervals over seeds)", () => {
  it("the ~90% offered load is the high-utilization regime where short jobs arrive, ~40% is not", () => {
    // the arrival-span busy fraction stays below 0.7 (the trace's opening 12,000 s hold one job),
    // yet short jobs meet a busy fraction above 0.6 on arrival on every seed, ~0.78 on average
    // (seeds 1-10: 0.72-0.85, interval [0.75, 0.81])
    const high = get("eagle-c/default@0.9"), low = get("eagle-c/default@0.4");
    for (const x of high) {
      expect(x.r.arrivalUtilization).toBeLessThan(0.7);
      expect(x.busyShort).toBeGreaterThan(0.6);
    }
    expect(meanCi95(high.map((x) => x.busyShort)).lo!).toBeGreaterThan(0.72);
    for (const x of low) {
      expect(x.busyShort).toBeLessThan(0.55);
      expect(x.saturated).toBeLessThan(5_000);
    }
  });

  it("at high load Phoenix's short-job p50/p90/p99 equal Eagle-C's within the interval (10 seeds: every bound within 5%)", () => {
    // measured: p50 1.001 [1.000, 1.002], p90 0.999 [0.995, 1.003], p99 0.994 [0.985, 1.003]
    const p = get("phoenix/default@0.9"), e = get("eagle-c/default@0.9");
    for (const pick of [(x: Run) => x.g.short.p50!, (x: Run) => x.g.short.p90!, p99]) {
      const c = ratioCi(p, e, pick);
      expect(c.lo).toBeGreaterThan(0.95);
      expect(c.hi).toBeLessThan(1.05);
    }
  });

  // Not the paper's shape nor its magnitude (Fig. 7: Phoenix's p99 below Eagle-C's at high load,
  // 52% of it): docs/reproduction-phoenix.md explains the miss (CRV mode rarely triggers; the tail
  // is set by placement on few eligible workers, which reordering does not change).
  it("measured miss: Phoenix / Eagle-C short-job p99 at high load is 0.994 [0.985, 1.003] over seeds 1-10 (holds 1; the paper: below 1, 0.52)", () => {
    const c = ratioCi(get("phoenix/default@0.9"), get("eagle-c/default@0.9"), p99);
    expectRatio(c, { mean: 0.994, lo: 0.985, hi: 1.003 }, "Phoenix / Eagle-C p99");
    expect(c.hi).toBeGreaterThan(1); // the paper's shape: the whole interval below 1
    expect(c.lo).toBeGreaterThan(0.6); // the paper's magnitude: 0.52
  });

  it("the two coincide at low load: within 1% on the short-job p99 on every seed", () => {
    const p = get("phoenix/default@0.4"), e = get("eagle-c/default@0.4");
    p.forEach((x, i) => expect(Math.abs(p99(x) / p99(e[i]) - 1)).toBeLessThan(0.01));
  });

  it("long jobs are not hurt: the long-job p50 and p99 ratios' intervals stay below 1.05", () => {
    const p = get("phoenix/default@0.9"), e = get("eagle-c/default@0.9");
    expect(ratioCi(p, e, (x) => x.g.long.p50!).hi).toBeLessThan(1.05);
    expect(ratioCi(p, e, (x) => x.g.long.p99!).hi).toBeLessThan(1.05);
  });

  it("Phoenix is far ahead of Hawk-C at high load: Phoenix / Hawk-C p99 and p90 intervals below 0.2 (6 seeds)", () => {
    // measured: p99 0.057 [0.024, 0.134], p90 0.025 [0.016, 0.039]
    const p = get("phoenix/default@0.9"), h = get("hawk-c/default@0.9");
    expect(ratioCi(p, h, p99).hi).toBeLessThan(0.2);
    expect(ratioCi(p, h, (x) => x.g.short.p90!).hi).toBeLessThan(0.2);
  });

  // Not the paper's Hawk-C magnitude (Fig. 10: Phoenix takes 18% of Hawk-C's p99 at 86%
  // utilization): on Yahoo Hawk-C is much worse than that, FIFO queues behind long work on a
  // 90%-busy cluster (docs/reproduction-phoenix.md has Google, where the ratio is closer).
  it("measured miss: Phoenix / Hawk-C p99 at high load is 0.057 [0.024, 0.134] over seeds 1-6 (the paper: 0.18)", () => {
    const c = ratioCi(get("phoenix/default@0.9"), get("hawk-c/default@0.9"), p99);
    expectRatio(c, { mean: 0.057, lo: 0.024, hi: 0.134 }, "Phoenix / Hawk-C p99");
    expect(c.hi).toBeLessThan(0.18);
  });

  it("probes placed by estimated wait over all eligible workers cut the p99 by the paper's size, under Phoenix and Eagle-C alike (6 seeds)", () => {
    const pw = get("phoenix/wait-aware@0.9"), ew = get("eagle-c/wait-aware@0.9"), e = get("eagle-c/default@0.9");
    // against Eagle-C as it is: 0.41 [0.23, 0.73] (the paper: 0.52)
    const gain = ratioCi(pw, e, p99);
    expect(gain.mean).toBeLessThan(0.6);
    expect(gain.hi).toBeLessThan(0.8);
    // the same placement under Eagle-C gives the same, 1.003 [0.991, 1.014]: the gain is
    // placement, not CRV
    const same = ratioCi(pw, ew, p99);
    expect(same.lo).toBeGreaterThan(0.95);
    expect(same.hi).toBeLessThan(1.05);
  });
});
