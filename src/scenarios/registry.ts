// Scenarios by name: the built-ins (an explicit list, no registration by import side effect)
// plus any a user adds with registerScenario (plugins). The order of the list is the order of
// `fairsched list`.
import { NamedRegistry } from "../collections/named-registry.js";
import { bopfEstimationErrorScenario } from "./bopf-estimation-error.js";
import { bopfMultiLqScenario } from "./bopf-multi-lq.js";
import { bopfUncertainScenario } from "./bopf-uncertain.js";
import { bopfScenario } from "./bopf.js";
import { defaultScenario } from "./default.js";
import { justiceScenario } from "./justice.js";
import { ltrfHierarchyScenario } from "./ltrf-hierarchy.js";
import { ltrfMacroScenario } from "./ltrf-macro.js";
import { ltrfTable1Scenario } from "./ltrf-table1.js";
import { phoenixScenario } from "./phoenix.js";
import type { Scenario } from "./scenario.js";

export const BUILTIN_SCENARIOS: readonly Scenario[] = [
  defaultScenario,
  ltrfTable1Scenario,
  ltrfHierarchyScenario,
  ltrfMacroScenario,
  bopfScenario,
  bopfMultiLqScenario,
  bopfUncertainScenario,
  bopfEstimationErrorScenario,
  justiceScenario,
  phoenixScenario,
];

const scenarios = new NamedRegistry<Scenario>("scenario", BUILTIN_SCENARIOS);

export const registerScenario = (s: Scenario): void => scenarios.register(s);
export const getScenario = (name: string): Scenario | undefined => scenarios.get(name);
export const listScenarios = (): Scenario[] => scenarios.list();
