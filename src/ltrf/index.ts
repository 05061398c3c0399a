// LTRF / H-LTRF for embedders: the hierarchical scheduler (docs/policies/ltrf.md, starvation timeout), its
// queue tree, the quantum updater and the long-term fairness tracker. The flat selection
// kernel is `engine.ltrf()` / `engine.prepareLtrf()`.
export { HLtrf, type HltrfOptions, type HltrfCall } from "./hltrf.js";
export { buildTree, type QueueTree, type TreeLeaf } from "./tree.js";
export { QuantumUpdater } from "./quantum.js";
export { FairnessTracker, stepFairness, type FairnessSeries } from "./fairness.js";
/** The start limit of an engine.ltrf / HLtrf call that names none (2^24; reaching it is an InputError). */
export { DEFAULT_MAX_STARTS } from "../kernels/ltrf/call.js";
