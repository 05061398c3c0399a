// The live scheduler's snapshot: versioned plain JSON (docs/live-scheduler.md, "Snapshots"), and
// the checks restoreScheduler runs before it builds anything (InputErrors naming the field).
// Versions 1 (no jobs, bursts or policy options) and 2 (no policy state) are still read: the
// policy is then rebuilt without its history.
import { InputError, describeValue } from "../errors.js";
import type { QueueSpec } from "../policy/model.js";
import type { PolicyState } from "../policy/policy.js";
import { exceeds } from "../dispatch/fit.js";
import { checkDemandScale, checkVector, eachIndex, finiteNonNeg, plainJson, queueSpec, specOptions } from "./validate.js";

export const SNAPSHOT_VERSION = 3;
/** Largest task handle a snapshot may hold (2^24 - 1: a restore takes every slot up to it). */
export const MAX_HANDLE = 2 ** 24 - 1;

interface SnapshotTask {
  id: string;
  demand: number[];
  submitted: number;
  estimate?: number;
  job?: string;
  burst?: number;
  /** Arrival of the task's job (version 2). */
  arrival?: number;
}

export interface SchedulerSnapshot {
  version: 1 | 2 | 3;
  policy: string;
  capacity: number[];
  resources: string[];
  reservation: boolean;
  /** The dispatch's starvation guard; absent (snapshots made before it existed): the default, on. */
  starvationGuard?: boolean;
  policyOptions?: Record<string, unknown>;
  seed?: number;
  /** The scheduler's time of the snapshot (its last call's), in seconds from `origin`. */
  time: number;
  /**
   * The clock's reading when the scheduler started (version 3; absent: 0): every time in the
   * snapshot and in the policy state is the clock's minus it.
   */
  origin?: number;
  /** The policy's exportState (version 3; stateful policies, once built). */
  policyState?: PolicyState;
  /** The random stream's state (version 3): H-LTRF's random ties go on where they were. */
  rng?: { words: number[]; spareNormal: number | null };
  /** The queue the dispatch's starvation guard reserves room for (kept between points), when one is. */
  reservedFor?: string;
  /** Wake-ups the policy asked for (version 3). */
  wakeups?: number[];
  /**
   * The bursts' ends to come, in firing order (version 3): one per opening of a burst, an earlier
   * opening's too. Absent: the open bursts' deadlines (snapshots made before they were kept).
   */
  burstEnds?: Array<{ queue: string; burst: number; time: number }>;
  /** The tasks are handle-API tasks (version 3): each id is its handle in decimal, restored as that handle. */
  handles?: boolean;
  queues: Array<{
    name: string; spec: QueueSpec; accumulated: number; since: number;
    openBurst?: { index: number; start: number; deadline: number | null; submittedTasks: number; finishedTasks: number } | null;
    waiting: SnapshotTask[];
    running: Array<SnapshotTask & { started: number }>;
  }>;
}

const finite = (x: unknown): x is number => typeof x === "number" && Number.isFinite(x);

/** Checks a snapshot's shape; returns it with Infinity restored in policy options. */
export function checkSnapshot(snapshot: unknown): SchedulerSnapshot {
  if (snapshot === null || typeof snapshot !== "object") throw new InputError("snapshot", `expected a scheduler snapshot, got ${describeValue(snapshot)}`);
  const s = snapshot as SchedulerSnapshot;
  if (s.version !== 1 && s.version !== 2 && s.version !== SNAPSHOT_VERSION) throw new InputError("snapshot.version", `expected 1, 2 or ${SNAPSHOT_VERSION}, got ${describeValue(s.version)}`);
  if (s.version < 3 && (s.policyState !== undefined || s.rng !== undefined || s.wakeups !== undefined)) throw new InputError("snapshot.version", `policyState, rng and wakeups need version 3, got ${s.version}`);
  if (s.policyState !== undefined && (s.policyState === null || typeof s.policyState !== "object" || Array.isArray(s.policyState))) throw new InputError("snapshot.policyState", `expected an object, got ${describeValue(s.policyState)}`);
  if (s.policyState !== undefined) plainJson(s.policyState, "snapshot.policyState");
  if (s.rng !== undefined) {
    const r = s.rng as { words?: unknown; spareNormal?: unknown } | null;
    const w = r?.words;
    if (!(r !== null && typeof r === "object" && Array.isArray(w) && w.length === 4 && w.every((x) => Number.isInteger(x) && x >= 0 && x <= 0xffffffff) && w.some((x) => x !== 0))) throw new InputError("snapshot.rng.words", "expected four 32-bit unsigned integers, not all 0");
    if (!(r.spareNormal === null || finite(r.spareNormal))) throw new InputError("snapshot.rng.spareNormal", `expected null or a finite number, got ${describeValue(r.spareNormal)}`);
  }
  if (s.wakeups !== undefined) {
    if (!Array.isArray(s.wakeups)) throw new InputError("snapshot.wakeups", `expected an array of times, got ${describeValue(s.wakeups)}`);
    eachIndex(s.wakeups, (t, i) => { if (!finite(t)) throw new InputError(`snapshot.wakeups[${i}]`, `expected finite seconds, got ${describeValue(t)}`); });
  }
  if (s.starvationGuard !== undefined && typeof s.starvationGuard !== "boolean") throw new InputError("snapshot.starvationGuard", `must be true or false (got ${describeValue(s.starvationGuard)})`);
  if (s.handles !== undefined && s.handles !== true) throw new InputError("snapshot.handles", `expected true or no field, got ${describeValue(s.handles)}`);
  if (s.handles === true && s.version < 3) throw new InputError("snapshot.version", `handles need version 3, got ${s.version}`);
  if (s.origin !== undefined && !finite(s.origin)) throw new InputError("snapshot.origin", `expected finite seconds, got ${describeValue(s.origin)}`);
  if (!finite(s.time)) throw new InputError("snapshot.time", `expected finite seconds, got ${describeValue(s.time)}`);
  if (!Array.isArray(s.capacity)) throw new InputError("snapshot.capacity", `expected an array, got ${describeValue(s.capacity)}`);
  if (!Array.isArray(s.queues)) throw new InputError("snapshot.queues", `expected an array, got ${describeValue(s.queues)}`);
  for (let r = 0; r < s.capacity.length; r++) {
    const c = s.capacity[r];
    if (!(finite(c) && c > 0)) throw new InputError(`snapshot.capacity[${r}]`, `must be a finite number > 0 (got ${describeValue(c)})`);
  }
  const k = s.capacity.length;
  const ids = new Set<string>();
  const names = new Set<string>();
  const used = new Float64Array(k);
  eachIndex(s.queues, (q, i) => checkQueue(s, q, `snapshot.queues[${i}]`, names, ids, used));
  if (s.burstEnds !== undefined) checkBurstEnds(s, s.burstEnds);
  if (s.reservedFor !== undefined && !(typeof s.reservedFor === "string" && names.has(s.reservedFor))) throw new InputError("snapshot.reservedFor", `expected the name of one of the snapshot's queues, got ${describeValue(s.reservedFor)}`);
  if (s.policyOptions !== undefined && (s.policyOptions === null || typeof s.policyOptions !== "object")) throw new InputError("snapshot.policyOptions", `expected an object, got ${describeValue(s.policyOptions)}`);
  return s;
}

type SnapshotQueue = SchedulerSnapshot["queues"][number];

/**
 * Checks one queue of a snapshot by the rules of the calls that could have made it (addQueue,
 * submit, schedule): its spec as addQueue takes it, times no later than the snapshot's, tasks as
 * submit takes them, running tasks within the capacity (summed into `used` over the queues).
 */
function checkQueue(s: SchedulerSnapshot, q: SnapshotQueue, f: string, names: Set<string>, ids: Set<string>, used: Float64Array): void {
  const k = s.capacity.length;
  if (q === null || typeof q !== "object") throw new InputError(f, `expected a queue, got ${describeValue(q)}`);
  if (typeof q.name !== "string" || q.name === "" || names.has(q.name)) throw new InputError(`${f}.name`, `missing or duplicate queue name ${describeValue(q.name)}`);
  names.add(q.name);
  if (q.spec === null || typeof q.spec !== "object" || q.spec.name !== q.name) throw new InputError(`${f}.spec`, "expected the queue's spec (with its name)");
  const spec = queueSpec(q.name, specOptions(q.spec), `${f}.spec`, k);
  const bursts = spec.kind === "LQ" ? spec.bursts?.length ?? 0 : 0;
  if (!(finiteNonNeg(q.accumulated))) throw new InputError(`${f}.accumulated`, `expected finite dominant share x seconds >= 0, got ${describeValue(q.accumulated)}`);
  notAfter(q.since, s.time, `${f}.since`);
  const b = q.openBurst;
  if (b !== undefined && b !== null) {
    if (!(Number.isInteger(b.index) && b.index >= 0 && finite(b.start) && (b.deadline === null || finite(b.deadline)) && Number.isInteger(b.submittedTasks) && b.submittedTasks >= 0 && Number.isInteger(b.finishedTasks) && b.finishedTasks >= 0)) throw new InputError(`${f}.openBurst`, "expected {index, start, deadline (null = none), submittedTasks, finishedTasks}");
    if (b.index >= bursts) throw new InputError(`${f}.openBurst.index`, `queue '${q.name}' reports ${bursts} bursts; got ${b.index}`);
    notAfter(b.start, s.time, `${f}.openBurst.start`);
    if (b.deadline !== null && b.deadline < b.start) throw new InputError(`${f}.openBurst.deadline`, `${b.deadline} is before the burst's start ${b.start}`);
  }
  for (const what of ["waiting", "running"] as const) {
    const list = q[what];
    if (!Array.isArray(list)) throw new InputError(`${f}.${what}`, "expected an array");
    eachIndex(list, (t: SnapshotTask & { started?: number }, j: number) => {
      const tf = `${f}.${what}[${j}]`;
      checkTask(s, t, tf, ids, bursts);
      if (what !== "running") return;
      if (!finite(t.started)) throw new InputError(`${tf}.started`, `expected finite seconds, got ${describeValue(t.started)}`);
      notAfter(t.started, s.time, `${tf}.started`);
      if (t.started < t.submitted) throw new InputError(`${tf}.started`, `${t.started} is before the task's submit time ${t.submitted}`);
      for (let r = 0; r < k; r++) {
        if (exceeds(used[r], t.demand[r], s.capacity[r])) throw new InputError(`${tf}.demand[${r}]`, `the running tasks hold more than the capacity ${s.capacity[r]}`);
        used[r] += t.demand[r];
      }
    });
  }
}

/** Checks one task of a snapshot by submit's rules (ids unique; a burst the queue reports). */
function checkTask(s: SchedulerSnapshot, t: SnapshotTask, tf: string, ids: Set<string>, bursts: number): void {
  if (t === null || typeof t !== "object") throw new InputError(tf, `expected a task, got ${describeValue(t)}`);
  if (typeof t.id !== "string" || t.id === "" || ids.has(t.id)) throw new InputError(`${tf}.id`, `missing or duplicate task id ${describeValue(t.id)}`);
  ids.add(t.id);
  // a restore allocates every slot up to the largest handle: bounded by MAX_HANDLE
  if (s.handles === true && !(/^(0|[1-9][0-9]{0,7})$/.test(t.id) && Number(t.id) <= MAX_HANDLE)) throw new InputError(`${tf}.id`, `expected a task handle (a decimal integer 0..${MAX_HANDLE}) in a snapshot of handles, got ${describeValue(t.id)}`);
  const d = checkVector(`${tf}.demand`, t.demand, s.capacity.length);
  checkDemandScale(`${tf}.demand`, d, s.capacity);
  if (!finite(t.submitted)) throw new InputError(`${tf}.submitted`, `expected finite seconds, got ${describeValue(t.submitted)}`);
  notAfter(t.submitted, s.time, `${tf}.submitted`);
  if (t.estimate !== undefined && !finiteNonNeg(t.estimate)) throw new InputError(`${tf}.estimate`, `must be a finite number >= 0 (got ${describeValue(t.estimate)})`);
  if (t.job !== undefined && !(typeof t.job === "string" && t.job !== "")) throw new InputError(`${tf}.job`, `expected a non-empty string, got ${describeValue(t.job)}`);
  if (t.burst !== undefined && !(Number.isInteger(t.burst) && t.burst >= 0 && t.burst < bursts)) throw new InputError(`${tf}.burst`, `expected a burst index the queue reports (0..${bursts - 1}), got ${describeValue(t.burst)}`);
  if (t.arrival !== undefined) {
    if (!finite(t.arrival)) throw new InputError(`${tf}.arrival`, `expected finite seconds, got ${describeValue(t.arrival)}`);
    if (t.arrival > t.submitted) throw new InputError(`${tf}.arrival`, `${t.arrival} is after the task's submit time ${t.submitted}`);
  }
}

/** A time of the snapshot's past: finite and no later than the snapshot's time. */
function notAfter(t: unknown, time: number, field: string): void {
  if (!finite(t)) throw new InputError(field, `expected finite seconds, got ${describeValue(t)}`);
  if (t > time) throw new InputError(field, `${t} is after the snapshot's time ${time}`);
}

/** Checks the burst ends of a snapshot: a queue of it that reports the burst, a finite time. */
function checkBurstEnds(s: SchedulerSnapshot, ends: unknown): void {
  if (!Array.isArray(ends)) throw new InputError("snapshot.burstEnds", `expected an array, got ${describeValue(ends)}`);
  if (s.version < 3) throw new InputError("snapshot.version", `burstEnds need version 3, got ${s.version}`);
  const bursts = new Map(s.queues.map((q) => [q.name, q.spec.kind === "LQ" ? q.spec.bursts?.length ?? 0 : 0]));
  eachIndex(ends, (e: { queue?: unknown; burst?: unknown; time?: unknown } | null, i) => {
    const f = `snapshot.burstEnds[${i}]`;
    if (e === null || typeof e !== "object") throw new InputError(f, `expected {queue, burst, time}, got ${describeValue(e)}`);
    const n = typeof e.queue === "string" ? bursts.get(e.queue) : undefined;
    if (n === undefined) throw new InputError(`${f}.queue`, `expected the name of one of the snapshot's queues, got ${describeValue(e.queue)}`);
    if (!(Number.isInteger(e.burst) && (e.burst as number) >= 0 && (e.burst as number) < n)) throw new InputError(`${f}.burst`, `expected a burst index the queue reports (0..${n - 1}), got ${describeValue(e.burst)}`);
    if (!finite(e.time)) throw new InputError(`${f}.time`, `expected finite seconds, got ${describeValue(e.time)}`);
  });
}

