// Moved to src/policy/policy.ts (below the simulator, so a live scheduler can drive the same
// policy objects); re-exported for existing imports.
export type { QueueState, ClusterState, SimEvent, Admission, PolicyContext, PolicyActions, Policy, PolicyFactory } from "../policy/policy.js";
