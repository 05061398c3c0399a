// The one WASM module: every kernel is re-exported from its own file. The host owns the
// memory above heapBase() (a staging arena); kernels never allocate.
export { drf, drfScratchBytes } from "./drf";
export { ltrf, ltrfScratchBytes } from "./ltrf";
export { srpt, srptScratchBytes } from "./srpt";
export { crvReorder, crvScratchBytes } from "./crv";

export function heapBase(): usize {
  return __heap_base;
}
export { bopfAdmit, bopfAllocate, bopfScratchBytes } from "./bopf";
