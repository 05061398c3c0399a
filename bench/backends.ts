// Kernel backends for the per-kernel modules, each with a floor that reads arrays staged for
// that kernel. KernelBackend.floorSum only reads the staged DRF demands, so the WASM backend
// here is built on its own instance, keeping the raw export: floorSum(len, ptr) then runs the
// same WASM loop over any view in linear memory (ptr = the view's byteOffset). The JS floor
// is the twin loop from src/kernels/js/drf.ts over the staged arrays.
import { readFileSync } from "node:fs";
import { instantiateSync } from "@assemblyscript/loader";
import { defaultWasmUrl } from "../src/engine/load.js";
import { WasmBackend, type FairschedExports } from "../src/engine/wasm-backend.js";
import { JsBackend } from "../src/engine/js-backend.js";
import { floorSum } from "../src/kernels/js/drf.js";
import type { BackendKind, KernelBackend } from "../src/kernels/backend.js";

let module: WebAssembly.Module | null = null;

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
  module ??= new WebAssembly.Module(readFileSync(defaultWasmUrl));
  const x = instantiateSync<FairschedExports & Record<string, unknown>>(module, {}).exports as unknown as FairschedExports;
  const kernels = new WasmBackend(x);
  return {
    kernels,
    floorOver: (views) => wasmFloorOver(x, views, x.floorSum),
    scalarFloorOver: (views) => wasmFloorOver(x, views, x.floorSumScalar),
  };
}

function wasmFloorOver(x: FairschedExports, views: Float64Array[], pass: (len: number, ptr: number) => number): () => number {
  for (const v of views) if (v.buffer !== x.memory.buffer) throw new Error("floorOver: view is not in this instance's memory (stage first)");
  const spans = views.map((v) => [v.length, v.byteOffset] as const);
  return () => {
    let s = 0;
    for (const [len, ptr] of spans) s += pass(len, ptr);
    return s;
  };
}
