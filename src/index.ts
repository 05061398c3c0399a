// fairsched: the public API.
export { loadEngine, loadEngineSync, initWasm, initWasmSync, defaultWasmUrl, type LoadOptions, type WasmSource, type WasmBytes } from "./engine/load.js";
export { Engine, type DrfInput, type DrfResult, type SrptInput, type SrptResult } from "./engine/engine.js";
export { InputError } from "./errors.js";
export { PreparedProblem } from "./kernels/prepared-problem.js";
export { PreparedDrf, type PrepareDrfOptions } from "./kernels/drf/prepared.js";
export { PreparedSrpt } from "./kernels/srpt/prepared.js";
export { PreparedLtrf, type PrepareLtrfOptions } from "./kernels/ltrf/prepared.js";
export { PreparedCrv, type PrepareCrvOptions } from "./kernels/crv/prepared.js";
export type { CallOptions, Into } from "./kernels/results.js";
export type { BackendKind, KernelBackend, KernelBlock, KernelName, DrfStage } from "./kernels/backend.js";
export type { LtrfInput, LtrfResult } from "./kernels/ltrf/call.js";
export type { CrvReorderInput, CrvReorderResult, QueueMode } from "./kernels/crv/call.js";
export * as justice from "./justice/index.js";
export * as bopf from "./bopf/index.js";
export * as ltrf from "./ltrf/index.js";
// The simulator: model, policy interface, registries (built-ins listed explicitly, no side-effect imports), scenarios.
export type { Workload, JobSpec, StageSpec, QueueSpec, BurstSpec, JobRecord, JobOutcome } from "./policy/model.js";
export type { Policy, PolicyFactory, PolicyContext, PolicyActions, ClusterState, QueueState, SimEvent, Admission } from "./policy/policy.js";
export { HARD, SOFT, ELASTIC, REJECTED, GUARANTEE_CLASS_NAMES } from "./kernels/guarantee-class.js";
export { simulate, type SimOptions, type SimResult, type RunMetrics, type QueueMetrics } from "./sim/simulator.js";
export { SimulationError } from "./errors.js";
// The live scheduler (docs/live-scheduler.md)
export { createScheduler, restoreScheduler, Scheduler, LIVE_POLICIES, type SchedulerOptions, type SchedulerSnapshot, type QueueOptions, type TaskInput, type HandleTaskOptions, type Started, type QueueShare } from "./live/scheduler.js";
export { registerPolicy, getPolicy, listPolicies, policyNames } from "./sim/registry.js";
export { registerScenario, getScenario, listScenarios } from "./scenarios/registry.js";
export type { Scenario, ScenarioReport, ScenarioOptions } from "./scenarios/scenario.js";
export { Rng } from "./random/rng.js";
export { bopfWorkload, BOPF_DEFAULTS, type BopfWorkloadParams } from "./workloads/bopf.js";
export { formatTable, type Table } from "./report/table.js";
// Phoenix node-level mode (the .tr loader, src/traces/eagle.ts, is Node-only and not re-exported here)
export { pkWaitTime, simulateNodes, getNodePolicy, nodePolicyNames, registerNodePolicy, ConstraintGenerator, ConstraintIndex, generateMachines, attachConstraints, workersForUtilization, groupStats } from "./phoenix/public.js";
export type { PkInput, NodeSimOptions, NodeSimResult, NodePolicy, Constraint, PhoenixJob } from "./phoenix/public.js";
