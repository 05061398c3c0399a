// The floor: one pass that reads every element once (four accumulators so the adds
// pipeline). Benchmarks report kernels as multiples of this.
import { ldf } from "./util/mem";

export function floorSum(len: i32, ptr: usize): f64 {
  let a: f64 = 0, b: f64 = 0, c: f64 = 0, d: f64 = 0;
  let i = 0;
  for (; i + 3 < len; i += 4) {
    a += ldf(ptr, i); b += ldf(ptr, i + 1); c += ldf(ptr, i + 2); d += ldf(ptr, i + 3);
  }
  for (; i < len; i++) a += ldf(ptr, i);
  return (a + b) + (c + d);
}
