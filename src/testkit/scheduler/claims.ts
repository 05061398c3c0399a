// What each fairsched policy claims over time, as checked by the whole-scheduler fuzzer against
// `fairsched serve` (docs/testkit.md, "Claims"): a property a policy does not claim is not
// checked for it. The preemption properties are claimed by none (the protocol has no preemption).
import type { SchedulerPropertyId } from "./types.js";

export interface PolicyClaims {
  /** Extra `init` fields the claims hold under. */
  init: Record<string, unknown>;
  properties: readonly SchedulerPropertyId[];
}

const ALL: readonly SchedulerPropertyId[] = ["capacity", "guarantee", "bounded-starvation", "long-run-share", "split-resistance", "call-rate-independence", "determinism"];
const without = (...ids: SchedulerPropertyId[]) => ALL.filter((p) => !ids.includes(p));

export const FAIRSCHED_CLAIMS: Readonly<Record<string, PolicyClaims>> = {
  drf: { init: { policy: "drf" }, properties: ALL },
  // without the starvation guard's reservation, online DRF starts whatever fits
  "drf-no-guard": { init: { policy: "drf", starvationGuard: false }, properties: [...ALL, "work-conservation"] },
  sp: { init: { policy: "sp" }, properties: ALL },
  bopf: { init: { policy: "bopf" }, properties: ALL },
  nbopf: { init: { policy: "nbopf" }, properties: ALL },
  // earliest job first: head-of-line blocking by design
  fifo: { init: { policy: "fifo" }, properties: ["capacity", "guarantee", "call-rate-independence", "determinism"] },
  // M-BVT, LTRF and H-LTRF change a later decision when schedule is also called between events (docs/testkit.md, "Findings")
  mbvt: { init: { policy: "mbvt" }, properties: without("call-rate-independence") },
  ltrf: { init: { policy: "ltrf" }, properties: without("call-rate-independence") },
  mlrf: { init: { policy: "mlrf" }, properties: ALL },
  // H-LTRF ignores min shares
  "h-ltrf": { init: { policy: "h-ltrf" }, properties: without("call-rate-independence", "guarantee") },
};
