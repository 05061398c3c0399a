// Stateful fuzz (issue 21): BoPF admission control under random sequences of valid and
// invalid calls (test/helpers/stateful.ts): admit (TQs, periodic and explicit LQs), admitBatch
// (on no engine, WASM or JS), leave by name or id, reset. The model: the live queues by name
// and id with their classes, and a shadow control that receives only the valid calls; every
// decision of the real control (class, reason, detail, ids) must equal the shadow's, and an
// invalid call must be an InputError that leaves everything observable exactly as before.
import fc from "fast-check";
import { describe, it } from "vitest";
import { loadEngineSync, type Engine } from "../../src/index.js";
import { BopfAdmissionControl } from "../../src/bopf/admission.js";
import { emptyAdmissionBatch, emptyBatchOutcome, setPeriodicRow } from "../../src/bopf/admission-batch.js";
import { CLASS_CODE } from "../../src/bopf/allocate.js";
import { specArb as specsOver, type Spec } from "../helpers/bopf-specs.js";
import { assertModelRun, command, expect, expectRefusedUnchanged, snapshot } from "../helpers/stateful.js";

const K = 2;
const CAP = [100, 60];
const engines: Array<Engine | null> = [null, loadEngineSync({ backend: "wasm" }), loadEngineSync({ backend: "js" })];

interface Model {
  /** live queues: name -> id, and id -> class */
  byName: Map<string, number>;
  classById: Map<number, string>;
  seq: number;
}
interface Real {
  ac: BopfAdmissionControl;
  shadow: BopfAdmissionControl;
  engine: Engine | null;
}

/** Everything a caller can observe of a control (ids up to lastId, names ever used). */
function observable(ac: BopfAdmissionControl, m: Model): unknown {
  const ids = Array.from({ length: ac.lastId + 1 }, (_, id) => ac.classOfId(id));
  const names = Array.from({ length: m.seq }, (_, i) => ac.classOf(`q${i}`));
  return {
    admitted: ac.admittedCount, lastId: ac.lastId, ids, names,
    rates: Array.from(ac.rates.subarray(0, (ac.lastId + 1) * K)),
    internal: snapshot(ac, new Set(["need", "head", "summary", "kscratch", "kstate", "kgkey", "kgid", "rows", "guaranteed", "dWhat", "dId", "dRes", "dA", "dB", "dC"])),
  };
}

function queueOf(s: Spec, name: string) {
  return s.kind === "TQ" ? { name, kind: "TQ" as const } : { name, kind: "LQ" as const, bursts: s.bursts };
}

function checkModel(m: Model, r: Real): void {
  expect(r.ac.admittedCount).toBe(m.classById.size);
  for (const [name, id] of m.byName) expect(r.ac.classOf(name)).toBe(m.classById.get(id));
  for (const [id, c] of m.classById) expect(r.ac.classOfId(id)).toBe(c);
  expect(r.ac.admittedCount).toBe(r.shadow.admittedCount);
}

const specArb = specsOver(K);
const explicitArb = fc.array(fc.record({ start: fc.integer({ min: 0, max: 300 }), window: fc.integer({ min: 1, max: 50 }), volume: fc.array(fc.integer({ min: 0, max: 40 }), { minLength: K, maxLength: K }) }), { minLength: 1, maxLength: 4 })
  .map((bs) => bs.sort((a, b) => a.start - b.start).map((b, i, all) => ({ ...b, start: b.start + i * 60 + (i > 0 ? all[i - 1].window : 0) })));

const badQueueArb = fc.constantFrom(
  { kind: "LQ", bursts: { start: 0, period: 10, window: 5, volume: [NaN, 1], count: 1 } },
  { kind: "LQ", bursts: { start: 0, period: -1, window: 5, volume: [1, 1], count: 1 } },
  { kind: "LQ", bursts: { start: 0, period: 10, window: 5, volume: [1], count: 1 } },
  { kind: "LQ", bursts: { start: 0, period: 10, window: 5, volume: [1, 1], count: 1.5 } },
  { kind: "LQ", bursts: [{ start: 0, window: 0, volume: [1, 1] }] },
  { kind: "XQ" },
  null,
);

const commands = [
  fc.record({ spec: specArb }).map(({ spec }) =>
    command<Model, Real>(`admit(${JSON.stringify(spec)})`, (m, r) => {
      const name = `q${m.seq++}`;
      const a = r.ac.admit(queueOf(spec, name));
      const b = r.shadow.admit(queueOf(spec, name));
      expect([a.class, a.reason, a.detail]).toEqual([b.class, b.reason, b.detail]);
      if (a.class !== "rejected") {
        expect(r.ac.lastId).toBe(r.shadow.lastId);
        m.byName.set(name, r.ac.lastId);
        m.classById.set(r.ac.lastId, a.class);
      }
      checkModel(m, r);
    })),
  explicitArb.map((bursts) =>
    command<Model, Real>(`admitExplicit(${JSON.stringify(bursts)})`, (m, r) => {
      const name = `q${m.seq++}`;
      const a = r.ac.admit({ name, kind: "LQ", bursts });
      const b = r.shadow.admit({ name, kind: "LQ", bursts });
      expect([a.class, a.reason, a.detail]).toEqual([b.class, b.reason, b.detail]);
      if (a.class !== "rejected") {
        m.byName.set(name, r.ac.lastId);
        m.classById.set(r.ac.lastId, a.class);
      }
    })),
  // invalid admissions: bad bursts, a bad kind, a duplicate name
  fc.record({ q: badQueueArb, dup: fc.boolean() }).map(({ q, dup }) =>
    command<Model, Real>(`admitBad(${JSON.stringify(q)}, dup=${dup})`, (m, r) => {
      const names = [...m.byName.keys()];
      const input = dup && names.length > 0 ? { name: names[0], kind: "TQ" } : q === null ? null : { name: `q${m.seq}`, ...q };
      expectRefusedUnchanged(() => r.ac.admit(input as never), observable(r.ac, m));
      checkModel(m, r);
    })),
  fc.record({ specs: fc.array(specArb, { maxLength: 6 }), bad: fc.option(fc.nat(), { nil: undefined }) }).map(({ specs, bad }) =>
    command<Model, Real>(`admitBatch(${specs.length}, bad=${bad})`, (m, r) => {
      const b = emptyAdmissionBatch(specs.length, K);
      specs.forEach((s, i) => (s.kind === "LQ" ? setPeriodicRow(b, i, s.bursts, K) : (b.period[i] = NaN)));
      const out = emptyBatchOutcome(specs.length);
      if (bad !== undefined && specs.length > 0) {
        const row = bad % specs.length;
        b.kind[row] = 1;
        b.period[row] = 10; b.window[row] = 5; b.count[row] = 1; b.start[row] = 0;
        b.volume[row * K] = NaN;
        const before = observable(r.ac, m);
        expectRefusedUnchanged(() => r.ac.admitBatch(b, out, "batch", r.engine), before, { field: new RegExp(`^batch\\.volume\\[${row}\\]`) });
        return;
      }
      r.ac.admitBatch(b, out, "batch", r.engine);
      const out2 = emptyBatchOutcome(specs.length);
      r.shadow.admitBatch(b, out2, "batch", null);
      expect([Array.from(out.cls), Array.from(out.reason), Array.from(out.id)]).toEqual([Array.from(out2.cls), Array.from(out2.reason), Array.from(out2.id)]);
      for (let i = 0; i < specs.length; i++) {
        if (out.id[i] >= 0) m.classById.set(out.id[i], Object.keys(CLASS_CODE).find((c) => CLASS_CODE[c as keyof typeof CLASS_CODE] === out.cls[i])!);
      }
      checkModel(m, r);
    })),
  fc.record({ i: fc.nat() }).map(({ i }) =>
    command<Model, Real>(`leave(#${i})`, (m, r) => {
      const names = [...m.byName.keys()];
      if (names.length === 0) {
        expect(r.ac.leave("nobody")).toBe(false);
        return;
      }
      const name = names[i % names.length];
      expect(r.ac.leave(name)).toBe(true);
      expect(r.shadow.leave(name)).toBe(true);
      m.classById.delete(m.byName.get(name)!);
      m.byName.delete(name);
      checkModel(m, r);
    })),
  fc.record({ i: fc.oneof(fc.nat(), fc.constantFrom(-1, 1.5, NaN, 2 ** 40)) }).map(({ i }) =>
    command<Model, Real>(`leaveId(${i})`, (m, r) => {
      const ids = [...m.classById.keys()].filter((id) => ![...m.byName.values()].includes(id));
      if (Number.isInteger(i) && i >= 0 && i < 2 ** 31 && ids.length > 0) {
        const id = ids[i % ids.length];
        expect(r.ac.leaveId(id)).toBe(true);
        expect(r.shadow.leaveId(id)).toBe(true);
        m.classById.delete(id);
      } else {
        const before = observable(r.ac, m);
        expect(r.ac.leaveId(i)).toBe(false);
        expect(observable(r.ac, m)).toEqual(before);
      }
      checkModel(m, r);
    })),
  fc.constant(
    command<Model, Real>("reset", (m, r) => {
      r.ac.reset();
      r.shadow.reset();
      m.byName.clear();
      m.classById.clear();
      checkModel(m, r);
    }),
  ),
];

describe("BoPF admission control: stateful", () => {
  for (const variant of ["bopf", "nbopf"] as const) {
    it(`${variant}: valid calls match the model and a clean shadow; invalid calls are InputErrors that change nothing`, () => {
      assertModelRun(
        fc.nat({ max: 2 }).map((e) => () => ({
          model: { byName: new Map(), classById: new Map(), seq: 0 } as Model,
          real: { ac: new BopfAdmissionControl(CAP, { variant }), shadow: new BopfAdmissionControl(CAP, { variant }), engine: engines[e] } as Real,
        })),
        commands,
        { maxCommands: 40, runs: 0.3 },
      );
    });
  }
});
