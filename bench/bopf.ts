// The BoPF decision of the paper's overhead experiment (the BoPF paper §5.2.4: 10,000
// LQs with 500 ON/OFF cycles each and 10,000 TQs; admission "approximately 1 ms" on a 2.4 GHz
// Xeon E3, allocation "less than 1 ms"). Inputs and the decision come from
// bench/bopf-scenario.ts (periodic burst specs, K = 6, kept as columns): an empty
// admission control admits every queue, then one allocation round over all 20,000 with every
// guaranteed LQ inside a burst — decideRound (src/bopf/decision.ts): both halves in one pass
// of the engine's BoPF kernel (assembly/bopf.ts) over one staged block. Two forms: the columns and
// demands copied in from the caller's typed arrays on every call, or living in the engine's
// memory (EngineAdmissionBatch, "in place"). The default cluster (capacity 1e6 per resource)
// is uncontended, as a cluster that is not full; the contended case (3e5) has soft LQs
// (SRPT) and binding DRF rounds (the general path). The floor is one pass over what the
// queues report, in the form the decision reads it: kind, and for each LQ its burst spec
// (start, period, window, count, K volumes) — the least any admission must read; once in TS
// over the caller's columns, once in WASM (floorSum) over the same cells in linear memory:
// the same-kind floor of the in-place WASM decision. The object-API cases (20,000 admit()
// calls; allocateInstant over InstantQueue objects) are kept for comparison.
import { loadEngineSync, type Engine } from "../src/index.js";
import type { BackendKind } from "../src/kernels/backend.js";
import { BopfAdmissionControl, type BopfClass } from "../src/bopf/admission.js";
import { allocateInstant, type InstantQueue } from "../src/bopf/allocate.js";
import type { PeriodicBursts } from "../src/bopf/bursts.js";
import { emptyBatchOutcome } from "../src/bopf/admission-batch.js";
import { buildBopfBench, engineBatchOf, runBopfBench, type BopfBenchInput, type BopfBenchResult } from "./bopf-scenario.js";
import { benchBackend } from "./backends.js";
import type { ScenarioCase, ScenarioModule } from "./cases.js";

export const BOPF_LQS = 10_000, BOPF_TQS = 10_000, BOPF_BURSTS = 500;

/** Capacity per resource of the contended case: hard rates exceed it (soft LQs), DRF binds. */
export const BOPF_CONTENDED_CAPACITY = 3e5;

let cached: BopfBenchInput | null = null;
const input = (): BopfBenchInput => (cached ??= buildBopfBench(BOPF_LQS, BOPF_TQS, BOPF_BURSTS));
let cachedContended: BopfBenchInput | null = null;
const contendedInput = (): BopfBenchInput =>
  (cachedContended ??= buildBopfBench(BOPF_LQS, BOPF_TQS, BOPF_BURSTS, 1, BOPF_CONTENDED_CAPACITY));

function admitAll(x: BopfBenchInput): { ac: BopfAdmissionControl; cls: BopfClass[] } {
  const ac = new BopfAdmissionControl(x.capacity);
  const cls = x.queues.map((q) => ac.admit(q).class);
  return { ac, cls };
}

/** The same instant queues runBopfBench builds after admission. */
function instantQueues(x: BopfBenchInput, ac: BopfAdmissionControl, cls: BopfClass[]): InstantQueue[] {
  return x.queues.map((q, i) => {
    const iq: InstantQueue = { class: cls[i], want: x.wants[i] };
    const series = ac.seriesOf(q.name);
    if (series && (cls[i] === "hard" || cls[i] === "soft")) iq.guarantee = { rate: series.maxRate, remaining: series.burst(0).volume };
    return iq;
  });
}

/**
 * The floor: one pass over every queue's report as the decision reads it (columns): its
 * kind and, for an LQ, the periodic burst spec.
 */
export function burstSpecColumnsFloor(x: BopfBenchInput): number {
  const { n, kind, start, period, window, count, volume } = x.batch;
  const k = x.capacity.length;
  let s = 0;
  for (let i = 0; i < n; i++) {
    if (kind[i] !== 1) {
      s += 1;
      continue;
    }
    s += start[i] + period[i] + window[i] + count[i];
    const base = i * k;
    for (let r = 0; r < k; r++) s += volume[base + r];
  }
  return s;
}

/** The same pass over the reports as objects (what admit() reads), for comparison. */
export function burstSpecFloor(x: BopfBenchInput): number {
  let s = 0;
  for (const q of x.queues) {
    if (q.kind !== "LQ") {
      s += 1;
      continue;
    }
    const b = q.bursts as PeriodicBursts;
    s += b.start + b.period + b.window + b.count;
    const v = b.volume;
    for (let r = 0; r < v.length; r++) s += v[r];
  }
  return s;
}

/**
 * The decision (decideRound: admission and the allocation round on the engine's BoPF
 * kernel). `inPlace`: the columns and demands live in the engine's memory
 * (EngineAdmissionBatch, what the WASM floor reads); else they are copied in from the
 * caller's typed arrays on every call.
 */
function decisionCase(backend: BackendKind, contended = false, inPlace = false): ScenarioCase {
  let last: BopfBenchResult | null = null;
  return {
    id: `bopf.decision${contended ? ".contended" : ""}.${backend}${inPlace ? ".inplace" : ""}`,
    label: `admission + one allocation round (${backend}${contended ? `, contended: C = ${BOPF_CONTENDED_CAPACITY}` : ""}` +
      `${inPlace ? ", columns in the engine's memory" : ", columns copied in"})`,
    runs: { warmup: 3, samples: 9 },
    prepare() {
      const x = contended ? contendedInput() : input();
      const engine: Engine = loadEngineSync({ backend });
      if (inPlace) {
        const b = engineBatchOf(engine, x);
        return () => (last = runBopfBench(engine, x, b, b.want));
      }
      return () => (last = runBopfBench(engine, x));
    },
    info: () => (last ? { classes: last.classes, allocated: last.allocated } : {}),
  };
}

/**
 * The same floor in WASM over the same cells in linear memory: the kind bytes and the LQ
 * rows' start, period, window, count and volumes (the bench's LQs are one run of rows),
 * each a floorSum pass (bench/backends.ts).
 */
const wasmFloorCase: ScenarioCase = {
  id: "bopf.floor.wasm",
  label: "floor: the same pass in WASM over the same cells in linear memory",
  runs: { warmup: 20, samples: 31 },
  prepare() {
    const x = input();
    const { kind, n } = x.batch;
    const k = x.capacity.length;
    const lo = kind.indexOf(1), hi = kind.lastIndexOf(1) + 1;
    for (let i = lo; i < hi; i++) if (kind[i] !== 1) throw new Error("bopf.floor.wasm: the LQ rows are not one run");
    const bb = benchBackend("wasm");
    const block = bb.kernels.prepare("bopf", n, k);
    const v = block.views();
    v.kind.set(kind.subarray(0, n));
    for (const c of ["start", "period", "window", "count"] as const) v[c].set(x.batch[c].subarray(0, n));
    v.volume.set(x.batch.volume.subarray(0, n * k));
    const bytesAsF64 = new Float64Array(v.kind.buffer, v.kind.byteOffset, Math.ceil(n / 8));
    return bb.floorOver([
      bytesAsF64, v.start.subarray(lo, hi), v.period.subarray(lo, hi), v.window.subarray(lo, hi), v.count.subarray(lo, hi),
      v.volume.subarray(lo * k, hi * k),
    ]);
  },
};

const batchAdmissionCase: ScenarioCase = {
  id: "bopf.admission.batch",
  label: "admission alone: admitBatch over the columns (the kernel's JS twin in place)",
  runs: { warmup: 3, samples: 9 },
  prepare() {
    const x = input();
    const ac = new BopfAdmissionControl(x.capacity);
    const out = emptyBatchOutcome(x.batch.n);
    return () => {
      ac.reset();
      ac.admitBatch(x.batch, out);
      return out;
    };
  },
};

const admissionCase: ScenarioCase = {
  id: "bopf.admission",
  label: "admission alone: 20,000 admit() calls, object API (TS)",
  runs: { warmup: 1, samples: 7 },
  prepare() {
    const x = input();
    return () => admitAll(x);
  },
};

const allocationCase: ScenarioCase = {
  id: "bopf.allocate.wasm",
  label: "one allocateInstant round alone, InstantQueue objects (wasm)",
  runs: { warmup: 1, samples: 5 },
  prepare() {
    const x = input();
    const { ac, cls } = admitAll(x);
    const queues = instantQueues(x, ac, cls);
    const engine = loadEngineSync({ backend: "wasm" });
    return () => allocateInstant(engine, x.capacity, queues);
  },
};

const floorCase: ScenarioCase = {
  id: "bopf.floor",
  label: "floor: one pass over the 20,000 queues' burst specs, columns (TS)",
  runs: { warmup: 20, samples: 31 },
  prepare() {
    const x = input();
    return () => burstSpecColumnsFloor(x);
  },
};

const objectFloorCase: ScenarioCase = {
  id: "bopf.floor.objects",
  label: "the same pass over the reports as objects (TS)",
  runs: { warmup: 20, samples: 31 },
  prepare() {
    const x = input();
    return () => burstSpecFloor(x);
  },
};

export const bopfModule: ScenarioModule = {
  name: "BoPF overhead experiment",
  description: `${BOPF_LQS} LQs (${BOPF_BURSTS} periodic bursts each) + ${BOPF_TQS} TQs, K = 6 (bench/bopf-scenario.ts)`,
  cases: [
    decisionCase("wasm", false, true), decisionCase("wasm"), decisionCase("js"), decisionCase("wasm", true), decisionCase("js", true),
    batchAdmissionCase, admissionCase, allocationCase, floorCase, wasmFloorCase, objectFloorCase,
  ],
  ratios: [
    // the same-kind floor: the WASM decision over columns in linear memory vs a WASM pass over them
    { label: "decision (WASM, in place) / WASM floor", numerator: "bopf.decision.wasm.inplace", denominator: "bopf.floor.wasm", target: { op: "<=", value: 10 } },
    { label: "decision (WASM, columns copied in) / WASM floor", numerator: "bopf.decision.wasm", denominator: "bopf.floor.wasm" },
    { label: "decision (WASM, in place) / TS floor", numerator: "bopf.decision.wasm.inplace", denominator: "bopf.floor" },
    { label: "decision (WASM, columns copied in) / TS floor", numerator: "bopf.decision.wasm", denominator: "bopf.floor" },
    { label: "TS floor / WASM floor", numerator: "bopf.floor", denominator: "bopf.floor.wasm" },
    { label: "decision (JS) / floor", numerator: "bopf.decision.js", denominator: "bopf.floor" },
    { label: "contended decision (WASM) / floor", numerator: "bopf.decision.contended.wasm", denominator: "bopf.floor" },
    { label: "contended decision (JS) / floor", numerator: "bopf.decision.contended.js", denominator: "bopf.floor" },
    { label: "admitBatch / floor", numerator: "bopf.admission.batch", denominator: "bopf.floor" },
    { label: "admit() x 20,000 / floor", numerator: "bopf.admission", denominator: "bopf.floor" },
    { label: "allocateInstant, objects (WASM) / floor", numerator: "bopf.allocate.wasm", denominator: "bopf.floor" },
  ],
};
