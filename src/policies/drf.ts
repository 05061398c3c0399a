// DRF (instantaneous): every scheduling point, progressive filling over the queues'
// current demands (usage + pending) with their weights — the Foundation kernel.
import type { Engine } from "../engine/engine.js";
import type { ClusterState, Policy, PolicyFactory } from "../policy/policy.js";

export function queueWeights(state: ClusterState): Float64Array {
  return Float64Array.from(state.queues, (q) => q.spec.weight ?? 1);
}

export class DrfPolicy implements Policy {
  readonly name = "drf";
  /** Online task-level DRF (the dispatch's elastic phase) is DRF itself: no targets needed to start tasks. */
  readonly elasticOnly = true;
  private engine: Engine | null = null;
  private weights = new Float64Array(0);
  init(ctx: { engine: Engine }): void {
    this.engine = ctx.engine;
  }
  shares(state: ClusterState, out: Float64Array): void {
    // Read every call: a live scheduler adds, removes and re-weights queues between calls.
    const n = state.queues.length;
    if (this.weights.length !== n) this.weights = new Float64Array(n);
    for (let i = 0; i < n; i++) this.weights[i] = state.queues[i]!.spec.weight ?? 1;
    const r = this.engine!.drf({ capacity: state.capacity, demands: state.demands, weights: this.weights });
    out.set(r.allocation);
  }
}

export const drfPolicyFactory: PolicyFactory = {
  name: "drf",
  description: "Dominant Resource Fairness at every scheduling point (weighted progressive filling, docs/policies/drf.md)",
  create: () => new DrfPolicy(),
};
