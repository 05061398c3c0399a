// Adversarial audit of the BoPF API (admission control: constructor, admit, admitBatch, leave;
// decideRound; allocateInstant) on both backends: hostile numbers, objects and columns give
// a result or an InputError naming the field, never a TypeError or a hang; a refused admit /
// admitBatch / decideRound leaves the control deciding exactly as one that never saw it; the
// batch path decides as the object path on extreme-but-valid specs; allocations stay within
// capacity and want.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { bopf, type Engine } from "../../src/index.js";
import { backends } from "../helpers/engines.js";
import { FUZZ, hostileArray, hostileNumber, hostileValue, nonArray, outcome, sameBits } from "../helpers/hostile.js";

const { BopfAdmissionControl, emptyAdmissionBatch, emptyBatchOutcome, setPeriodicRow, allocateInstant, decideRound, DecisionWorkspace } = bopf;
type Control = InstanceType<typeof BopfAdmissionControl>;

const K = 2;
const CAP = [10, 20];
const FIELD = /^(capacity|options|queue|batch|want|out|queues)(\.\w+|\[\d+\])*$/;

// a periodic spec whose every number may be hostile (mostly valid: positive period and window)
const posNum = fc.oneof({ weight: 3, arbitrary: fc.double({ min: 1e-3, max: 1e3, noNaN: true }) }, { weight: 2, arbitrary: hostileNumber });
const periodicArb = fc.record({
  start: hostileNumber, period: posNum, window: posNum,
  volume: fc.oneof({ weight: 6, arbitrary: fc.array(fc.oneof(posNum, hostileNumber), { minLength: K, maxLength: K }) }, { weight: 1, arbitrary: hostileArray(K) }),
  count: fc.oneof(fc.integer({ min: 0, max: 50 }), hostileNumber),
});
const burstListArb = fc.array(fc.record({ start: hostileNumber, window: posNum, volume: fc.array(posNum, { minLength: K, maxLength: K }) }), { maxLength: 3 });
const queueArb = fc.record({
  name: fc.oneof({ weight: 8, arbitrary: fc.constantFrom("a", "b", "c", "d", "e") }, { weight: 1, arbitrary: hostileValue }),
  kind: fc.oneof({ weight: 8, arbitrary: fc.constantFrom("LQ", "TQ") }, { weight: 1, arbitrary: hostileValue }),
  bursts: fc.oneof({ weight: 4, arbitrary: periodicArb }, { weight: 2, arbitrary: burstListArb }, { weight: 1, arbitrary: fc.constantFrom<unknown>(undefined, null, 3, "x", [null]) }),
});
type Op = { op: "admit"; q: unknown } | { op: "leave"; name: unknown };
const opArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 4, arbitrary: queueArb.map((q) => ({ op: "admit" as const, q })) },
  { weight: 1, arbitrary: fc.constantFrom<unknown>("a", "b", "c", 3, null).map((name) => ({ op: "leave" as const, name })) },
);

/** What an admission says, with the numbers in its detail. */
const said = (a: { class: string; reason: string; detail: string }) => `${a.class}/${a.reason}/${a.detail}`;

describe("fuzz BoPF admission control (object API)", () => {
  it("constructor: hostile capacity and options -> a control or an InputError naming the field", () => {
    fc.assert(
      fc.property(
        fc.oneof({ weight: 4, arbitrary: hostileArray(K) }, { weight: 1, arbitrary: nonArray }),
        fc.oneof(
          { weight: 3, arbitrary: fc.constant(undefined) },
          { weight: 3, arbitrary: fc.record({ variant: fc.constantFrom<unknown>("bopf", "nbopf", undefined, "x", 1), tolerance: fc.option(hostileValue, { nil: undefined }), resources: fc.constantFrom<unknown>(undefined, ["cpu", "mem"], ["cpu"], 3, [1, 2]) }, { requiredKeys: [] }) },
          { weight: 1, arbitrary: fc.constantFrom<unknown>(null, 3, "x") },
        ),
        (capacity, options) => {
          const o = outcome(() => new BopfAdmissionControl(capacity as never, options as never), FIELD);
          if (o.kind !== "ok") return;
          // a control that was built decides: a TQ, then an LQ that needs half the cluster
          const ac = o.value as Control;
          const cap = Array.from(ac.capacity);
          expect(ac.admit({ name: "t", kind: "TQ" }).class).toBe("elastic");
          const lq = ac.admit({ name: "l", kind: "LQ", bursts: { start: 0, period: 100, window: 1, count: 3, volume: cap.map((c) => c * 0.5) } });
          expect(lq.class).toBe("hard");
          expect(typeof lq.detail).toBe("string");
        },
      ),
      FUZZ,
    );
  });

  it("admit/leave: hostile queues -> a decision or an InputError; a refused admit changes nothing", () => {
    fc.assert(
      fc.property(fc.array(opArb, { minLength: 1, maxLength: 12 }), (ops) => {
        const a = new BopfAdmissionControl(CAP);
        const ref = new BopfAdmissionControl(CAP); // sees only the calls that were accepted
        for (const o of ops) {
          if (o.op === "leave") {
            const r = outcome(() => a.leave(o.name as string));
            if (r.kind === "ok") expect(r.value).toBe(ref.leave(o.name as string));
            continue;
          }
          const r = outcome(() => a.admit(o.q as never), FIELD);
          if (r.kind !== "ok") continue;
          const got = r.value as { class: string; reason: string; detail: string };
          expect(said(got)).toBe(said(ref.admit(o.q as never)));
        }
        expect(a.admittedCount).toBe(ref.admittedCount);
        // both decide the same next queue the same way
        const probe = { name: "probe", kind: "LQ" as const, bursts: { start: 0, period: 60, window: 6, count: 5, volume: [30, 60] } };
        expect(said(a.admit(probe))).toBe(said(ref.admit(probe)));
      }),
      FUZZ,
    );
  });
});

const rowArb = fc.record({
  kind: fc.oneof({ weight: 8, arbitrary: fc.constantFrom(0, 1, 1) }, { weight: 1, arbitrary: fc.constantFrom(2, 255) }),
  start: hostileNumber, period: posNum, window: posNum,
  count: fc.oneof(fc.integer({ min: 0, max: 50 }), hostileNumber),
  volume: fc.array(fc.oneof(posNum, hostileNumber), { minLength: K, maxLength: K }),
});
type Row = { kind: number; start: number; period: number; window: number; count: number; volume: number[] };

function batchOf(rows: Row[]) {
  const b = emptyAdmissionBatch(rows.length, K);
  rows.forEach((r, i) => {
    b.kind[i] = r.kind; b.start[i] = r.start; b.period[i] = r.period; b.window[i] = r.window; b.count[i] = r.count;
    b.volume.set(r.volume.map((v) => (typeof v === "number" ? v : NaN)), i * K);
  });
  return b;
}

describe.each(backends)("fuzz BoPF batch paths (%s)", (_name, make) => {
  const engine: Engine = make();

  it("admitBatch: hostile columns decide as admit() row by row, or refuse the whole batch and change nothing", () => {
    fc.assert(
      fc.property(fc.array(fc.array(rowArb, { maxLength: 4 }), { minLength: 1, maxLength: 4 }), (batches) => {
        const viaBatch = new BopfAdmissionControl(CAP);
        const viaAdmit = new BopfAdmissionControl(CAP);
        let name = 0;
        for (const rows of batches) {
          const b = batchOf(rows);
          const out = emptyBatchOutcome(rows.length);
          const r = outcome(() => viaBatch.admitBatch(b, out, "batch", engine), FIELD);
          if (r.kind !== "ok") {
            // the object path refuses one of these rows too (the same check, row by row)
            expect(rows.some((row) => row.kind === 0 ? false : outcome(() => new BopfAdmissionControl(CAP).admit({ name: "x", kind: "LQ", bursts: { ...row } })).kind !== "ok" || row.kind > 1)).toBe(true);
            continue;
          }
          rows.forEach((row, i) => {
            const q = row.kind === 0 ? { name: `q${name++}`, kind: "TQ" as const } : { name: `q${name++}`, kind: "LQ" as const, bursts: { ...row } };
            expect(bopf.CLASS_CODE[viaAdmit.admit(q).class]).toBe(out.cls[i]);
          });
        }
        expect(viaBatch.admittedCount).toBe(viaAdmit.admittedCount);
        expect(sameBits(viaBatch.rates.slice(0, viaBatch.lastId * K + K), viaAdmit.rates.slice(0, viaAdmit.lastId * K + K))).toBe(true);
      }),
      { ...FUZZ, numRuns: Math.ceil(FUZZ.numRuns * 2 / 3) },
    );
  });

  it("decideRound: a hostile want or batch is refused before anything is admitted; allocations within capacity and want", () => {
    fc.assert(
      fc.property(fc.array(rowArb, { maxLength: 4 }), fc.array(fc.oneof(posNum, hostileNumber), { maxLength: 10 }), fc.boolean(), (rows, wantCells, wrongType) => {
        const ac = new BopfAdmissionControl(CAP);
        const b = batchOf(rows);
        const nk = rows.length * K;
        const want = wrongType ? (Array.from({ length: nk }, (_, i) => wantCells[i] ?? 1) as unknown as Float64Array)
          : Float64Array.from({ length: nk }, (_, i) => wantCells[i % Math.max(1, wantCells.length)] ?? 1);
        const r = outcome(() => decideRound(engine, ac, b, want, new DecisionWorkspace()), FIELD);
        if (r.kind !== "ok") {
          // nothing admitted: the control decides as a fresh one
          expect(ac.admittedCount).toBe(0);
          return;
        }
        const { allocation, out } = r.value as { allocation: Float64Array; out: { cls: Uint8Array } };
        for (let res = 0; res < K; res++) {
          let used = 0;
          for (let i = 0; i < rows.length; i++) {
            const x = allocation[i * K + res];
            expect(x >= 0 && x <= want[i * K + res]).toBe(true);
            if (out.cls[i] === 3) expect(x).toBe(0);
            used += x;
          }
          expect(used).toBeLessThanOrEqual(CAP[res] * (1 + 1e-9));
        }
      }),
      { ...FUZZ, numRuns: Math.ceil(FUZZ.numRuns * 2 / 3) },
    );
  });

  it("allocateInstant: hostile queues -> an allocation within capacity and want, or an InputError", () => {
    const classArb = fc.oneof({ weight: 8, arbitrary: fc.constantFrom("hard", "soft", "elastic", "rejected") }, { weight: 1, arbitrary: hostileValue });
    const qArb = fc.record({
      class: classArb,
      want: fc.oneof({ weight: 6, arbitrary: fc.array(fc.oneof(posNum, hostileNumber), { minLength: K, maxLength: K }) }, { weight: 1, arbitrary: hostileArray(K) }),
      weight: fc.option(fc.oneof(posNum, hostileValue), { nil: undefined }),
      guarantee: fc.option(fc.record({ rate: fc.array(fc.oneof(posNum, hostileNumber), { minLength: K, maxLength: K }), remaining: fc.array(fc.oneof(posNum, hostileNumber), { minLength: K, maxLength: K }) }), { nil: undefined }),
    }, { requiredKeys: ["class", "want"] });
    fc.assert(
      fc.property(fc.oneof({ weight: 5, arbitrary: fc.constant(CAP) }, { weight: 1, arbitrary: hostileArray(K) }), fc.array(qArb, { maxLength: 5 }), (cap, queues) => {
        const r = outcome(() => allocateInstant(engine, cap as never, queues as never), FIELD);
        if (r.kind !== "ok") return;
        const { allocation } = r.value as { allocation: Float64Array };
        const c = Array.from(cap as ArrayLike<number>);
        // with no queues any valid capacity is accepted, whatever its length
        for (let res = 0; res < c.length; res++) {
          let used = 0;
          queues.forEach((q, i) => {
            const x = allocation[i * K + res];
            expect(x >= 0 && x <= (q.want as number[])[res]).toBe(true);
            used += x;
          });
          expect(used).toBeLessThanOrEqual(c[res] * (1 + 1e-9));
        }
      }),
      FUZZ,
    );
  });
});

describe.each(backends)("BoPF audit findings, each failing before its fix (%s)", (_name, make) => {
  const engine: Engine = make();
  const fieldOf = (f: () => unknown) => {
    const o = outcome(f);
    return o.kind === "input" ? o.error.field : o.kind;
  };

  it("constructor: options null / NaN tolerance / bad resources, a DataView capacity -> InputError (was a TypeError, or every LQ hard under NaN)", () => {
    expect(fieldOf(() => new BopfAdmissionControl(CAP, null as never))).toBe("options");
    expect(fieldOf(() => new BopfAdmissionControl(CAP, { tolerance: NaN }))).toBe("options.tolerance");
    expect(fieldOf(() => new BopfAdmissionControl(CAP, { tolerance: -1 }))).toBe("options.tolerance");
    expect(fieldOf(() => new BopfAdmissionControl(CAP, { resources: ["cpu"] }))).toBe("options.resources");
    expect(fieldOf(() => new BopfAdmissionControl(new DataView(new ArrayBuffer(16)) as never))).toBe("capacity");
    expect(fieldOf(() => new BopfAdmissionControl(CAP).admit({ name: "a", kind: "LQ", bursts: { start: 0, period: 1, window: 1, count: 1, volume: new DataView(new ArrayBuffer(16)) as never } }))).toBe("queue.bursts.volume");
  });

  it("allocateInstant: a Symbol weight, a null queue, non-array queues or capacity -> InputError (was a TypeError)", () => {
    const q = { class: "elastic" as const, want: [1, 1] };
    expect(fieldOf(() => allocateInstant(engine, CAP, [{ ...q, weight: Symbol("w") as never }]))).toBe("queues[0].weight");
    expect(fieldOf(() => allocateInstant(engine, CAP, [q, null as never]))).toBe("queues[1]");
    expect(fieldOf(() => allocateInstant(engine, CAP, null as never))).toBe("queues");
    expect(fieldOf(() => allocateInstant(engine, null as never, [q]))).toBe("capacity");
    expect(fieldOf(() => allocateInstant(engine, new DataView(new ArrayBuffer(16)) as never, []))).toBe("capacity");
    expect(fieldOf(() => allocateInstant(engine, CAP, [{ ...q, guarantee: 3 as never }]))).toBe("queues[0].guarantee");
  });

  it("EngineAdmissionBatch, allocateInstantFlat, admitBatch, burstSeries: bad sizes and containers -> InputError (were taken, TypeErrors, or named `volume`)", () => {
    for (const n of [-1, 1.5, NaN, "3"]) expect(fieldOf(() => new bopf.EngineAdmissionBatch(engine, n as never, K))).toBe("n");
    const flat = (n: unknown) => ({ n, cls: new Uint8Array(2), want: new Float64Array(4), weight: null, hasGuarantee: new Uint8Array(2), rate: new Float64Array(4), remaining: new Float64Array(4) });
    for (const n of [-1, 1.5, NaN]) {
      expect(fieldOf(() => bopf.allocateInstantFlat(engine, CAP, flat(n) as never))).toBe("n");
      expect(fieldOf(() => bopf.allocateInstantFlat(engine, CAP, flat(n) as never, undefined, { steps: false }))).toBe("n");
    }
    expect(fieldOf(() => bopf.allocateInstantFlat(engine, CAP, null as never))).toBe("batch");
    expect(fieldOf(() => new BopfAdmissionControl(CAP).admitBatch(emptyAdmissionBatch(1, K), null as never))).toBe("out");
    expect(fieldOf(() => bopf.burstSeries([], null as never))).toBe("capacity");
  });

  it("allocateInstant: want / weight beyond f64 in the DRF step names the queue, not the kernel's staged `demands[i]`", () => {
    const r = fieldOf(() => allocateInstant(engine, CAP, [{ class: "hard", want: [1e300, 1e-300], weight: 5e-324 }]));
    expect(r).toBe("queues[0]");
  });

  it("decideRound: a NaN want (or a burst rate beyond f64) is refused before the batch is admitted (was: admitted, then the round threw)", () => {
    const ac = new BopfAdmissionControl(CAP);
    const b = emptyAdmissionBatch(2, K);
    setPeriodicRow(b, 1, { start: 0, period: 100, window: 10, count: 3, volume: [50, 100] }, K);
    const want = Float64Array.from([1, 1, NaN, 1]);
    expect(fieldOf(() => decideRound(engine, ac, b, want, new DecisionWorkspace()))).toBe("want[1][0]");
    expect(ac.admittedCount).toBe(0);
    // a soft LQ whose rate volume / window overflows f64: its guarantee cannot be written
    const b2 = emptyAdmissionBatch(2, K);
    setPeriodicRow(b2, 0, { start: 0, period: 100, window: 1, count: 3, volume: [500, 1000] }, K);
    // count 2: its gap is the period (finding 6: a single burst's gap is its window, which would make it elastic)
    setPeriodicRow(b2, 1, { start: 0, period: 1e300, window: 1e-300, count: 2, volume: [1e10, 1e10] }, K);
    const r = outcome(() => decideRound(engine, ac, b2, new Float64Array(4).fill(1), new DecisionWorkspace()));
    expect(r.kind).toBe("input");
    if (r.kind === "input") expect(r.error.field).toMatch(/^batch\.volume\[1\]\[\d\]$/);
    expect(ac.admittedCount).toBe(0);
    // afterwards the control decides as a fresh one
    const fresh = new BopfAdmissionControl(CAP);
    const good = Float64Array.from([1, 1, 1, 1]);
    const x = decideRound(engine, ac, b, good, new DecisionWorkspace());
    const y = decideRound(engine, fresh, b, good, new DecisionWorkspace());
    expect(sameBits(Array.from(x.out.cls), Array.from(y.out.cls))).toBe(true);
    expect(sameBits(Float64Array.from(x.allocation), Float64Array.from(y.allocation))).toBe(true);
  });
});

// (setPeriodicRow is a plain writer over caller columns; admitBatch validates what it wrote)
void setPeriodicRow;
