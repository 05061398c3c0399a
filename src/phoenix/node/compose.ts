// Fills a run's extension points from a policy's plugins, in order, over the defaults.
import { batchSampling } from "../plugins/batch-sampling.js";
import { probedLongJobs } from "../plugins/probed-long-jobs.js";
import { DEFAULT_HOOKS, type NodeHooks } from "./hooks.js";
import type { NodeModel } from "./model.js";
import type { NodePolicy } from "./plugin.js";

export function composeHooks(m: NodeModel, policy: NodePolicy): NodeHooks {
  let hooks: NodeHooks = { ...DEFAULT_HOOKS, placeLong: () => {}, placeProbes: () => {} };
  for (const p of [probedLongJobs, batchSampling, ...policy.plugins]) hooks = { ...hooks, ...p.build(m, hooks) };
  return hooks;
}
