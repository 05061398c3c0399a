// H-LTRF as a simulator policy (the paper's Algorithm 2, src/ltrf/hltrf.ts): the queue tree
// comes from QueueSpec.path, the ledger and quanta from the LTRF machinery. Options:
// tWait (starvation threshold, seconds; 0 = flat LTRF, Infinity = the naive descent),
// tieBreak, groupWeights, window, quantum. Max shares apply; min shares do not (the
// hierarchy decides who goes first).
import type { PolicyContext, PolicyFactory } from "../policy/policy.js";
import { HLtrf } from "../ltrf/hltrf.js";
import { buildTree } from "../ltrf/tree.js";
import { LtrfRanking } from "./ltrf.js";
import type { PlanInput } from "../ltrf/plan-input.js";
import { InputError, describeValue } from "../errors.js";
import { byQueueName, stateByQueue, stateNumber, stateObject } from "../policy/state-check.js";

export class HLtrfPolicy extends LtrfRanking {
  readonly name: string = "h-ltrf";
  private h!: HLtrf;
  override init(ctx: PolicyContext): void {
    super.init(ctx);
    const tree = buildTree(ctx.workload.queues, this.opts.groupWeights);
    this.h = new HLtrf(tree, { tWait: this.opts.tWait, tieBreak: this.opts.tieBreak, random: ctx.random });
  }
  /**
   * LTRF's state plus each queue's starvation clock (docs/live-scheduler.md, "Policy state"). A
   * newcomer's clock starts as at the start of a run: it had nothing pending, so its wait begins
   * at its first pending task.
   */
  override exportState(): Record<string, unknown> {
    return { ...super.exportState(), waits: byQueueName(this.names, (i) => this.h.leafState(i)) };
  }

  override importState(state: unknown, field: string): void {
    const o = stateObject(state, field);
    const waits = stateByQueue(o.waits, `${field}.waits`, (v, f) => {
      const w = stateObject(v, f);
      if (typeof w.hadPending !== "boolean") throw new InputError(`${f}.hadPending`, `expected true or false, got ${describeValue(w.hadPending)}`);
      return { waitSince: stateNumber(w.waitSince, `${f}.waitSince`), hadPending: w.hadPending, starvedServed: stateNumber(w.starvedServed, `${f}.starvedServed`, 0) };
    });
    super.importState(o, field);
    this.names.forEach((name, i) => {
      const w = waits.get(name);
      if (w) this.h.setLeafState(i, w);
    });
  }

  /** Every queue: a group's usage is the sum over all its queues, idle ones too. */
  protected override planAll(): boolean {
    return true;
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
