// fairsched/testkit as a library: the generator's knobs, reports that replay, assertFair's
// readable error, async allocators with a timeout, and what the kit finds in our baselines.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  AXIOM_IDS, assertFair, checkAllocator, clusterStateArb, referenceDrf, replayCase, type Allocator,
} from "../../src/testkit/index.js";
import { loadEngineSync } from "../../src/engine/load.js";
import { InputError } from "../../src/errors.js";
import { assetFairness, mesosAllocator, yarnAllocator } from "../fixtures/testkit/baselines.js";

const engine = loadEngineSync();
const drf = referenceDrf(engine);
/** DRF that keeps 10% back: leaves capacity idle. */
const idle: Allocator = (s) => Array.from(drf(s) as Float64Array, (v) => v * 0.9);

describe("clusterStateArb", () => {
  it("respects the sizes, the magnitude ranges, weights, offsets and task counts", () => {
    const o = { minQueues: 2, maxQueues: 5, minResources: 2, maxResources: 3, capacity: { min: 10, max: 20 }, demand: { min: 1, max: 2 }, weights: { min: 2, max: 3 }, offsets: { min: 0, max: 1 }, tasks: { min: 3, max: 4 } };
    fc.assert(fc.property(clusterStateArb(o), (s) => {
      const n = s.demands.length, k = s.capacity.length;
      expect(n >= 2 && n <= 5 && k >= 2 && k <= 3).toBe(true);
      for (const c of s.capacity) expect(c >= 10 && c <= 20).toBe(true);
      for (const d of s.demands) { expect(d).toHaveLength(k); for (const v of d) expect(v === 0 || (v >= 1 && v <= 2)).toBe(true); }
      expect(s.weights.every((w) => w >= 2 && w <= 3)).toBe(true);
      expect(s.offsets!.every((x) => x >= 0 && x <= 1)).toBe(true);
      expect(s.tasks!.every((t) => t === 3 || t === 4)).toBe(true);
    }), { numRuns: 200 });
  });

  it("zeroDemandProbability 0 / allPositive: no zeros; probability 1: all zeros; weights false: all 1; no offsets or tasks by default", () => {
    fc.assert(fc.property(clusterStateArb({ zeroDemandProbability: 0 }), clusterStateArb({ allPositive: true, zeroDemandProbability: 1 }), clusterStateArb({ zeroDemandProbability: 1, weights: false }), (a, b, c) => {
      expect(a.demands.flat().every((v) => v > 0)).toBe(true);
      expect(b.demands.flat().every((v) => v > 0)).toBe(true);
      expect(c.demands.flat().every((v) => v === 0)).toBe(true);
      expect(c.weights.every((w) => w === 1)).toBe(true);
      expect(a.offsets).toBeUndefined();
      expect(a.tasks).toBeUndefined();
    }), { numRuns: 100 });
  });

  it("a bad knob is an InputError naming it", () => {
    expect(() => clusterStateArb({ minQueues: 0 })).toThrow(InputError);
    expect(() => clusterStateArb({ minQueues: 0 })).toThrow(/^minQueues: /);
    expect(() => clusterStateArb({ capacity: { min: 0, max: 1 } })).toThrow(/^capacity: /);
    expect(() => clusterStateArb({ zeroDemandProbability: 2 })).toThrow(/^zeroDemandProbability: /);
  });
});

describe("checkAllocator / assertFair / replayCase", () => {
  it("the reference DRF passes every axiom, divisible and task-granular", async () => {
    for (const taskGranular of [false, true]) {
      const r = await checkAllocator(drf, { runs: 200, seed: 11, taskGranular, engine });
      expect(r.failed, `taskGranular ${taskGranular}`).toEqual([]);
      expect(r.axioms.map((a) => a.axiom)).toEqual([...AXIOM_IDS]);
    }
  });

  it("a failure replays: the same seed and path give the same shrunk case, and replayCase gives its sentence", async () => {
    const r = await checkAllocator(idle, { axioms: ["pareto-efficiency"], seed: 5, engine });
    const a = r.axioms[0];
    expect(a.passed).toBe(false);
    expect(a.message).toMatch(/^queue \d runs 0\.9 of its demand while every resource it needs has room/);
    const again = await checkAllocator(idle, { axioms: ["pareto-efficiency"], seed: a.seed, path: a.path, engine });
    expect(again.axioms[0].counterexample).toEqual(a.counterexample);
    const json = JSON.parse(JSON.stringify(a.counterexample));
    expect(await replayCase(idle, json)).toBe(a.message);
    expect(await replayCase(drf, json)).toBeNull();
  });

  it("assertFair throws a readable error naming the axioms and the case; passes silently otherwise", async () => {
    await expect(assertFair(idle, { axioms: ["pareto-efficiency", "feasibility"], seed: 1, engine })).rejects.toThrow(/allocator is not fair: pareto-efficiency\n.*\n {2}FAIL {2}pareto-efficiency: queue \d .*\n {8}shrunk case: \{"axiom":"pareto-efficiency"/);
    await expect(assertFair(drf, { axioms: ["feasibility"], runs: 20, engine })).resolves.toBeUndefined();
  });

  it("async allocators are awaited; one slower than timeoutMs is a finding with its input", async () => {
    const slowOnPairs: Allocator = async (s) => {
      if (s.demands.length === 2) await new Promise((done) => setTimeout(done, 200));
      return drf(s);
    };
    const r = await checkAllocator(slowOnPairs, { axioms: ["feasibility"], runs: 50, seed: 2, timeoutMs: 50, engine });
    expect(r.axioms[0].message).toMatch(/^the allocator did not answer within 50 ms \(input: \{"capacity":.*\(not shrunk\)$/);
    expect(r.axioms[0].counterexample!.input.state.demands).toHaveLength(2);
  });

  it("a thrown error or a wrong shape is a finding, not an exception", async () => {
    const r = await checkAllocator((s) => (s.demands.length > 1 ? [[1]] : drf(s)), { axioms: ["feasibility"], runs: 50, seed: 3, engine });
    expect(r.axioms[0].message).toMatch(/the allocator returned 1 rows, expected 2/);
    const t = await checkAllocator(() => { throw new Error("nope"); }, { axioms: ["determinism"], runs: 5, seed: 3, engine });
    expect(t.axioms[0].message).toMatch(/^the allocator threw: nope \(input: /);
  });

  it("bad options are InputErrors naming the option", async () => {
    await expect(checkAllocator(drf, { axioms: ["fairness" as never] })).rejects.toThrow(InputError);
    await expect(checkAllocator(drf, { axioms: ["fairness" as never] })).rejects.toThrow(/^axioms: unknown axiom 'fairness'/);
    await expect(checkAllocator(drf, { runs: 0 })).rejects.toThrow(/^runs: /);
    await expect(replayCase(drf, { axiom: "feasibility" } as never)).rejects.toThrow(/^case\.input\.state: missing/);
  });
});

describe("what the kit finds in our baselines (recorded in docs/testkit.md)", () => {
  it("YARN-style bisection: over-allocates by its bisection's upper bound, and is not Pareto-efficient", async () => {
    const r = await checkAllocator(yarnAllocator, { seed: 7, engine });
    expect(r.failed).toEqual(expect.arrayContaining(["feasibility", "pareto-efficiency"]));
    expect(r.axioms.find((a) => a.axiom === "feasibility")!.message).toMatch(/over-allocated/);
    // 25 bisection steps from [0, hi] leave an absolute error of hi / 2^25 per unit weight:
    // on a small capacity that is still more than 1e-6 relative
    const loose = await checkAllocator(yarnAllocator, { seed: 7, tolerance: 1e-6, drfTolerance: 1e-6, engine });
    expect(loose.failed).toEqual(expect.arrayContaining(["feasibility", "pareto-efficiency"]));
    expect(loose.failed).not.toContain("strategyproofness");
  });

  it("Mesos-style discrete DRF: holds the relaxed axioms but envy-freeness (large tasks starve behind small ones)", async () => {
    const r = await checkAllocator(mesosAllocator, { seed: 7, taskGranular: true, tasks: { min: 10, max: 10 }, engine });
    expect(r.failed).toEqual(["envy-freeness", "matches-drf"]);
  });

  it("asset fairness: fails sharing incentive and bottleneck fairness", async () => {
    const r = await checkAllocator(assetFairness, { seed: 7, engine });
    expect(r.failed).toEqual(expect.arrayContaining(["sharing-incentive", "bottleneck-fairness"]));
    expect(r.failed).not.toContain("feasibility");
  });
});
