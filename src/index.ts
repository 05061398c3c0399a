// fairsched: the public API.
export { loadEngine, loadEngineSync, defaultWasmUrl, type LoadOptions, type WasmSource } from "./engine/load.js";
export { Engine, type DrfInput, type DrfResult } from "./engine/engine.js";
export { InputError } from "./engine/errors.js";
export type { BackendKind, KernelBackend, DrfStage } from "./kernels/backend.js";
