// `fairsched allocate` tasks to start: the live scheduler (src/live/scheduler.ts) restored from
// the input as a snapshot at `time` — running tasks running, waiting tasks in their order — and
// asked schedule() once. Only its public API is used (snapshot format, restoreScheduler,
// createScheduler), so every policy it runs answers here and every one it refuses is refused
// with its reason.
import type { Engine } from "../engine/engine.js";
import { InputError } from "../errors.js";
import { createScheduler, restoreScheduler, type Scheduler, type SchedulerSnapshot, type Started } from "../live/scheduler.js";
import type { AllocateInput } from "./allocate-input.js";

/** An empty live scheduler for the policy, or why the live scheduler refuses it (its own words). */
function emptyScheduler(policy: string, capacity: number[], engine: Engine): Scheduler | string {
  try {
    return createScheduler({ policy, capacity, engine, clock: () => 0 });
  } catch (e) {
    if (e instanceof InputError && e.field === "policy") return e.message.slice(e.field.length + 2);
    throw e;
  }
}

/** Why the live scheduler refuses the policy, or null when it runs it. */
export function liveRefusal(policy: string, capacity: number[], engine: Engine): string | null {
  const s = emptyScheduler(policy, capacity, engine);
  return typeof s === "string" ? s : null;
}

type SnapshotQueue = SchedulerSnapshot["queues"][number];
/** A burst open at the snapshot's time (snapshot version 2; an earlier scheduler ignores it). */
interface OpenBurst { index: number; start: number; deadline: number | null; submittedTasks: number; finishedTasks: number }

/**
 * The input as a live scheduler snapshot. A queue that gave `usage` without its running tasks holds
 * it as one running task. An open burst is open from its start until the end of its window, or
 * with no end when `openBurst` names a burst whose window is over (the user says it is still open).
 */
export function toSnapshot(policy: string, input: AllocateInput, version: SchedulerSnapshot["version"]): SchedulerSnapshot {
  const ids = new Set(input.queues.flatMap((q) => [...(q.running ?? []), ...(q.tasks ?? [])].map((t) => t.id)));
  let seq = 0;
  const freshId = (): string => {
    let id: string;
    do id = `allocate:usage:${seq++}`; while (ids.has(id));
    return id;
  };
  const { time } = input;
  const queues = input.queues.map((q) => {
    const burst = q.openBurst === null ? null : q.spec.bursts![q.openBurst];
    const end = burst ? burst.start + burst.window : 0;
    const open: OpenBurst | null = burst && { index: q.openBurst!, start: burst.start, deadline: end > time ? end : null, submittedTasks: 0, finishedTasks: 0 };
    const queue: SnapshotQueue & { openBurst: OpenBurst | null } = {
      name: q.spec.name,
      spec: q.spec,
      accumulated: 0,
      since: time,
      openBurst: open,
      waiting: (q.tasks ?? []).map((t) => ({ id: t.id, demand: [...t.demand], submitted: t.submitted })),
      running: q.running
        ? q.running.map((t) => ({ id: t.id, demand: [...t.demand], submitted: time, started: time }))
        : q.usage.some((x) => x > 0) ? [{ id: freshId(), demand: Array.from(q.usage), submitted: time, started: time }] : [],
    };
    return queue as SnapshotQueue;
  });
  const out: SchedulerSnapshot = { version, policy, capacity: [...input.capacity], resources: [...input.resources], reservation: false, time, queues };
  if (input.reservedFor !== null) out.reservedFor = input.reservedFor;
  return out;
}

/** The tasks the live scheduler starts now, in order. Its refusal is an InputError on --policy. */
export function tasksToStart(policy: string, input: AllocateInput, engine: Engine): Started[] {
  const empty = emptyScheduler(policy, input.capacity, engine);
  if (typeof empty === "string") throw new InputError("--policy", empty);
  // the snapshot version this scheduler writes (and so reads), from its public API
  const version = empty.snapshot().version;
  try {
    return restoreScheduler(toSnapshot(policy, input, version), { engine, clock: () => input.time }).schedule();
  } catch (e) {
    // the input is checked first; should the scheduler still refuse a field, name it as the user wrote it
    if (e instanceof InputError && e.field.startsWith("snapshot.queues[")) throw new InputError(snapshotFieldAsInput(e.field), e.message.slice(e.field.length + 2));
    throw e;
  }
}

/** A snapshot field as the allocate input names it: snapshot.queues[1].spec.minShare -> queues[1].params.minShare. */
function snapshotFieldAsInput(field: string): string {
  return field
    .replace(/^snapshot\./, "")
    .replace(/\.spec\.(minShare|maxShare|warp)\b/, ".params.$1")
    .replace(/\.spec\b/, "")
    .replace(/\.waiting\[/, ".tasks[");
}
