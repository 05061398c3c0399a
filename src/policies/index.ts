// The built-in queue-level policies, as an explicit list of factories (no registration by
// import side effect): src/sim/registry.ts seeds the policy registry with it. Add a policy by
// exporting its factory from its module and listing it here; the order is the order of
// `fairsched list` and of the scenarios' default policy lists.
import type { PolicyFactory } from "../policy/policy.js";
import { bopfPolicyFactory } from "./bopf.js";
import { drfPolicyFactory } from "./drf.js";
import { fifoPolicyFactory } from "./fifo.js";
import { hltrfPolicyFactory } from "./hltrf.js";
import { ltrfPolicyFactory, mlrfPolicyFactory } from "./ltrf.js";
import { mbvtPolicyFactory } from "./mbvt.js";
import { nbopfPolicyFactory } from "./nbopf.js";
import { spPolicyFactory } from "./sp.js";

export const BUILTIN_POLICIES: readonly PolicyFactory[] = [
  drfPolicyFactory,
  spPolicyFactory,
  fifoPolicyFactory,
  bopfPolicyFactory,
  nbopfPolicyFactory,
  mbvtPolicyFactory,
  ltrfPolicyFactory,
  mlrfPolicyFactory,
  hltrfPolicyFactory,
];
