// Properties of LTRF / H-LTRF (fast-check): Theorem 1, sharing incentive in the long run,
// strategyproofness, windows, min/max shares, quantum convergence.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { loadEngineSync } from "../../src/index.js";
import { HLtrf } from "../../src/ltrf/hltrf.js";
import { buildTree, type QueueTree } from "../../src/ltrf/tree.js";
import { runStepModel } from "../../src/ltrf/step-model.js";
import { stepFairness } from "../../src/ltrf/fairness.js";
import { UsageLedger } from "../../src/ltrf/ledger.js";
import { QuantumUpdater } from "../../src/ltrf/quantum.js";
import { Rng } from "../../src/random/rng.js";

const engine = loadEngineSync();

/** The naive hierarchical descent, written independently: scan children every task. */
function naive(tree: QueueTree, free: Float64Array, tasks: Float64Array, pending: Float64Array, usage: Float64Array, inc: Float64Array): number[] {
  const n = tree.leaves, k = free.length;
  const count = new Array<number>(n).fill(0);
  const left = Array.from(pending);
  const out = new Array<boolean>(n).fill(false);
  for (let i = 0; i < n; i++) {
    if (left[i] > 0 && tasks.slice(i * k, i * k + k).every((d) => d === 0)) { count[i] = left[i]; usage[i] = usage[i] + left[i] * inc[i]; left[i] = 0; }
  }
  const U = (v: number): number => (v < n ? usage[v] : tree.children[v].reduce((a, c) => a + U(c), 0));
  const live = (v: number): boolean => (v < n ? left[v] > 0 && !out[v] : tree.children[v].some(live));
  while (live(tree.root)) {
    let v = tree.root;
    while (v >= n) {
      let best = -1;
      for (const c of tree.children[v]) {
        if (!live(c)) continue;
        if (best < 0) { best = c; continue; }
        const a = U(c) / tree.weight[c], b = U(best) / tree.weight[best];
        if (a < b || (a === b && tree.firstLeaf[c] < tree.firstLeaf[best])) best = c;
      }
      v = best;
    }
    const fits = tasks.slice(v * k, v * k + k).every((d, r) => !(d > free[r]));
    if (!fits) { out[v] = true; continue; }
    for (let r = 0; r < k; r++) free[r] = free[r] - tasks[v * k + r];
    count[v]++; left[v]--; usage[v] = usage[v] + inc[v];
  }
  return count;
}

const treeArb = fc.array(
  fc.record({ path: fc.array(fc.constantFrom("a", "b", "c"), { maxLength: 3 }), weight: fc.constantFrom(1, 2, 0.5, 3) }),
  { minLength: 1, maxLength: 12 },
);

const roundsArb = (n: number, k: number) => fc.array(fc.record({
  free: fc.array(fc.integer({ min: 0, max: 30 }), { minLength: k, maxLength: k }),
  tasks: fc.array(fc.integer({ min: 0, max: 4 }), { minLength: n * k, maxLength: n * k }),
  pending: fc.array(fc.integer({ min: 0, max: 8 }), { minLength: n, maxLength: n }),
  inc: fc.array(fc.constantFrom(0, 1, 0.5, 2, 0.25), { minLength: n, maxLength: n }),
  dt: fc.constantFrom(0, 1, 2, 5),
}), { minLength: 1, maxLength: 6 });

describe("H-LTRF Theorem 1 (random trees and workloads)", () => {
  const arb = fc.record({ leaves: treeArb, k: fc.integer({ min: 1, max: 3 }) }).chain(({ leaves, k }) =>
    fc.record({ leaves: fc.constant(leaves), k: fc.constant(k), rounds: roundsArb(leaves.length, k) }));

  it("T_wait = 0 allocates exactly like single-level LTRF (engine.ltrf)", () => {
    fc.assert(fc.property(arb, ({ leaves, k, rounds }) => {
      const specs = leaves.map((l, i) => ({ name: `q${i}`, path: l.path, weight: l.weight }));
      const tree = buildTree(specs);
      const h = new HLtrf(tree, { tWait: 0 });
      const n = specs.length;
      const weights = specs.map((s) => s.weight);
      let uH: Float64Array = new Float64Array(n), uK: Float64Array = new Float64Array(n);
      let t = 0;
      for (const r of rounds) {
        t += r.dt;
        const count = new Float64Array(n);
        const free = Float64Array.from(r.free);
        h.allocate({ time: t, free, tasks: Float64Array.from(r.tasks), pending: Float64Array.from(r.pending), usage: uH, increments: Float64Array.from(r.inc), count });
        const kr = engine.ltrf({ free: r.free, tasks: r.tasks, pending: r.pending, usage: uK, weights, increments: r.inc });
        expect(Array.from(count)).toEqual(Array.from(kr.count));
        expect(Array.from(uH)).toEqual(Array.from(kr.usage));
        uK = kr.usage;
        uH = Float64Array.from(uH);
      }
    }), { numRuns: 400 });
  });

  it("T_wait = Infinity allocates exactly like the naive hierarchical approach", () => {
    fc.assert(fc.property(arb, ({ leaves, k, rounds }) => {
      const specs = leaves.map((l, i) => ({ name: `q${i}`, path: l.path, weight: l.weight }));
      const tree = buildTree(specs);
      const h = new HLtrf(tree, { tWait: Infinity });
      const n = specs.length;
      const uH = new Float64Array(n), uN = new Float64Array(n);
      let t = 0;
      for (const r of rounds) {
        t += r.dt;
        const count = new Float64Array(n);
        h.allocate({ time: t, free: Float64Array.from(r.free), tasks: Float64Array.from(r.tasks), pending: Float64Array.from(r.pending), usage: uH, increments: Float64Array.from(r.inc), count });
        const ref = naive(tree, Float64Array.from(r.free), Float64Array.from(r.tasks), Float64Array.from(r.pending), uN, Float64Array.from(r.inc));
        expect(Array.from(count)).toEqual(ref);
        expect(Array.from(uH)).toEqual(Array.from(uN));
      }
    }), { numRuns: 400 });
  });

  it("random tie-breaking is deterministic for a seed", () => {
    const specs = [{ name: "a", path: ["x"] }, { name: "b", path: ["y"] }, { name: "c", path: ["y"] }];
    const run = (seed: number) => {
      const rng = new Rng(seed);
      const h = new HLtrf(buildTree(specs), { tWait: Infinity, tieBreak: "random", random: () => rng.next() });
      const count = new Float64Array(3);
      h.allocate({ time: 0, free: Float64Array.of(7), tasks: Float64Array.of(1, 1, 1), pending: Float64Array.of(9, 9, 9), usage: new Float64Array(3), increments: Float64Array.of(1, 1, 1), count });
      return Array.from(count);
    };
    expect(run(5)).toEqual(run(5));
  });

  it("random tie-breaking draws only for candidates: an idle queue never moves the random stream", () => {
    // Same demanding queues, with and without an idle queue 'idle' (own group): same draws, same starts.
    const busy = [{ name: "a", path: ["x"] }, { name: "b", path: ["y"] }, { name: "c", path: ["y"] }];
    const run = (specs: Array<{ name: string; path: string[] }>) => {
      let draws = 0;
      const rng = new Rng(3);
      const h = new HLtrf(buildTree(specs), { tWait: Infinity, tieBreak: "random", random: () => { draws++; return rng.next(); } });
      const n = specs.length, out: number[][] = [];
      const usage = new Float64Array(n);
      for (let t = 0; t < 5; t++) {
        const count = new Float64Array(n);
        const pending = Float64Array.from(specs, (q) => (q.name === "idle" ? 0 : 4));
        h.allocate({ time: t, free: Float64Array.of(5), tasks: new Float64Array(n).fill(1), pending, usage, increments: new Float64Array(n).fill(1), count });
        out.push(Array.from(count).slice(0, 3));
      }
      return { draws, out };
    };
    expect(run([...busy, { name: "idle", path: ["z"] }])).toEqual(run(busy));
  });
});

const workloadArb = fc.record({
  capacity: fc.integer({ min: 4, max: 30 }),
  steps: fc.integer({ min: 60, max: 120 }),
  others: fc.array(fc.array(fc.integer({ min: 0, max: 40 }), { minLength: 120, maxLength: 120 }), { minLength: 1, maxLength: 4 }),
  weights: fc.array(fc.constantFrom(1, 2, 3), { minLength: 5, maxLength: 5 }),
});

describe("LTRF properties on the step model", () => {
  it("sharing incentive in the long run: a continuously backlogged queue ends with rho >= 1 - n/(C T)", () => {
    fc.assert(fc.property(workloadArb, ({ capacity, steps, others, weights }) => {
      const users = [
        { name: "backlogged", weight: weights[0], arrivals: new Array<number>(steps).fill(capacity) },
        ...others.map((a, i) => ({ name: `o${i}`, weight: weights[i + 1], arrivals: a.slice(0, steps) })),
      ];
      const r = runStepModel(engine, { capacity, users }, "ltrf");
      const f = stepFairness(r, capacity, users.map((u) => u.weight));
      const rho = f.rho[0][steps - 1];
      expect(rho).toBeGreaterThanOrEqual(1 - users.length / (capacity * steps) - 1e-12);
    }), { numRuns: 150 });
  });

  it("strategyproofness: useless extra tasks never raise a queue's useful accumulated allocation", () => {
    const arb = fc.record({
      capacity: fc.integer({ min: 2, max: 20 }),
      truth: fc.array(fc.integer({ min: 0, max: 15 }), { minLength: 30, maxLength: 30 }),
      lies: fc.array(fc.integer({ min: 0, max: 15 }), { minLength: 30, maxLength: 30 }),
      others: fc.array(fc.array(fc.integer({ min: 0, max: 20 }), { minLength: 30, maxLength: 30 }), { minLength: 1, maxLength: 3 }),
    });
    fc.assert(fc.property(arb, ({ capacity, truth, lies, others }) => {
      const rest = others.map((a, i) => ({ name: `o${i}`, arrivals: a }));
      const honest = runStepModel(engine, { capacity, users: [{ name: "x", arrivals: truth }, ...rest] }, "ltrf");
      const liar = runStepModel(engine, { capacity, users: [{ name: "x", arrivals: truth.map((t, i) => t + lies[i]) }, ...rest] }, "ltrf");
      // the liar's real tasks queue ahead of its useless ones (FIFO): useful = what its real backlog absorbs
      let backlog = 0, useful = 0;
      liar.forEach((s, t) => {
        backlog += truth[t];
        const served = Math.min(backlog, s.alloc[0]);
        backlog -= served;
        useful += served;
        expect(useful).toBeLessThanOrEqual(honest[t].cumulative[0]);
      });
    }), { numRuns: 300 });
  });

  it("time windows: the ledger is exactly the allocation since the last multiple of L", () => {
    fc.assert(fc.property(workloadArb, fc.integer({ min: 1, max: 15 }), ({ capacity, others }, L) => {
      const users = others.map((a, i) => ({ name: `u${i}`, arrivals: a.slice(0, 40) }));
      const r = runStepModel(engine, { capacity, users, window: L }, "ltrf");
      r.forEach((s, t) => s.ledger.forEach((u, i) => {
        const since = t - (t % L);
        const want = r.slice(since, t + 1).reduce((a, x) => a + x.alloc[i], 0);
        expect(u).toBe(want);
      }));
    }), { numRuns: 100 });
  });

  it("UsageLedger resets exactly at window boundaries, whatever the observation times", () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 50 }), fc.array(num(0, 30), { minLength: 1, maxLength: 30 }), num(0, 2), (L, gaps, rate) => {
      const led = new UsageLedger(1, L);
      led.setRate(0, rate);
      let t = 0;
      for (const g of gaps) {
        t += g;
        led.advance(t);
        const since = t - Math.floor(t / L) * L;
        expect(led.usage[0]).toBeCloseTo(rate * since, 6);
        expect(led.resets).toBe(Math.floor(t / L));
      }
      led.advance(Math.ceil(t / L + 1e-9) * L);
      expect(led.usage[0]).toBe(0); // exactly on a boundary: the new round is empty
    }), { numRuns: 300 });
  });

  it("min share: a queue gets min(demand, floor(minShare C)) every step, even with the largest usage; max share caps it", () => {
    fc.assert(fc.property(workloadArb, fc.double({ min: 0, max: 0.5, noNaN: true }), fc.double({ min: 0.5, max: 1, noNaN: true }), ({ capacity, others }, minS, maxS) => {
      const users = [
        { name: "m", minShare: minS, maxShare: maxS, arrivals: new Array<number>(40).fill(capacity) },
        ...others.map((a, i) => ({ name: `u${i}`, arrivals: a.slice(0, 40) })),
      ];
      const r = runStepModel(engine, { capacity, users }, "ltrf");
      for (const s of r) {
        expect(s.alloc[0]).toBeGreaterThanOrEqual(Math.min(s.totalDemand[0], Math.floor(minS * capacity)));
        expect(s.alloc[0]).toBeLessThanOrEqual(Math.floor(maxS * capacity));
        expect(s.alloc.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(capacity);
      }
    }), { numRuns: 150 });
  });
});

function num(min: number, max: number) {
  return fc.double({ min, max, noNaN: true, noDefaultInfinity: true });
}

describe("Quantum updater (Fig. 4)", () => {
  it("worked example: apps 6 and 12 -> queue 9 -> root 9; new apps inherit", () => {
    const q = new QuantumUpdater(10, 0);
    const a1 = q.app(["fb"], "a1"), a2 = q.app(["fb"], "a2");
    q.taskStarted(a1, "t1", 0); q.taskFinished("t1", 4);
    q.taskStarted(a1, "t2", 0); q.taskFinished("t2", 8);
    q.taskStarted(a2, "t3", 0);
    expect(q.assumed("t3", 3)).toBe(10); // counts the quantum until it runs longer
    expect(q.assumed("t3", 11)).toBe(11);
    q.taskFinished("t3", 12);
    q.refresh(12);
    expect(q.quantum(a1)).toBe(6);
    expect(q.quantum(a2)).toBe(12);
    expect(q.quantum(q.queue(["fb"]))).toBe(9);
    expect(q.quantum(q.queue([]))).toBe(9);
    expect(q.quantum(q.app(["other", "x"], "new"))).toBe(9);
  });

  it("estimates converge to the true mean task duration at every level", () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 1e6 }), num(1, 100), num(0, 200), (seed, mean, q0) => {
      const rng = new Rng(seed);
      const q = new QuantumUpdater(q0, 5);
      const apps = [q.app(["g1", "a"], "j1"), q.app(["g1", "b"], "j2"), q.app(["g2", "c"], "j3")];
      let t = 0, id = 0;
      for (let i = 0; i < 6000; i++) {
        const app = apps[i % apps.length];
        const d = rng.exponential(mean);
        q.taskStarted(app, `t${id}`, t);
        q.taskFinished(`t${id++}`, t + d);
        t += 0.5;
        q.refresh(t);
      }
      q.refresh(t, true);
      for (const node of [...apps, q.queue(["g1"]), q.queue([])]) expect(Math.abs(q.quantum(node) - mean) / mean).toBeLessThan(0.15);
    }), { numRuns: 50 });
  });
});
