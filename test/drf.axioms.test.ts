// SPEC §2.1: the eight DRF axioms as property tests, >= 1,000 random instances each, on both backends.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { backends, close } from "./helpers/engines.js";
import { dominantShare, instanceArb, row, utility, waterFill, type Instance } from "./helpers/drf-model.js";

const RUNS = 1000;
const TOL = 1e-9;

for (const [name, make] of backends) {
  describe(`DRF axioms (${name})`, () => {
    const engine = make();
    const run = (x: Instance) => engine.drf(x);
    const weightOf = (x: Instance, i: number) => x.weights?.[i] ?? 1;

    it("1. feasibility: 0 <= lambda <= 1 and no resource over capacity", () => {
      fc.assert(fc.property(instanceArb(), (x) => {
        const k = x.capacity.length;
        const r = run(x);
        for (const l of r.fraction) expect(l >= 0 && l <= 1).toBe(true);
        for (let c = 0; c < k; c++) {
          let sum = 0;
          for (let i = 0; i < x.demands.length; i++) sum += r.allocation[i * k + c];
          expect(sum).toBeLessThanOrEqual(x.capacity[c] * (1 + TOL));
        }
      }), { numRuns: RUNS });
    });

    it("2. Pareto efficiency: every unsatisfied queue uses a saturated resource", () => {
      fc.assert(fc.property(instanceArb(), (x) => {
        const k = x.capacity.length;
        const r = run(x);
        const used = new Array<number>(k).fill(0);
        x.demands.forEach((_, i) => { for (let c = 0; c < k; c++) used[c] += r.allocation[i * k + c]; });
        x.demands.forEach((d, i) => {
          if (r.fraction[i] >= 1 - TOL || d.every((v) => v === 0)) return;
          const blocked = d.some((v, c) => v > 0 && used[c] >= x.capacity[c] * (1 - TOL));
          expect(blocked, `queue ${i} lambda ${r.fraction[i]} is not blocked`).toBe(true);
        });
      }), { numRuns: RUNS });
    });

    it("3. sharing incentive: lambda_i >= min(1, (w_i / W) / delta_i)", () => {
      fc.assert(fc.property(instanceArb(), (x) => {
        const r = run(x);
        let W = 0;
        x.demands.forEach((d, i) => { if (d.some((v) => v > 0)) W += weightOf(x, i); });
        x.demands.forEach((d, i) => {
          const delta = dominantShare(d, x.capacity);
          if (delta === 0) return;
          const bound = Math.min(1, weightOf(x, i) / W / delta);
          expect(r.fraction[i]).toBeGreaterThanOrEqual(bound * (1 - TOL) - 1e-12);
        });
      }), { numRuns: RUNS });
    });

    it("4. envy-freeness (weighted): no unsatisfied queue prefers another's scaled allocation", () => {
      fc.assert(fc.property(instanceArb(), (x) => {
        const k = x.capacity.length;
        const r = run(x);
        const envious: string[] = [];
        x.demands.forEach((d, i) => {
          if (r.fraction[i] >= 1 - TOL) return;
          const own = utility(d, row(r.allocation, i, k));
          x.demands.forEach((_, j) => {
            if (i === j) return;
            const scaled = Array.from(row(r.allocation, j, k), (v) => (v * weightOf(x, i)) / weightOf(x, j));
            if (utility(d, scaled) > own * (1 + TOL) + 1e-12) envious.push(`${i} envies ${j}`);
          });
        });
        expect(envious).toEqual([]);
      }), { numRuns: RUNS });
    });

    it("5. strategyproofness: no lie raises the liar's true utility", () => {
      // lies: scale one resource up/down, add demand on an unused resource, copy another
      // queue's vector, scale the whole vector, report a random vector
      const lieArb = fc.record({
        kind: fc.constantFrom("scaleOne", "addUnused", "copyOther", "scaleAll", "random"),
        factor: fc.double({ min: 0.05, max: 20, noNaN: true, noDefaultInfinity: true }),
        pick: fc.nat(),
        // no subnormals: a ramp narrower than f64 resolves is an InputError by design (test/drf.validation)
        random: fc.array(fc.oneof(fc.constant(0), fc.double({ min: 1e-6, max: 60, noNaN: true, noDefaultInfinity: true })), { minLength: 6, maxLength: 6 }),
      });
      fc.assert(fc.property(instanceArb({ maxN: 20 }), fc.nat(), fc.array(lieArb, { minLength: 1, maxLength: 6 }), (x, who, lies) => {
        const k = x.capacity.length;
        const n = x.demands.length;
        const i = who % n;
        const truth = x.demands[i];
        const honest = run(x);
        const uHonest = utility(truth, row(honest.allocation, i, k));
        for (const lie of lies) {
          let report = truth.slice();
          switch (lie.kind) {
            case "scaleOne": report[lie.pick % k] *= lie.factor; break;
            case "addUnused": {
              const unused = report.map((v, c) => (v === 0 ? c : -1)).filter((c) => c >= 0);
              if (unused.length === 0) continue;
              report[unused[lie.pick % unused.length]] = lie.factor;
              break;
            }
            case "copyOther": report = x.demands[lie.pick % n].slice(); break;
            case "scaleAll": report = report.map((v) => v * lie.factor); break;
            case "random": report = lie.random.slice(0, k); break;
          }
          const demands = x.demands.map((d, j) => (j === i ? report : d));
          const out = run({ ...x, demands });
          const uLie = utility(truth, row(out.allocation, i, k));
          expect(uLie, `lie ${lie.kind} ${JSON.stringify(report)}`).toBeLessThanOrEqual(uHonest * (1 + 1e-9) + 1e-12);
        }
      }), { numRuns: RUNS });
    });

    it("6a. single-resource fairness: K = 1 is weighted water-filling", () => {
      fc.assert(fc.property(instanceArb({ minK: 1, maxK: 1 }), (x) => {
        const r = run(x);
        const w = x.demands.map((_, i) => weightOf(x, i));
        const expected = waterFill(x.capacity[0], x.demands.map((d) => d[0]), w);
        expected.forEach((e, i) => expect(close(r.allocation[i], e, 1e-9), `queue ${i}: ${r.allocation[i]} vs ${e}`).toBe(true));
      }), { numRuns: RUNS });
    });

    it("6b. bottleneck fairness: a common dominant resource is split by water-filling", () => {
      const arb = instanceArb({ minK: 2 }).map((x) => {
        // make resource 0 everyone's dominant resource
        const demands = x.demands.map((d) => {
          const d0 = Math.max(...d.map((v, c) => v / x.capacity[c])) * x.capacity[0];
          return [d0, ...d.slice(1)];
        });
        return { ...x, demands };
      });
      fc.assert(fc.property(arb, (x) => {
        const k = x.capacity.length;
        const r = run(x);
        const w = x.demands.map((_, i) => weightOf(x, i));
        const expected = waterFill(x.capacity[0], x.demands.map((d) => d[0]), w);
        expected.forEach((e, i) => expect(close(r.allocation[i * k], e, 1e-9), `queue ${i}`).toBe(true));
      }), { numRuns: RUNS });
    });

    it("7. population monotonicity when every queue demands every resource", () => {
      fc.assert(fc.property(instanceArb({ allPositive: true, maxN: 30 }), fc.nat(), (x, who) => {
        const n = x.demands.length;
        if (n < 2) return;
        const leaving = who % n;
        const before = run(x);
        const demands = x.demands.map((d, j) => (j === leaving ? d.map(() => 0) : d));
        const after = run({ ...x, demands });
        for (let j = 0; j < n; j++) {
          if (j === leaving) continue;
          expect(after.fraction[j]).toBeGreaterThanOrEqual(before.fraction[j] * (1 - 1e-9) - 1e-12);
        }
      }), { numRuns: RUNS });
    });

    it("7b. population monotonicity fails with zero demands (SPEC counterexample)", () => {
      const capacity = [1, 1, 1];
      const all = run({ capacity, demands: [[1.38, 0.55, 1.8], [0, 1.06, 0], [1.74, 0, 1.03]] });
      const without = run({ capacity, demands: [[1.38, 0.55, 1.8], [0, 1.06, 0], [0, 0, 0]] });
      expect(all.fraction[1]).toBeCloseTo(0.7802, 4);
      expect(without.fraction[1]).toBeCloseTo(0.7226, 4);
    });

    it("8. determinism and order independence", () => {
      fc.assert(fc.property(instanceArb(), fc.nat(), (x, seed) => {
        const n = x.demands.length;
        const a = run(x);
        const b = run(x);
        expect(Array.from(b.fraction)).toEqual(Array.from(a.fraction));
        expect(Array.from(b.allocation)).toEqual(Array.from(a.allocation));
        // a deterministic permutation from the seed
        const perm = [...Array(n).keys()];
        let s = seed;
        for (let i = n - 1; i > 0; i--) { s = (s * 1103515245 + 12345) >>> 0; const j = s % (i + 1); [perm[i], perm[j]] = [perm[j], perm[i]]; }
        const px: Instance = { capacity: x.capacity, demands: perm.map((p) => x.demands[p]) };
        if (x.weights) px.weights = perm.map((p) => x.weights![p]);
        const pr = run(px);
        perm.forEach((p, i) => expect(close(pr.fraction[i], a.fraction[p], 1e-9), `queue ${p}`).toBe(true));
      }), { numRuns: RUNS });
    });
  });
}
