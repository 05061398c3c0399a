// fairsched/testkit: fuzz any allocator (or stateful policy) against the fairness axioms, and a
// whole scheduler over time against the temporal properties (checkScheduler).
// docs/testkit.md is the guide: the axioms, their task-granular forms, the CLI and its protocol.
export { AXIOM_IDS } from "./types.js";
export type { Allocation, Allocator, AxiomId, AxiomInput, AxiomReport, CheckReport, ClusterState, FuzzCase, LieStrategy } from "./types.js";
export { clusterStateArb, type ClusterStateOptions, type Range } from "./arbitraries.js";
export { checkAllocator, assertFair, replayCase, type CheckAllocatorOptions } from "./check-allocator.js";
export { formatReport } from "./format.js";
export { referenceDrf } from "./reference.js";
export { utility, dominantShare, waterFill } from "./model.js";
export { checkPolicy, workloadArb, POLICY_CHECK_IDS, type CheckPolicyOptions, type PolicyCheckId, type PolicyCheckReport, type PolicyReport } from "./check-policy.js";
export { checkScheduler, replaySchedulerCase, readSchedulerCase, formatTrace, type CheckSchedulerOptions } from "./scheduler/check-scheduler.js";
export { methodsTarget, type SchedulerFactory, type SchedulerUnderTest } from "./scheduler/adapter.js";
export { FAIRSCHED_CLAIMS, type PolicyClaims } from "./scheduler/claims.js";
export { SCHEDULER_PROPERTY_IDS } from "./scheduler/types.js";
export type { Scenario, SchedulerCase, SchedulerPropertyId, SchedulerPropertyReport, SchedulerReport, SchedulerRequest, SchedulerSupports, SchedulerTarget } from "./scheduler/types.js";
