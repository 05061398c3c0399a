// Adversarial audit of the LTRF namespace (buildTree, HLtrf, QuantumUpdater, FairnessTracker,
// stepFairness): hostile numbers and objects give a result or an InputError naming the field,
// never a TypeError, a hang or a NaN stored in state; a refused HLtrf.allocate changes
// nothing (the next call answers as on a scheduler that never saw it); results keep their
// invariants (counts whole and within pending, free never negative).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ltrf } from "../../src/index.js";
import { FUZZ, hostileNumber, hostileValue, nonArray, outcome, sameBits } from "../helpers/hostile.js";

const { HLtrf, buildTree, QuantumUpdater, FairnessTracker, stepFairness } = ltrf;
const FIELD = /^(queues|groupWeights|tree|options|tWait|tieBreak|random|call|time|free|tasks|pending|usage|increments|count|path|app|appNode|node|taskId|t|weights|i|g|d|capacity|records|quantum|refreshInterval|maxStarts)(\.\w+|\[\d+\])*$/;

const LEAVES = [{ name: "A", path: ["G1"] }, { name: "B", path: ["G1"] }, { name: "C", path: ["G2"] }];
const N = 3, K = 2;

/** A call over N leaves and K resources; each cell may be hostile, each array may be the wrong kind. */
const cell = fc.oneof({ weight: 6, arbitrary: fc.integer({ min: 0, max: 6 }) }, { weight: 1, arbitrary: hostileNumber });
const f64 = (len: number) => fc.oneof(
  { weight: 12, arbitrary: fc.array(cell, { minLength: len, maxLength: len }).map((a) => Float64Array.from(a)) },
  { weight: 1, arbitrary: fc.constantFrom<unknown>(null, [1, 2], new Float32Array(len), new Float64Array(len + 1)) },
);
const callArb = fc.record({
  time: fc.oneof({ weight: 8, arbitrary: fc.integer({ min: 0, max: 20 }) }, { weight: 1, arbitrary: hostileValue }),
  free: f64(K), tasks: f64(N * K), pending: f64(N), usage: f64(N), increments: f64(N), count: f64(N),
  // small and invalid limits only: a large one (or Infinity) asks to wait for every start
  maxStarts: fc.option(fc.oneof(fc.integer({ min: 0, max: 40 }), fc.constantFrom<unknown>(-1, 1.5, NaN, -Infinity, "3", null, 1n)), { nil: undefined, freq: 3 }),
});

function copyCall(c: Record<string, unknown>) {
  const out: Record<string, unknown> = {};
  for (const key in c) out[key] = c[key] instanceof Float64Array ? (c[key] as Float64Array).slice() : c[key];
  return out;
}

describe("fuzz LTRF namespace", () => {
  it("HLtrf.allocate: hostile calls -> a schedule or an InputError; a refused call changes nothing", () => {
    fc.assert(
      fc.property(fc.array(callArb, { minLength: 1, maxLength: 6 }), fc.constantFrom(0, 1, 3, Infinity), (calls, tWait) => {
        const tree = buildTree(LEAVES);
        const h = new HLtrf(tree, { tWait });
        const ref = new HLtrf(tree, { tWait }); // sees only the accepted calls
        for (const c of calls) {
          const mine = copyCall(c), theirs = copyCall(c);
          const r = outcome(() => h.allocate(mine as never), FIELD);
          if (r.kind !== "ok") {
            // nothing written into the caller's arrays either
            for (const key in c) expect(sameBits(mine[key], c[key as keyof typeof c])).toBe(true);
            continue;
          }
          ref.allocate(theirs as never);
          expect(sameBits(mine, theirs)).toBe(true);
          const pending = c.pending as Float64Array, count = mine.count as Float64Array, free = mine.free as Float64Array;
          count.forEach((x, i) => expect(Number.isInteger(x) && x >= 0 && x <= pending[i]).toBe(true));
          free.forEach((x) => expect(x >= 0).toBe(true));
        }
        expect(sameBits(Array.from(h.waitSince), Array.from(ref.waitSince))).toBe(true);
      }),
      FUZZ,
    );
  });

  it("buildTree and the HLtrf constructor: hostile leaves, weights, paths, options -> a tree or an InputError", () => {
    const leafArb = fc.oneof(
      { weight: 8, arbitrary: fc.record({ name: fc.constantFrom("a", "b"), weight: fc.option(hostileValue, { nil: undefined }), path: fc.option(fc.oneof(fc.array(fc.constantFrom<unknown>("G", "H", "", "a/b", 3, null), { maxLength: 2 }), hostileValue), { nil: undefined }) }, { requiredKeys: ["name"] }) },
      { weight: 1, arbitrary: fc.constantFrom<unknown>(null, 3, "x") },
    );
    fc.assert(
      fc.property(
        fc.oneof({ weight: 6, arbitrary: fc.array(leafArb, { maxLength: 4 }) }, { weight: 1, arbitrary: nonArray }),
        fc.oneof(fc.constant(undefined), fc.constantFrom<unknown>(null, 3), fc.record({ G: hostileValue })),
        fc.oneof(fc.record({ tWait: hostileValue, tieBreak: fc.constantFrom<unknown>(undefined, "index", "random", 3) }), fc.constantFrom<unknown>(null, undefined)),
        (leaves, gw, opts) => {
          const t = outcome(() => buildTree(leaves as never, gw as never), FIELD);
          if (t.kind !== "ok") return;
          const o = outcome(() => new HLtrf(t.value as never, opts as never), FIELD);
          if (o.kind !== "ok") return;
          const tree = t.value as ReturnType<typeof buildTree>;
          tree.weight.forEach((w) => expect(w > 0).toBe(true));
        },
      ),
      FUZZ,
    );
    // a hand-made tree that is not buildTree's is refused by name
    expect(outcome(() => new HLtrf({} as never, { tWait: 0 })).kind).toBe("input");
  });

  it("QuantumUpdater: hostile paths, node ids and times -> InputError; quanta never NaN or negative", () => {
    const opArb = fc.oneof(
      fc.record({ op: fc.constant("app"), path: fc.oneof(fc.constant(["q"]), fc.constant([]), hostileValue), app: fc.oneof(fc.constantFrom("x", "y"), hostileValue) }),
      fc.record({ op: fc.constant("start"), node: fc.oneof(fc.integer({ min: 0, max: 4 }), hostileValue), id: fc.constantFrom("t1", "t2", "t3"), t: fc.oneof(fc.integer({ min: 0, max: 9 }), hostileNumber) }),
      fc.record({ op: fc.constant("finish"), id: fc.constantFrom<unknown>("t1", "t2", "t3", 4), t: fc.oneof(fc.integer({ min: 0, max: 9 }), hostileNumber) }),
      fc.record({ op: fc.constant("refresh"), t: fc.oneof(fc.integer({ min: 0, max: 9 }), hostileNumber) }),
    );
    fc.assert(
      fc.property(hostileValue, hostileValue, fc.array(opArb, { maxLength: 10 }), (q0, every, ops) => {
        const made = outcome(() => new QuantumUpdater(q0 as never, every as never), FIELD);
        if (made.kind !== "ok") return;
        const qu = made.value as InstanceType<typeof QuantumUpdater>;
        let nodes = 1;
        for (const o of ops as Array<Record<string, unknown>>) {
          const r = outcome(() => {
            if (o.op === "app") return qu.app(o.path as never, o.app as never);
            if (o.op === "start") return qu.taskStarted(o.node as never, o.id as never, o.t as never);
            if (o.op === "finish") return qu.taskFinished(o.id as never, o.t as never);
            return qu.refresh(o.t as never, true);
          }, FIELD);
          if (r.kind === "ok" && o.op === "app") nodes = Math.max(nodes, (r.value as number) + 1);
        }
        for (let v = 0; v < nodes; v++) {
          const q = qu.quantum(v);
          expect(Number.isFinite(q) && q >= 0).toBe(true);
        }
      }),
      FUZZ,
    );
  });

  it("FairnessTracker / stepFairness: hostile weights, indices and shares -> InputError; rho never from a NaN share", () => {
    fc.assert(
      fc.property(fc.oneof(fc.array(hostileValue, { maxLength: 3 }), nonArray), fc.array(fc.tuple(hostileValue, hostileValue, hostileValue, hostileNumber), { maxLength: 5 }), (weights, sets) => {
        const made = outcome(() => new FairnessTracker(weights as never), FIELD);
        if (made.kind !== "ok") return;
        const f = made.value as InstanceType<typeof FairnessTracker>;
        let t = 0;
        for (const [i, g, d, dt] of sets) {
          outcome(() => f.set(i as never, g as never, d as never), FIELD);
          t += Math.abs(dt) < 1e6 ? Math.abs(dt) : 1;
          outcome(() => f.advance(t), FIELD);
        }
        const n = (weights as unknown[]).length;
        for (let i = 0; i < n; i++) {
          const r = f.rho(i);
          // NaN only for a queue that never demanded anything; otherwise got / due >= 0, which
          // is +Infinity when the quotient overflows (g = 1e300 held against d = 5e-324)
          expect(Number.isNaN(r) || r >= 0).toBe(true);
        }
      }),
      FUZZ,
    );
    expect(outcome(() => stepFairness([null as never], 1, [1]), FIELD).kind).toBe("input");
    expect(outcome(() => stepFairness([], NaN, [1]), FIELD).kind).toBe("input");
  });

  it("findings, each failing before its fix: HLtrf.allocate had no checks", () => {
    const call = (over: Record<string, unknown>) => ({
      time: 0, free: Float64Array.from([10, 10]), tasks: Float64Array.from([1, 1, 1, 1, 1, 1]), pending: Float64Array.from([1, 0, 0]),
      usage: new Float64Array(N), increments: new Float64Array(N).fill(1), count: new Float64Array(N), ...over,
    });
    const field = (c: unknown) => {
      const h = new HLtrf(buildTree(LEAVES), { tWait: 1 });
      const o = outcome(() => h.allocate(c as never));
      return o.kind === "input" ? o.error.field : o.kind;
    };
    // pending 1.5 never counted down to exactly 0: leaf A got 10 tasks (all that fit)
    expect(field(call({ pending: Float64Array.from([1.5, 0, 0]) }))).toBe("pending[0]");
    // pending Infinity with a task that needs nothing of a resource left: an endless loop
    expect(field(call({ pending: Float64Array.from([Infinity, 0, 0]), tasks: Float64Array.from([5e-324, 0, 1, 1, 1, 1]) }))).toBe("pending[0]");
    // a NaN task "fits" (NaN > free is false) and made free NaN
    expect(field(call({ tasks: Float64Array.from([NaN, 1, 1, 1, 1, 1]) }))).toBe("tasks[0][0]");
    // a NaN time was stored in the wait clocks: starvation never detected again
    expect(field(call({ time: NaN }))).toBe("time");
    expect(field(call({ usage: Float64Array.from([NaN, 0, 0]) }))).toBe("usage[0]");
    expect(field(call({ free: [10, 10] }))).toBe("free");
    expect(field(call({ count: new Float64Array(2) }))).toBe("count");
    expect(field(null)).toBe("call");
    // the tree and the options (a TypeError before)
    expect(outcome(() => new HLtrf(buildTree(LEAVES), null as never)).kind).toBe("input");
    expect(outcome(() => buildTree([null as never])).kind).toBe("input");
    expect(outcome(() => buildTree([{ name: "a", path: "G" as never }])).kind).toBe("input");
    expect(outcome(() => buildTree(LEAVES, null as never)).kind).toBe("input");
    // QuantumUpdater: a Symbol quantum, a finish before its start (a negative quantum), a NaN time
    expect(outcome(() => new QuantumUpdater(Symbol("q") as never)).kind).toBe("input");
    const qu = new QuantumUpdater(1);
    const a = qu.app(["q"], "x");
    qu.taskStarted(a, "t", 5);
    expect(outcome(() => qu.taskFinished("t", 2)).kind).toBe("input");
    expect(outcome(() => qu.taskFinished("t", NaN)).kind).toBe("input");
    expect(outcome(() => qu.taskStarted(99, "u", 0)).kind).toBe("input");
    qu.taskFinished("t", 7);
    qu.refresh(8, true);
    expect(qu.quantum(a)).toBe(2);
    // FairnessTracker: a zero or negative weight made every share NaN or negative
    expect(outcome(() => new FairnessTracker([0, 1])).kind).toBe("input");
    expect(outcome(() => new FairnessTracker([1, 1]).set(5, 0.5, 0.5)).kind).toBe("input");
  });
});
