// `fairsched allocate` for share policies: the policy object itself (src/policies/), given the
// cluster state of the input as a simulator would give it at `time` — each queue's demand, usage,
// runnable and running tasks, and for LQs the burst open at `time` (BoPF: the burst's guarantee
// opens as at its start; M-BVT: the LQ's virtual time is warped).
import type { Engine } from "../engine/engine.js";
import { ELASTIC, HARD, SOFT } from "../kernels/guarantee-class.js";
import type { Admission, ClusterState, Policy, PolicyActions, QueueState } from "../policy/policy.js";
import { ClusterRows } from "../policy/cluster-rows.js";
import { dominantShare } from "../policy/dominant-share.js";
import type { AllocateInput } from "./allocate-input.js";
import { inUserFields } from "./user-fields.js";

export interface QueueShareAnswer {
  name: string;
  /** The policy's target for the queue now, resource units. */
  allocation: number[];
  dominantShare: number;
  /** BoPF, SP: the queue is guaranteed its target (hard, or soft for BoPF's soft LQs). */
  guaranteed?: "hard" | "soft";
  /** The burst taken as open at `time` (LQs). */
  openBurst?: number;
}

export interface ShareAnswer {
  queues: QueueShareAnswer[] | null;
  admissions: Array<Admission & { queue: string }> | null;
}

/** A one-shot decision has no later scheduling point: wake-ups and drops have nowhere to go. */
const NO_ACTIONS: PolicyActions = {
  dropJob: () => { throw new Error("allocate: a policy dropped a job in a one-shot decision"); },
  wakeAt: () => {},
};

export function shareAnswer(policy: Policy, input: AllocateInput, engine: Engine): ShareAnswer {
  const { capacity, resources, time } = input;
  const k = capacity.length;
  const n = input.queues.length;
  const specs = input.queues.map((q) => q.spec);
  // engine errors name the user's fields (queues[i].demand, not the engine's demands[i])
  inUserFields(() => policy.init?.({ workload: { name: "allocate", resources: [...resources], capacity: [...capacity], queues: specs, jobs: [], params: {}, seed: 0 }, engine, random: () => 0.5 }));
  const admissions = specs.map((_, i) => policy.admission?.(i));
  const rows = new ClusterRows(capacity, n);
  const qs: QueueState[] = input.queues.map((q, i) => {
    const { demand, usage, pending } = rows.setQueue(i, q.demand, q.usage);
    const runnable = q.tasks ? q.tasks.length : pending.some((x) => x > 0) ? 1 : 0;
    const running = q.running ? q.running.length : q.usage.some((x) => x > 0) ? 1 : 0;
    const burst = q.openBurst === null ? null : q.spec.bursts![q.openBurst];
    return {
      index: i, spec: q.spec, demand, usage, pending,
      nextTask: q.tasks?.length ? Float64Array.from(q.tasks[0].demand) : null,
      runnableTasks: runnable, runningTasks: running, activeJobs: runnable + running,
      nextArrival: q.tasks?.length ? q.tasks[0].submitted : runnable > 0 ? time : Infinity,
      openBurst: burst && { index: q.openBurst!, start: burst.start, deadline: burst.start + burst.window, submittedTasks: 0, finishedTasks: 0 },
      rejected: admissions[i]?.class === "rejected",
    };
  });
  const state: ClusterState = { time, capacity: rows.capacity, resources, used: rows.used, queues: qs, demands: rows.demands, usages: rows.usages };
  // bursts open at `time` opened as at their start (nothing of them consumed yet)
  qs.forEach((q) => {
    if (q.openBurst) policy.onEvent?.({ type: "burstStart", time: q.openBurst.start, queue: q.index, burst: q.openBurst.index }, state, NO_ACTIONS);
  });
  const report = admissions.some((a) => a) ? admissions.map((a, i) => ({ queue: specs[i].name, ...(a as Admission) })) : null;
  if (!policy.shares) return { queues: null, admissions: report };
  const out = new Float64Array(n * k);
  inUserFields(() => policy.shares!(state, out));
  const classes = new Uint8Array(n).fill(ELASTIC);
  policy.guaranteed?.(state, classes);
  return {
    queues: qs.map((q, i) => {
      // kernels keep a residual capacity strictly positive (e.g. SP's second DRF): amounts below
      // 1e-9 of a resource are that residue, not an allocation
      const a = Array.from(out.subarray(i * k, i * k + k), (x, r) => (x < capacity[r] * 1e-9 ? 0 : x));
      const answer: QueueShareAnswer = { name: q.spec.name, allocation: a, dominantShare: dominantShare(a, capacity) };
      if (policy.guaranteed && classes[i] !== ELASTIC) answer.guaranteed = classes[i] === HARD ? "hard" : classes[i] === SOFT ? "soft" : undefined;
      if (q.openBurst) answer.openBurst = q.openBurst.index;
      return answer;
    }),
    admissions: report,
  };
}
