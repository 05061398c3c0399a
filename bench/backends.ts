// Kernel backends for the per-kernel modules, each with a floor that reads the arrays staged
// for that kernel (bench/floor.ts: the WASM floor from build/bench.wasm over a copy of them,
// the JS twin over the arrays themselves).
import { JsBackend } from "../src/engine/js-backend.js";
import { loadEngineSync } from "../src/engine/load.js";
import type { BackendKind, KernelBackend } from "../src/kernels/backend.js";
import { WasmFloor, floorSum } from "./floor.js";

export interface BenchBackend {
  kernels: KernelBackend;
  /**
   * A floor call over these views, which must already hold the staged input (views are
   * read now: stage first, then ask for the floor). One pass per view, summed.
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
  const floor = new WasmFloor();
  return {
    kernels: loadEngineSync({ backend: "wasm" }).kernels,
    floorOver: (views) => floor.over(views),
    scalarFloorOver: (views) => floor.over(views, true),
  };
}
