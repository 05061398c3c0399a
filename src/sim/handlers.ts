// The queue-level model's event handlers on the core: each applies one event to the run's
// state and tells the policy; the scheduling point after an instant's events is the actions'
// (fill-shares / preempt / pick).
import type { RunawayGuard } from "../des/runaway-guard.js";
import type { JobRt, QueueRt, TaskRt } from "./runtime.js";
import type { SimEv } from "./sim-events.js";
import type { SimRun } from "./sim-run.js";

/** Periodic policy ticks: every `interval` seconds while anything is left to happen. */
export interface Ticks {
  interval: number;
  guard: RunawayGuard;
}

export function applyEvent(run: SimRun, ev: SimEv, ticks: Ticks): void {
  run.stats.events++;
  switch (ev.kind) {
    case "arrival": return onArrival(run, ev.job, ev.time);
    case "taskEnd": return onTaskEnd(run, ev.task, ev.time);
    case "burstEnd": return onBurstEnd(run, ev.queue, ev.burst, ev.time);
    case "tick": return onTick(run, ev.time, ticks);
    case "wake": return;
  }
}

/** A job arrives: rejected with its queue, or queued FIFO with its parentless stages runnable; an LQ job opens its burst. */
export function onArrival(run: SimRun, job: JobRt, time: number): void {
  const q = job.queue;
  run.progress++;
  if (q.rejected) {
    job.outcome = { status: "rejected", reason: run.admissions[q.index]?.reason ?? "rejected at admission" };
    return;
  }
  q.jobs.push(job);
  q.activeJobs++;
  for (const s of job.stages) if (s.waitingParents === 0) run.makeRunnable(job, s);
  run.notify({ type: "arrival", time, queue: q.index, job: job.spec.id });
  if (job.spec.burst !== undefined) {
    const deadline = time + (job.spec.deadline ?? Infinity);
    q.openBurst = { index: job.spec.burst, start: time, deadline, submittedTasks: job.tasksLeft, finishedTasks: 0 };
    run.notify({ type: "burstStart", time, queue: q.index, burst: job.spec.burst });
    if (Number.isFinite(deadline)) run.env.scheduleAt(deadline, { kind: "burstEnd", queue: q, burst: job.spec.burst });
  }
}

/** A task ends (unless killed before): frees its resources, releases child stages, may finish its job. */
export function onTaskEnd(run: SimRun, task: TaskRt, time: number): void {
  if (!task.alive) return; // killed by preemption or a drop
  run.progress++;
  task.alive = false;
  const { job, stage } = task;
  const q = job.queue;
  run.cl.addUsage(q, stage.demand, -1);
  stage.running--;
  stage.finished++;
  job.tasksLeft--;
  job.running.delete(task);
  const at = q.runningList.lastIndexOf(task);
  if (at >= 0) q.runningList.splice(at, 1);
  if (q.openBurst && job.spec.burst === q.openBurst.index) q.openBurst.finishedTasks++;
  run.notify({ type: "taskEnd", time, queue: q.index, job: job.spec.id, stage: job.stages.indexOf(stage), task: task.index, started: task.start });
  if (stage.finished === stage.spec.tasks) {
    for (const c of stage.children) {
      const child = job.stages[c];
      if (--child.waitingParents === 0) run.makeRunnable(job, child);
    }
  }
  if (job.tasksLeft === 0 && job.outcome === null) run.endJob(job, { status: "finished", finish: time });
}

/** A burst's deadline passes: the queue's burst closes (if it is still that one). */
export function onBurstEnd(run: SimRun, q: QueueRt, burst: number, time: number): void {
  run.progress++;
  if (q.openBurst && q.openBurst.index === burst) q.openBurst = null;
  run.notify({ type: "burstEnd", time, queue: q.index, burst });
}

/** A policy tick: tells the policy and schedules the next one while anything is left to happen. */
export function onTick(run: SimRun, time: number, ticks: Ticks): void {
  run.notify({ type: "tick", time });
  if (run.env.pending > 0 || run.cl.queues.some((q) => q.activeJobs > 0)) {
    // a tick that does not advance time (t + updateInterval == t) would repeat forever
    run.env.scheduleAt(ticks.guard.next(time, ticks.interval), { kind: "tick" });
  }
}
