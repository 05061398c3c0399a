// The index sorts of assembly/util/radix.ts and their JS twin src/kernels/util/radix.ts against
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
import {
  RadixScratch, bucketByKey, bucketCountFor, bucketRecordsByKey, recordBucketCountFor, sortIndicesByKey, sortPairsByKey, sortRangeByKey,
} from "../../../src/kernels/util/radix.js";

interface RadixExports {
  memory: WebAssembly.Memory;
  heapBase(): number;
  radixScratchBytes(n: number): number;
  sortIndicesByKey(n: number, keys: number, out: number, scratch: number): void;
  sortRangeByKey(idx: number, len: number, keys: number, scratch: number): void;
  bucketByKey(m: number, list: number, keys: number, order: number, bounds: number): number;
  bucketRecordsByKey(n: number, keys: number, tags: number, lo: number, hi: number, recs: number, bounds: number): number;
  sortPairsByKey(len: number, kbits: number, idx: number, scratch: number): void;
  bucketCountFor(m: number): number;
  recordBucketCountFor(n: number): number;
}

let dir = "";
let wasm: RadixExports;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "fairsched-radix-"));
  const radix = relative(dir, resolve("assembly/util/radix")).split("\\").join("/");
  writeFileSync(join(dir, "entry.ts"), [
    `export { sortIndicesByKey, sortRangeByKey, radixScratchBytes, bucketByKey, bucketRecordsByKey, sortPairsByKey, bucketCountFor, recordBucketCountFor } from "${radix}";`,
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

/** Room in wasm memory from a 16-aligned base above the heap. */
function wasmRoom(bytes: number): number {
  const base = (wasm.heapBase() + 15) & ~15;
  const have = wasm.memory.buffer.byteLength;
  if (base + bytes > have) wasm.memory.grow(Math.ceil((base + bytes - have) / 65536));
  return base;
}

const conv = new Float64Array(1), convWords = new Uint32Array(conv.buffer);
const highWord = (x: number) => ((conv[0] = x), convWords[1]);

/** bucketRecordsByKey in wasm and JS: records as [key, index, tag] in bucket order, and the bounds. */
function records(keys: Float64Array, tags: Uint32Array): { wasm: [number[][], number[]]; js: [number[][], number[]] } {
  const n = keys.length;
  const nb = recordBucketCountFor(n);
  expect(wasm.recordBucketCountFor(n)).toBe(nb);
  const lo = n ? highWord(Math.min(...keys)) : 0, hi = n ? highWord(Math.max(...keys)) : 0;
  const keysAt = wasmRoom(n * 32 + (nb + 1) * 4 + 64), tagsAt = keysAt + n * 8, recsAt = (tagsAt + n * 4 + 15) & ~15, boundsAt = recsAt + n * 16;
  const mem = wasm.memory;
  new Float64Array(mem.buffer, keysAt, n).set(keys);
  new Uint32Array(mem.buffer, tagsAt, n).set(tags);
  expect(wasm.bucketRecordsByKey(n, keysAt, tagsAt, lo, hi, recsAt, boundsAt)).toBe(nb);
  const rk = new Float64Array(mem.buffer, recsAt, n * 2), rw = new Uint32Array(mem.buffer, recsAt, n * 4);
  const w: number[][] = Array.from({ length: n }, (_, j) => [rk[2 * j], rw[4 * j + 2], rw[4 * j + 3]]);
  const wb = Array.from(new Uint32Array(mem.buffer, boundsAt, nb + 1));
  const recKeys = new Float64Array(n), recIdx = new Uint32Array(n), recTags = new Uint32Array(n), bounds = new Uint32Array(nb + 1);
  expect(bucketRecordsByKey(n, keys, tags, lo, hi, recKeys, recIdx, recTags, bounds)).toBe(nb);
  const j: number[][] = Array.from({ length: n }, (_, x) => [recKeys[x], recIdx[x], recTags[x]]);
  return { wasm: [w, wb], js: [j, Array.from(bounds)] };
}

describe("bucketRecordsByKey: buckets in key order, each in index order, records carry key and tag (wasm and JS)", () => {
  it("on spread, tied and +inf keys", () => {
    for (const n of [0, 1, 5, 100, 3000]) {
      for (const keys of [
        Float64Array.from({ length: n }, () => Math.exp(-20 * rnd())),
        Float64Array.from({ length: n }, () => Math.floor(rnd() * 4)),
        Float64Array.from({ length: n }, (_, i) => (i % 5 === 0 ? Infinity : rnd())),
      ]) {
        const tags = Uint32Array.from({ length: n }, () => Math.floor(rnd() * 2 ** 32));
        const { wasm: [recs, bounds], js } = records(keys, tags);
        expect(js[0]).toEqual(recs);
        expect(js[1]).toEqual(bounds);
        expect(bounds[0]).toBe(0);
        expect(bounds[bounds.length - 1]).toBe(n);
        // every index once, with its own key and tag
        expect(recs.map((r) => r[1]).sort((a, b) => a - b)).toEqual(Array.from({ length: n }, (_, i) => i));
        for (const [key, i, tag] of recs) {
          expect(key).toBe(keys[i]);
          expect(tag).toBe(tags[i]);
        }
        for (let b = 0; b + 1 < bounds.length; b++) {
          const bucket = recs.slice(bounds[b], bounds[b + 1]);
          // index order inside a bucket
          for (let x = 1; x < bucket.length; x++) expect(bucket[x - 1][1] < bucket[x][1]).toBe(true);
          // every key of bucket b at or below every key of bucket b + 1
          if (b + 2 < bounds.length) {
            const hiB = Math.max(-1, ...bucket.map((r) => r[0]));
            const loNext = Math.min(Infinity, ...recs.slice(bounds[b + 1], bounds[b + 2]).map((r) => r[0]));
            expect(hiB <= loNext).toBe(true);
          }
        }
        // the model: bucket of i = (high word - lo) >> shift, the smallest shift that fits the
        // range into the buckets; records = indices stably sorted by bucket, bounds = the counts summed
        if (n > 0) {
          const nb = bounds.length - 1;
          const lo = highWord(Math.min(...keys)), hi = highWord(Math.max(...keys));
          let shift = 0;
          while ((hi - lo) >>> shift >= nb) shift++;
          const bucketOf = (i: number) => (highWord(keys[i]) - lo) >>> shift;
          const model = Array.from({ length: n }, (_, i) => i).sort((a, b) => bucketOf(a) - bucketOf(b) || a - b);
          expect(recs.map((r) => r[1])).toEqual(model);
          const counts = new Array(nb + 1).fill(0);
          for (let i = 0; i < n; i++) counts[bucketOf(i) + 1]++;
          for (let x = 0; x < nb; x++) counts[x + 1] += counts[x];
          expect(bounds).toEqual(counts);
        }
      }
    }
  });
});

/** sortPairsByKey in wasm and JS over (keys, idx); expected: a stable sort by key of the input pairs. */
function checkPairs(keys: Float64Array, idx: Uint32Array): void {
  const len = keys.length;
  const order = Array.from({ length: len }, (_, j) => j).sort((a, b) => (keys[a] < keys[b] ? -1 : keys[a] > keys[b] ? 1 : a - b));
  const wantKeys = order.map((j) => keys[j]), wantIdx = order.map((j) => idx[j]);
  const at = wasmRoom(len * 12 + wasm.radixScratchBytes(len) + 64), idxAt = at + len * 8, scratch = (idxAt + len * 4 + 15) & ~15;
  const mem = wasm.memory;
  new Float64Array(mem.buffer, at, len).set(keys);
  new Uint32Array(mem.buffer, idxAt, len).set(idx);
  wasm.sortPairsByKey(len, at, idxAt, scratch);
  expect(Array.from(new Float64Array(mem.buffer, at, len))).toEqual(wantKeys);
  expect(Array.from(new Uint32Array(mem.buffer, idxAt, len))).toEqual(wantIdx);
  // JS, at an offset inside longer arrays (the parts outside stay untouched)
  const kd = new Float64Array(len + 3).fill(7), ix = new Uint32Array(len + 3).fill(9);
  kd.set(keys, 2);
  ix.set(idx, 2);
  sortPairsByKey(kd, ix, 2, len, new RadixScratch());
  expect(Array.from(kd.subarray(2, 2 + len))).toEqual(wantKeys);
  expect(Array.from(ix.subarray(2, 2 + len))).toEqual(wantIdx);
  expect([kd[0], kd[1], kd[len + 2], ix[0], ix[1], ix[len + 2]]).toEqual([7, 7, 7, 9, 9, 9]);
}

describe("sortPairsByKey equals a stable comparison sort of the pairs (wasm and JS)", () => {
  it("short (insertion) and long (byte radix): spread, tied, equal, +inf, zeros", () => {
    for (const len of [0, 1, 2, 63, 64, 65, 300, 3000]) {
      const idx = Uint32Array.from({ length: len }, () => Math.floor(rnd() * 2 ** 32));
      checkPairs(Float64Array.from({ length: len }, () => Math.exp(-20 * rnd())), idx);
      checkPairs(Float64Array.from({ length: len }, () => Math.floor(rnd() * 4) / 4), idx);
      checkPairs(new Float64Array(len).fill(0.5), idx);
      checkPairs(Float64Array.from({ length: len }, (_, i) => (i % 3 === 0 ? Infinity : i % 3 === 1 ? 0 : rnd())), idx);
    }
  });

  it("random pair sets (fast-check)", () => {
    const key = fc.oneof(fc.double({ min: 0, max: 1e6, noNaN: true }), fc.constantFrom(0, 1, Infinity, 5e-324, 1e300));
    fc.assert(fc.property(fc.array(fc.tuple(key, fc.nat()), { maxLength: 200 }), (ps) => {
      checkPairs(Float64Array.from(ps, (p) => p[0]), Uint32Array.from(ps, (p) => p[1]));
    }), { numRuns: 100 });
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
