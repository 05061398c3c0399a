// The index sorts of assembly/util/radix.ts and their JS twin src/kernels/js/radix.ts against
// Array.prototype.sort by (key, index), on the key shapes that take each path:
// n <= 64 (insertion sort alone), all keys equal, a range that fits the two digits (no
// insertion pass), keys spread over decades (digits + insertion pass), many ties, and
// clustered keys with far outliers (insertion budget exceeded -> full byte radix).
// The AssemblyScript file is compiled here on its own (a few seconds) so its sort is tested
// directly, not only through the kernels that use it.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative, resolve } from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RadixScratch, sortIndicesByKey, sortRangeByKey } from "../src/kernels/js/radix.js";

interface RadixExports {
  memory: WebAssembly.Memory;
  heapBase(): number;
  radixScratchBytes(n: number): number;
  sortIndicesByKey(n: number, keys: number, out: number, scratch: number): void;
  sortRangeByKey(idx: number, len: number, keys: number, scratch: number): void;
}

let dir = "";
let wasm: RadixExports;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "fairsched-radix-"));
  const radix = relative(dir, resolve("assembly/util/radix")).split("\\").join("/");
  writeFileSync(join(dir, "entry.ts"), [
    `export { sortIndicesByKey, sortRangeByKey, radixScratchBytes } from "${radix}";`,
    "export function heapBase(): usize { return __heap_base; }",
  ].join("\n"));
  execFileSync(process.execPath, [
    resolve("node_modules/assemblyscript/bin/asc.js"), join(dir, "entry.ts"),
    "-O3", "--noAssert", "--runtime", "stub", "--enable", "simd", "--initialMemory", "1",
    "-o", join(dir, "radix.wasm"),
  ], { stdio: "pipe" });
  const mod = new WebAssembly.Module(readFileSync(join(dir, "radix.wasm")));
  wasm = new WebAssembly.Instance(mod, { env: { abort() { throw new Error("abort"); } } }).exports as unknown as RadixExports;
}, 120_000);

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

function expected(keys: Float64Array): number[] {
  return Array.from(keys, (_, i) => i).sort((a, b) => (keys[a] < keys[b] ? -1 : keys[a] > keys[b] ? 1 : a - b));
}

/** The wasm sort of `keys`: whole array, or as sortRangeByKey over an ascending index list. */
function wasmSort(keys: Float64Array, range: boolean): number[] {
  const n = keys.length;
  const base = (wasm.heapBase() + 15) & ~15;
  const keysAt = base, outAt = keysAt + n * 8 + 8, scratch = (outAt + n * 4 + 15) & ~15;
  const need = scratch + wasm.radixScratchBytes(n) + 16;
  const have = wasm.memory.buffer.byteLength;
  if (need > have) wasm.memory.grow(Math.ceil((need - have) / 65536));
  new Float64Array(wasm.memory.buffer, keysAt, n).set(keys);
  if (range) {
    const idx = new Uint32Array(wasm.memory.buffer, outAt, n);
    for (let i = 0; i < n; i++) idx[i] = i;
    wasm.sortRangeByKey(outAt, n, keysAt, scratch);
  } else {
    wasm.sortIndicesByKey(n, keysAt, outAt, scratch);
  }
  return Array.from(new Uint32Array(wasm.memory.buffer, outAt, n));
}

function jsSort(keys: Float64Array, range: boolean): number[] {
  const out = new Uint32Array(keys.length);
  const s = new RadixScratch();
  if (range) {
    for (let i = 0; i < keys.length; i++) out[i] = i;
    sortRangeByKey(out, 0, keys.length, keys, s);
  } else {
    sortIndicesByKey(keys.length, keys, out, s);
  }
  return Array.from(out);
}

function check(keys: Float64Array): void {
  const want = expected(keys);
  for (const range of [false, true]) {
    expect(wasmSort(keys, range)).toEqual(want);
    expect(jsSort(keys, range)).toEqual(want);
  }
}

let seed = 7;
const rnd = () => ((seed = (seed * 1664525 + 1013904223) >>> 0) / 2 ** 32);

describe("index sorts (radix.ts, wasm and JS twin) equal a comparison sort by (key, index)", () => {
  it("short, equal, narrow, spread over decades, tied", () => {
    for (const n of [0, 1, 2, 63, 64, 65, 200, 4095, 4096, 5000]) {
      check(Float64Array.from({ length: n }, () => rnd()));
      check(new Float64Array(n).fill(0.25));
      check(Float64Array.from({ length: n }, () => 1 + Math.floor(rnd() * 1000) * 2 ** -52)); // range < 2^22
      check(Float64Array.from({ length: n }, () => Math.exp(-20 * rnd()))); // decades
      check(Float64Array.from({ length: n }, () => Math.floor(rnd() * 5) / 4)); // ties
      check(Float64Array.from({ length: n }, (_, i) => n - i)); // reversed
    }
  });

  it("clustered keys with far outliers (insertion budget -> byte radix), zeros, +inf, subnormals", () => {
    for (const n of [100, 3000, 20000]) {
      const clustered = Float64Array.from({ length: n }, () => 1 + rnd() * 1e-6);
      clustered[n >> 1] = 1e300;
      check(clustered);
      const inf = Float64Array.from({ length: n }, (_, i) => (i % 7 === 0 ? Infinity : rnd()));
      check(inf);
      check(Float64Array.from({ length: n }, (_, i) => (i % 3 === 0 ? 0 : rnd() * 1e-310)));
    }
  });

  it("random key sets (fast-check)", () => {
    const key = fc.oneof(
      fc.double({ min: 0, max: 1e6, noNaN: true }),
      fc.constantFrom(0, 1, 2, Infinity, 5e-324, 1e300),
      fc.double({ min: 1, max: 1 + 1e-9, noNaN: true }),
    );
    fc.assert(fc.property(fc.array(key, { maxLength: 400 }), (ks) => check(Float64Array.from(ks))), { numRuns: 150 });
  });
});
