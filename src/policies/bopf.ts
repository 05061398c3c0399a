// BoPF (docs/policies/bopf.md): admission into hard / soft / elastic, hard rates, SRPT among soft LQs,
// DRF for elastic queues and spare redistribution. Implementation in src/bopf/.
import type { PolicyFactory } from "../policy/policy.js";
import { BopfPolicy, type BopfPolicyOptions } from "../bopf/bopf-policy.js";

export const bopfPolicyFactory: PolicyFactory = {
  name: "bopf",
  description: "BoPF: bounded priority fairness — admission control (hard/soft/elastic), burst rates, SRPT, DRF (docs/policies/bopf.md)",
  create: (options) => new BopfPolicy({ ...(options as BopfPolicyOptions | undefined), variant: "bopf" }),
};
