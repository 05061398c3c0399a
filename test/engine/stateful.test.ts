// Stateful fuzz (issue 21): an engine holding prepared DRF problems and BoPF admission
// batches, under random sequences of valid and invalid calls (test/helpers/stateful.ts), on
// both backends. The model: each problem's last loaded inputs and whether it has results; a
// valid solve must equal a fresh JS engine's one-shot drf on those inputs bit for bit; a
// one-shot call fed a problem's views (which may grow memory, detaching them on WASM) must
// give the answer of copies; an invalid call is an InputError that leaves every problem's
// inputs and results exactly as before; disposed problems and released batches refuse use.
import fc from "fast-check";
import { describe, it } from "vitest";
import { loadEngineSync, type Engine } from "../../src/index.js";
import type { PreparedDrf } from "../../src/kernels/drf/prepared.js";
import { BopfAdmissionControl } from "../../src/bopf/admission.js";
import { emptyBatchOutcome } from "../../src/bopf/admission-batch.js";
import { EngineAdmissionBatch } from "../../src/bopf/index.js";
import { backends } from "../helpers/engines.js";
import { assertModelRun, command, expect, expectRefusedUnchanged } from "../helpers/stateful.js";

const ref = loadEngineSync({ backend: "js" });
const bits = (a: ArrayLike<number>) => Array.from(a, (v) => (Object.is(v, -0) ? "-0" : v));

interface Problem {
  n: number;
  k: number;
  capacity: number[];
  demands: number[];
  /** the last successful solve's results (bits), null when there are none */
  results: ReturnType<typeof bits>[] | null;
  disposed: boolean;
}
interface Model {
  problems: Problem[];
  batches: Array<{ released: boolean }>;
}
interface Real {
  engine: Engine;
  problems: PreparedDrf[];
  batches: EngineAdmissionBatch[];
  ac: BopfAdmissionControl;
  /** memory growths seen (WASM: the buffer changed), and per problem the count when its views were last read */
  growths: number;
  buffer: ArrayBufferLike | null;
  readAt: Array<number | undefined>;
}

/** Counts a memory growth since the last look (the JS backend never grows). */
function growths(r: Real): number {
  const b = r.engine.kernels.memoryBuffer();
  if (b !== r.buffer) {
    r.buffer = b;
    r.growths++;
  }
  return r.growths;
}

/** The harness reads problem j's input views: solve() judges views read before a growth as stale. */
function touch(r: Real, j: number): PreparedDrf {
  r.readAt[j] = growths(r);
  const p = r.problems[j];
  void p.capacity;
  void p.demands;
  return p;
}

/** The inputs and results a refused call must leave as they were (read through fresh views). */
function watched(r: Real, m: Model): unknown {
  return r.problems.map((p, i) => {
    if (m.problems[i].disposed) return null;
    touch(r, i);
    const res = m.problems[i].results !== null ? p.results : null;
    return { capacity: p.capacity, demands: p.demands, results: res && { f: res.fraction, a: res.allocation, d: res.dominantShare } };
  });
}

const valueArb = fc.oneof({ weight: 8, arbitrary: fc.integer({ min: 0, max: 40 }) }, { weight: 2, arbitrary: fc.double({ min: 0, max: 1e6, noNaN: true }) });
const posArb = fc.oneof(fc.integer({ min: 1, max: 60 }), fc.double({ min: 1e-3, max: 1e6, noNaN: true }));
const pick = fc.nat();

function solveRef(p: Problem) {
  const r = ref.drf({ capacity: p.capacity, demands: p.demands });
  return [bits(r.fraction), bits(r.allocation), bits(r.dominantShare)];
}

const commands = [
  // prepare a problem of n queues and k resources
  fc.record({ n: fc.integer({ min: 0, max: 5 }), k: fc.integer({ min: 1, max: 3 }) }).map(({ n, k }) =>
    command<Model, Real>(`prepare(${n}, ${k})`, (m, r) => {
      r.problems.push(r.engine.prepareDrf(n, k));
      r.readAt.push(undefined);
      m.problems.push({ n, k, capacity: new Array(k).fill(0), demands: new Array(n * k).fill(0), results: null, disposed: false });
    })),
  // load valid inputs (through load() or by writing the views)
  fc.record({ i: pick, cap: fc.array(posArb, { minLength: 3, maxLength: 3 }), dem: fc.array(valueArb, { minLength: 15, maxLength: 15 }), views: fc.boolean() }).map(({ i, cap, dem, views }) =>
    command<Model, Real>(`load(#${i}, views=${views})`, (m, r) => {
      if (m.problems.length === 0) return;
      const j = i % m.problems.length, p = m.problems[j], real = r.problems[j];
      const capacity = cap.slice(0, p.k), demands = dem.slice(0, p.n * p.k);
      if (p.disposed) {
        expectRefusedUnchanged(() => real.load({ capacity, demands }), watched(r, m), { field: /^prepared$/ });
        return;
      }
      if (views) {
        touch(r, j);
        real.capacity.set(capacity);
        real.demands.set(demands);
      } else real.load({ capacity, demands });
      p.capacity = capacity;
      p.demands = demands;
    })),
  // an invalid load: wrong lengths or types, refused before anything is written
  fc.record({ i: pick, how: fc.constantFrom("capLen", "rows", "notArray", "bigint", "detached", "null") }).map(({ i, how }) =>
    command<Model, Real>(`loadBad(#${i}, ${how})`, (m, r) => {
      if (m.problems.length === 0) return;
      const j = i % m.problems.length, p = m.problems[j], real = r.problems[j];
      const capacity: unknown = how === "capLen" ? new Array(p.k + 1).fill(1) : how === "notArray" ? "1,2" : how === "bigint" ? new BigInt64Array(p.k) : p.capacity;
      let demands: unknown = how === "rows" ? new Array((p.n + 1) * p.k).fill(1) : p.demands;
      if (how === "detached") {
        const f = new Float64Array(p.n * p.k);
        structuredClone(f.buffer, { transfer: [f.buffer] });
        demands = p.n * p.k > 0 ? f : new Array(p.k).fill(1);
      }
      const input = how === "null" ? null : { capacity, demands };
      expectRefusedUnchanged(() => real.load(input as never), watched(r, m));
    })),
  // solve: the model's answer, or the kernel's InputError (a zero capacity) with no results after
  fc.record({ i: pick }).map(({ i }) =>
    command<Model, Real>(`solve(#${i})`, (m, r) => {
      if (m.problems.length === 0) return;
      const j = i % m.problems.length, p = m.problems[j], real = r.problems[j];
      if (p.disposed) {
        expectRefusedUnchanged(() => real.solve(), watched(r, m), { field: /^prepared$/ });
        return;
      }
      const seen = r.readAt[j];
      if (seen !== undefined && seen !== growths(r)) {
        // views read before the memory grew: solve() refuses (writes through them were lost)
        expect(() => real.solve()).toThrow(/was detached/);
        touch(r, j); // read again (the inputs themselves were loaded through load() or fresh views)
      }
      const valid = p.capacity.every((c) => c > 0);
      if (!valid) {
        // a failed solve drops the results (documented): every input stays as it was
        const before = { capacity: Array.from(real.capacity), demands: Array.from(real.demands) };
        expect(() => real.solve()).toThrow(/capacity/);
        expect({ capacity: Array.from(real.capacity), demands: Array.from(real.demands) }).toEqual(before);
        p.results = null;
        return;
      }
      const got = real.solve();
      const want = solveRef(p);
      expect([bits(got.fraction), bits(got.allocation), bits(got.dominantShare)]).toEqual(want);
      p.results = want;
    })),
  // read results: the last solve's, or an InputError when there are none
  fc.record({ i: pick }).map(({ i }) =>
    command<Model, Real>(`results(#${i})`, (m, r) => {
      if (m.problems.length === 0) return;
      const j = i % m.problems.length, p = m.problems[j], real = r.problems[j];
      if (p.disposed || p.results === null) {
        expectRefusedUnchanged(() => real.copyResults(), watched(r, m), { field: p.disposed ? /^prepared$/ : /^results$/ });
        return;
      }
      const c = real.copyResults();
      expect([bits(c.fraction), bits(c.allocation), bits(c.dominantShare)]).toEqual(p.results);
      // an into with fields sharing memory is refused without writing
      if (p.n > 0) {
        const f = new Float64Array(p.n).fill(7);
        expectRefusedUnchanged(() => real.copyResults({ fraction: f, dominantShare: f }), [watched(r, m), f], { field: /^into\.dominantShare$/ });
      }
    })),
  // a one-shot call fed a problem's views, large enough (sometimes) to grow the memory
  fc.record({ i: pick, extra: fc.constantFrom(0, 3, 50_000) }).map(({ i, extra }) =>
    command<Model, Real>(`oneShot(#${i}, +${extra} rows)`, (m, r) => {
      if (m.problems.length === 0) return;
      const j = i % m.problems.length, p = m.problems[j], real = r.problems[j];
      if (p.disposed || p.n === 0 || !p.capacity.every((c) => c > 0)) return;
      touch(r, j);
      const flatExtra = new Float64Array(extra * p.k).fill(1);
      const input = { capacity: real.capacity, demands: [...Array.from({ length: p.n }, (_, q) => real.demands.subarray(q * p.k, q * p.k + p.k)), ...Array.from({ length: extra }, (_, q) => flatExtra.subarray(q * p.k, q * p.k + p.k))] };
      const got = r.engine.drf(input);
      const want = ref.drf({ capacity: p.capacity, demands: [...Array.from({ length: p.n }, (_, q) => p.demands.slice(q * p.k, q * p.k + p.k)), ...Array.from({ length: extra }, () => new Array(p.k).fill(1))] });
      expect(bits(got.fraction)).toEqual(bits(want.fraction));
    })),
  fc.record({ i: pick }).map(({ i }) =>
    command<Model, Real>(`dispose(#${i})`, (m, r) => {
      if (m.problems.length === 0) return;
      const j = i % m.problems.length;
      r.problems[j].dispose();
      m.problems[j].disposed = true;
    })),
  // admission batches: a valid admission, or a refused one after release
  fc.record({ n: fc.integer({ min: 0, max: 3 }), release: fc.boolean(), lq: fc.boolean() }).map(({ n, release, lq }) =>
    command<Model, Real>(`batch(${n}, release=${release}, lq=${lq})`, (m, r) => {
      const b = new EngineAdmissionBatch(r.engine, n, 2);
      r.batches.push(b);
      m.batches.push({ released: release });
      for (let q = 0; q < n; q++) {
        if (!lq) continue;
        b.kind[q] = 1; b.start[q] = 0; b.period[q] = 100; b.window[q] = 10; b.count[q] = 1;
        b.volume[2 * q] = 1; b.volume[2 * q + 1] = 1;
      }
      const out = emptyBatchOutcome(n);
      if (release) {
        b.release();
        const before = r.ac.admittedCount;
        expectRefusedUnchanged(() => r.ac.admitBatch(b, out, "batch", r.engine), [watched(r, m), out], { field: /^batch$/ });
        expect(r.ac.admittedCount).toBe(before);
        return;
      }
      const before = r.ac.admittedCount;
      r.ac.admitBatch(b, out, "batch", r.engine);
      let admitted = 0;
      for (let q = 0; q < n; q++) if (out.cls[q] !== 3) admitted++;
      expect(r.ac.admittedCount).toBe(before + admitted);
      b.release();
    })),
];

for (const [name, make] of backends) {
  describe(`engine with prepared problems and batches: stateful (${name})`, () => {
    it("valid calls give the model's answers; invalid calls are InputErrors that change nothing", () => {
      assertModelRun(
        fc.constant(() => ({ model: { problems: [], batches: [] } as Model, real: { engine: make(), problems: [], batches: [], ac: new BopfAdmissionControl([1e6, 1e6]), growths: 0, buffer: null, readAt: [] } as Real })),
        commands,
        { maxCommands: 30, runs: 0.2 },
      );
    });
  });
}
