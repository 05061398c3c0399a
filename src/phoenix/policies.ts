// Node policies by name: each is a composition of plugins (plugins/, one behaviour per file)
// over the extension points of node/hooks.ts. Where docs/policies/phoenix.md is silent they
// follow the published systems (Hawk/Eagle simulator parameters in brackets):
//
//  sparrow-c  probed-long-jobs, batch-sampling, fifo-queues: every job placed by probes to a
//             uniform sample of its eligible workers [centralized long: no], no stealing, no
//             partition.
//  hawk-c     short-only-partition, central-long-jobs, batch-sampling, fifo-queues,
//             work-stealing [stealing yes, ATC].
//  eagle-c    short-only-partition, central-long-jobs, succinct-state, srpt-queues,
//             sticky-probes [SRPT yes, SBP yes, no stealing].
//  phoenix    eagle-c's plugins plus crv-reordering (the CRV monitor; congested queues ordered
//             by CRV instead of SRPT), relax-congested-soft (admission control by demand /
//             supply) and negotiate-soft (soft constraints dropped when no eligible worker has
//             capacity, §III-C 2). Probes are placed as in Eagle (SSS): the paper's "probable
//             nodes ... similar to Eagle's Succinct State Sharing"; E[W] only marks queues for
//             reordering.
//
// Ablations (NodePolicyOptions) swap or add one plugin; docs/notes/phoenix.md has what each
// measured.
import { InputError, describeValue } from "../errors.js";
import { NamedRegistry } from "../collections/named-registry.js";
import type { NodePlugin, NodePolicy } from "./node/plugin.js";
import { batchSampling } from "./plugins/batch-sampling.js";
import { centralLongJobs } from "./plugins/central-long-jobs.js";
import { crvReordering } from "./plugins/crv-reordering.js";
import { fifoQueues } from "./plugins/fifo-queues.js";
import { negotiateSoft } from "./plugins/negotiate-soft.js";
import { newestProbeFirst } from "./plugins/newest-probe-first.js";
import { probedLongJobs } from "./plugins/probed-long-jobs.js";
import { relaxCongestedSoft } from "./plugins/relax-congested-soft.js";
import { shortOnlyPartition } from "./plugins/short-only-partition.js";
import { srptQueues } from "./plugins/srpt-queues.js";
import { stickyProbes } from "./plugins/sticky-probes.js";
import { succinctState } from "./plugins/succinct-state.js";
import { waitAwareAllEligible } from "./plugins/wait-aware-all-eligible.js";
import { waitAwareProbes } from "./plugins/wait-aware-probes.js";
import { workStealing } from "./plugins/work-stealing.js";

export type { NodePlugin, NodePolicy } from "./node/plugin.js";

/** Ablations of the registered policies; each names the policies it applies to. */
export interface NodePolicyOptions {
  /** eagle-c, phoenix: newest-probe-first instead of srpt-queues (Eagle's simulator's order). */
  newestProbeFirst?: boolean;
  /** phoenix: wait-aware-probes over succinct-state while the monitor reports congestion. */
  waitAwareProbes?: boolean;
  /** phoenix: sticky probes released on workers in CRV mode. */
  suspendStickyWhenCongested?: boolean;
  /** phoenix, eagle-c: wait-aware-probes-all-eligible (probes to the eligible workers of least estimated wait) instead of succinct-state. */
  waitAwareAllEligible?: boolean;
  /** phoenix: negotiate-soft (on by default; false leaves it out). */
  negotiateSoft?: boolean;
}

export interface NodePolicyFactory {
  readonly name: string;
  readonly description: string;
  create(options?: NodePolicyOptions): NodePolicy;
}

/** A node policy from its name and plugins (frozen). */
export function composePolicy(name: string, plugins: readonly NodePlugin[]): NodePolicy {
  return Object.freeze({ name, plugins: Object.freeze([...plugins]) });
}

const registry = new NamedRegistry<NodePolicyFactory>("node policy");

export const registerNodePolicy = (f: NodePolicyFactory): void => registry.register(f);

export function getNodePolicy(name: string, options?: NodePolicyOptions): NodePolicy {
  const f = registry.get(name);
  if (!f) throw new InputError("policy", `unknown node policy ${describeValue(name)}; known: ${registry.names().join(", ")}`);
  return f.create(options);
}

export const nodePolicyNames = (): string[] => registry.names();
export const listNodePolicies = (): NodePolicyFactory[] => registry.list();

/** The options given, checked: booleans, and only those the policy `name` accepts. */
function ablations(name: string, options: NodePolicyOptions | undefined, accepted: readonly (keyof NodePolicyOptions)[]): NodePolicyOptions {
  if (options === undefined) return {};
  if (options === null || typeof options !== "object") throw new InputError("options", `expected an object of ablations, got ${describeValue(options)}`);
  for (const [k, v] of Object.entries(options)) {
    if (v === undefined) continue;
    if (!(accepted as readonly string[]).includes(k)) throw new InputError(`options.${k}`, `not an ablation of node policy '${name}' (it accepts: ${accepted.join(", ") || "none"})`);
    if (typeof v !== "boolean") throw new InputError(`options.${k}`, `must be true or false (got ${describeValue(v)})`);
  }
  return options;
}

const BUILT_IN: readonly NodePolicyFactory[] = [
  {
    name: "phoenix",
    description: "Phoenix: Eagle-C plus the CRV monitor, CRV-based reordering of congested queues, soft-constraint relaxation",
    create: (options) => {
      const a = ablations("phoenix", options, ["newestProbeFirst", "waitAwareProbes", "suspendStickyWhenCongested", "waitAwareAllEligible", "negotiateSoft"]);
      return composePolicy("phoenix", [
        shortOnlyPartition, centralLongJobs, a.waitAwareAllEligible ? waitAwareAllEligible : succinctState, ...(a.waitAwareProbes ? [waitAwareProbes] : []),
        a.newestProbeFirst ? newestProbeFirst : srptQueues, crvReordering(), relaxCongestedSoft, ...(a.negotiateSoft === false ? [] : [negotiateSoft]),
        stickyProbes({ suspendWhenCongested: a.suspendStickyWhenCongested === true }),
      ]);
    },
  },
  {
    name: "eagle-c",
    description: "Eagle-C: central long jobs, succinct state sharing, sticky batch probing, SRPT reordering",
    create: (options) => {
      const a = ablations("eagle-c", options, ["newestProbeFirst", "waitAwareAllEligible"]);
      return composePolicy("eagle-c", [shortOnlyPartition, centralLongJobs, a.waitAwareAllEligible ? waitAwareAllEligible : succinctState, a.newestProbeFirst ? newestProbeFirst : srptQueues, stickyProbes()]);
    },
  },
  {
    name: "hawk-c",
    description: "Hawk-C: central long jobs, random constraint-filtered probes, work stealing, FIFO",
    create: (options) => {
      ablations("hawk-c", options, []);
      return composePolicy("hawk-c", [shortOnlyPartition, centralLongJobs, batchSampling, fifoQueues, workStealing]);
    },
  },
  {
    name: "sparrow-c",
    description: "Sparrow-C: batch sampling among eligible workers, FIFO queues, long jobs probed too",
    create: (options) => {
      ablations("sparrow-c", options, []);
      return composePolicy("sparrow-c", [probedLongJobs, batchSampling, fifoQueues]);
    },
  },
];
for (const f of BUILT_IN) registerNodePolicy(f);
