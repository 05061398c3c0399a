// The floor: one pass that reads every element once, as fast as this machine reads memory.
// Benchmarks report kernels as multiples of it. Compiled only into build/bench.wasm (assembly/bench.ts).
//
// Why SIMD with eight accumulators: a scalar sum is bound by the latency of its adds, not by
// memory: it reads about half of what a pass of f64x2 loads into eight independent sums
// reads (docs/notes/kernels.md), and a floor that slow would flatter every kernel by ~2x.
// The scalar pass is kept as floorSumScalar (bench case floor.scalar.wasm).
//
// Summation order (the JS twin floorSum in bench/floor.ts adds in the same order, so
// both backends return the same bits): element i of each full block of 16 goes to lane
// i % 16, i.e. accumulator (i % 16) >> 1, lane i & 1; lanes combine as
// ((a + b) + (c + d)) + ((e + f) + (g + h)), then lane 0 + lane 1, then the tail in order.
import { ldf } from "./util/mem";

export function floorSum(len: i32, ptr: usize): f64 {
  let a = f64x2.splat(0), b = f64x2.splat(0), c = f64x2.splat(0), d = f64x2.splat(0);
  let e = f64x2.splat(0), f = f64x2.splat(0), g = f64x2.splat(0), h = f64x2.splat(0);
  let i = 0;
  for (; i + 15 < len; i += 16) {
    const p = ptr + (<usize>i << 3);
    a = f64x2.add(a, v128.load(p)); b = f64x2.add(b, v128.load(p, 16));
    c = f64x2.add(c, v128.load(p, 32)); d = f64x2.add(d, v128.load(p, 48));
    e = f64x2.add(e, v128.load(p, 64)); f = f64x2.add(f, v128.load(p, 80));
    g = f64x2.add(g, v128.load(p, 96)); h = f64x2.add(h, v128.load(p, 112));
  }
  const s = f64x2.add(f64x2.add(f64x2.add(a, b), f64x2.add(c, d)), f64x2.add(f64x2.add(e, f), f64x2.add(g, h)));
  let r = f64x2.extract_lane(s, 0) + f64x2.extract_lane(s, 1);
  for (; i < len; i++) r += ldf(ptr, i);
  return r;
}

/** The scalar pass with four accumulators (add-latency bound; see above). */
export function floorSumScalar(len: i32, ptr: usize): f64 {
  let a: f64 = 0, b: f64 = 0, c: f64 = 0, d: f64 = 0;
  let i = 0;
  for (; i + 3 < len; i += 4) {
    a += ldf(ptr, i); b += ldf(ptr, i + 1); c += ldf(ptr, i + 2); d += ldf(ptr, i + 3);
  }
  for (; i < len; i++) a += ldf(ptr, i);
  return (a + b) + (c + d);
}
