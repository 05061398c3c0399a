// The fuzzer plays the cluster: it turns a scenario into ops over a manual clock, runs the
// tasks the scheduler starts (finishing each at its duration), and hands the state after every
// scheduling point to the observers (the properties of ./observers.ts). At each instant, in
// this order: finishes of tasks due, departures (waiting tasks cancelled, then removeQueue once
// nothing runs), arrivals of queues, submits, then `schedule` (again at once, up to 3 times,
// after an answer that preempted), each with `nextWakeup`, whose time becomes an instant too.
import { longestTask } from "./workload.js";
import type { Scenario, ScenarioJob, SchedulerRequest, SchedulerSupports, SchedulerTarget } from "./types.js";

export interface DriveVariant {
  /** Queue 0 runs as `scenario.split` queues of weight w/k, its tasks dealt round-robin. */
  split?: boolean;
  /** `schedule` is called also at the midpoint of every gap between instants. */
  extraCalls?: boolean;
}

export interface ModelTask {
  id: string;
  queue: string;
  demand: number[];
  duration: number;
  seq: number;
  state: "waiting" | "running" | "done" | "cancelled";
  end: number;
  start: number;
}

export interface ModelQueue {
  name: string;
  /** The scenario's tenant this queue belongs to (queues of a split tenant share it). */
  tenant: number;
  weight: number;
  minShare: number;
  /** Waiting tasks in submission order. */
  waiting: ModelTask[];
  running: Set<ModelTask>;
  usage: number[];
  present: boolean;
}

/** The state the observers see after a scheduling point. */
export interface Point {
  time: number;
  capacity: number[];
  queues: ModelQueue[];
  free: number[];
  started: ModelTask[];
  preempted: ModelTask[];
  /** Free capacity before this point's answer, and each queue's usage then. */
  freeBefore: number[];
  usageBefore: Map<string, number[]>;
  /** A finish, cancel or departure since the previous point. */
  worldChanged: boolean;
  /** The last point of its instant (the state that holds until the next instant). */
  settled: boolean;
}

export interface Observer {
  onPoint(p: Point): string | null;
  /** After the run (the scheduler's last answer); `end` is the last instant. */
  finish?(end: number): string | null;
}

export interface DriveResult {
  requests: SchedulerRequest[];
  answers: Record<string, unknown>[];
  /** Start time of every task that started, by id (first start). */
  starts: Map<string, number>;
  /** The first finding of each observer, and of the driver itself (`capacity`: an answer that is not a valid decision; the run stops there). */
  failures: Map<string, string>;
}

/** Thrown inside the drive when the scheduler's answer is not a valid answer. */
class BadAnswer extends Error {}

const EPS = 1e-9;
const MAX_OPS = 5_000;

export const queueName = (i: number, part?: number): string => (part === undefined ? `q${i}` : `q${i}.${part}`);


/** Runs one scenario against a fresh `init` of the target. */
export async function drive(
  scenario: Scenario, target: SchedulerTarget, init: Record<string, unknown>,
  observers: Record<string, Observer>, variant: DriveVariant = {},
): Promise<DriveResult & { supports: SchedulerSupports; broken: boolean }> {
  return new ClusterDriver(scenario, target, observers, variant).run(init);
}

type IndexedJob = ScenarioJob & { index: number };

/** One run: the model of the cluster, the requests sent so far and the observers' findings. */
class ClusterDriver {
  private readonly requests: SchedulerRequest[] = [];
  private readonly answers: Record<string, unknown>[] = [];
  private readonly starts = new Map<string, number>();
  private readonly failures = new Map<string, string>();
  /** Resource count. */
  private readonly k: number;
  private time = 0;
  private supports: SchedulerSupports = {};
  // requests whose answers decide nothing (submit, finish, ...) are sent without waiting (a command
  // target pipelines them); every one is awaited and checked before the next decision
  private posted: Array<Promise<unknown>> = [];
  /** The tenants' queues (a split tenant has several). */
  private readonly queues: ModelQueue[] = [];
  private readonly byName = new Map<string, ModelQueue>();
  private readonly tasks = new Map<string, ModelTask>();
  /** Jobs by arrival time, then scenario order. */
  private readonly jobs: IndexedJob[];
  private jobAt = 0;
  private readonly firstJob = new Map<number, number>();
  private readonly lastJob = new Map<number, number>();
  private readonly leaving = new Set<ModelQueue>();
  /** How long past the last instant to look again when tasks still wait. */
  private readonly bound: number;
  private readonly instants = new Set<number>([0]);
  private seq = 0;
  private worldChanged = false;
  private probes = 0;
  private wakeup: Record<string, unknown> | null = null;

  constructor(
    private readonly scenario: Scenario, private readonly target: SchedulerTarget,
    private readonly observers: Record<string, Observer>, private readonly variant: DriveVariant,
  ) {
    this.k = scenario.capacity.length;
    this.buildQueues();
    this.jobs = scenario.jobs.map((j, index) => ({ ...j, index })).sort((a, b) => a.at - b.at || a.index - b.index);
    for (const j of this.jobs) {
      if (!this.firstJob.has(j.queue)) this.firstJob.set(j.queue, j.at);
      this.lastJob.set(j.queue, j.at);
    }
    this.bound = scenario.queues.length * Math.max(1, longestTask(scenario));
    for (const j of this.jobs) this.instants.add(j.at);
    scenario.queues.forEach((_, i) => { if (this.churn(i)) { this.instants.add(this.joinAt(i)); this.instants.add(this.leaveAt(i)); } });
  }

  async run(init: Record<string, unknown>): Promise<DriveResult & { supports: SchedulerSupports; broken: boolean }> {
    let broken = false;
    try {
      await this.initTarget(init);
      await this.playInstants();
    } catch (e) {
      await Promise.allSettled(this.posted);
      if (!(e instanceof BadAnswer)) throw e;
      this.failures.set("capacity", e.message);
      broken = true;
    }
    if (!broken) this.finishObservers();
    const { requests, answers, starts, failures, supports } = this;
    return { requests, answers, starts, failures, broken, supports };
  }

  // --- transport ---

  private checkAnswer(req: SchedulerRequest, a: Record<string, unknown>): Record<string, unknown> {
    if (a === null || typeof a !== "object" || Array.isArray(a)) throw new BadAnswer(`the scheduler answered ${JSON.stringify(a)} to ${JSON.stringify(req)}, expected a JSON object`);
    if ("error" in a) throw new BadAnswer(`the scheduler refused a valid request ${JSON.stringify(req)}: ${JSON.stringify(a.error)}`);
    return a;
  }

  /** Sends without waiting; the answer is checked at the next `send`. */
  private post(req: SchedulerRequest): void {
    if (this.requests.length >= MAX_OPS) throw new BadAnswer(`the run passed ${MAX_OPS} requests (the scheduler never lets the workload drain)`);
    const i = this.requests.push(req) - 1;
    const p = this.target.send(req).then((a) => { this.answers[i] = a; this.checkAnswer(req, a); });
    p.catch(() => {}); // awaited (and its failure reported) at the next decision
    this.posted.push(p);
  }

  /** Sends, awaits every request in flight, and returns this one's answer. */
  private async send(req: SchedulerRequest): Promise<Record<string, unknown>> {
    this.post(req);
    const all = this.posted;
    this.posted = [];
    await Promise.all(all);
    return this.answers[this.answers.length - 1];
  }

  // --- the model ---

  private buildQueues(): void {
    const { scenario, variant } = this;
    scenario.queues.forEach((q, i) => {
      const n = variant.split && i === 0 ? scenario.split : 1;
      for (let p = 0; p < n; p++) {
        const mq: ModelQueue = {
          name: n === 1 ? queueName(i) : queueName(i, p), tenant: i, weight: q.weight / n, minShare: q.minShare / n,
          waiting: [], running: new Set(), usage: new Array<number>(this.k).fill(0), present: false,
        };
        this.queues.push(mq);
        this.byName.set(mq.name, mq);
      }
    });
  }

  private churn(i: number): boolean { return !!this.scenario.queues[i].churn && this.firstJob.has(i); }
  private joinAt(i: number): number { return this.churn(i) ? this.firstJob.get(i)! : 0; }
  private leaveAt(i: number): number { return this.lastJob.get(i)! + 1; }

  private freeNow(): number[] {
    const u = new Array<number>(this.k).fill(0);
    for (const q of this.queues) for (let r = 0; r < this.k; r++) u[r] += q.usage[r];
    return this.scenario.capacity.map((c, r) => c - u[r]);
  }

  // --- the run over time ---

  private async initTarget(init: Record<string, unknown>): Promise<void> {
    const ia = await this.send({ ...init, op: "init", capacity: this.scenario.capacity, clock: "manual", time: 0 });
    if (ia.supports && typeof ia.supports === "object") this.supports = ia.supports as SchedulerSupports;
  }

  private async playInstants(): Promise<void> {
    let prev = -1;
    for (;;) {
      const next = [...this.instants].sort((a, b) => a - b).find((t) => t > prev);
      if (next === undefined) {
        // nothing more happens: if tasks still wait, look once more after the starvation bound
        const waiting = this.queues.some((q) => q.waiting.length > 0);
        if (!waiting || this.probes >= 3) break;
        this.probes++;
        this.instants.add(prev + this.bound + 1);
        continue;
      }
      if (this.variant.extraCalls && prev >= 0) {
        this.time = (prev + next) / 2;
        await this.schedulingPoint(0);
      }
      prev = next;
      await this.playInstant(next);
    }
  }

  /** Everything that happens at one instant, in the order the header describes. */
  private async playInstant(time: number): Promise<void> {
    this.time = time;
    this.finishDueTasks();
    this.applyQueueChurn();
    this.submitArrivedJobs();
    for (let i = 0; !(await this.schedulingPoint(i)); i++);
    this.followWakeup();
  }

  private finishDueTasks(): void {
    const { time } = this;
    for (const q of this.queues) for (const t of [...q.running].sort((a, b) => a.seq - b.seq)) {
      if (t.end !== time) continue;
      this.post({ op: "finish", id: t.id, time });
      t.state = "done";
      q.running.delete(t);
      for (let r = 0; r < this.k; r++) q.usage[r] -= t.demand[r];
      this.worldChanged = true;
    }
  }

  /** Departures (waiting tasks cancelled, then removeQueue once nothing runs) and arrivals of queues. */
  private applyQueueChurn(): void {
    const { time, leaving } = this;
    for (const q of this.queues) {
      if (this.churn(q.tenant) && q.present && this.leaveAt(q.tenant) <= time && !leaving.has(q)) {
        leaving.add(q);
        for (const t of q.waiting) { this.post({ op: "cancel", id: t.id, time }); t.state = "cancelled"; this.worldChanged = true; }
        q.waiting = [];
      }
      if (leaving.has(q) && q.present && q.running.size === 0) {
        this.post({ op: "removeQueue", queue: q.name, time });
        q.present = false;
        this.worldChanged = true;
      }
      if (!q.present && !leaving.has(q) && this.joinAt(q.tenant) <= time) {
        this.post({ op: "addQueue", queue: q.name, weight: q.weight, ...(q.minShare > 0 ? { minShare: q.minShare } : {}), time });
        q.present = true;
      }
    }
  }

  /** Submits the tasks of every job due by now, dealt round-robin over its tenant's queues. */
  private submitArrivedJobs(): void {
    const { time, jobs, scenario } = this;
    while (this.jobAt < jobs.length && jobs[this.jobAt].at <= time) {
      const j = jobs[this.jobAt++];
      const mine = this.queues.filter((q) => q.tenant === j.queue);
      for (let t = 0; t < j.tasks; t++) {
        const q = mine[t % mine.length];
        const task: ModelTask = { id: `j${j.index}.${t}`, queue: q.name, demand: scenario.queues[j.queue].demand, duration: j.duration, seq: this.seq++, state: "waiting", end: 0, start: 0 };
        this.tasks.set(task.id, task);
        q.waiting.push(task);
        this.post({ op: "submit", queue: q.name, task: { id: task.id, demand: task.demand, job: `j${j.index}` }, time });
      }
    }
  }

  /** The last nextWakeup answer of the instant, if later, becomes an instant too. */
  private followWakeup(): void {
    const w = this.wakeup;
    if (w && typeof w.time === "number" && Number.isFinite(w.time) && w.time > this.time) this.instants.add(w.time);
  }

  // --- one scheduling point ---

  /** schedule, and nextWakeup in the same batch (its answer kept in `wakeup`); true once settled. */
  private async schedulingPoint(settleIndex: number): Promise<boolean> {
    const { time, queues } = this;
    const freeBefore = this.freeNow();
    const usageBefore = new Map(queues.map((q) => [q.name, q.usage.slice()]));
    this.post({ op: "schedule", time });
    const at = this.requests.length - 1;
    this.wakeup = await this.send({ op: "nextWakeup", time });
    const a = this.answers[at];
    const started = a.started, preemptedIds = a.preempted ?? [];
    if (!Array.isArray(started)) throw new BadAnswer(`the scheduler answered ${JSON.stringify(a)} to schedule, expected {"started": [{"id", "queue"}, ...]}`);
    if (!Array.isArray(preemptedIds)) throw new BadAnswer(`the schedule answer's "preempted" is ${JSON.stringify(preemptedIds)}, expected a list of task ids`);
    if (preemptedIds.length > 0 && !this.supports.preempt) throw new BadAnswer(`the scheduler preempted ${JSON.stringify(preemptedIds)} but its init answer did not declare "supports": {"preempt": true}`);
    const preempted = this.applyPreemptions(preemptedIds);
    const startedTasks = this.applyStarts(started as Array<{ id?: unknown; queue?: unknown }>);
    const free = this.freeNow();
    this.checkCapacity(free, startedTasks);
    const settled = preempted.length === 0 || settleIndex >= 3;
    const p: Point = { time, capacity: this.scenario.capacity, queues, free, started: startedTasks, preempted, freeBefore, usageBefore, worldChanged: this.worldChanged, settled };
    this.worldChanged = false;
    this.observe(p);
    return settled;
  }

  /** Preempted tasks go back to waiting, in submission order. */
  private applyPreemptions(ids: unknown[]): ModelTask[] {
    const preempted: ModelTask[] = [];
    for (const id of ids) {
      const t = this.tasks.get(String(id));
      if (!t || t.state !== "running") throw new BadAnswer(`at t=${this.time} the scheduler preempted ${JSON.stringify(id)}, which is not running`);
      t.state = "waiting";
      const q = this.byName.get(t.queue)!;
      q.running.delete(t);
      for (let r = 0; r < this.k; r++) q.usage[r] -= t.demand[r];
      q.waiting.push(t);
      q.waiting.sort((x, y) => x.seq - y.seq);
      preempted.push(t);
    }
    return preempted;
  }

  /** Runs the started tasks; each one's end becomes an instant. */
  private applyStarts(started: Array<{ id?: unknown; queue?: unknown }>): ModelTask[] {
    const { time } = this;
    const startedTasks: ModelTask[] = [];
    for (const s of started) {
      const t = s && typeof s === "object" ? this.tasks.get(String(s.id)) : undefined;
      if (!t || t.state !== "waiting") throw new BadAnswer(`at t=${time} the scheduler started ${JSON.stringify(s)}, which is not a waiting task`);
      if (s.queue !== t.queue) throw new BadAnswer(`at t=${time} the scheduler started ${t.id} of queue ${t.queue} as queue ${JSON.stringify(s.queue)}`);
      const q = this.byName.get(t.queue)!;
      q.waiting.splice(q.waiting.indexOf(t), 1);
      q.running.add(t);
      for (let r = 0; r < this.k; r++) q.usage[r] += t.demand[r];
      t.state = "running";
      t.start = time;
      t.end = time + t.duration;
      this.instants.add(t.end);
      if (!this.starts.has(t.id)) this.starts.set(t.id, time);
      startedTasks.push(t);
    }
    return startedTasks;
  }

  private checkCapacity(free: number[], startedTasks: ModelTask[]): void {
    const { capacity } = this.scenario;
    for (let r = 0; r < this.k; r++) {
      if (free[r] < -EPS * capacity[r]) {
        throw new BadAnswer(`at t=${this.time} the running tasks use ${+(capacity[r] - free[r]).toFixed(9)} of resource ${r}, capacity ${capacity[r]} (started ${startedTasks.map((t) => t.id).join(", ") || "nothing"})`);
      }
    }
  }

  // --- observers ---

  /** Hands the point to every observer that has not failed yet; keeps each one's first finding. */
  private observe(p: Point): void {
    for (const [name, o] of Object.entries(this.observers)) {
      if (this.failures.has(name)) continue;
      const m = o.onPoint(p);
      if (m !== null) this.failures.set(name, m);
    }
  }

  /** After the run: each observer's end-of-run check, at the last instant. */
  private finishObservers(): void {
    for (const [name, o] of Object.entries(this.observers)) {
      if (this.failures.has(name)) continue;
      const m = o.finish?.(this.time) ?? null;
      if (m !== null) this.failures.set(name, m);
    }
  }
}
