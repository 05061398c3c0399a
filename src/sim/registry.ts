// Policies and scenarios are registered by name; the CLI and the simulator look them up here.
import type { PolicyFactory } from "./policy.js";

const policies = new Map<string, PolicyFactory>();

export function registerPolicy(f: PolicyFactory): void {
  if (policies.has(f.name)) throw new Error(`policy '${f.name}' is registered twice`);
  policies.set(f.name, f);
}

export function getPolicy(name: string): PolicyFactory | undefined {
  return policies.get(name);
}

export function policyNames(): string[] {
  return [...policies.keys()];
}

export function listPolicies(): PolicyFactory[] {
  return [...policies.values()];
}
