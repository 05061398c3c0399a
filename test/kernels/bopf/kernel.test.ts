// The BoPF kernel (assembly/bopf.ts) against its JS twin (src/kernels/bopf/twin.ts): every
// output bit for bit on random columns (boundary tolerances, zero volumes, count 0, bad
// cells), the allocation pass on random rounds (statuses and allocations), fastCount's
// shortcut against bursts.ts toleratedCount at and around integer ratios, and admitBatch /
// decideRound through the engine on both backends against the object path.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { InputError, loadEngineSync, type Engine } from "../../../src/index.js";
import { BopfAdmissionControl } from "../../../src/bopf/admission.js";
import { emptyAdmissionBatch, emptyBatchOutcome, setPeriodicRow, type AdmissionBatch } from "../../../src/bopf/admission-batch.js";
import { allocateInstantFlat, InstantWorkspace } from "../../../src/bopf/allocate.js";
import { toleratedCount, type PeriodicBursts } from "../../../src/bopf/bursts.js";
import { EngineAdmissionBatch } from "../../../src/kernels/bopf/batch.js";
import { decideRound, DecisionWorkspace } from "../../../src/bopf/decision.js";
import { Status } from "../../../src/kernels/status.js";
import type { BopfArgs } from "../../../src/kernels/bopf/contract.js";
import { backends } from "../../helpers/engines.js";
import { specArb as specsOver, type Spec } from "../../helpers/bopf-specs.js";

/** The kernel's flag words as typed arguments (admission: bit 0 no summary rows, bit 1 fused round; allocation: bit 0 weights, bit 1 after admission). */
const admitPass = (flags: number): BopfArgs => ({ pass: "admit", noSummaryRows: (flags & 1) !== 0, fusedRound: (flags & 2) !== 0 });
const allocatePass = (flags: number): BopfArgs => ({ pass: "allocate", useWeights: (flags & 1) !== 0, afterAdmission: (flags & 2) !== 0 });

const wasm = loadEngineSync({ backend: "wasm" });
const js = loadEngineSync({ backend: "js" });

function bits(a: ArrayLike<number>): string {
  return Array.from(a, (x) => (Object.is(x, -0) ? "-0" : String(x))).join(",");
}

// columns that reach every branch: exact ratios (tolerance fix-ups), near-integer ratios,
// zero volumes and counts, and now and then a bad cell
const num = fc.oneof(
  fc.integer({ min: 0, max: 60 }), fc.double({ min: 0, max: 500, noNaN: true }), fc.constant(0), fc.constant(-0),
  fc.constantFrom(1e-300, 5e-324, 1e300, 2 ** 40, 3 * 2 ** 45),
);
const bad = fc.constantFrom(NaN, Infinity, -1, -Infinity);
const rowArb = (k: number) => fc.record({
  kind: fc.oneof({ weight: 12, arbitrary: fc.constantFrom(0, 1, 1) }, { weight: 1, arbitrary: fc.constant(2) }),
  start: fc.oneof({ weight: 20, arbitrary: fc.integer({ min: -50, max: 100 }) }, { weight: 1, arbitrary: bad }),
  period: fc.oneof({ weight: 20, arbitrary: fc.oneof(fc.integer({ min: 1, max: 400 }), fc.double({ min: 0.5, max: 1000, noNaN: true })) }, { weight: 1, arbitrary: fc.oneof(bad, fc.constant(0)) }),
  window: fc.oneof({ weight: 20, arbitrary: fc.oneof(fc.integer({ min: 1, max: 60 }), fc.double({ min: 0.1, max: 100, noNaN: true })) }, { weight: 1, arbitrary: bad }),
  count: fc.oneof({ weight: 20, arbitrary: fc.integer({ min: 0, max: 500 }) }, { weight: 1, arbitrary: fc.constantFrom(2.5, -1, NaN) }),
  volume: fc.array(fc.oneof({ weight: 40, arbitrary: num }, { weight: 1, arbitrary: bad }), { minLength: k, maxLength: k }),
});

type Row = ReturnType<typeof rowArb> extends fc.Arbitrary<infer R> ? R : never;

/** Stages the admission columns, capacity (bound = C (1 + 1e-9)), hard sums and state. */
function stageRows(engine: Engine, rows: Row[], cap: number[], state: number[], hard: number[]) {
  const k = cap.length;
  const block = engine.kernels.stage("bopf", rows.length, k);
  const v = block.views();
  v.capacity.set(cap);
  v.bound.set(cap.map((c) => c * (1 + 1e-9)));
  v.hard.set(hard);
  v.state.set(state);
  rows.forEach((r, i) => {
    v.kind[i] = r.kind; v.start[i] = r.start; v.period[i] = r.period; v.window[i] = r.window; v.count[i] = r.count;
    v.volume.set(r.volume, i * k);
  });
  return { block, v };
}

/** The admission kernel on one engine over these rows; every output region copied out. */
function admitRaw(engine: Engine, rows: Row[], cap: number[], state: number[], hard: number[]) {
  const n = rows.length, k = cap.length;
  const { block, v } = stageRows(engine, rows, cap, state, hard);
  const code = block.run(admitPass(0));
  const j = code === Status.OK ? v.state[4] : 0;
  return {
    code, index: block.errorIndex(), state: bits(v.state), hard: bits(v.hard),
    cls: bits(v.cls.subarray(0, code === Status.OK ? n : 0)), reason: bits(v.reason.subarray(0, code === Status.OK ? n : 0)),
    id: bits(v.id.subarray(0, code === Status.OK ? n : 0)), rate: bits(v.rate.subarray(0, j * k)), tol: bits(v.tol.subarray(0, j)),
    bind: bits(v.bind.subarray(0, j)), clsById: bits(v.clsById.subarray(0, j)), kindById: bits(v.kindById.subarray(0, j)),
  };
}

describe("BoPF kernel: WASM = JS twin, bit for bit", () => {
  it("admission: every output and status on random columns", () => {
    fc.assert(fc.property(
      fc.integer({ min: 1, max: 5 }).chain((k) => fc.tuple(
        fc.array(rowArb(k), { maxLength: 25 }),
        fc.array(fc.oneof(fc.integer({ min: 1, max: 10 }), fc.double({ min: 0.01, max: 100, noNaN: true })), { minLength: k, maxLength: k }),
        fc.array(fc.double({ min: 0, max: 5, noNaN: true }), { minLength: k, maxLength: k }),
      )),
      fc.integer({ min: 0, max: 30 }), fc.oneof(fc.constant(Infinity), fc.integer({ min: 0, max: 40 })), fc.constantFrom(0, 1),
      ([rows, cap, hard], m, minTol, variant) => {
        const state = [m, minTol, variant, 7, 0, 0, 0, 0];
        const a = admitRaw(wasm, rows, cap, state, hard), b = admitRaw(js, rows, cap, state, hard);
        expect(a).toEqual(b);
      },
    ), { numRuns: 400 });
  });

  it("admission without summary rows and with the fused round (flags 1, 3; K = 1..10: the K-specialised rows and the generic loop)", () => {
    // mostly small wants, so that many rounds clearly fit (the fused round's OK path)
    const wantCell = fc.oneof({ weight: 300, arbitrary: fc.oneof(fc.double({ min: 0, max: 0.2, noNaN: true }), fc.constant(0), fc.constant(-0), fc.constant(1e-13), fc.double({ min: 0, max: 50, noNaN: true })) },
      { weight: 1, arbitrary: fc.constantFrom(NaN, -1, Infinity) });
    fc.assert(fc.property(
      fc.integer({ min: 1, max: 10 }).chain((k) => fc.tuple(
        fc.oneof(
          fc.array(fc.tuple(rowArb(k), fc.array(wantCell, { minLength: k, maxLength: k })), { maxLength: 25 }),
          // runs of TQs (written in bulk when the safety condition holds for the whole run)
          fc.array(fc.tuple(fc.integer({ min: 0, max: 12 }), rowArb(k), fc.array(wantCell, { minLength: k, maxLength: k })), { maxLength: 6 })
            .map((runs) => runs.flatMap(([len, lq, w]) => [
              ...Array.from({ length: len }, (_, i) => [{ ...lq, kind: 0 }, w.map((x) => x * (i + 1) / 8)] as [typeof lq, number[]]),
              [lq, w] as [typeof lq, number[]],
            ])),
        ),
        fc.array(fc.oneof(fc.integer({ min: 1, max: 10 }), fc.double({ min: 0.01, max: 100, noNaN: true })), { minLength: k, maxLength: k }),
        fc.array(fc.double({ min: 0, max: 5, noNaN: true }), { minLength: k, maxLength: k }),
      )),
      fc.integer({ min: 0, max: 30 }), fc.oneof(fc.constant(Infinity), fc.integer({ min: 0, max: 40 })), fc.constantFrom(0, 1),
      ([rows, cap, hard], m, minTol, variant) => {
        const state = [m, minTol, variant, 7, 0, 0, 0, 0];
        const k = cap.length, n = rows.length;
        const run = (engine: Engine, flags: number) => {
          const { block, v } = stageRows(engine, rows.map(([r]) => r), cap, state, hard);
          rows.forEach(([, w], i) => v.want.set(w, i * k));
          const code = block.run(admitPass(flags));
          const ok = code === Status.OK;
          const j = ok ? v.state[4] : 0, g = ok ? v.state[5] : 0;
          const roundOk = ok && (flags & 2) !== 0 && v.state[7] === Status.OK;
          return {
            code, index: block.errorIndex(), state: bits(v.state.subarray(0, (flags & 2) !== 0 ? 8 : 7)), hard: bits(v.hard),
            cls: bits(v.cls.subarray(0, ok ? n : 0)), reason: bits(v.reason.subarray(0, ok ? n : 0)), id: bits(v.id.subarray(0, ok ? n : 0)),
            clsById: bits(v.clsById.subarray(0, j)), kindById: bits(v.kindById.subarray(0, j)),
            gkey: bits(v.gkey.subarray(0, g)), gid: bits(v.gid.subarray(0, g)),
            roundOk, alloc: roundOk ? bits(v.allocation.subarray(0, n * k)) : "",
          };
        };
        for (const flags of [1, 3]) expect(run(wasm, flags)).toEqual(run(js, flags));
        // the fused round is the admission followed by the allocation pass after it (flag bit 1)
        for (const engine of [wasm, js]) {
          const fused = run(engine, 3);
          const block = engine.kernels.stage("bopf", n, k);
          const seq = run(engine, 0);
          const code = seq.code === Status.OK ? block.run(allocatePass(2)) : seq.code;
          expect({ ...fused, state: fused.state.split(",").slice(0, 7).join(","), roundOk: false, alloc: "" }).toEqual(seq);
          if (seq.code !== Status.OK) continue;
          expect(fused.roundOk).toBe(code === Status.OK);
          if (code === Status.OK) expect(fused.alloc).toBe(bits(block.views().allocation.subarray(0, n * k)));
        }
      },
    ), { numRuns: 500 });
  });

  it("allocation: statuses and allocations on random rounds (weights, guarantees, after-admission mode)", () => {
    const cell = fc.oneof(fc.double({ min: 0, max: 50, noNaN: true }), fc.constant(0), fc.constant(-0), fc.integer({ min: 0, max: 50 }),
      fc.constantFrom(NaN, -1, 1e-13));
    fc.assert(fc.property(
      fc.integer({ min: 1, max: 5 }).chain((k) => fc.tuple(fc.constant(k), fc.array(fc.record({
        cls: fc.constantFrom(0, 1, 2, 3, 0, 2, 9), kind: fc.constantFrom(0, 1), g: fc.boolean(),
        want: fc.array(cell, { minLength: k, maxLength: k }), rate: fc.array(cell, { minLength: k, maxLength: k }),
        rem: fc.array(cell, { minLength: k, maxLength: k }), weight: fc.constantFrom(1, 0.5, 2 ** -950, NaN),
      }), { maxLength: 20 }))),
      fc.constantFrom(0.5, 1, 3, 1e6), fc.integer({ min: 0, max: 3 }),
      ([k, rows], scale, flags) => {
        const n = rows.length;
        const run = (engine: Engine) => {
          const block = engine.kernels.stage("bopf", n, k);
          const v = block.views();
          const sums = new Array(k).fill(0);
          rows.forEach((q) => q.want.forEach((x, r) => (sums[r] += Number.isFinite(x) && x > 0 ? x : 0)));
          v.capacity.set(sums.map((s) => Math.max(s * scale, 1e-3)));
          v.state[3] = 4;
          rows.forEach((q, i) => {
            v.cls[i] = q.cls; v.kind[i] = q.kind; v.hasGuarantee[i] = +q.g; v.id[i] = q.cls <= 1 ? 4 + i : -1;
            v.want.set(q.want, i * k); v.rate.set(q.rate, i * k); v.remaining.set(q.rem, i * k); v.volume.set(q.rem, i * k);
            v.weight[i] = q.weight;
          });
          const code = block.run(allocatePass(flags));
          return { code, index: block.errorIndex(), alloc: code === Status.OK ? bits(v.allocation.subarray(0, n * k)) : "" };
        };
        expect(run(wasm)).toEqual(run(js));
      },
    ), { numRuns: 400 });
  });

  it("fastCount: the tolerance of one LQ is bursts.ts toleratedCount, at and around integer ratios", () => {
    // fair = C * period, d = volume: exact multiples, one ulp either side, and random ratios
    const caseArb = fc.oneof(
      fc.tuple(fc.integer({ min: 1, max: 2 ** 20 }), fc.double({ min: 1e-3, max: 1e6, noNaN: true }), fc.constantFrom(-2, -1, 0, 1, 2)),
      fc.tuple(fc.integer({ min: 1, max: 1000 }), fc.double({ min: 1e-3, max: 1e3, noNaN: true }), fc.constant(9)),
    );
    fc.assert(fc.property(fc.array(caseArb, { minLength: 1, maxLength: 8 }), (cases) => {
      for (const engine of [wasm, js]) {
        const block = engine.kernels.stage("bopf", 1, 1);
        const v = block.views();
        for (const [m, d, nudge] of cases) {
          // period chosen so that C * period is m * d moved by `nudge` ulps (9: a random ratio)
          let fair = nudge === 9 ? m * d * 1.37 : m * d;
          if (nudge !== 9) for (let s = 0; s < Math.abs(nudge); s++) fair = nextAfter(fair, nudge > 0);
          v.capacity[0] = 1; v.bound[0] = Infinity; v.hard[0] = 0; v.state.set([0, Infinity, 0, 0, 0, 0, 0, 0]);
          v.kind[0] = 1; v.start[0] = 0; v.period[0] = fair; v.window[0] = 1; v.count[0] = 3; v.volume[0] = d;
          expect(block.run(admitPass(0))).toBe(Status.OK);
          expect(v.tol[0]).toBe(toleratedCount(d, 1 * fair));
        }
      }
    }), { numRuns: 300 });
  });
});

describe("BoPF kernel: fastCount with a subnormal volume", () => {
  // fair = C * period a tiny normal number, d subnormal: fl(fair / (m + 1)) rounds to d by an
  // absolute error far above d's relative margin, so floor(q) is below the count (the shortcut
  // took floor(q) here before it required d >= 2^-1020)
  const tolOf = (engine: Engine, d: number, fair: number, flags: number): number => {
    const block = engine.kernels.stage("bopf", 1, 1);
    const v = block.views();
    v.capacity[0] = fair; v.bound[0] = Infinity; v.hard[0] = 0; v.state.set([0, Infinity, 0, 0, 0, 0, 0, 0]);
    v.kind[0] = 1; v.start[0] = 0; v.period[0] = 1; v.window[0] = 1; v.count[0] = 3; v.volume[0] = d;
    expect(block.run(admitPass(flags))).toBe(Status.OK);
    return flags === 0 ? v.tol[0] : v.gkey[0]; // admitted hard (bound +Infinity): its tolerance is the heap key
  };
  it("the kernel's tolerance is bursts.ts toleratedCount (both engines, summary rows or not)", () => {
    const worked: Array<[number, number]> = [[7.521349e-317, 4.706132417670895e-308], [6.8105146e-317, 4.3870463226265766e-308]];
    expect(toleratedCount(7.521349e-317, 4.706132417670895e-308)).toBe(625703251);
    expect(Math.floor(4.706132417670895e-308 / 7.521349e-317)).toBe(625703231);
    fc.assert(fc.property(
      fc.array(fc.tuple(fc.integer({ min: 1, max: 2 ** 24 }), fc.double({ min: 1, max: 64, noNaN: true })), { minLength: 1, maxLength: 6 }),
      (cases) => {
        for (const [d, fair] of [...worked, ...cases.map(([kk, f]): [number, number] => [kk * 2 ** -1074, f * 2 ** -1022])]) {
          for (const engine of [wasm, js]) for (const flags of [0, 1]) expect(tolOf(engine, d, fair, flags)).toBe(toleratedCount(d, fair));
        }
      },
    ), { numRuns: 200 });
  });

  it("toleratedCount: far from its estimate, it still returns the boundary of d <= fair / m (in a few divisions, where stepping by one took up to 2^40 steps)", () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 64 }), fc.double({ min: 2 ** 30, max: 2 ** 49, noNaN: true }), (kk, q) => {
      const d = kk * 2 ** -1074, fair = d * q; // fair / x rounds to a multiple of 2^-1074
      const m = toleratedCount(d, fair);
      expect(Number.isInteger(m) && m >= 0).toBe(true);
      expect(m === 0 || d <= fair / m).toBe(true);
      expect(d <= fair / (m + 1)).toBe(false);
    }), { numRuns: 300 });
  });
});

function nextAfter(x: number, up: boolean): number {
  const b = new Float64Array([x]);
  const u = new BigInt64Array(b.buffer);
  u[0] += up ? 1n : -1n;
  return b[0];
}

const K = 2, CAP = [4, 3];
const specArb = specsOver(K);
function batchOf(specs: Spec[], into?: AdmissionBatch): AdmissionBatch {
  const b = into ?? emptyAdmissionBatch(specs.length, K);
  specs.forEach((s, i) => {
    if (s.kind === "LQ") setPeriodicRow(b, i, s.bursts, K);
    else { b.kind[i] = 0; b.period[i] = NaN; }
  });
  return b;
}

describe.each(backends)("admitBatch and decideRound on the engine (%s)", (_name, make) => {
  const engine = make();

  it("admitBatch on the engine = admit() one by one, across batches and leaves", () => {
    fc.assert(fc.property(
      fc.array(fc.oneof(
        { weight: 3, arbitrary: fc.record({ op: fc.constant("batch" as const), specs: fc.array(specArb, { maxLength: 12 }), inEngine: fc.boolean() }) },
        { weight: 1, arbitrary: fc.record({ op: fc.constant("leave" as const), which: fc.nat() }) },
      ), { maxLength: 10 }),
      fc.constantFrom("bopf" as const, "nbopf" as const),
      (steps, variant) => {
        const a = new BopfAdmissionControl(CAP, { variant }); // admit() one by one
        const b = new BopfAdmissionControl(CAP, { variant }); // admitBatch on the engine
        const live: Array<{ name: string; id: number }> = [];
        let seq = 0;
        for (const st of steps) {
          if (st.op === "batch") {
            const n = st.specs.length;
            const eb = st.inEngine ? new EngineAdmissionBatch(engine, n, K) : null;
            const out = emptyBatchOutcome(n);
            b.admitBatch(batchOf(st.specs, eb ?? undefined), out, "batch", engine);
            eb?.release();
            st.specs.forEach((s, i) => {
              const name = `q${seq++}`;
              const r = a.admit(s.kind === "TQ" ? { name, kind: "TQ" } : { name, kind: "LQ", bursts: s.bursts });
              expect(["hard", "soft", "elastic", "rejected"][out.cls[i]]).toBe(r.class);
              expect(["safety", "fairness", "resource", "all-held"][out.reason[i]]).toBe(r.reason);
              expect(out.id[i]).toBe(r.class === "rejected" ? -1 : a.lastId);
              if (out.id[i] >= 0) live.push({ name, id: out.id[i] });
            });
          } else if (live.length > 0) {
            const [gone] = live.splice(st.which % live.length, 1);
            expect(a.leave(gone.name)).toBe(true);
            expect(b.leaveId(gone.id)).toBe(true);
          }
          expect(b.admittedCount).toBe(a.admittedCount);
          for (const q of live) {
            expect(b.classOfId(q.id)).toBe(a.classOf(q.name));
            const sa = a.seriesOf(q.name), sb = b.seriesOfId(q.id);
            expect(sb?.tolerance).toBe(sa?.tolerance);
            expect(sb?.binding).toEqual(sa?.binding);
          }
          expect(bits(b.rates.subarray(0, (b.lastId + 1) * K))).toBe(bits(a.rates.subarray(0, (a.lastId + 1) * K)));
        }
      },
    ), { numRuns: 150 });
  });

  it("the specs kept for seriesOfId: one LQ run, many runs (past the run-by-run copies), with rejections", () => {
    for (const [n, every, c, p0] of [[40, 40, 4000, 5000], [400, 2, 4000, 5000], [300, 3, 4, 50]] as const) {
      const specs: Spec[] = Array.from({ length: n }, (_, i) => i % every === 0 ? { kind: "TQ" } :
        { kind: "LQ", bursts: { start: i, period: p0 + 37 * i, window: 10 + (i % 7), volume: [i % 5, 1 + (i % 3)], count: 1 + (i % 4) } });
      const a = new BopfAdmissionControl([c, c]), b = new BopfAdmissionControl([c, c]);
      const out = emptyBatchOutcome(n);
      b.admitBatch(batchOf(specs), out, "batch", engine);
      if (c === 4) expect(out.id.subarray(0, n).includes(-1)).toBe(true); // some rejected: ids no longer rows
      specs.forEach((q, i) => {
        const r = a.admit(q.kind === "TQ" ? { name: `q${i}`, kind: "TQ" } : { name: `q${i}`, kind: "LQ", bursts: q.bursts });
        expect(["hard", "soft", "elastic", "rejected"][out.cls[i]]).toBe(r.class);
        if (out.id[i] < 0 || q.kind === "TQ") return;
        const sa = a.seriesOf(`q${i}`)!, sb = b.seriesOfId(out.id[i])!;
        expect([sb.tolerance, sb.binding, sb.burst(3), bits(sb.maxRate)]).toEqual([sa.tolerance, sa.binding, sa.burst(3), bits(sa.maxRate)]);
      });
    }
  });

  it("decideRound = admitBatch + allocateInstantFlat over the same round, bit for bit (in place and copied)", () => {
    fc.assert(fc.property(
      fc.array(fc.tuple(specArb, fc.array(fc.double({ min: 0, max: 3, noNaN: true }), { minLength: K, maxLength: K })), { maxLength: 14 }),
      fc.constantFrom(0.5, 1, 10, 1e4), fc.boolean(),
      (rows, scale, inEngine) => {
        const n = rows.length;
        const capacity = CAP.map((c) => c * scale);
        const specs = rows.map((r) => r[0]);
        const want = Float64Array.from(rows.flatMap((r) => r[1]));
        // reference: the twin's admission, then the general TS round over the equivalent InstantBatch
        const ref = new BopfAdmissionControl(capacity);
        const out = emptyBatchOutcome(n);
        const plain = batchOf(specs);
        ref.admitBatch(plain, out);
        const hasG = new Uint8Array(n), rate = new Float64Array(n * K), rem = new Float64Array(n * K);
        for (let i = 0; i < n; i++) {
          if (!(out.cls[i] <= 1 && plain.kind[i] === 1)) continue;
          hasG[i] = 1;
          for (let r = 0; r < K; r++) {
            rate[i * K + r] = ref.rates[out.id[i] * K + r];
            rem[i * K + r] = plain.volume[i * K + r];
          }
        }
        const expected = allocateInstantFlat(engine, capacity, { n, cls: out.cls, want, weight: null, hasGuarantee: hasG, rate, remaining: rem }, new InstantWorkspace()).allocation;
        const ac = new BopfAdmissionControl(capacity);
        const eb = inEngine ? new EngineAdmissionBatch(engine, n, K) : null;
        const b = batchOf(specs, eb ?? undefined);
        if (eb) eb.want.set(want);
        const d = decideRound(engine, ac, b, eb ? eb.want : want, new DecisionWorkspace());
        expect(bits(d.out.cls.subarray(0, n))).toBe(bits(out.cls));
        expect(bits(d.allocation)).toBe(bits(expected));
        eb?.release();
      },
    ), { numRuns: 200 });
  });

  it("decideRound: a want that is not N*K numbers is an InputError and admits nothing", () => {
    const ok: Spec = { kind: "LQ", bursts: { start: 0, period: 150, window: 25, volume: [25, 25], count: 10 } };
    const ac = new BopfAdmissionControl(CAP);
    for (const want of [new Float64Array(3), [0, 0, 0, 0] as unknown as Float64Array]) {
      expect(() => decideRound(engine, ac, batchOf([ok, { kind: "TQ" }]), want, new DecisionWorkspace())).toThrow(/^want: expected a Float64Array of N\*K = 4 numbers/);
      expect(ac.admittedCount).toBe(0);
    }
  });

  it("bad rows: InputError naming column and index, nothing admitted; from the engine's own columns too", () => {
    const ok: Spec = { kind: "LQ", bursts: { start: 0, period: 150, window: 25, volume: [25, 25], count: 10 } };
    const spoils: Array<[(b: AdmissionBatch) => void, RegExp]> = [
      [(b) => { b.kind[1] = 5; }, /^batch\.kind\[1\]/],
      [(b) => { b.start[1] = NaN; }, /^batch\.start\[1\]/],
      [(b) => { b.period[1] = -2; }, /^batch\.period\[1\]/],
      [(b) => { b.window[1] = Infinity; }, /^batch\.window\[1\]/],
      [(b) => { b.count[1] = 0.5; }, /^batch\.count\[1\]/],
      [(b) => { b.volume[1 * K + 1] = -1; }, /^batch\.volume\[1\]\[1\]/],
    ];
    for (const inEngine of [false, true]) {
      for (const [spoil, msg] of spoils) {
        const ac = new BopfAdmissionControl([1, 1]);
        const eb = inEngine ? new EngineAdmissionBatch(engine, 3, K) : null;
        const b = batchOf([ok, ok, ok], eb ?? undefined);
        spoil(b);
        let err: unknown = null;
        try { ac.admitBatch(b, emptyBatchOutcome(3), "batch", engine); } catch (e) { err = e; }
        expect(err).toBeInstanceOf(InputError);
        expect((err as Error).message).toMatch(msg);
        expect(ac.admittedCount).toBe(0);
        // the engine keeps answering: a good batch after the bad one
        const out = emptyBatchOutcome(1);
        ac.admitBatch(batchOf([ok]), out, "batch", engine);
        expect(out.cls[0]).toBe(0);
        eb?.release();
      }
    }
  });

  it("an engine-resident batch survives memory growth (views re-derived)", () => {
    const eb = new EngineAdmissionBatch(engine, 2, K);
    batchOf([{ kind: "TQ" }, { kind: "LQ", bursts: { start: 0, period: 150, window: 25, volume: [25, 25], count: 10 } }], eb);
    engine.drf({ capacity: [1, 1], demands: new Float64Array(2 * 400_000).fill(1) }); // grows the memory
    const ac = new BopfAdmissionControl([1, 1]);
    const out = emptyBatchOutcome(2);
    // issue 21 finding 13 (a change on purpose): like a prepared problem, a batch whose views
    // were read before the growth is refused until they are read again (a write through the
    // old views would have been lost); reading them again shows the rows written before it
    if (engine.backend === "wasm") {
      expect(() => ac.admitBatch(eb, out, "batch", engine)).toThrow(/was detached/);
      expect(ac.admittedCount).toBe(0);
    }
    for (const col of ["kind", "start", "period", "window", "count", "volume"] as const) void eb[col];
    ac.admitBatch(eb, out, "batch", engine);
    expect(Array.from(out.cls)).toEqual([2, 0]);
    expect(ac.seriesOfId(1)!.tolerance).toBe(6);
    eb.release();
  });
});

describe("decideRound from the index: decision.ts's worked example", () => {
  it.each(backends)("%s: a TQ and a hard LQ in the kernel; a second LQ (soft) through the general path", async (_name, make) => {
    const { bopf } = await import("../../../src/index.js");
    const engine = make();
    const lq = { start: 0, period: 150, window: 25, volume: [25, 25], count: 10 };
    const b = bopf.emptyAdmissionBatch(3, 2);
    bopf.setPeriodicRow(b, 1, lq, 2);
    bopf.setPeriodicRow(b, 2, lq, 2);
    const want = Float64Array.of(0.1, 0.1, 0.5, 0.5, 0.2, 0.2);
    const two = { ...b, n: 2 };
    const d = bopf.decideRound(engine, new bopf.BopfAdmissionControl([1, 1]), two, want, new bopf.DecisionWorkspace());
    expect(Array.from(d.out.cls.subarray(0, 2))).toEqual([2, 0]); // elastic TQ, hard LQ
    expect(Array.from(d.allocation)).toEqual([0.1, 0.1, 0.5, 0.5]);
    const d3 = bopf.decideRound(engine, new bopf.BopfAdmissionControl([1, 1]), b, want, new bopf.DecisionWorkspace());
    expect(Array.from(d3.out.cls.subarray(0, 3))).toEqual([2, 0, 1]); // the second LQ is soft: SRPT
    // the same round through the object API (SRPT for the soft LQ, then DRF)
    const ref = bopf.allocateInstant(engine, [1, 1], [
      { class: "elastic", want: [0.1, 0.1] },
      { class: "hard", want: [0.5, 0.5], guarantee: { rate: [1, 1], remaining: [25, 25] } },
      { class: "soft", want: [0.2, 0.2], guarantee: { rate: [1, 1], remaining: [25, 25] } },
    ]);
    expect(Array.from(d3.allocation)).toEqual(Array.from(ref.allocation));
  });
});

describe("LazyMinHeap.appendUnordered", () => {
  it("answers from the running minimum, orders on the first removal or push, and agrees with pushes one by one", async () => {
    const { LazyMinHeap } = await import("../../../src/bopf/min-heap.js");
    fc.assert(fc.property(
      fc.array(fc.integer({ min: 0, max: 20 }), { maxLength: 30 }), fc.array(fc.integer({ min: 0, max: 20 }), { maxLength: 30 }),
      fc.array(fc.nat(), { maxLength: 10 }),
      (before, batch, removals) => {
        const a = new LazyMinHeap(), b = new LazyMinHeap();
        before.forEach((key, id) => { a.push(key, id); b.push(key, id); });
        // the caller's running minimum: the old top, else the first strictly smaller new key
        let minKey = b.peekKey(), minId = b.peekIdOrNone();
        const ids = batch.map((_, i) => before.length + i);
        batch.forEach((key, i) => {
          a.push(key, ids[i]);
          if (key < minKey || minId < 0) { minKey = key; minId = ids[i]; }
        });
        b.appendUnordered(Float64Array.from(batch), Int32Array.from(ids), batch.length, minKey, minId);
        expect(b.peekKey()).toBe(a.peekKey());
        if (a.peekKey() !== Infinity) expect(b.peekId()).toBe(a.peekId());
        const all = [...before.map((_, id) => id), ...ids];
        for (const r of removals) {
          if (all.length === 0) break;
          const [id] = all.splice(r % all.length, 1);
          a.remove(id); b.remove(id);
          expect(b.peekKey()).toBe(a.peekKey());
          if (all.length > 0) expect(b.peekId()).toBe(a.peekId());
        }
        a.push(7, 1000); b.push(7, 1000);
        expect(b.peek()).toEqual(a.peek());
      },
    ), { numRuns: 300 });
  });
});
