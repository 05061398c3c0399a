// `fairsched allocate`: one decision of a policy on a JSON cluster state, for callers in other
// languages (input and output: docs/cli.md, "allocate").
//
// Every policy of `fairsched list` answers or says in one line why it cannot:
// - share policies (drf, sp, bopf, nbopf, mbvt): each queue's target now, from the policy object
//   itself (allocate-shares.ts); with waiting tasks in the input, also the tasks to start;
// - task-level policies (fifo, ltrf, mlrf, h-ltrf): the tasks to start, from the live scheduler
//   (allocate-tasks.ts), which answers the policies it runs and gives its reason for the others;
// - Justice allocators and Phoenix node policies decide in other models (jobs with deadlines on
//   one CPU resource; tasks placed on workers): refused, pointing to `fairsched simulate`.
import type { Engine } from "../engine/engine.js";
import { InputError } from "../errors.js";
import { allocatorNames, getAllocator } from "../justice/registry.js";
import { nodePolicyNames } from "../phoenix/policies.js";
import { getPolicy, policyNames } from "../sim/registry.js";
import { parseAllocateInput } from "./allocate-input.js";
import { shareAnswer } from "./allocate-shares.js";
import { liveRefusal, tasksToStart } from "./allocate-tasks.js";

/** The one-line reason a policy of another model cannot answer, or null for a queue-level policy. */
export function otherModelRefusal(name: string): string | null {
  if (getPolicy(name)) return null;
  if (getAllocator(name)) {
    return `'${name}' is a Justice deadline allocator: it admits jobs with deadlines on one CPU resource, by a CPU fraction learned from completed jobs, which a cluster state of queues does not carry; run it with \`fairsched simulate --scenario justice --policies ${name}\``;
  }
  if (nodePolicyNames().includes(name)) {
    return `'${name}' is a Phoenix node-level policy: it places tasks by probes into worker queues and orders each worker's queue, which a cluster state of queues does not describe; run it with \`fairsched simulate --scenario phoenix --policies ${name}\` (or --trace FILE.tr)`;
  }
  return `unknown policy '${name}' (queue-level: ${policyNames().join(", ")}; Justice: ${allocatorNames().join(", ")}; Phoenix: ${nodePolicyNames().join(", ")})`;
}

export function allocate(policyName: string, input: unknown, engine: Engine): Record<string, unknown> {
  const refusal = otherModelRefusal(policyName);
  if (refusal) throw new InputError("--policy", refusal);
  const state = parseAllocateInput(input);
  const policy = getPolicy(policyName)!.create();
  const shares = shareAnswer(policy, state, engine);
  const out: Record<string, unknown> = { policy: policyName, time: state.time };
  if (shares.queues) {
    out.queues = shares.queues;
    if (state.withTasks) {
      const why = liveRefusal(policyName, state.capacity, engine);
      if (why === null) out.start = tasksToStart(policyName, state, engine);
      else out.startRefused = why;
    }
  } else {
    const why = liveRefusal(policyName, state.capacity, engine);
    if (why !== null) throw new InputError("--policy", `${why} (it is a task-level policy: allocate answers it with the live scheduler's tasks to start; \`fairsched simulate --policies ${policyName}\` runs it)`);
    if (!state.withTasks) throw new InputError("--policy", `'${policyName}' is a task-level policy (it picks tasks, it has no shares): list each queue's waiting tasks as queues[i].tasks to get the tasks to start`);
    out.start = tasksToStart(policyName, state, engine);
  }
  if (shares.admissions) out.admissions = shares.admissions;
  return out;
}
