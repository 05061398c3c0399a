// BoPF (docs/policies/bopf.md): admission into hard / soft / elastic, hard rates, SRPT among soft LQs,
// DRF for elastic queues and spare redistribution. Implementation in src/bopf/.
import { BopfPolicy, type BopfPolicyOptions } from "../bopf/bopf-policy.js";
import { registerPolicy } from "../sim/registry.js";

registerPolicy({
  name: "bopf",
  description: "BoPF: bounded priority fairness — admission control (hard/soft/elastic), burst rates, SRPT, DRF (docs/policies/bopf.md)",
  create: (options) => new BopfPolicy({ ...(options as BopfPolicyOptions | undefined), variant: "bopf" }),
});
