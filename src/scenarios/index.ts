// `fairsched/scenarios`: the scenario registry (built-ins listed explicitly in registry.ts, no
// side-effect imports), each built-in scenario, the report types, and the helpers queue-level
// scenarios share (for users writing their own).
export { registerScenario, getScenario, listScenarios, BUILTIN_SCENARIOS } from "./registry.js";
export type { Scenario, ScenarioOptions, ScenarioReport, Series } from "./scenario.js";
export type { Table } from "./table.js";
export { defaultScenario, bopfParamsFrom } from "./default.js";
export { ltrfTable1Scenario } from "./ltrf-table1.js";
export { ltrfHierarchyScenario } from "./ltrf-hierarchy.js";
export { ltrfMacroScenario } from "./ltrf-macro.js";
export { bopfScenario } from "./bopf.js";
export { bopfMultiLqScenario } from "./bopf-multi-lq.js";
export { bopfUncertainScenario } from "./bopf-uncertain.js";
export { bopfEstimationErrorScenario } from "./bopf-estimation-error.js";
export { justiceScenario } from "./justice.js";
export { phoenixScenario } from "./phoenix.js";
export { allQueuePolicies, comparisonTable, shareTable, runPolicies, reportOf, charts, metricsJson, numParam, simParamsFrom, type RunSet } from "./common.js";
export { replayTrace, type TraceRunOptions } from "./trace-replay.js";
