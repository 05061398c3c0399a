// The shape shared by the per-kernel modules (SRPT, LTRF, CRV): the kernel on both backends,
// its own floor (one pass over the same staged input arrays) on both backends, and the
// ratios WASM / JS, kernel / floor (each backend) and floor WASM / JS. The scaling column
// (time at the largest N / the next N) comes with every case.
import { loadEngineSync, type Engine } from "../src/index.js";
import type { BackendKind, KernelBackend } from "../src/kernels/backend.js";
import { benchBackend } from "./backends.js";
import type { BenchCase, BenchModule, Size } from "./cases.js";

export interface StagedKernel {
  /** The timed kernel call on the staged input: its status code. */
  run(): number;
  /** Where the last run failed (when its code is not OK). */
  errorIndex(): number;
  /** The staged input arrays the floor reads once (in kernel memory for WASM). */
  floorViews: Float64Array[];
}

export interface KernelModuleSpec {
  /** Case id prefix, e.g. "srpt": cases srpt.kernel.wasm, srpt.floor.js, ... */
  id: string;
  name: string;
  /** Table label of the kernel, e.g. "SRPT kernel". */
  kernelLabel: string;
  /** Table label of the floor, e.g. "one pass over want, rate, remaining". */
  floorLabel: string;
  /** Stages this size's deterministic input into the backend's views. */
  stage(kernels: KernelBackend, size: Size): StagedKernel;
  /**
   * The public call on this size's typed-array input under the two no-allocation contracts:
   * `into` (inputs copied in, results copied into caller arrays) and `prepared` (a prepared
   * problem loaded once; the timed call is solve() in place). Each returns the timed call.
   */
  calls: {
    into(engine: Engine, size: Size): () => unknown;
    prepared(engine: Engine, size: Size): () => unknown;
  };
}

function checked(s: StagedKernel, what: string): void {
  const code = s.run();
  if (code !== 0) throw new Error(`${what} failed: status ${code} at ${s.errorIndex()}`);
}

export function kernelModule(spec: KernelModuleSpec): BenchModule {
  const kernelCase = (backend: BackendKind): BenchCase => ({
    id: `${spec.id}.kernel.${backend}`,
    label: `${spec.kernelLabel} (${backend})`,
    prepare(size) {
      const { kernels } = benchBackend(backend);
      const s = spec.stage(kernels, size);
      checked(s, spec.kernelLabel);
      return s.run;
    },
  });
  const floorCase = (backend: BackendKind): BenchCase => ({
    id: `${spec.id}.floor.${backend}`,
    label: `floor: ${spec.floorLabel} (${backend})`,
    prepare(size) {
      const b = benchBackend(backend);
      return b.floorOver(spec.stage(b.kernels, size).floorViews);
    },
  });
  // the boundary (WASM engine): the typed-array call under each no-allocation contract
  const callCase = (contract: "into" | "prepared"): BenchCase => ({
    id: `${spec.id}.call.${contract}.wasm`,
    label: contract === "into"
      ? `${spec.kernelLabel}: engine call from typed arrays, into caller arrays (wasm)`
      : `${spec.kernelLabel}: prepared problem, solve() in place (wasm)`,
    prepare(size) {
      const call = spec.calls[contract](loadEngineSync({ backend: "wasm" }), size);
      call();
      return call;
    },
  });
  const k = (b: BackendKind) => `${spec.id}.kernel.${b}`, f = (b: BackendKind) => `${spec.id}.floor.${b}`;
  return {
    name: spec.name,
    cases: [kernelCase("wasm"), kernelCase("js"), floorCase("wasm"), floorCase("js"), callCase("into"), callCase("prepared")],
    ratios: [
      { label: `${spec.kernelLabel}: WASM / JS`, numerator: k("wasm"), denominator: k("js") },
      { label: `${spec.kernelLabel} / floor (WASM)`, numerator: k("wasm"), denominator: f("wasm") },
      { label: `${spec.kernelLabel} / floor (JS)`, numerator: k("js"), denominator: f("js") },
      { label: "floor: WASM / JS", numerator: f("wasm"), denominator: f("js") },
      { label: `${spec.kernelLabel}: typed call with { into } / kernel (WASM)`, numerator: `${spec.id}.call.into.wasm`, denominator: k("wasm"), target: { op: "<=", value: 1.25 } },
      { label: `${spec.kernelLabel}: prepared solve() / kernel (WASM)`, numerator: `${spec.id}.call.prepared.wasm`, denominator: k("wasm"), target: { op: "<=", value: 1.25 } },
    ],
  };
}
