// Strict Priority (docs/policies/bopf.md, Strict Priority): LQs with current demand first, DRF among them over the whole
// capacity; then DRF among the TQs over what is left.
import type { Engine } from "../engine/engine.js";
import type { ClusterState, Policy, PolicyFactory } from "../policy/policy.js";
import { queueWeights } from "./drf.js";
import { HARD } from "../dispatch/dispatcher.js";

/** Capacity left after `alloc`, kept strictly positive (the kernel requires C > 0); a tiny residue is unusable anyway. */
export function remainingCapacity(capacity: Float64Array, alloc: Float64Array, n: number): Float64Array {
  const k = capacity.length;
  const left = Float64Array.from(capacity);
  for (let i = 0; i < n; i++) for (let r = 0; r < k; r++) left[r] -= alloc[i * k + r];
  for (let r = 0; r < k; r++) left[r] = Math.max(left[r], capacity[r] * 1e-12);
  return left;
}

export class StrictPriorityPolicy implements Policy {
  readonly name = "sp";
  private engine: Engine | null = null;
  init(ctx: { engine: Engine }): void {
    this.engine = ctx.engine;
  }
  shares(state: ClusterState, out: Float64Array): void {
    const n = state.queues.length;
    const k = state.capacity.length;
    const w = queueWeights(state);
    const lq = new Float64Array(n * k);
    const tq = new Float64Array(n * k);
    for (const q of state.queues) (q.spec.kind === "LQ" ? lq : tq).set(q.demand, q.index * k);
    const first = this.engine!.drf({ capacity: state.capacity, demands: lq, weights: w });
    const left = remainingCapacity(state.capacity, first.allocation, n);
    const second = this.engine!.drf({ capacity: left, demands: tq, weights: w });
    for (let i = 0; i < n * k; i++) out[i] = first.allocation[i] + second.allocation[i];
  }
  /** LQs with demand are guaranteed their DRF share of the whole capacity; TQs are elastic. */
  guaranteed(state: ClusterState, out: Uint8Array): void {
    for (const q of state.queues) if (q.spec.kind === "LQ" && q.demand.some((d) => d > 0)) out[q.index] = HARD;
  }
}

export const spPolicyFactory: PolicyFactory = {
  name: "sp",
  description: "Strict Priority: LQs first (DRF among them), then DRF among TQs over the rest (docs/policies/bopf.md, Strict Priority)",
  create: () => new StrictPriorityPolicy(),
};
