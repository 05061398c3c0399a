// The object API of BoPF admission control: a queue as the caller describes it, the
// control's options, and the decision it gets back (docs/policies/bopf.md, admission).
import type { BurstSpec, QueueKind } from "../policy/model.js";
import type { BurstsInput } from "./bursts.js";

export type BopfClass = "hard" | "soft" | "elastic" | "rejected";
/** The condition that decided the class, or 'all-held' when every condition checked held. */
export type BopfReason = "safety" | "fairness" | "resource" | "all-held";

export interface BopfAdmission {
  class: BopfClass;
  reason: BopfReason;
  /** A sentence with the numbers that decided it (formatted on first access). */
  readonly detail: string;
}

export interface BopfQueueInput {
  /** Unique among the queues currently admitted. */
  name: string;
  kind: QueueKind;
  /** LQ only: the bursts it reports (explicit list or periodic spec). */
  bursts?: BurstsInput | readonly BurstSpec[];
}

export interface AdmissionOptions {
  /** 'bopf' (default) or 'nbopf' (no soft class). */
  variant?: "bopf" | "nbopf";
  /** Resource names for the details; default r0, r1, ... */
  resources?: readonly string[];
  /** Relative slack on the resource condition's sums (float accumulation), default 1e-9. */
  tolerance?: number;
}
