// Kernel backends for the per-kernel modules, each with a floor that reads the arrays staged
// for that kernel (bench/floor.ts): the WASM floor (build/bench.wasm) over the kernel
// instance's own memory, in place; the JS twin over the arrays themselves.
import { JsBackend } from "../src/engine/js-backend.js";
import { loadEngineSync } from "../src/engine/load.js";
import type { WasmBackend } from "../src/engine/wasm-backend.js";
import type { BackendKind, KernelBackend } from "../src/kernels/backend.js";
import { floorSum, wasmFloor } from "./floor.js";

export interface BenchBackend {
  kernels: KernelBackend;
  /**
   * A floor call over these views, which must already hold the staged input (views are
   * resolved now: stage first, then ask for the floor). One pass per view, summed.
   */
  floorOver(views: Float64Array[]): () => number;
  /** The WASM backend only: the same over the scalar four-accumulator pass (assembly/floor.ts). */
  scalarFloorOver?(views: Float64Array[]): () => number;
}

export function benchBackend(kind: BackendKind): BenchBackend {
  if (kind === "js") {
    const kernels = new JsBackend();
    return {
      kernels,
      floorOver(views) {
        return () => {
          let s = 0;
          for (const v of views) s += floorSum(v.length, v);
          return s;
        };
      },
    };
  }
  const kernels = loadEngineSync({ backend: "wasm" }).kernels as WasmBackend;
  const floor = wasmFloor(kernels.memory);
  return {
    kernels,
    floorOver: (views) => floor(views),
    scalarFloorOver: (views) => floor(views, true),
  };
}
