// Queue-level policies by name: the built-ins (src/policies/index.ts, an explicit list) plus any
// a user adds with registerPolicy (plugins). The simulator, the scenarios and the CLI look names
// up here.
import { BUILTIN_POLICIES } from "../policies/index.js";
import { NamedRegistry } from "../collections/named-registry.js";
import type { PolicyFactory } from "../policy/policy.js";

const policies = new NamedRegistry<PolicyFactory>("policy", BUILTIN_POLICIES);

export const registerPolicy = (f: PolicyFactory): void => policies.register(f);
export const getPolicy = (name: string): PolicyFactory | undefined => policies.get(name);
export const policyNames = (): string[] => policies.names();
export const listPolicies = (): PolicyFactory[] => policies.list();
