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
import { RadixScratch, bucketAllByKey, bucketByKey, bucketCountFor, sortIndicesByKey, sortRangeByKey } from "../src/kernels/js/radix.js";

interface RadixExports {
  memory: WebAssembly.Memory;
  heapBase(): number;
  radixScratchBytes(n: number): number;
  sortIndicesByKey(n: number, keys: number, out: number, scratch: number): void;
  sortRangeByKey(idx: number, len: number, keys: number, scratch: number): void;
  bucketByKey(m: number, list: number, keys: number, order: number, bounds: number): number;
  bucketAllByKey(n: number, keys: number, tags: number, order: number, orderTags: number, bounds: number): number;
  bucketCountFor(m: number): number;
}

let dir = "";
let wasm: RadixExports;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "fairsched-radix-"));
  const radix = relative(dir, resolve("assembly/util/radix")).split("\\").join("/");
  writeFileSync(join(dir, "entry.ts"), [
    `export { sortIndicesByKey, sortRangeByKey, radixScratchBytes, bucketByKey, bucketAllByKey, bucketCountFor } from "${radix}";`,
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

/** Buckets of bucketByKey (list 0..n-1) and of bucketAllByKey (with tags), wasm and JS. */
function buckets(keys: Float64Array, tags: Uint32Array): { plain: number[][]; all: number[][] } {
  const n = keys.length;
  const nb = bucketCountFor(n);
  const mem = wasm.memory;
  const base = (wasm.heapBase() + 15) & ~15;
  const keysAt = base, listAt = keysAt + n * 8 + 8, tagsAt = listAt + n * 4 + 8, orderAt = tagsAt + n * 4 + 8;
  const otAt = orderAt + n * 4 + 8, boundsAt = otAt + n * 4 + 8, end = boundsAt + (nb + 1) * 4 + 8;
  if (end > mem.buffer.byteLength) mem.grow(Math.ceil((end - mem.buffer.byteLength) / 65536));
  new Float64Array(mem.buffer, keysAt, n).set(keys);
  new Uint32Array(mem.buffer, listAt, n).set(Uint32Array.from({ length: n }, (_, i) => i));
  new Uint32Array(mem.buffer, tagsAt, n).set(tags);
  const read = (nbOut: number) => [
    Array.from(new Uint32Array(mem.buffer, orderAt, n)), Array.from(new Uint32Array(mem.buffer, otAt, n)),
    Array.from(new Uint32Array(mem.buffer, boundsAt, nbOut + 1)),
  ];
  const w1 = read(wasm.bucketByKey(n, listAt, keysAt, orderAt, boundsAt));
  const w2 = read(wasm.bucketAllByKey(n, keysAt, tagsAt, orderAt, otAt, boundsAt));
  const order = new Uint32Array(n), ot = new Uint32Array(n), bounds = new Uint32Array(nb + 1);
  const j1nb = bucketByKey(n, Uint32Array.from({ length: n }, (_, i) => i), keys, order, bounds);
  const j1 = [Array.from(order), [], Array.from(bounds.subarray(0, j1nb + 1))];
  const j2nb = bucketAllByKey(n, keys, tags, order, ot, bounds);
  const j2 = [Array.from(order), Array.from(ot), Array.from(bounds.subarray(0, j2nb + 1))];
  return { plain: [w1[0], w1[2], j1[0], j1[2]], all: [w2[0], w2[1], w2[2], j2[0], j2[1], j2[2]] };
}

describe("bucketAllByKey equals bucketByKey over 0..n-1 and carries the tags (wasm and JS)", () => {
  it("on spread, tied and +inf keys", () => {
    for (const n of [0, 1, 5, 100, 3000]) {
      for (const keys of [
        Float64Array.from({ length: n }, () => Math.exp(-20 * rnd())),
        Float64Array.from({ length: n }, () => Math.floor(rnd() * 4)),
        Float64Array.from({ length: n }, (_, i) => (i % 5 === 0 ? Infinity : rnd())),
      ]) {
        const tags = Uint32Array.from({ length: n }, () => Math.floor(rnd() * 2 ** 32));
        const { plain, all } = buckets(keys, tags);
        const [wOrder, wBounds, jOrder, jBounds] = plain;
        expect(jOrder).toEqual(wOrder);
        expect(jBounds).toEqual(wBounds);
        expect(all[0]).toEqual(wOrder);
        expect(all[2]).toEqual(wBounds);
        expect(all[1]).toEqual(wOrder.map((i) => tags[i]));
        expect(all.slice(3)).toEqual(all.slice(0, 3));
        // buckets in key order: every key of bucket b below every key of bucket b + 1
        for (let b = 0; b + 2 < wBounds.length; b++) {
          const hiB = Math.max(-1, ...wOrder.slice(wBounds[b], wBounds[b + 1]).map((i) => keys[i]));
          const loNext = Math.min(Infinity, ...wOrder.slice(wBounds[b + 1], wBounds[b + 2]).map((i) => keys[i]));
          expect(hiB <= loNext).toBe(true);
        }
      }
    }
  });
});

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
