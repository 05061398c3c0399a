// The floors benchmarks report kernels against: one pass that reads every element once.
// WASM: build/bench.wasm (assembly/bench.ts, assembly/floor.ts; built by `npm run build`
// and `npm run bench`, never part of the production build/fairsched.wasm), which imports its
// memory: it runs over the kernel instance's own linear memory (ptr = a view's byteOffset).
// JS: the twin below, same summation order, so both return the same bits.
import { readFileSync } from "node:fs";

/** The floor's JS twin: element i of each block of 16 in lane i % 16, as assembly/floor.ts adds. */
export function floorSum(len: number, data: Float64Array): number {
  let a0 = 0, a1 = 0, b0 = 0, b1 = 0, c0 = 0, c1 = 0, d0 = 0, d1 = 0;
  let e0 = 0, e1 = 0, f0 = 0, f1 = 0, g0 = 0, g1 = 0, h0 = 0, h1 = 0;
  let i = 0;
  for (; i + 15 < len; i += 16) {
    a0 += data[i]; a1 += data[i + 1]; b0 += data[i + 2]; b1 += data[i + 3];
    c0 += data[i + 4]; c1 += data[i + 5]; d0 += data[i + 6]; d1 += data[i + 7];
    e0 += data[i + 8]; e1 += data[i + 9]; f0 += data[i + 10]; f1 += data[i + 11];
    g0 += data[i + 12]; g1 += data[i + 13]; h0 += data[i + 14]; h1 += data[i + 15];
  }
  const s0 = ((a0 + b0) + (c0 + d0)) + ((e0 + f0) + (g0 + h0));
  const s1 = ((a1 + b1) + (c1 + d1)) + ((e1 + f1) + (g1 + h1));
  let r = s0 + s1;
  for (; i < len; i++) r += data[i];
  return r;
}

interface FloorExports {
  floorSum(len: number, ptr: number): number;
  floorSumScalar(len: number, ptr: number): number;
}

export const benchWasmUrl = new URL("../build/bench.wasm", import.meta.url);
let module: WebAssembly.Module | null = null;

/**
 * Floor calls over views in `memory` (a kernel instance's linear memory): build/bench.wasm
 * instantiated over that memory, so the pass reads the cells the kernel reads, in place.
 */
export function wasmFloor(memory: WebAssembly.Memory): (views: Float64Array[], scalar?: boolean) => () => number {
  module ??= new WebAssembly.Module(readFileSync(benchWasmUrl));
  const x = new WebAssembly.Instance(module, { env: { memory } }).exports as unknown as FloorExports;
  return (views, scalar = false) => {
    for (const v of views) if (v.buffer !== memory.buffer) throw new Error("floorOver: view is not in this instance's memory (stage first)");
    const spans = views.map((v) => [v.length, v.byteOffset] as const);
    const pass = scalar ? x.floorSumScalar : x.floorSum;
    return () => {
      let s = 0;
      for (const [len, ptr] of spans) s += pass(len, ptr);
      return s;
    };
  };
}
