// H-LTRF as a simulator policy (the paper's Algorithm 2, src/ltrf/hltrf.ts): the queue tree
// comes from QueueSpec.path, the ledger and quanta from the LTRF machinery. Options:
// tWait (starvation threshold, seconds; 0 = flat LTRF, Infinity = the naive descent),
// tieBreak, groupWeights, window, quantum. Max shares apply; min shares do not (the
// hierarchy decides who goes first).
import type { PolicyContext, PolicyFactory } from "../policy/policy.js";
import { HLtrf } from "../ltrf/hltrf.js";
import { buildTree } from "../ltrf/tree.js";
import { LtrfPolicy } from "./ltrf.js";
import type { PlanInput } from "../ltrf/planned-policy.js";

export class HLtrfPolicy extends LtrfPolicy {
  override readonly name: string = "h-ltrf";
  private h!: HLtrf;
  override init(ctx: PolicyContext): void {
    super.init(ctx);
    const tree = buildTree(ctx.workload.queues, this.opts.groupWeights);
    this.h = new HLtrf(tree, { tWait: this.opts.tWait, tieBreak: this.opts.tieBreak, random: ctx.random });
  }
  protected override decide(p: PlanInput): void {
    this.h.allocate({ time: p.time, free: p.free, tasks: p.tasks, pending: p.pending, usage: p.usage, increments: p.increments, count: p.count });
  }
}

export const hltrfPolicyFactory: PolicyFactory = {
  name: "h-ltrf",
  description: "Hierarchical LTRF with starvation detection (LTRF paper, Alg. 2) over QueueSpec.path groups; option tWait",
  create: (o) => new HLtrfPolicy(o),
};
