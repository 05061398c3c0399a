// Strict Priority (docs/policies/bopf.md, Strict Priority): LQs with current demand first, DRF
// among them; the TQs get what the LQs cannot use, DRF among them. The default (`lqDrf:
// 'online'`) is the authors' dispatch (their simulator's online DRF with every LQ picked before
// any TQ): task by task on what is free, the LQ of smallest dominant share starts its next task
// if it fits; only when no LQ can start does a TQ. `lqDrf: 'targets'` first gives each LQ its DRF
// share among the LQs as a per-resource target, then runs the same priority online DRF.
import type { Engine } from "../engine/engine.js";
import { InputError, describeValue } from "../errors.js";
import type { ClusterState, Policy, PolicyExplanation, PolicyFactory } from "../policy/policy.js";
import { queueWeights } from "./drf.js";
import { HARD } from "../kernels/guarantee-class.js";

/** Capacity left after `alloc`, kept strictly positive (the kernel requires C > 0); a tiny residue is unusable anyway. */
export function remainingCapacity(capacity: Float64Array, alloc: Float64Array, n: number): Float64Array {
  const k = capacity.length;
  const left = Float64Array.from(capacity);
  for (let i = 0; i < n; i++) for (let r = 0; r < k; r++) left[r] -= alloc[i * k + r];
  for (let r = 0; r < k; r++) left[r] = Math.max(left[r], capacity[r] * 1e-12);
  return left;
}

/** How DRF among the LQs is applied (docs/policies/bopf.md, Strict Priority). */
export type SpLqDrf = "online" | "targets";

export interface SpOptions {
  /** 'online' (default, the authors' simulator) or 'targets'. */
  lqDrf?: SpLqDrf;
}

export class StrictPriorityPolicy implements Policy {
  readonly name = "sp";
  /** 'online': no guaranteed phase, the LQs' priority is the dispatch's first tier. */
  readonly elasticOnly: boolean;
  private engine: Engine | null = null;
  constructor(options: SpOptions = {}) {
    const o: unknown = options;
    if (o === null || typeof o !== "object") throw new InputError("options", `expected an object, got ${describeValue(o)}`);
    const m = options.lqDrf ?? "online";
    if (m !== "online" && m !== "targets") throw new InputError("options.lqDrf", `must be 'online' or 'targets' (got ${describeValue(m)})`);
    this.elasticOnly = m === "online";
  }
  init(ctx: { engine: Engine }): void {
    this.engine = ctx.engine;
  }
  /** The targets ('targets'; with preemption, what an LQ is owed): DRF among LQs over C, then among TQs over the rest. */
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
  /** LQs before TQs in the dispatch's online DRF. */
  tier(state: ClusterState, out: Uint8Array): void {
    for (const q of state.queues) if (q.spec.kind !== "LQ") out[q.index] = 1;
  }
  explain(state: ClusterState, queue: number): PolicyExplanation {
    const q = state.queues[queue];
    // a queue with waiting tasks: active jobs beyond its running ones
    const waiting = q.activeJobs > q.runningTasks;
    return { notes: q.spec.kind === "LQ" && !q.rejected && waiting ? ["as an LQ it is served first, up to its DRF share of the whole capacity"] : [] };
  }
}

export const spPolicyFactory: PolicyFactory = {
  name: "sp",
  description: "Strict Priority: LQs first (DRF among them), then DRF among TQs over the rest (docs/policies/bopf.md, Strict Priority)",
  create: (options) => new StrictPriorityPolicy(options as SpOptions | undefined),
};
