// BoPF for embedders (docs/policies/bopf.md): admission control (object API and the batch
// API over columns), the allocation at one instant, the whole decision of a round right after a batch
// admission on the engine's BoPF kernel (decideRound, with columns that may live in the
// engine's memory: EngineAdmissionBatch), the alpha-strategy request, burst descriptions.
export {
  BopfAdmissionControl, type BopfAdmission, type BopfClass, type BopfReason, type BopfQueueInput, type AdmissionOptions,
} from "./admission.js";
export {
  KIND_TQ, KIND_LQ, BATCH_REASONS, emptyAdmissionBatch, emptyBatchOutcome, setPeriodicRow, validateAdmissionBatch,
  type AdmissionBatch, type BatchOutcome,
} from "./admission-batch.js";
export {
  allocateInstant, allocateInstantFlat, InstantWorkspace, CLASS_CODE,
  type InstantQueue, type InstantAllocation, type InstantBatch, type FlatOptions, type FlatAllocation,
} from "./allocate.js";
export { decideRound, DecisionWorkspace, type RoundDecision } from "./decision.js";
export { EngineAdmissionBatch } from "../kernels/bopf/batch.js";
export { burstSeries, isPeriodic, type PeriodicBursts, type BurstsInput, type BurstSeries } from "./bursts.js";
export { alphaRequest, quantileOf, type DemandDistribution, type Correlation } from "./alpha.js";
