// The shape shared by the per-kernel modules (SRPT, LTRF, CRV): the kernel on both backends,
// its own floor (one pass over the same staged input arrays) on both backends, and the
// ratios WASM / JS, kernel / floor (each backend) and floor WASM / JS. The scaling column
// (time at the largest N / the next N) comes with every case.
import type { BackendKind, KernelBackend } from "../src/kernels/backend.js";
import type { KernelStatus } from "../src/kernels/status.js";
import { benchBackend } from "./backends.js";
import type { BenchCase, BenchModule, Size } from "./cases.js";

export interface StagedKernel {
  /** The timed kernel call on the staged input. */
  run(): KernelStatus;
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
}

function checked(st: KernelStatus, what: string): void {
  if (st.code !== 0) throw new Error(`${what} failed: status ${st.code} at ${st.index}`);
}

export function kernelModule(spec: KernelModuleSpec): BenchModule {
  const kernelCase = (backend: BackendKind): BenchCase => ({
    id: `${spec.id}.kernel.${backend}`,
    label: `${spec.kernelLabel} (${backend})`,
    prepare(size) {
      const { kernels } = benchBackend(backend);
      const s = spec.stage(kernels, size);
      checked(s.run(), spec.kernelLabel);
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
  const k = (b: BackendKind) => `${spec.id}.kernel.${b}`, f = (b: BackendKind) => `${spec.id}.floor.${b}`;
  return {
    name: spec.name,
    cases: [kernelCase("wasm"), kernelCase("js"), floorCase("wasm"), floorCase("js")],
    ratios: [
      { label: `${spec.kernelLabel}: WASM / JS`, numerator: k("wasm"), denominator: k("js") },
      { label: `${spec.kernelLabel} / floor (WASM)`, numerator: k("wasm"), denominator: f("wasm") },
      { label: `${spec.kernelLabel} / floor (JS)`, numerator: k("js"), denominator: f("js") },
      { label: "floor: WASM / JS", numerator: f("wasm"), denominator: f("js") },
    ],
  };
}
