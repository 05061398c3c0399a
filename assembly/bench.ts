// The benchmark-only module (build/bench.wasm, built by `npm run build:bench`): the floors the
// benchmarks report kernels against (floor.ts). Not part of the production build/fairsched.wasm.
export { floorSum, floorSumScalar } from "./floor";

export function heapBase(): usize {
  return __heap_base;
}
