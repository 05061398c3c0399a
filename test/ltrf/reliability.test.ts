// Reliability findings in the LTRF namespace (issue 21): names that are Object.prototype
// properties (finding 3), HLtrf usage overflow (9), QuantumUpdater keys (10) and aliased
// HLtrf arrays (12). Each test failed before its fix.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { InputError } from "../../src/errors.js";
import { HLtrf } from "../../src/ltrf/hltrf.js";
import { QuantumUpdater } from "../../src/ltrf/quantum.js";
import { buildTree } from "../../src/ltrf/tree.js";
import { FUZZ } from "../helpers/hostile.js";
import { bopfWorkload, loadEngineSync, simulate } from "../../src/index.js";
import { MAX_FAIRNESS_SAMPLES } from "../../src/ltrf/planned-policy.js";

/** Names that a plain object answers without owning them. */
const PROTO_NAMES = ["constructor", "toString", "__proto__", "hasOwnProperty", "valueOf", "__defineGetter__", "isPrototypeOf"];

function call(n: number, k: number, over: Partial<Record<string, Float64Array | number>> = {}) {
  return {
    time: 0,
    free: new Float64Array(k).fill(10),
    tasks: new Float64Array(n * k).fill(1),
    pending: new Float64Array(n).fill(2),
    usage: new Float64Array(n),
    increments: new Float64Array(n).fill(1),
    count: new Float64Array(n),
    ...over,
  };
}

function throwsInput(f: () => unknown, field: string | RegExp): InputError {
  let err: unknown = null;
  try {
    f();
  } catch (e) {
    err = e;
  }
  expect(err).toBeInstanceOf(InputError);
  const e = err as InputError;
  if (typeof field === "string") expect(e.field).toBe(field);
  else expect(e.field).toMatch(field);
  return e;
}

describe("finding 3: group names that are Object.prototype properties", () => {
  it("buildTree: a group named constructor / toString / __proto__ weighs the sum of its leaves", () => {
    for (const name of PROTO_NAMES) {
      const t = buildTree([{ name: "A", path: [name] }, { name: "B", path: [name, "x"], weight: 2 }]);
      for (const w of t.weight) expect(Number.isFinite(w) && w > 0).toBe(true);
      // the group [name] holds A (1) and [name, x] (2)
      expect(Array.from(t.weight)).toEqual([1, 2, 3, 3, 2]);
    }
    const t = buildTree([{ name: "A", path: ["constructor"] }]);
    expect(Array.from(t.weight)).toEqual([1, 1, 1]);
  });

  it("buildTree: groupWeights are read as own keys only; a configured __proto__ weight applies", () => {
    const gw = JSON.parse('{"__proto__": 5, "constructor": 7}') as Record<string, number>;
    const t = buildTree([{ name: "A", path: ["__proto__"] }, { name: "B", path: ["constructor"] }], gw);
    expect(Array.from(t.weight)).toEqual([1, 1, 2, 5, 7]);
    // a key naming no group is refused by name, whatever it is called
    throwsInput(() => buildTree([{ name: "A", path: ["G"] }], JSON.parse('{"__proto__": 2}')), "groupWeights.__proto__");
  });

  it("renaming groups (to or from prototype names) does not change H-LTRF's schedule (property)", () => {
    const names = ["G0", "G1", "G2", ...PROTO_NAMES];
    const leafArb = fc.record({ path: fc.array(fc.nat(names.length - 1), { maxLength: 3 }), weight: fc.integer({ min: 1, max: 4 }) });
    const stepArb = fc.record({
      pending: fc.array(fc.nat(5), { minLength: 6, maxLength: 6 }),
      free: fc.array(fc.integer({ min: 0, max: 12 }), { minLength: 2, maxLength: 2 }),
    });
    fc.assert(
      fc.property(
        fc.array(leafArb, { minLength: 1, maxLength: 6 }),
        fc.array(stepArb, { minLength: 1, maxLength: 5 }),
        fc.constantFrom(0, 1, Infinity),
        fc.shuffledSubarray(names, { minLength: names.length, maxLength: names.length }),
        fc.boolean(),
        (leaves, steps, tWait, perm, weighGroups) => {
          // a bijection onto plain names: the schedule must not depend on what groups are called
          const rename = (i: number) => `safe-${perm.indexOf(names[i])}`;
          const mk = (f: (i: number) => string) => leaves.map((l, i) => ({ name: `q${i}`, path: l.path.map(f), weight: l.weight }));
          const a = mk((i) => names[i]);
          const b = mk(rename);
          // optionally weigh every first-level group 3, keyed by its (renamed) name
          const gw = (ls: typeof a) => {
            // a plain object as users write it (own keys, so `__proto__` is a key, as from JSON.parse)
            const out: Record<string, number> = {};
            if (weighGroups) for (const l of ls) if (l.path.length > 0) Object.defineProperty(out, l.path[0], { value: 3, enumerable: true, configurable: true, writable: true });
            return out;
          };
          const ta = buildTree(a, gw(a)), tb = buildTree(b, gw(b));
          expect(Array.from(ta.weight)).toEqual(Array.from(tb.weight));
          for (const w of ta.weight) expect(Number.isFinite(w) && w > 0).toBe(true);
          const ha = new HLtrf(ta, { tWait }), hb = new HLtrf(tb, { tWait });
          const n = leaves.length, k = 2;
          const ua = new Float64Array(n), ub = new Float64Array(n);
          steps.forEach((s, t) => {
            const base = { time: t, tasks: new Float64Array(n * k).fill(1), pending: Float64Array.from(s.pending.slice(0, n)), increments: new Float64Array(n).fill(1) };
            const ca = { ...base, free: Float64Array.from(s.free), usage: ua, count: new Float64Array(n) };
            const cb = { ...base, free: Float64Array.from(s.free), usage: ub, count: new Float64Array(n) };
            ha.allocate(ca);
            hb.allocate(cb);
            expect(Array.from(ca.count)).toEqual(Array.from(cb.count));
            expect(Array.from(ua)).toEqual(Array.from(ub));
          });
        },
      ),
      FUZZ,
    );
  });
});

describe("finding 9: HLtrf.allocate refuses usage that overflows f64 and changes nothing", () => {
  it("a start that would take usage to Infinity is an InputError naming usage[i]; free, usage, count and the clocks are as before", () => {
    const tree = buildTree([{ name: "A" }, { name: "B" }]);
    const h = new HLtrf(tree, { tWait: 1 });
    const c = call(2, 1, { usage: Float64Array.from([Number.MAX_VALUE, 0]), increments: Float64Array.from([Number.MAX_VALUE, 1]), pending: Float64Array.from([1, 0]) });
    const before = { free: c.free.slice(), usage: c.usage.slice(), count: c.count.slice(), wait: h.waitSince.slice(), served: h.starvedServed.slice() };
    throwsInput(() => h.allocate(c), "usage[0]");
    expect(Array.from(c.free)).toEqual(Array.from(before.free));
    expect(Array.from(c.usage)).toEqual(Array.from(before.usage));
    expect(Array.from(c.count)).toEqual(Array.from(before.count));
    expect(Array.from(h.waitSince)).toEqual(Array.from(before.wait));
    expect(Array.from(h.starvedServed)).toEqual(Array.from(before.served));
  });

  it("a task needing nothing whose usage overflows is refused the same way", () => {
    const h = new HLtrf(buildTree([{ name: "A" }]), { tWait: 0 });
    const c = call(1, 1, { tasks: new Float64Array(1), pending: Float64Array.from([4]), usage: Float64Array.from([1e308]), increments: Float64Array.from([1e308]) });
    throwsInput(() => h.allocate(c), "usage[0]");
    expect(c.usage[0]).toBe(1e308);
    expect(c.count[0]).toBe(0);
  });

  it("a group whose members' usage sums beyond f64 is refused (the next call would read an Infinity key)", () => {
    const h = new HLtrf(buildTree([{ name: "A", path: ["G"] }, { name: "B", path: ["G"] }, { name: "C" }]), { tWait: Infinity });
    const c = call(3, 1, { usage: Float64Array.from([1e308, 1e308, 0]) });
    throwsInput(() => h.allocate(c), /^usage/);
    expect(Array.from(c.count)).toEqual([0, 0, 0]);
    // a small weight: usage / weight overflows although usage does not
    const hw = new HLtrf(buildTree([{ name: "A", weight: 1e-10 }]), { tWait: 0 });
    throwsInput(() => hw.allocate(call(1, 1, { usage: Float64Array.from([1e300]) })), "usage[0]");
  });

  it("what engine.ltrf accepts, HLtrf accepts: usage up to the largest finite value", () => {
    const h = new HLtrf(buildTree([{ name: "A" }]), { tWait: 0 });
    const c = call(1, 1, { usage: Float64Array.from([1e307]), increments: Float64Array.from([1e307]), pending: Float64Array.from([3]) });
    expect(h.allocate(c)).toBe(true);
    expect(c.count[0]).toBe(3);
    expect(c.usage[0]).toBe(1e307 + 1e307 + 1e307 + 1e307);
  });
});

describe("finding 12: HLtrf with aliased arrays", () => {
  it("count and pending the same array: an InputError naming count, nothing changed", () => {
    const h = new HLtrf(buildTree([{ name: "A" }, { name: "B" }]), { tWait: 0 });
    const shared = Float64Array.from([2, 1]);
    const c = { ...call(2, 1), pending: shared, count: shared };
    throwsInput(() => h.allocate(c), "count");
    expect(Array.from(shared)).toEqual([2, 1]);
    expect(c.free[0]).toBe(10);
  });

  it("overlapping views of one buffer are refused too; read-only inputs may share memory", () => {
    const h = new HLtrf(buildTree([{ name: "A" }, { name: "B" }]), { tWait: 0 });
    const buf = new Float64Array(6);
    const usage = buf.subarray(0, 2);
    throwsInput(() => h.allocate({ ...call(2, 1), usage, increments: buf.subarray(1, 3) }), /^(usage|increments)$/);
    throwsInput(() => h.allocate({ ...call(2, 1), free: buf.subarray(1, 2), usage: buf.subarray(0, 2) }), /^(free|usage)$/);
    // disjoint views of one buffer are fine, and so is one array read as tasks and pending
    const ro = Float64Array.from([1, 1]);
    const c = { ...call(2, 1), usage: buf.subarray(0, 2), count: buf.subarray(2, 4), tasks: ro, pending: ro };
    expect(h.allocate(c)).toBe(true);
    expect(Array.from(c.count)).toEqual([1, 1]);
  });
});

describe("finding 10: QuantumUpdater keys", () => {
  it("the same app name under two queues is two nodes", () => {
    const q = new QuantumUpdater(10);
    const a = q.app(["fb"], "job1"), b = q.app(["tpch"], "job1");
    expect(a).not.toBe(b);
    q.taskStarted(a, "t1", 0);
    q.taskFinished("t1", 4);
    q.refresh(5, true);
    expect(q.quantum(a)).toBe(4);
    expect(q.quantum(b)).toBe(10);
    expect(q.quantum(q.queue(["tpch"]))).toBe(10);
    expect(q.app(["fb"], "job1")).toBe(a);
  });

  it("paths ['a','b'] and ['a/b'] are distinct queues; an app and a queue of one name are distinct", () => {
    const q = new QuantumUpdater(10);
    expect(q.queue(["a", "b"])).not.toBe(q.queue(["a/b"]));
    expect(q.queue(["a", "b"])).toBe(q.queue(["a", "b"]));
    expect(q.app(["a"], "b")).not.toBe(q.queue(["a", "b"]));
    expect(q.queue(["__proto__"])).not.toBe(q.queue(["constructor"]));
  });

  it("a duplicate running task id is an InputError; the first task is kept", () => {
    const q = new QuantumUpdater(10);
    const a = q.app(["fb"], "j"), b = q.app(["fb"], "k");
    q.taskStarted(a, "t", 0);
    throwsInput(() => q.taskStarted(b, "t", 3), "taskId");
    expect(q.assumed("t", 20)).toBe(20);
    expect(q.taskFinished("t", 6)).toBe(6);
    // once finished, the id may be reused
    q.taskStarted(b, "t", 7);
    expect(q.taskFinished("t", 8)).toBe(1);
  });
});

describe("LTRF's fairness series is bounded (npm run fuzz, seed 2128: a task of 1.8e308 s grew it until the heap ran out)", () => {
  it("a run whose sampling would pass MAX_FAIRNESS_SAMPLES is an InputError naming policyOptions.sampleInterval, under every LTRF policy", () => {
    const engine = loadEngineSync();
    const w = bopfWorkload({ tqs: 2, tqJobs: 2, bursts: 1 }, 7);
    w.jobs[0]!.stages[0]!.duration = 1.7976931348623157e308;
    // ticks every 2^1010 s: 2^14 of them reach the task's end, within the tick bound (a shorter
    // interval is refused by that bound, before the series grows)
    for (const policy of ["ltrf", "mlrf", "h-ltrf"]) {
      const err = (() => { try { simulate(w, { policy, engine, updateInterval: 2 ** 1010 }); } catch (e) { return e; } return null; })();
      expect(err, policy).toBeInstanceOf(InputError);
      expect((err as InputError).message, policy).toMatch(/^policyOptions\.sampleInterval: /);
    }
    // and within the bound nothing changes: a longer interval runs it
    const r = simulate(bopfWorkload({ tqs: 2, tqJobs: 2, bursts: 1 }, 7), { policy: "ltrf", engine });
    expect(r.jobs.length).toBeGreaterThan(0);
    expect(MAX_FAIRNESS_SAMPLES).toBe(2 ** 20);
  });
});
