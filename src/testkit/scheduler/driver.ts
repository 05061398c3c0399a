// The fuzzer plays the cluster: it turns a scenario into ops over a manual clock, runs the
// tasks the scheduler starts (finishing each at its duration), and hands the state after every
// scheduling point to the observers (the properties of ./observers.ts). At each instant, in
// this order: finishes of tasks due, departures (waiting tasks cancelled, then removeQueue once
// nothing runs), arrivals of queues, submits, then `schedule` (again at once, up to 3 times,
// after an answer that preempted), each with `nextWakeup`, whose time becomes an instant too.
import { longestTask } from "./workload.js";
import type { Scenario, SchedulerRequest, SchedulerSupports, SchedulerTarget } from "./types.js";

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
  const requests: SchedulerRequest[] = [];
  const answers: Record<string, unknown>[] = [];
  const starts = new Map<string, number>();
  const k = scenario.capacity.length;
  let time = 0;
  let supports: SchedulerSupports = {};
  const check = (req: SchedulerRequest, a: Record<string, unknown>): Record<string, unknown> => {
    if (a === null || typeof a !== "object" || Array.isArray(a)) throw new BadAnswer(`the scheduler answered ${JSON.stringify(a)} to ${JSON.stringify(req)}, expected a JSON object`);
    if ("error" in a) throw new BadAnswer(`the scheduler refused a valid request ${JSON.stringify(req)}: ${JSON.stringify(a.error)}`);
    return a;
  };
  // requests whose answers decide nothing (submit, finish, ...) are sent without waiting (a command
  // target pipelines them); every one is awaited and checked before the next decision
  let posted: Array<Promise<unknown>> = [];
  const post = (req: SchedulerRequest): void => {
    if (requests.length >= MAX_OPS) throw new BadAnswer(`the run passed ${MAX_OPS} requests (the scheduler never lets the workload drain)`);
    const i = requests.push(req) - 1;
    const p = target.send(req).then((a) => { answers[i] = a; check(req, a); });
    p.catch(() => {}); // awaited (and its failure reported) at the next decision
    posted.push(p);
  };
  const send = async (req: SchedulerRequest): Promise<Record<string, unknown>> => {
    post(req);
    const all = posted;
    posted = [];
    await Promise.all(all);
    return answers[answers.length - 1];
  };
  // the tenants' queues (a split tenant has several)
  const queues: ModelQueue[] = [];
  const byName = new Map<string, ModelQueue>();
  const parts = (i: number) => (variant.split && i === 0 ? scenario.split : 1);
  scenario.queues.forEach((q, i) => {
    const n = parts(i);
    for (let p = 0; p < n; p++) {
      const mq: ModelQueue = {
        name: n === 1 ? queueName(i) : queueName(i, p), tenant: i, weight: q.weight / n, minShare: q.minShare / n,
        waiting: [], running: new Set(), usage: new Array<number>(k).fill(0), present: false,
      };
      queues.push(mq);
      byName.set(mq.name, mq);
    }
  });
  const tasks = new Map<string, ModelTask>();
  const jobs = scenario.jobs.map((j, index) => ({ ...j, index })).sort((a, b) => a.at - b.at || a.index - b.index);
  const firstJob = new Map<number, number>(), lastJob = new Map<number, number>();
  for (const j of jobs) {
    if (!firstJob.has(j.queue)) firstJob.set(j.queue, j.at);
    lastJob.set(j.queue, j.at);
  }
  const churn = (i: number) => scenario.queues[i].churn && firstJob.has(i);
  const joinAt = (i: number) => (churn(i) ? firstJob.get(i)! : 0);
  const leaveAt = (i: number) => lastJob.get(i)! + 1;
  const leaving = new Set<ModelQueue>();
  const bound = scenario.queues.length * Math.max(1, longestTask(scenario));

  const instants = new Set<number>([0]);
  for (const j of jobs) instants.add(j.at);
  scenario.queues.forEach((_, i) => { if (churn(i)) { instants.add(joinAt(i)); instants.add(leaveAt(i)); } });
  const used = () => { const u = new Array<number>(k).fill(0); for (const q of queues) for (let r = 0; r < k; r++) u[r] += q.usage[r]; return u; };
  const freeNow = () => { const u = used(); return scenario.capacity.map((c, r) => c - u[r]); };
  let seq = 0;
  let worldChanged = false;
  let probes = 0;
  const failures = new Map<string, string>();
  let broken = false;

  let wakeup: Record<string, unknown> | null = null;
  /** One scheduling point: schedule, and nextWakeup in the same batch (its answer kept in `wakeup`). */
  const point = async (settleIndex: number): Promise<boolean> => {
    const freeBefore = freeNow();
    const usageBefore = new Map(queues.map((q) => [q.name, q.usage.slice()]));
    post({ op: "schedule", time });
    const at = requests.length - 1;
    wakeup = await send({ op: "nextWakeup", time });
    const a = answers[at];
    const started = a.started, preemptedIds = a.preempted ?? [];
    if (!Array.isArray(started)) throw new BadAnswer(`the scheduler answered ${JSON.stringify(a)} to schedule, expected {"started": [{"id", "queue"}, ...]}`);
    if (!Array.isArray(preemptedIds)) throw new BadAnswer(`the schedule answer's "preempted" is ${JSON.stringify(preemptedIds)}, expected a list of task ids`);
    if (preemptedIds.length > 0 && !supports.preempt) throw new BadAnswer(`the scheduler preempted ${JSON.stringify(preemptedIds)} but its init answer did not declare "supports": {"preempt": true}`);
    const preempted: ModelTask[] = [];
    for (const id of preemptedIds) {
      const t = tasks.get(String(id));
      if (!t || t.state !== "running") throw new BadAnswer(`at t=${time} the scheduler preempted ${JSON.stringify(id)}, which is not running`);
      t.state = "waiting";
      const q = byName.get(t.queue)!;
      q.running.delete(t);
      for (let r = 0; r < k; r++) q.usage[r] -= t.demand[r];
      q.waiting.push(t);
      q.waiting.sort((x, y) => x.seq - y.seq);
      preempted.push(t);
    }
    const startedTasks: ModelTask[] = [];
    for (const s of started as Array<{ id?: unknown; queue?: unknown }>) {
      const t = s && typeof s === "object" ? tasks.get(String(s.id)) : undefined;
      if (!t || t.state !== "waiting") throw new BadAnswer(`at t=${time} the scheduler started ${JSON.stringify(s)}, which is not a waiting task`);
      if (s.queue !== t.queue) throw new BadAnswer(`at t=${time} the scheduler started ${t.id} of queue ${t.queue} as queue ${JSON.stringify(s.queue)}`);
      const q = byName.get(t.queue)!;
      q.waiting.splice(q.waiting.indexOf(t), 1);
      q.running.add(t);
      for (let r = 0; r < k; r++) q.usage[r] += t.demand[r];
      t.state = "running";
      t.start = time;
      t.end = time + t.duration;
      instants.add(t.end);
      if (!starts.has(t.id)) starts.set(t.id, time);
      startedTasks.push(t);
    }
    const free = freeNow();
    for (let r = 0; r < k; r++) {
      if (free[r] < -EPS * scenario.capacity[r]) {
        throw new BadAnswer(`at t=${time} the running tasks use ${+(scenario.capacity[r] - free[r]).toFixed(9)} of resource ${r}, capacity ${scenario.capacity[r]} (started ${startedTasks.map((t) => t.id).join(", ") || "nothing"})`);
      }
    }
    const settled = preempted.length === 0 || settleIndex >= 3;
    const p: Point = { time, capacity: scenario.capacity, queues, free, started: startedTasks, preempted, freeBefore, usageBefore, worldChanged, settled };
    worldChanged = false;
    for (const [name, o] of Object.entries(observers)) {
      if (failures.has(name)) continue;
      const m = o.onPoint(p);
      if (m !== null) failures.set(name, m);
    }
    return settled;
  };

  try {
    const ia = await send({ ...init, op: "init", capacity: scenario.capacity, clock: "manual", time: 0 });
    if (ia.supports && typeof ia.supports === "object") supports = ia.supports as SchedulerSupports;
    let jobAt = 0;
    const sorted = () => [...instants].sort((a, b) => a - b);
    let prev = -1;
    for (;;) {
      const next = sorted().find((t) => t > prev);
      if (next === undefined) {
        // nothing more happens: if tasks still wait, look once more after the starvation bound
        const waiting = queues.some((q) => q.waiting.length > 0);
        if (!waiting || probes >= 3) break;
        probes++;
        instants.add(prev + bound + 1);
        continue;
      }
      if (variant.extraCalls && prev >= 0) {
        time = (prev + next) / 2;
        await point(0);
      }
      prev = next;
      time = next;
      for (const q of queues) for (const t of [...q.running].sort((a, b) => a.seq - b.seq)) {
        if (t.end !== time) continue;
        post({ op: "finish", id: t.id, time });
        t.state = "done";
        q.running.delete(t);
        for (let r = 0; r < k; r++) q.usage[r] -= t.demand[r];
        worldChanged = true;
      }
      for (const q of queues) {
        if (churn(q.tenant) && q.present && leaveAt(q.tenant) <= time && !leaving.has(q)) {
          leaving.add(q);
          for (const t of q.waiting) { post({ op: "cancel", id: t.id, time }); t.state = "cancelled"; worldChanged = true; }
          q.waiting = [];
        }
        if (leaving.has(q) && q.present && q.running.size === 0) {
          post({ op: "removeQueue", queue: q.name, time });
          q.present = false;
          worldChanged = true;
        }
        if (!q.present && !leaving.has(q) && joinAt(q.tenant) <= time) {
          post({ op: "addQueue", queue: q.name, weight: q.weight, ...(q.minShare > 0 ? { minShare: q.minShare } : {}), time });
          q.present = true;
        }
      }
      while (jobAt < jobs.length && jobs[jobAt].at <= time) {
        const j = jobs[jobAt++];
        const mine = queues.filter((q) => q.tenant === j.queue);
        for (let t = 0; t < j.tasks; t++) {
          const q = mine[t % mine.length];
          const task: ModelTask = { id: `j${j.index}.${t}`, queue: q.name, demand: scenario.queues[j.queue].demand, duration: j.duration, seq: seq++, state: "waiting", end: 0, start: 0 };
          tasks.set(task.id, task);
          q.waiting.push(task);
          post({ op: "submit", queue: q.name, task: { id: task.id, demand: task.demand, job: `j${j.index}` }, time });
        }
      }
      for (let i = 0; !(await point(i)); i++);
      const w = wakeup as Record<string, unknown> | null;
      if (w && typeof w.time === "number" && Number.isFinite(w.time) && w.time > time) instants.add(w.time);
    }
  } catch (e) {
    await Promise.allSettled(posted);
    if (!(e instanceof BadAnswer)) throw e;
    failures.set("capacity", e.message);
    broken = true;
  }
  if (!broken) {
    for (const [name, o] of Object.entries(observers)) {
      if (failures.has(name)) continue;
      const m = o.finish?.(time) ?? null;
      if (m !== null) failures.set(name, m);
    }
  }
  return { requests, answers, starts, failures, broken, supports };
}
