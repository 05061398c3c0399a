// Action "preempt": the queue furthest below its share whose next task does not fit takes
// the newest task of the queue furthest above its share, if that queue stays at or above its
// share and the task holds a resource the waiting task is blocked on (otherwise killing it
// would free nothing useful and could repeat forever). The killed task re-runs later from
// scratch.
//
// Churn is bounded: a policy whose targets swing between queues on time alone would kill and
// restart the same tasks forever. A task preempted a second time with no progress since its
// first preemption (SimRun.progress: no task ended, no job arrived or ended, no burst closed)
// is a SimulationError naming the policy and the queues that take turns. The record holds
// only the preemptions of the current epoch (at most one entry per task).
import { SimulationError } from "../../errors.js";
import type { QueueRt, StageRt, TaskRt } from "../runtime.js";
import type { SimRun } from "../sim-run.js";

interface Kill {
  time: number;
  victim: string;
  needy: string;
}

/** Preemptions in the current progress epoch, per stage and task index. */
const killsOf = new WeakMap<SimRun, { epoch: number; kills: Map<StageRt, Map<number, Kill>> }>();

/** Relative slack when comparing a usage with a share. */
export const SHARE_EPS = 1e-9;

/** Preempts one task for the neediest queue; false when no queue is owed or no victim fits the rule. */
export function preemptOne(run: SimRun, shareDom: Float64Array): boolean {
  const { cl, k } = run;
  let needy: QueueRt | null = null;
  let needRatio = Infinity;
  for (const q of cl.queues) {
    if (q.rejected || q.runnableTasks === 0) continue;
    const sd = shareDom[q.index];
    if (!(sd > 0) || q.useDom >= sd * (1 - SHARE_EPS)) continue;
    if (q.useDom / sd < needRatio) { needRatio = q.useDom / sd; needy = q; }
  }
  if (!needy) return false;
  // only a task holding a resource the needy task is blocked on is worth killing
  const want = needy.nextTask!;
  const frees = (t: TaskRt) => t.stage.demand.some((d, r) => d > 0 && cl.used[r] + want[r] > cl.capacity[r] * (1 + 1e-12));
  let victim: QueueRt | null = null;
  let over = 1 + SHARE_EPS;
  for (const q of cl.queues) {
    if (q === needy || q.runningList.length === 0) continue;
    const sd = shareDom[q.index];
    const task = q.runningList[q.runningList.length - 1];
    if (!frees(task)) continue;
    let taskDom = 0;
    for (let r = 0; r < k; r++) taskDom = Math.max(taskDom, task.stage.demand[r] / cl.capacity[r]);
    if (q.useDom - taskDom < sd * (1 - SHARE_EPS)) continue; // would fall below its own share
    const ratio = sd > 0 ? q.useDom / sd : Infinity;
    if (ratio > over) { over = ratio; victim = q; }
  }
  if (!victim) return false;
  const task = victim.runningList[victim.runningList.length - 1];
  recordKill(run, task, victim, needy);
  run.killTask(task);
  task.stage.retry.push(task.index);
  task.job.pendingTasks++;
  cl.addPending(victim, task.stage.demand, 1);
  run.stats.preemptions++;
  return true;
}

/** Remembers this preemption; a second one of the same task in the same epoch is a cycle. */
function recordKill(run: SimRun, task: TaskRt, victim: QueueRt, needy: QueueRt): void {
  let rec = killsOf.get(run);
  if (!rec || rec.epoch !== run.progress) killsOf.set(run, (rec = { epoch: run.progress, kills: new Map() }));
  let byIndex = rec.kills.get(task.stage);
  if (!byIndex) rec.kills.set(task.stage, (byIndex = new Map()));
  const now: Kill = { time: run.cl.time, victim: victim.spec.name, needy: needy.spec.name };
  const before = byIndex.get(task.index);
  if (before) {
    const job = task.job.spec.id;
    const stage = task.job.stages.indexOf(task.stage);
    throw new SimulationError(
      `policy '${run.policy.name}' preempts in a cycle: task ${task.index} of job ${job} stage ${stage} (queue ${victim.spec.name}) was preempted at t=${before.time} for queue ${before.needy} and again at t=${now.time} for queue ${now.needy}, with no task ended, no job arrived or ended and no burst closed in between: its targets swing between queues on time alone, so the killed work would restart forever`,
      { time: now.time, queue: victim.spec.name, job },
    );
  }
  byIndex.set(task.index, now);
}
