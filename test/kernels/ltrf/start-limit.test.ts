// The LTRF start limit (assembly/ltrf.ts "Start limit"; engine.ltrf / prepareLtrf / HLtrf
// maxStarts). Algorithm 1 starts one task at a time, so a call that could start 2^53 tasks
// (a task below half an ulp of what is free never shrinks it) ran for hours. Now:
// - a call that names no limit stops at 2^24 starts with an InputError naming maxStarts;
// - a call that names one stops there, and its result is an exact prefix: resuming with
//   pending - count and the result's usage and free, in parts of any size, ends with the same
//   bits as one call without a limit (the property below, both backends, both modes).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { InputError, loadEngineSync, ltrf } from "../../../src/index.js";
import { DEFAULT_MAX_STARTS } from "../../../src/kernels/ltrf/call.js";
import { Status } from "../../../src/kernels/status.js";
import { ltrfInstance, type LtrfInstance } from "../../helpers/ltrf-instance.js";

const { HLtrf, buildTree } = ltrf;
const engines = [loadEngineSync({ backend: "wasm" }), loadEngineSync({ backend: "js" })];
const bits = (a: ArrayLike<number>) => Array.from(a, (x) => (Object.is(x, -0) ? "-0" : String(x)));
const caught = (f: () => unknown): InputError => {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(InputError);
    return e as InputError;
  }
  throw new Error("no error");
};

/** Runs x in parts of at most m starts each, resuming from each part's result. */
function inParts(e: (typeof engines)[number], x: LtrfInstance, m: number) {
  const pending = x.pending.slice(), count = new Array<number>(x.pending.length).fill(0);
  let usage = x.usage, free = x.free, parts = 0;
  for (;;) {
    const r = e.ltrf({ ...x, pending, usage, free, maxStarts: m });
    const started = r.count.reduce((a, c) => a + c, 0);
    parts++;
    r.count.forEach((c, i) => {
      count[i] += c;
      pending[i] -= c;
    });
    usage = Array.from(r.usage);
    free = Array.from(r.free);
    // a part that starts fewer than m (beyond the needs-nothing ones of the first part) is the last
    const zeroStarts = parts === 1 && !x.blocking ? zeroRowStarts(x) : 0;
    expect(started - zeroStarts).toBeLessThanOrEqual(m);
    if (started - zeroStarts < m) return { count, usage, free, parts };
  }
}

function zeroRowStarts(x: LtrfInstance): number {
  const k = x.free.length;
  let s = 0;
  x.pending.forEach((p, i) => {
    if (x.tasks.slice(i * k, i * k + k).every((d) => d === 0)) s += p;
  });
  return s;
}

describe("LTRF start limit", () => {
  it("a limited call is an exact prefix: parts of any size resume to the same bits as one call (both backends, both modes)", () => {
    fc.assert(fc.property(ltrfInstance(), fc.integer({ min: 1, max: 40 }), (x, m) => {
      for (const e of engines) {
        const whole = e.ltrf({ ...x, maxStarts: Infinity });
        const plain = e.ltrf(x);
        expect(bits(plain.count)).toEqual(bits(whole.count));
        const parts = inParts(e, x, m);
        expect(bits(parts.count)).toEqual(bits(whole.count));
        expect(bits(parts.usage)).toEqual(bits(whole.usage));
        expect(bits(parts.free)).toEqual(bits(whole.free));
      }
    }), { numRuns: 300 });
  });

  it("maxStarts 0 starts only the tasks that need nothing (work-conserving); counts sum to the limit when it stops", () => {
    for (const e of engines) {
      const x = { free: [10], tasks: [[0], [1], [2]], pending: [4, 5, 5], usage: [0, 0, 0] };
      expect(Array.from(e.ltrf({ ...x, maxStarts: 0 }).count)).toEqual([4, 0, 0]);
      expect(Array.from(e.ltrf({ ...x, blocking: true, maxStarts: 0 }).count)).toEqual([0, 0, 0]);
      const r = e.ltrf({ ...x, maxStarts: 3 });
      expect(Array.from(r.count)).toEqual([4, 2, 1]); // U ties broken by index: B, C, B
      expect(Array.from(r.free)).toEqual([6]);
    }
  });

  it("a task below half an ulp of free never shrinks it: the default limit refuses after 2^24 starts instead of running 2^53; a given limit answers", () => {
    for (const e of engines) {
      const x = { free: [6], tasks: [[5e-324]], pending: [2 ** 53] };
      const err = caught(() => e.ltrf(x));
      expect(err.field).toBe("maxStarts");
      expect(err.message).toMatch(/would start more than 16777216 tasks one by one \(queue 0 was next/);
      const r = e.ltrf({ ...x, maxStarts: 1000 });
      expect(Array.from(r.count)).toEqual([1000]);
      expect(Array.from(r.free)).toEqual([6]);
      expect(Array.from(r.usage)).toEqual([1000]);
    }
  });

  it("10^9 tasks of 10^-9 of the cluster: refused at the default limit, exactly the limit given", () => {
    for (const e of engines) {
      const x = { free: [1], tasks: [[1e-9], [1e-9]], pending: [1e9, 1e9], increments: [1, 2] };
      expect(caught(() => e.ltrf(x)).field).toBe("maxStarts");
      const r = e.ltrf({ ...x, maxStarts: DEFAULT_MAX_STARTS / 16 });
      expect(r.count[0] + r.count[1]).toBe(DEFAULT_MAX_STARTS / 16);
      // U_1 grows twice as fast, so queue 0 starts about two tasks to queue 1's one
      expect(Math.abs(r.count[0] - 2 * r.count[1])).toBeLessThanOrEqual(2);
    }
  });

  it("bad maxStarts -> InputError naming it, from the call, the prepared problem and the kernel's own check", () => {
    for (const e of engines) {
      for (const bad of [-1, 1.5, NaN, -Infinity, "3", null]) {
        expect(caught(() => e.ltrf({ free: [1], tasks: [[1]], pending: [1], maxStarts: bad as never })).field).toBe("maxStarts");
        const p = e.prepareLtrf(1, 1);
        expect(caught(() => (p.maxStarts = bad as never)).field).toBe("maxStarts");
        expect(caught(() => p.load({ free: [1], tasks: [[1]], pending: [1], maxStarts: bad as never })).field).toBe("maxStarts");
      }
      // the kernels check the limit they read (a prepared region written by other means)
      const block = e.kernels.stage("ltrf", 1, 1);
      const s = block.views();
      s.free[0] = 1; s.tasks[0] = 1; s.pending[0] = 1; s.usage[0] = 0; s.increments[0] = 1; s.maxStarts[0] = 0.5;
      const code = block.run({ useWeights: false, blocking: false, partial: false });
      expect({ code, index: block.errorIndex() }).toEqual({ code: Status.MaxStarts, index: 0 });
    }
  });

  it("prepared problems: maxStarts set on the problem, resumed through its views; unset again, the default refuses", () => {
    for (const e of engines) {
      const p = e.prepareLtrf(2, 1);
      p.free[0] = 100; p.tasks.set([1, 2]); p.pending.set([50, 50]);
      const whole = e.ltrf({ free: [100], tasks: [[1], [2]], pending: [50, 50] });
      p.maxStarts = 7;
      const total = [0, 0];
      for (let part = 0; part < 100; part++) {
        const r = p.solve();
        const started = r.count[0] + r.count[1];
        total[0] += r.count[0]; total[1] += r.count[1];
        if (started < 7) break;
        const { count, usage, free } = r;
        p.pending.set([p.pending[0] - count[0], p.pending[1] - count[1]]);
        p.usage.set(usage);
        p.free.set(free);
      }
      expect(total).toEqual(Array.from(whole.count));
      expect(p.maxStarts).toBe(7);
      p.load({ free: [1], tasks: [[1e-300], [1]], pending: [2 ** 40, 0] });
      expect(p.maxStarts).toBe(undefined);
      expect(caught(() => p.solve()).field).toBe("maxStarts");
      p.maxStarts = 3;
      expect(Array.from(p.solve().count)).toEqual([3, 0]);
    }
  });
});

describe("HLtrf start limit", () => {
  const LEAVES = [{ name: "A", path: ["G1"] }, { name: "B", path: ["G1"] }, { name: "C", path: ["G2"] }];
  const call = (pending: number[], tasks: number[], free: number[]) => ({
    time: 5, free: Float64Array.from(free), tasks: Float64Array.from(tasks), pending: Float64Array.from(pending),
    usage: new Float64Array(3), increments: Float64Array.of(1, 2, 1), count: new Float64Array(3),
  });

  it("parts of m starts resume to the same schedule as one call (any tWait)", () => {
    fc.assert(fc.property(
      fc.array(fc.integer({ min: 0, max: 25 }), { minLength: 3, maxLength: 3 }),
      fc.array(fc.integer({ min: 0, max: 3 }), { minLength: 6, maxLength: 6 }),
      fc.integer({ min: 1, max: 12 }), fc.constantFrom(0, 1, Infinity),
      (pending, tasks, m, tWait) => {
        const one = new HLtrf(buildTree(LEAVES), { tWait });
        const whole = call(pending, tasks, [20, 30]);
        expect(one.allocate(whole)).toBe(true);
        const h = new HLtrf(buildTree(LEAVES), { tWait });
        const c = call(pending, tasks, [20, 30]);
        const total = [0, 0, 0];
        for (let part = 0; ; part++) {
          expect(part).toBeLessThan(100);
          // leaves whose task needs nothing start all at once, outside the limit
          const upFront = [0, 1, 2].reduce((a, i) => (tasks[2 * i] === 0 && tasks[2 * i + 1] === 0 ? a + c.pending[i] : a), 0);
          const complete = h.allocate({ ...c, maxStarts: m });
          const started = c.count.reduce((a, x) => a + x, 0) - upFront;
          c.count.forEach((x, i) => { total[i] += x; c.pending[i] -= x; });
          if (complete) break;
          expect(started).toBe(m);
        }
        expect(total).toEqual(Array.from(whole.count));
        expect(bits(c.usage)).toEqual(bits(whole.usage));
        expect(bits(c.free)).toEqual(bits(whole.free));
        expect(bits(h.waitSince)).toEqual(bits(one.waitSince));
      }), { numRuns: 200 });
  });

  it("the default limit refuses a call that never ends and changes nothing", () => {
    const h = new HLtrf(buildTree(LEAVES), { tWait: 1 });
    const c = call([2 ** 53, 3, 0], [5e-324, 0, 1, 1, 1, 1], [6, 6]);
    const before = structuredClone({ free: c.free, usage: c.usage, count: c.count, wait: h.waitSince, starved: h.starvedServed });
    const err = caught(() => h.allocate(c));
    expect(err.field).toBe("maxStarts");
    expect({ free: c.free, usage: c.usage, count: c.count, wait: h.waitSince, starved: h.starvedServed }).toEqual(before);
    expect(h.allocate({ ...c, maxStarts: 10 })).toBe(false);
    expect(c.count[0] + c.count[1]).toBe(10);
    expect(c.count[1]).toBe(3); // B's three tasks come before A's usage passes 6
  });
});
