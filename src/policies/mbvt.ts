// M-BVT (docs/policies/bopf.md, M-BVT): multi-resource borrowed virtual time. Implementation in src/bopf/mbvt-policy.ts.
import { MbvtPolicy, type MbvtOptions } from "../bopf/mbvt-policy.js";
import { registerPolicy } from "../sim/registry.js";

registerPolicy({
  name: "mbvt",
  description: "M-BVT: LQs warp their virtual time on a burst; smallest effective virtual time first, DRF among equals (docs/policies/bopf.md, M-BVT)",
  create: (options) => new MbvtPolicy(options as MbvtOptions | undefined),
});
