// Policies are registered by name; the CLI and the simulator look them up here.
import { NamedRegistry } from "./named-registry.js";
import type { PolicyFactory } from "./policy.js";

const policies = new NamedRegistry<PolicyFactory>("policy");

export const registerPolicy = (f: PolicyFactory): void => policies.register(f);
export const getPolicy = (name: string): PolicyFactory | undefined => policies.get(name);
export const policyNames = (): string[] => policies.names();
export const listPolicies = (): PolicyFactory[] => policies.list();
