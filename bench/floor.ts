// The floors benchmarks report kernels against: one pass that reads every element once.
// WASM: build/bench.wasm (assembly/bench.ts, assembly/floor.ts; built by `npm run build`
// and `npm run bench`, never part of the production build/fairsched.wasm), run over a copy
// of the views in that module's memory (16-byte aligned, as the kernels' regions); the copy
// is made when the floor is prepared, so the timed call is the pass alone. JS: the twin
// below, same summation order, so both return the same bits.
import { readFileSync } from "node:fs";
import { instantiateSync } from "@assemblyscript/loader";

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
  memory: WebAssembly.Memory;
  heapBase(): number;
  floorSum(len: number, ptr: number): number;
  floorSumScalar(len: number, ptr: number): number;
}

export const benchWasmUrl = new URL("../build/bench.wasm", import.meta.url);
let module: WebAssembly.Module | null = null;

/** One instance of build/bench.wasm: floors over copies of views in its memory. */
export class WasmFloor {
  private readonly x: FloorExports;
  constructor() {
    module ??= new WebAssembly.Module(readFileSync(benchWasmUrl));
    this.x = instantiateSync<FloorExports & Record<string, unknown>>(module, {}).exports as unknown as FloorExports;
  }

  /**
   * A floor call over copies of these views (taken now; each call of over() reuses this
   * instance's memory, so the returned call is valid until the next over()). One pass per
   * view, summed. `scalar`: the scalar four-accumulator pass instead of the SIMD one.
   */
  over(views: Float64Array[], scalar = false): () => number {
    const x = this.x;
    let at = Math.ceil(x.heapBase() / 16) * 16;
    const spans: Array<readonly [number, number]> = [];
    for (const v of views) {
      const end = at + v.byteLength;
      const have = x.memory.buffer.byteLength;
      if (end > have) x.memory.grow(Math.ceil((end - have) / 65536));
      new Float64Array(x.memory.buffer, at, v.length).set(v);
      spans.push([v.length, at]);
      at = Math.ceil(end / 16) * 16;
    }
    const pass = scalar ? x.floorSumScalar : x.floorSum;
    return () => {
      let s = 0;
      for (const [len, ptr] of spans) s += pass(len, ptr);
      return s;
    };
  }
}
