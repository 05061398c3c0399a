// N-BoPF (docs/policies/bopf.md, N-BoPF): BoPF without the soft class — an LQ that passes safety and
// fairness but not the resource condition is elastic instead of soft.
import type { PolicyFactory } from "../policy/policy.js";
import { BopfPolicy, type BopfPolicyOptions } from "../bopf/bopf-policy.js";

export const nbopfPolicyFactory: PolicyFactory = {
  name: "nbopf",
  description: "N-BoPF: BoPF without soft guarantees (hard if all conditions hold, else elastic)",
  create: (options) => new BopfPolicy({ ...(options as BopfPolicyOptions | undefined), variant: "nbopf" }),
};
