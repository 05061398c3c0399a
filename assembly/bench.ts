// The benchmark-only module (build/bench.wasm, built by `npm run build`/`npm run bench`): the
// floors the benchmarks report kernels against (floor.ts). It imports its memory, so the
// bench instantiates it over a kernel instance's memory and the floor reads the very cells
// the kernel reads. Not part of the production build/fairsched.wasm.
export { floorSum, floorSumScalar } from "./floor";
