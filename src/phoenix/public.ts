// Phoenix node-level mode (docs/policies/phoenix.md): the browser-safe public subset (no node: imports).
export { pkWaitTime, type PkInput } from "./pk.js";
export { simulateNodes, type NodeSimOptions, type NodeSimResult, type JobOutcome } from "./node-sim.js";
export { getNodePolicy, nodePolicyNames, registerNodePolicy, composePolicy, type NodePolicy, type NodePolicyFactory, type NodePolicyOptions, type NodePlugin } from "./policies.js";
export type { NodeHooks, QueueOrder, CongestionView } from "./node/hooks.js";
export { ConstraintGenerator, TABLE_II_SHARE, FIG6_COUNT_WEIGHTS, describeConstraint } from "./constraint-gen.js";
export { ATTRIBUTES, ConstraintIndex, satisfies, satisfiesAll, validateConstraint, type Constraint, type Machines, type Op, type Attribute } from "./constraints.js";
export { generateMachines, GENERATIONS } from "./machines.js";
export { attachConstraints, workersForUtilization, offeredLoad, type PhoenixJob } from "./workload.js";
export { groupStats, percentiles, GROUPS, type Group, type Percentiles } from "./metrics.js";
export { DEFAULT_SLACK_THRESHOLD } from "../kernels/crv/call.js";
export { GOOGLE_STEADY_WINDOW, arrivalWindow, arrivalCv, type SteadyWindow } from "./steady-window.js";
