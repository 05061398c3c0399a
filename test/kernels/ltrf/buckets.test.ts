// The LTRF kernel's bucket queue and sweeps (assembly/ltrf.ts) against Algorithm 1 done
// literally: one task at a time, a scan of all queues for the smallest U/w (ties: lowest
// index). Instances are large enough for the kernel's other paths to run: many queues set
// aside (sweeps after N/16 + 32 of them), keys moving within the current bucket, to later
// buckets and beyond the range (overflow passes), all keys equal, zero increments (the key
// stays), zero tasks, ties, blocking mode, weights. Both backends, compared bit for bit.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ltrfLiteral } from "../../helpers/ltrf-literal.js";
import { loadEngineSync } from "../../../src/index.js";

const wasm = loadEngineSync({ backend: "wasm" });
const js = loadEngineSync({ backend: "js" });

interface Inst {
  free: number[];
  tasks: Float64Array;
  pending: number[];
  usage: number[];
  weights?: number[];
  increments: number[];
  blocking: boolean;
}

const literal = ltrfLiteral;

const num = (min: number, max: number) => fc.double({ min, max, noNaN: true, noDefaultInfinity: true });

/**
 * n up to 400 queues. Free is a fraction of the total demand, so that anywhere from almost
 * nothing to almost everything is set aside. Small integers make ties common (exact sums).
 */
const instance = fc.record({
  n: fc.integer({ min: 0, max: 400 }),
  k: fc.integer({ min: 1, max: 4 }),
  share: fc.oneof(fc.constant(0), num(0, 0.3), num(0, 1.2)),
  keys: fc.constantFrom("ints", "doubles", "equal"),
  useWeights: fc.boolean(),
  incs: fc.constantFrom("ints", "doubles", "zero", "mixed"),
  blocking: fc.boolean(),
}).chain((c) => fc.record({
  c: fc.constant(c),
  tasks: fc.array(fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 4 }), num(0, 4)), { minLength: c.n * c.k, maxLength: c.n * c.k }),
  pending: fc.array(fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 8 })), { minLength: c.n, maxLength: c.n }),
  usage: fc.array(c.keys === "equal" ? fc.constant(3) : c.keys === "ints" ? fc.integer({ min: 0, max: 20 }) : num(0, 50), { minLength: c.n, maxLength: c.n }),
  weights: fc.array(c.keys === "equal" ? fc.constant(1) : fc.oneof(fc.constantFrom(0.5, 1, 2, 4), num(0.1, 5)), { minLength: c.n, maxLength: c.n }),
  increments: fc.array(
    c.incs === "zero" ? fc.constant(0) : c.incs === "ints" ? fc.integer({ min: 0, max: 5 }) : c.incs === "doubles" ? num(0, 30) : fc.oneof(fc.constant(0), fc.constant(1), num(0, 3)),
    { minLength: c.n, maxLength: c.n }),
})).map(({ c, tasks, pending, usage, weights, increments }): Inst => {
  const total = new Array<number>(c.k).fill(0);
  for (let i = 0; i < c.n; i++) for (let r = 0; r < c.k; r++) total[r] += tasks[i * c.k + r] * pending[i];
  return {
    free: total.map((t) => t * c.share),
    tasks: Float64Array.from(tasks),
    pending,
    usage,
    weights: c.useWeights ? weights : undefined,
    increments,
    blocking: c.blocking,
  };
});

function expectLiteral(x: Inst): void {
  const ref = literal(x);
  for (const e of [wasm, js]) {
    const r = e.ltrf(x);
    expect(Array.from(r.count)).toEqual(ref.count);
    expect(Array.from(r.usage)).toEqual(ref.usage);
    expect(Array.from(r.free)).toEqual(ref.free);
  }
}

describe("LTRF kernel: bucket queue and sweeps equal Algorithm 1 done literally", () => {
  it("random instances up to 400 queues (ties, zero increments and tasks, equal keys, blocking, weights)", () => {
    fc.assert(fc.property(instance, expectLiteral), { numRuns: 250 });
  });

  it("a cluster that fills up: thousands of queues set aside (several sweeps), the rest keep starting", () => {
    // 3000 queues, two resources; resource 1 runs out early, so only queues that need none
    // of it keep starting; about 3000 / 16 + 32 queues set aside trigger each sweep
    const n = 3000;
    let s = 7;
    const rnd = () => ((s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32);
    const tasks = new Float64Array(2 * n);
    for (let i = 0; i < n; i++) {
      tasks[2 * i] = rnd() < 0.2 ? 0 : 1 + Math.floor(rnd() * 3);
      tasks[2 * i + 1] = 1 + Math.floor(rnd() * 2);
    }
    const x: Inst = {
      free: [900, 2500],
      tasks,
      pending: Array.from({ length: n }, () => Math.floor(rnd() * 6)),
      usage: Array.from({ length: n }, () => Math.floor(rnd() * 40)),
      weights: Array.from({ length: n }, () => [0.5, 1, 2][Math.floor(rnd() * 3)]),
      increments: Array.from({ length: n }, () => [0, 0.5, 1, 3][Math.floor(rnd() * 4)]),
      blocking: false,
    };
    expectLiteral(x);
    expectLiteral({ ...x, blocking: true });
    expectLiteral({ ...x, usage: new Array<number>(n).fill(0), weights: undefined }); // all keys equal
  });

  it("sweeps while queues that moved within the current bucket are still in its hot heap", () => {
    // One far key stretches the range, so all other keys (< 1) share bucket 0: there,
    // queues that never fit (a sweep after every N/16 + 32 of them) meet queues that start
    // tasks and move by small increments, staying in bucket 0. Room for part of their tasks.
    const arb = fc.record({
      never: fc.integer({ min: 40, max: 150 }),
      movers: fc.array(fc.record({ u: num(0, 0.05), inc: fc.oneof(num(0, 0.01), fc.constant(0.001)), p: fc.integer({ min: 1, max: 40 }), d: num(0.01, 1) }), { minLength: 2, maxLength: 30 }),
      neverKeys: fc.array(num(0, 0.05), { minLength: 150, maxLength: 150 }),
      share: num(0, 1),
    });
    fc.assert(fc.property(arb, ({ never, movers, neverKeys, share }) => {
      const tasks: number[] = [], pending: number[] = [], usage: number[] = [], increments: number[] = [];
      let demand = 0;
      // queues interleaved: movers spread among the ones that never fit
      const m = movers.length, n = never + m + 1;
      for (let i = 0, a = 0, b = 0; i < n - 1; i++) {
        if (a < m && (b >= never || i % Math.ceil(n / m) === 0)) {
          const x = movers[a++];
          tasks.push(x.d); pending.push(x.p); usage.push(x.u); increments.push(x.inc);
          demand += x.d * x.p;
        } else {
          tasks.push(1e6); pending.push(1); usage.push(neverKeys[b++]); increments.push(1);
        }
      }
      tasks.push(1); pending.push(1); usage.push(1e3); increments.push(1); // the far key
      expectLiteral({ free: [demand * share], tasks: Float64Array.from(tasks), pending, usage, increments, blocking: false });
    }), { numRuns: 300 });
  });

  it("one queue, keys far beyond the first range: every start is a new overflow pass", () => {
    const x: Inst = { free: [1000], tasks: Float64Array.of(1, 1, 1), pending: [500, 3, 2], usage: [0, 10, 1e6], increments: [1, 1, 1], blocking: false };
    expectLiteral(x);
  });
});
