// M-BVT (docs/policies/bopf.md#m-bvt): multi-resource borrowed virtual time. Implementation in src/bopf/mbvt-policy.ts.
import type { PolicyFactory } from "../policy/policy.js";
import { MbvtPolicy, type MbvtOptions } from "../bopf/mbvt-policy.js";

export const mbvtPolicyFactory: PolicyFactory = {
  name: "mbvt",
  description: "M-BVT: LQs warp their virtual time on a burst; smallest effective virtual time first, DRF among equals (docs/policies/bopf.md, M-BVT)",
  create: (options) => new MbvtPolicy(options as MbvtOptions | undefined),
};
