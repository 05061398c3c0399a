// Action "preempt": frees room for a guaranteed queue whose next task is under its target but
// does not fit, and serves that queue from the freed room at once, so the room reaches the
// queue it was freed for (docs/policies/simulator.md, "Preemption").
//
// The owed queues are tried in the order the dispatch's guaranteed phase serves them. For one,
// victims are planned before anything is killed: again and again the newest running task of
// the queue furthest above its share (dominant share of its target), if that queue stays at or
// above its share without it, would not take the task straight back in the guaranteed phase
// (Dispatcher.wouldServe) and the task holds a resource the waiting task is blocked on, until
// the waiting task fits. A plan that cannot make it fit kills nothing (killing would free
// room the waiting queue cannot use, which the elastic phase would hand back: a cycle). The plan
// is then made minimal (a victim whose room is not needed is spared), the victims are killed
// (they re-run later from scratch) and the owed queue's task starts.
//
// After the point's preemptions, a killed task that fits again in what is left is revived (as
// if never killed) before the elastic phase runs, so no preempted task restarts in the same
// instant. Churn across points is bounded as well: a task preempted a second time with no
// progress since its first preemption (SimRun.progress: no task ended, no job arrived or ended,
// no burst closed) is a SimulationError naming the policy and the queues that take turns (a
// policy whose targets swing on time alone). The record holds only the preemptions of the
// current epoch (at most one entry per task).
import type { Dispatcher } from "../../dispatch/dispatcher.js";
import { exceeds } from "../../dispatch/fit.js";
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

/**
 * One preemption: frees room for the first owed queue (Dispatcher.owedQueues) a plan of at most
 * `budget` victims makes room for, kills them, starts that queue's next task and pushes the
 * victims onto `killed`. Returns the number of tasks killed (0: nothing to preempt).
 */
export function preemptForOwed(run: SimRun, dispatcher: Dispatcher, budget: number, killed: TaskRt[]): number {
  const cl = run.cl;
  for (const qi of dispatcher.owedQueues(cl)) {
    const needy = cl.queues[qi];
    const victims = planVictims(run, dispatcher, needy, budget);
    if (!victims) continue;
    for (const task of victims) {
      recordKill(run, task, task.job.queue, needy);
      run.killTask(task);
      task.stage.retry.push(task.index);
      task.job.pendingTasks++;
      cl.addPending(task.job.queue, task.stage.demand, 1);
      run.stats.preemptions++;
      run.preempted.push({
        time: cl.time, queue: task.job.queue.spec.name, job: task.job.spec.id, stage: task.job.stages.indexOf(task.stage),
        task: task.index, started: task.start, for: needy.spec.name,
      });
      killed.push(task);
    }
    run.startTask(needy);
    return victims.length;
  }
  return 0;
}

/**
 * Revives, newest kill first, each task killed at this point that fits in what is free now and
 * is still waiting to re-run: it goes on as if never preempted (its end stays where it was).
 */
export function reviveFitting(run: SimRun, killed: TaskRt[]): void {
  const cl = run.cl;
  for (let i = killed.length - 1; i >= 0; i--) {
    const task = killed[i];
    const at = task.stage.retry.lastIndexOf(task.index);
    if (at < 0 || !cl.fits(task.stage.demand)) continue;
    task.stage.retry.splice(at, 1);
    task.job.pendingTasks--;
    cl.addPending(task.job.queue, task.stage.demand, -1);
    run.reviveTask(task);
    run.stats.preemptions--;
    const log = run.preempted;
    for (let j = log.length - 1; j >= 0; j--) {
      const p = log[j];
      if (p.time === cl.time && p.job === task.job.spec.id && p.stage === task.job.stages.indexOf(task.stage) && p.task === task.index && p.started === task.start) { log.splice(j, 1); break; }
    }
    forgetKill(run, task);
  }
}

/** The fewest victims (by the rule above, at most `budget`) that make `needy`'s next task fit, or null. */
function planVictims(run: SimRun, dispatcher: Dispatcher, needy: QueueRt, budget: number): TaskRt[] | null {
  const { cl, k } = run;
  const shareDom = dispatcher.shareDom;
  const want = needy.nextTask!;
  const freed = new Float64Array(k);
  const blocked = (r: number) => exceeds(cl.used[r] - freed[r], want[r], cl.capacity[r]);
  const fitsNow = () => { for (let r = 0; r < k; r++) if (blocked(r)) return false; return true; };
  /** Per queue touched by the plan: its usage without the planned victims, and how many it gives. */
  const left = new Map<QueueRt, { usage: Float64Array; taken: number }>();
  const victims: TaskRt[] = [];
  while (!fitsNow()) {
    if (victims.length >= budget) return null;
    let victim: QueueRt | null = null;
    let over = 1 + SHARE_EPS;
    for (const q of cl.queues) {
      if (q === needy) continue;
      const plan = left.get(q);
      const taken = plan?.taken ?? 0;
      if (q.runningList.length <= taken) continue;
      const task = q.runningList[q.runningList.length - 1 - taken];
      const d = task.stage.demand;
      let frees = false;
      for (let r = 0; r < k && !frees; r++) frees = d[r] > 0 && blocked(r);
      if (!frees) continue;
      const usage = plan?.usage ?? q.usage;
      let dom = 0;
      let after = 0;
      const rest = usage.map((u, r) => Math.max(0, u - d[r]));
      for (let r = 0; r < k; r++) {
        dom = Math.max(dom, usage[r] / cl.capacity[r]);
        after = Math.max(after, rest[r] / cl.capacity[r]);
      }
      const sd = shareDom[q.index];
      // would fall below its own share (a share within SHARE_EPS of 0, e.g. SP's TQs during a
      // burst whose targets are the kernel's positive floor, counts as 0)
      if (after < sd * (1 - SHARE_EPS) - SHARE_EPS) continue;
      if (dispatcher.wouldServe(cl, q.index, d, rest)) continue; // would take the task back at once
      const ratio = sd > SHARE_EPS ? dom / sd : Infinity;
      if (ratio > over) { over = ratio; victim = q; }
    }
    if (!victim) return null;
    let plan = left.get(victim);
    if (!plan) left.set(victim, (plan = { usage: Float64Array.from(victim.usage), taken: 0 }));
    const task = victim.runningList[victim.runningList.length - 1 - plan.taken];
    plan.taken++;
    for (let r = 0; r < k; r++) {
      plan.usage[r] = Math.max(0, plan.usage[r] - task.stage.demand[r]);
      freed[r] += task.stage.demand[r];
    }
    victims.push(task);
  }
  // minimal: spare (last planned first) every victim the waiting task fits without
  for (let i = victims.length - 1; i >= 0; i--) {
    const d = victims[i].stage.demand;
    for (let r = 0; r < k; r++) freed[r] -= d[r];
    if (fitsNow()) victims.splice(i, 1);
    else for (let r = 0; r < k; r++) freed[r] += d[r];
  }
  return victims;
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

/** A revived task was not preempted after all. */
function forgetKill(run: SimRun, task: TaskRt): void {
  const rec = killsOf.get(run);
  if (rec && rec.epoch === run.progress) rec.kills.get(task.stage)?.delete(task.index);
}
