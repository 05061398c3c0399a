// The state of one queue-level run that the event handlers and the scheduling actions share:
// the environment, the cluster's run-time state, the policy and the task life cycle (start,
// kill, make runnable, end a job). The policy sees only ClusterState and PolicyActions.
import { InputError } from "../errors.js";
import { Environment } from "../des/environment.js";
import { SimulationError } from "../errors.js";
import type { Workload } from "../policy/model.js";
import type { Admission, Policy, PolicyActions, SimEvent } from "../policy/policy.js";
import { ClusterRt, type JobRt, type QueueRt, type StageRt, type TaskRt } from "./runtime.js";
import type { SimEv } from "./sim-events.js";
import type { PreemptionRecord, SimStats } from "./sim-options.js";

export class SimRun {
  readonly env = new Environment<SimEv>();
  readonly cl: ClusterRt;
  /** Resources. */
  readonly k: number;
  /** Jobs, in workload order. */
  readonly jobs: JobRt[];
  readonly jobById: Map<string, JobRt>;
  readonly stats: SimStats = { events: 0, schedulingPoints: 0, tasksStarted: 0, preemptions: 0 };
  /** What the policy may do besides allocating (drop a job, ask for a scheduling point). */
  readonly actions: PolicyActions;
  admissions: Array<Admission | undefined> = [];
  /** Every preemption so far (the preempt action keeps it; SimResult.preempted). */
  readonly preempted: PreemptionRecord[] = [];
  /**
   * Progress epoch: bumped when a task ends, a job arrives or ends, or a burst closes. Time
   * alone (ticks, wake-ups) is not progress. The preempt action reports a policy that kills
   * the same task twice within one epoch (a preemption cycle).
   */
  progress = 0;
  /**
   * Called with each started task's end time (the run lasts at least until then: a killed
   * task's end event stays queued), so policy ticks that could not get there are refused at once.
   */
  onTaskEnds: ((end: number) => void) | null = null;

  constructor(readonly workload: Workload, readonly policy: Policy) {
    this.k = workload.capacity.length;
    const cl = (this.cl = new ClusterRt(workload.capacity, workload.resources, workload.queues));
    const queueByName = new Map(cl.queues.map((q) => [q.spec.name, q]));
    this.jobs = workload.jobs.map((spec) => {
      const stages: StageRt[] = spec.stages.map((s) => ({
        spec: s, demand: Float64Array.from(s.demand), next: 0, retry: [], running: 0, finished: 0,
        waitingParents: (s.parents ?? []).length, runnable: false, children: [],
      }));
      spec.stages.forEach((s, i) => (s.parents ?? []).forEach((p) => stages[p].children.push(i)));
      const tasksLeft = spec.stages.reduce((a, s) => a + s.tasks, 0);
      return { spec, queue: queueByName.get(spec.queue)!, stages, pendingTasks: 0, tasksLeft, running: new Set(), outcome: null };
    });
    this.jobById = new Map(this.jobs.map((j) => [j.spec.id, j]));
    const run = this;
    this.actions = {
      dropJob(jobId, reason) {
        run.dropJob(jobId, reason);
      },
      wakeAt(time) {
        run.env.scheduleAt(time, { kind: "wake" });
      },
    };
  }

  /** Tells the policy about an event (before the scheduling point that follows it). */
  notify(ev: SimEvent): void {
    this.policy.onEvent?.(ev, this.cl, this.actions);
  }

  endJob(job: JobRt, outcome: JobRt["outcome"]): void {
    this.progress++;
    job.outcome = outcome;
    job.queue.activeJobs--;
    job.queue.compact();
    this.notify({ type: "jobEnd", time: this.cl.time, queue: job.queue.index, job: job.spec.id });
  }

  makeRunnable(job: JobRt, stage: StageRt): void {
    stage.runnable = true;
    const count = stage.spec.tasks - stage.next + stage.retry.length;
    job.pendingTasks += count;
    this.cl.addPending(job.queue, stage.demand, count);
  }

  /** Stops a running task and frees its resources (preemption or a drop). */
  killTask(task: TaskRt): void {
    task.alive = false;
    const q = task.job.queue;
    this.cl.addUsage(q, task.stage.demand, -1);
    task.stage.running--;
    task.job.running.delete(task);
    const at = q.runningList.lastIndexOf(task);
    if (at >= 0) q.runningList.splice(at, 1);
  }

  /** Undoes killTask in the same instant: the task runs on and ends when it was going to. */
  reviveTask(task: TaskRt): void {
    task.alive = true;
    const q = task.job.queue;
    this.cl.addUsage(q, task.stage.demand, 1);
    task.stage.running++;
    task.job.running.add(task);
    // back in start order (preemption victims come from the end)
    let at = q.runningList.length;
    while (at > 0 && q.runningList[at - 1].start > task.start) at--;
    q.runningList.splice(at, 0, task);
  }

  /** Starts the next task of `q` (FIFO over its jobs) and schedules its end. */
  startTask(q: QueueRt): void {
    const cl = this.cl;
    const ns = q.nextStage();
    if (!ns) throw new SimulationError("the policy chose a queue with no runnable task", { time: cl.time, queue: q.spec.name });
    const { job, stage } = ns;
    const index = stage.retry.length > 0 ? stage.retry.shift()! : stage.next++;
    const task: TaskRt = { job, stage, index, start: cl.time, alive: true };
    stage.running++;
    job.pendingTasks--;
    job.running.add(task);
    cl.addPending(q, stage.demand, -1);
    cl.addUsage(q, stage.demand, 1);
    q.runningList.push(task);
    this.stats.tasksStarted++;
    for (let r = 0; r < this.k; r++) {
      if (cl.used[r] > cl.capacity[r] * (1 + 1e-9) + 1e-12) {
        throw new SimulationError(
          `resource ${this.workload.resources[r]} over-allocated: ${cl.used[r]} > capacity ${cl.capacity[r]}`,
          { time: cl.time, queue: q.spec.name, job: job.spec.id },
        );
      }
    }
    const d = stage.spec.duration;
    const duration = typeof d === "number" ? d : d[index];
    this.onTaskEnds?.(cl.time + duration);
    this.env.scheduleAt(cl.time + duration, { kind: "taskEnd", task });
  }

  /** PolicyActions.dropJob: ends a job now as dropped, killing its running tasks. */
  dropJob(jobId: string, reason: string): void {
    const job = this.jobById.get(jobId);
    if (!job) throw new InputError("dropJob", `unknown job '${jobId}'`);
    if (job.outcome !== null) return;
    if (typeof reason !== "string" || reason === "") {
      throw new SimulationError("a job was dropped without a reason", { time: this.cl.time, queue: job.queue.spec.name, job: jobId });
    }
    for (const t of [...job.running]) this.killTask(t);
    for (const s of job.stages) {
      if (!s.runnable) continue;
      const left = s.spec.tasks - s.next + s.retry.length;
      if (left > 0) this.cl.addPending(job.queue, s.demand, -left);
    }
    job.pendingTasks = 0;
    this.endJob(job, { status: "dropped", time: this.cl.time, reason });
  }
}
