// LTRF kernel (Algorithm 1): WASM == JS twin exactly, equals a one-task-at-a-time O(N)
// reference, is work-conserving, agrees with the step (DRF-with-offsets) form, and rejects
// bad input with an InputError naming field and index.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ltrfLiteral } from "../../helpers/ltrf-literal.js";
import { ltrfInstance } from "../../helpers/ltrf-instance.js";
import { InputError, loadEngineSync } from "../../../src/index.js";
import { runStepModel } from "../../../src/ltrf/step-model.js";

const wasm = loadEngineSync({ backend: "wasm" });
const js = loadEngineSync({ backend: "js" });

const instance = ltrfInstance();

const reference = ltrfLiteral;

describe("LTRF kernel", () => {
  it("worked example: Table 1 step t3", () => {
    for (const e of [wasm, js]) {
      const r = e.ltrf({ free: [100], tasks: [[1], [1]], pending: [80, 70], usage: [60, 140] });
      expect(Array.from(r.count)).toEqual([80, 20]);
      expect(Array.from(r.usage)).toEqual([140, 160]);
      expect(Array.from(r.free)).toEqual([0]);
    }
  });

  it("WASM == JS exactly, and both equal the O(N)-per-task reference", () => {
    fc.assert(fc.property(instance, (x) => {
      const a = wasm.ltrf(x), b = js.ltrf(x);
      expect(Array.from(a.count)).toEqual(Array.from(b.count));
      expect(Array.from(a.usage)).toEqual(Array.from(b.usage));
      expect(Array.from(a.free)).toEqual(Array.from(b.free));
      const ref = reference(x);
      expect(Array.from(a.count)).toEqual(ref.count);
      expect(Array.from(a.usage)).toEqual(ref.usage);
      expect(Array.from(a.free)).toEqual(ref.free);
    }), { numRuns: 600 });
  });

  it("Pareto efficiency: work-conserving mode leaves no pending task that fits", () => {
    fc.assert(fc.property(instance, (x) => {
      const r = wasm.ltrf({ ...x, blocking: false });
      const k = x.free.length;
      x.pending.forEach((p, i) => {
        if (r.count[i] >= p) return;
        const fits = x.tasks.slice(i * k, i * k + k).every((d, j) => d <= r.free[j]);
        expect(fits).toBe(false);
      });
      r.free.forEach((f) => expect(f).toBeGreaterThanOrEqual(-1e-9));
    }), { numRuns: 300 });
  });

  it("large instances: one call, N = 20,000 queues, 200,000 tasks; WASM == JS", () => {
    const n = 20000;
    let s = 11;
    const rnd = () => ((s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32);
    const tasks = new Float64Array(n * 2).map(() => 1 + Math.floor(rnd() * 3));
    const pending = new Float64Array(n).map(() => Math.floor(rnd() * 20));
    const usage = new Float64Array(n).map(() => rnd() * 100);
    const increments = new Float64Array(n).map(() => rnd());
    const x = { free: [200000, 300000], tasks, pending, usage, increments };
    const a = wasm.ltrf(x), b = js.ltrf(x);
    expect(Array.from(a.count)).toEqual(Array.from(b.count));
    expect(a.count.reduce((p, c) => p + c, 0)).toBeGreaterThan(50000);
  });

  it("step form (DRF with offsets) and task form give the same totals on unit-task workloads", () => {
    const arb = fc.record({
      capacity: fc.integer({ min: 1, max: 40 }),
      users: fc.array(fc.array(fc.integer({ min: 0, max: 30 }), { minLength: 6, maxLength: 6 }), { minLength: 1, maxLength: 5 }),
    });
    fc.assert(fc.property(arb, ({ capacity, users }) => {
      const input = { capacity, users: users.map((arrivals, i) => ({ name: `u${i}`, arrivals })) };
      const task = runStepModel(wasm, input, "ltrf", "task");
      const fluid = runStepModel(wasm, input, "ltrf", "fluid");
      task.forEach((s, t) => {
        const sumT = s.alloc.reduce((a, b) => a + b, 0), sumF = fluid[t].alloc.reduce((a, b) => a + b, 0);
        expect(Math.abs(sumT - sumF)).toBeLessThan(1e-6); // same work each step
        s.cumulative.forEach((c, i) => expect(Math.abs(c - fluid[t].cumulative[i])).toBeLessThanOrEqual(1 + 1e-6)); // within one task
      });
    }), { numRuns: 200 });
  });

  it("too large for memory (the scratch alone passes 4 GiB) -> InputError, engine still fine", () => {
    // flat number[]s that claim 56 million queues (K = 1) without allocating them: the inputs
    // fit in 4 GiB, inputs plus the kernel's scratch (80 bytes a queue) do not
    const n = 56_000_000;
    const huge = new Proxy([] as number[], { get: (t, p) => (p === "length" ? n : typeof p === "string" && /^\d+$/.test(p) ? 1 : Reflect.get(t, p)) });
    expect(() => wasm.ltrf({ free: [1], tasks: huge, pending: huge })).toThrow(InputError);
    expect(() => wasm.ltrf({ free: [1], tasks: huge, pending: huge })).toThrow(/^tasks: problem too large for memory/);
    expect(Array.from(wasm.ltrf({ free: [100], tasks: [[1], [1]], pending: [80, 70], usage: [60, 140] }).count)).toEqual([80, 20]);
  });

  const bad: Array<[string, Record<string, unknown>, RegExp]> = [
    ["negative free", { free: [1, -1], tasks: [[1, 1]], pending: [1] }, /^free\[1\]: must be a finite number >= 0/],
    ["NaN task", { free: [1], tasks: [[1], [NaN]], pending: [1, 1] }, /^tasks\[1\]\[0\]: .*NaN/],
    ["fractional pending", { free: [1], tasks: [[1]], pending: [1.5] }, /^pending\[0\]: must be a whole number/],
    ["negative usage", { free: [1], tasks: [[1], [1]], pending: [1, 1], usage: [0, -3] }, /^usage\[1\]: must be a finite number >= 0 \(got -3\)/],
    ["zero weight", { free: [1], tasks: [[1]], pending: [1], weights: [0] }, /^weights\[0\]: must be a finite number > 0/],
    ["Infinity increment", { free: [1], tasks: [[1]], pending: [1], increments: [Infinity] }, /^increments\[0\]/],
    ["pending length", { free: [1], tasks: [[1]], pending: [1, 2] }, /^pending: has length 2, expected N=1/],
    ["no resources", { free: [], tasks: [], pending: [] }, /^free: must list at least one resource/],
    ["blocking not boolean", { free: [1], tasks: [[1]], pending: [1], blocking: 1 }, /^blocking: must be a boolean/],
    ["overflowing usage", { free: [1], tasks: [[1]], pending: [1], usage: [1e308], weights: [1e-10] }, /^usage\[0\]: usage \/ weight overflows/],
  ];
  for (const [what, input, re] of bad) {
    it(`${what} -> InputError on both backends, engine still fine`, () => {
      for (const e of [wasm, js]) {
        expect(() => e.ltrf(input as never)).toThrow(InputError);
        expect(() => e.ltrf(input as never)).toThrow(re);
        expect(Array.from(e.ltrf({ free: [100], tasks: [[1], [1]], pending: [80, 70], usage: [60, 140] }).count)).toEqual([80, 20]);
      }
    });
  }
});
