// DRF: the kernel on both backends, the floor on the same arrays, what users would run
// instead (YARN's bisection, Mesos' discrete DRF), and the public call end to end.
import { loadEngineSync } from "../src/index.js";
import type { BackendKind, KernelBlock } from "../src/kernels/backend.js";
import { DRF_ARGS } from "../src/kernels/drf/contract.js";
import { mesosDrf, MesosDrfScratch } from "./baselines/mesos-drf.js";
import { yarnFairShares } from "./baselines/yarn-fair-share.js";
import type { BenchCase, BenchModule, Size } from "./cases.js";
import { demandRows, drfInstance, type DrfInstance } from "./workload.js";
import { benchBackend } from "./backends.js";

/** Mesos tasks per queue: each queue's demand is ten equal tasks. */
const MESOS_TASKS_PER_QUEUE = 10;

let cached: DrfInstance | null = null;
function instance({ n, k }: Size): DrfInstance {
  if (!cached || cached.n !== n || cached.k !== k) cached = drfInstance(n, k);
  return cached;
}

/** A block of these kernels (default: a fresh engine's) with this size's problem staged in its views. */
function stagedBlock(backend: BackendKind, size: Size, kernels = loadEngineSync({ backend }).kernels): KernelBlock<"drf"> {
  const x = instance(size);
  const block = kernels.stage("drf", x.n, x.k);
  const s = block.views();
  s.capacity.set(x.capacity);
  s.demands.set(x.demands);
  s.weights.set(x.weights);
  return block;
}

function kernelCase(backend: BackendKind): BenchCase {
  return {
    id: `drf.kernel.${backend}`,
    label: `DRF kernel (${backend})`,
    target: backend === "wasm" ? "t(1e5)/t(1e4) <= 12" : undefined,
    prepare(size) {
      const block = stagedBlock(backend, size);
      const code = block.run(DRF_ARGS.weights);
      if (code !== 0) throw new Error(`DRF kernel failed: status ${code} at ${block.errorIndex()}`);
      return () => block.run(DRF_ARGS.weights);
    },
  };
}

function floorCase(backend: BackendKind): BenchCase {
  return {
    id: `floor.${backend}`,
    label: `floor: one pass over D (${backend}${backend === "wasm" ? ", SIMD" : ""})`,
    prepare(size) {
      const b = benchBackend(backend);
      return b.floorOver([stagedBlock(backend, size, b.kernels).views().demands]);
    },
  };
}

/** The earlier floor (scalar, four accumulators: add-latency bound), kept for continuity. */
const scalarFloorCase: BenchCase = {
  id: "floor.scalar.wasm",
  label: "scalar floor, four accumulators (wasm; the earlier yardstick)",
  prepare(size) {
    const x = instance(size);
    const b = benchBackend("wasm");
    const s = b.kernels.stage("drf", x.n, x.k).views();
    s.demands.set(x.demands);
    return b.scalarFloorOver!([s.demands]);
  },
};

/**
 * The public call end to end, under each result contract: fresh caller-owned arrays (the
 * default), results copied into caller arrays (`into`, no allocation), and a prepared
 * problem (inputs and results are views of the engine's memory).
 */
function endToEndCase(backend: BackendKind, input: "rows" | "typed", contract: "fresh" | "into" = "fresh"): BenchCase {
  const from = input === "rows" ? "number[][]" : "Float64Array";
  return {
    id: contract === "fresh" ? `drf.call.${input}.${backend}` : `drf.call.${input}.${contract}.${backend}`,
    label: contract === "fresh" ? `engine.drf() from ${from} (${backend})` : `engine.drf() from ${from}, into caller arrays (${backend})`,
    prepare(size) {
      const x = instance(size);
      const engine = loadEngineSync({ backend });
      const args = input === "rows"
        ? { capacity: Array.from(x.capacity), demands: demandRows(x), weights: Array.from(x.weights) }
        : { capacity: x.capacity, demands: x.demands, weights: x.weights };
      if (contract === "fresh") return () => engine.drf(args);
      const into = { fraction: new Float64Array(x.n), allocation: new Float64Array(x.n * x.k), dominantShare: new Float64Array(x.n) };
      const options = { into };
      return () => engine.drf(args, options);
    },
  };
}

/**
 * A prepared problem: "solve" is the zero-copy hot loop (the caller keeps its demands in the
 * views and reads results in place); "load" adds copying a typed input in (p.load) and the
 * results out (p.copyResults(into)), i.e. the into contract without shape checks per call.
 */
function preparedCase(backend: BackendKind, mode: "solve" | "load"): BenchCase {
  return {
    id: `drf.call.prepared.${mode}.${backend}`,
    label: mode === "solve" ? `prepared DRF: solve() in place (${backend})` : `prepared DRF: load + solve + copyResults (${backend})`,
    prepare(size) {
      const x = instance(size);
      const engine = loadEngineSync({ backend });
      const p = engine.prepareDrf(x.n, x.k, { weights: true });
      const input = { capacity: x.capacity, demands: x.demands, weights: x.weights };
      p.load(input);
      if (mode === "solve") return () => p.solve();
      const into = { fraction: new Float64Array(x.n), allocation: new Float64Array(x.n * x.k), dominantShare: new Float64Array(x.n) };
      return () => {
        p.load(input).solve();
        return p.copyResults(into);
      };
    },
  };
}

const yarnCase: BenchCase = {
  id: "baseline.yarn",
  label: "YARN fair shares, bisection (TS)",
  prepare(size) {
    const x = instance(size);
    const shares = new Float64Array(x.n * x.k);
    const ratios = new Float64Array(x.k);
    return () => yarnFairShares(x.n, x.k, x.capacity, x.demands, x.weights, shares, ratios);
  },
};

const mesosCase: BenchCase = {
  id: "baseline.mesos",
  label: `Mesos discrete DRF, heap, ${MESOS_TASKS_PER_QUEUE} tasks/queue (TS)`,
  prepare(size) {
    const x = instance(size);
    const tasks = new Int32Array(x.n);
    const scratch = new MesosDrfScratch();
    return () => mesosDrf(x.n, x.k, x.capacity, x.demands, x.weights, MESOS_TASKS_PER_QUEUE, tasks, scratch);
  },
};

export const drfModule: BenchModule = {
  name: "DRF progressive filling (docs/policies/drf.md)",
  cases: [
    kernelCase("wasm"), kernelCase("js"),
    floorCase("wasm"), floorCase("js"), scalarFloorCase,
    yarnCase, mesosCase,
    endToEndCase("wasm", "typed"), endToEndCase("wasm", "rows"),
    endToEndCase("wasm", "typed", "into"), endToEndCase("wasm", "rows", "into"),
    preparedCase("wasm", "load"), preparedCase("wasm", "solve"),
    endToEndCase("js", "typed"), endToEndCase("js", "rows"),
    endToEndCase("js", "typed", "into"), preparedCase("js", "solve"),
  ],
  ratios: [
    { label: "DRF kernel: WASM / JS", numerator: "drf.kernel.wasm", denominator: "drf.kernel.js", target: { op: "<=", value: 0.5 } },
    { label: "DRF kernel / floor (WASM)", numerator: "drf.kernel.wasm", denominator: "floor.wasm", target: { op: "<=", value: 4 } },
    { label: "DRF kernel / floor (JS)", numerator: "drf.kernel.js", denominator: "floor.js" },
    { label: "floor: WASM / JS", numerator: "floor.wasm", denominator: "floor.js" },
    { label: "DRF kernel / scalar floor (WASM; the earlier yardstick)", numerator: "drf.kernel.wasm", denominator: "floor.scalar.wasm" },
    { label: "SIMD floor / scalar floor (WASM)", numerator: "floor.wasm", denominator: "floor.scalar.wasm" },
    { label: "DRF kernel (WASM) / YARN bisection", numerator: "drf.kernel.wasm", denominator: "baseline.yarn", target: { op: "<=", value: 0.2 } },
    { label: "DRF kernel (WASM) / Mesos discrete DRF", numerator: "drf.kernel.wasm", denominator: "baseline.mesos" },
    { label: "DRF kernel (JS) / YARN bisection", numerator: "drf.kernel.js", denominator: "baseline.yarn" },
    { label: "engine.drf(typed) / kernel (WASM)", numerator: "drf.call.typed.wasm", denominator: "drf.kernel.wasm", target: { op: "<=", value: 1.25 } },
    { label: "engine.drf(typed, { into }) / kernel (WASM)", numerator: "drf.call.typed.into.wasm", denominator: "drf.kernel.wasm", target: { op: "<=", value: 1.25 } },
    { label: "prepared load+solve+copyResults / kernel (WASM)", numerator: "drf.call.prepared.load.wasm", denominator: "drf.kernel.wasm", target: { op: "<=", value: 1.25 } },
    { label: "prepared solve() / kernel (WASM)", numerator: "drf.call.prepared.solve.wasm", denominator: "drf.kernel.wasm", target: { op: "<=", value: 1.25 } },
    { label: "engine.drf(number[][]) / kernel (WASM)", numerator: "drf.call.rows.wasm", denominator: "drf.kernel.wasm" },
    { label: "engine.drf(number[][], { into }) / kernel (WASM)", numerator: "drf.call.rows.into.wasm", denominator: "drf.kernel.wasm" },
    { label: "engine.drf(typed) / kernel (JS)", numerator: "drf.call.typed.js", denominator: "drf.kernel.js" },
    { label: "engine.drf(typed, { into }) / kernel (JS)", numerator: "drf.call.typed.into.js", denominator: "drf.kernel.js" },
    { label: "prepared solve() / kernel (JS)", numerator: "drf.call.prepared.solve.js", denominator: "drf.kernel.js" },
  ],
};
