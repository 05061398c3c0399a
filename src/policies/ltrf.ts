// LTRF and MLRF as simulator policies (docs/policies/ltrf.md). Both rank queues with the LTRF kernel
// (engine.ltrf, the paper's Algorithm 1) and differ only in the ledger they rank by:
//   ltrf: accumulated dominant share x time of the round (plus running tasks' quantum
//         lookahead), charging dom x Q per started task. Multi-resource LTRF (beyond the
//         paper, which is single-resource) is exactly this with dominant shares.
//   mlrf: the memoryless baseline (YARN's fair scheduler, HFS): the dominant share held
//         now, charging dom per started task, i.e. task-level weighted DRF.
// Min/max shares come from QueueSpec.params.minShare / maxShare, weights from QueueSpec.weight.
import type { ClusterState, PolicyFactory } from "../policy/policy.js";
import type { QueueSpec } from "../policy/model.js";
import { PlannedPolicy } from "../ltrf/planned-policy.js";
import { decideFlat, type PlanInput } from "../ltrf/plan-input.js";

/** LTRF's ranking and charge over the ledger (ltrf and h-ltrf). */
export abstract class LtrfRanking extends PlannedPolicy {
  /** Min and max shares are part of LTRF's ranking (docs/policies/ltrf.md). */
  readonly ownShareRules = true;
  protected decide(p: PlanInput): void {
    decideFlat(this.engine, p, this.opts.blocking);
  }
  protected rankUsage(state: ClusterState, i: number): number {
    return this.longTermUsage(i, state.time);
  }
  protected charge(taskDom: number, quantum: number): number {
    return taskDom * quantum;
  }
}

export class LtrfPolicy extends LtrfRanking {
  readonly name: string = "ltrf";
  /** The live scheduler's addQueue without a rebuild (flat LTRF and MLRF; H-LTRF rebuilds its tree). */
  appendQueue(spec: QueueSpec): void {
    this.appendLeaf(spec);
  }
}

export class MlrfPolicy extends LtrfPolicy {
  override readonly name: string = "mlrf";
  protected override rankUsage(state: ClusterState, i: number): number {
    return this.dom(state.queues[i].usage);
  }
  protected override charge(taskDom: number): number {
    return taskDom;
  }
}

export const ltrfPolicyFactory: PolicyFactory = {
  name: "ltrf",
  description: "Long-Term Resource Fairness (LTRF paper, Alg. 1): start tasks for the queue with the least accumulated dominant share x time / weight; windows, adaptive quantum, min/max shares",
  create: (o) => new LtrfPolicy(o),
};

export const mlrfPolicyFactory: PolicyFactory = {
  name: "mlrf",
  description: "Memoryless resource fairness (YARN fair scheduler): task-level weighted DRF on the shares held now; min/max shares",
  create: (o) => new MlrfPolicy(o),
};
