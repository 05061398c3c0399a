// The live scheduler's snapshots (docs/live-scheduler.md, "Snapshots"): the state written as
// versioned plain JSON, and a checked snapshot loaded into a fresh scheduler's state.
import { InputError } from "../errors.js";
import { Rng } from "../random/rng.js";
import type { QueueSpec } from "../policy/model.js";
import type { PolicyState } from "../policy/policy.js";
import type { LiveCore } from "./core.js";
import { HANDLES, IDS } from "./ledger.js";
import { LiveQueue, RUNNING, WAITING } from "./live-state.js";
import { SNAPSHOT_VERSION, type SchedulerSnapshot } from "./snapshot.js";

/** The state as of the last call as a snapshot (its times the scheduler's, from the origin). */
export function snapshotOf(core: LiveCore): SchedulerSnapshot {
  const time = core.state.time;
  const slots = core.state.slots;
  const b = core.binding;
  // running tasks by queue, in start order
  const running = new Map<LiveQueue, number[]>();
  for (let x = 0; x < slots.size; x++) {
    if (slots.state[x] !== RUNNING) continue;
    const q = slots.queue[x]!;
    const list = running.get(q);
    if (list) list.push(x); else running.set(q, [x]);
  }
  const record = (x: number) => ({ ...core.ledger.taskInput(x), submitted: slots.submitted[x], arrival: slots.arrival[x] });
  const out: SchedulerSnapshot = {
    version: SNAPSHOT_VERSION,
    policy: b.policyName,
    capacity: Array.from(core.state.capacity),
    resources: [...core.state.resources],
    reservation: core.reservation,
    starvationGuard: core.starvationGuard,
    seed: b.seed,
    time,
    queues: core.state.queues.map((q) => ({
      name: q.spec.name,
      spec: JSON.parse(JSON.stringify(q.spec)) as QueueSpec,
      accumulated: q.accumulated,
      since: q.since,
      openBurst: q.openBurst ? { ...q.openBurst, deadline: Number.isFinite(q.openBurst.deadline) ? q.openBurst.deadline : null } : null,
      waiting: q.waitingSlots().map(record),
      running: (running.get(q) ?? []).sort((a, b) => slots.started[a] - slots.started[b] || slots.startSeq[a] - slots.startSeq[b]).map((x) => ({ ...record(x), started: slots.started[x] })),
    })),
  };
  if (core.origin !== 0) out.origin = core.origin;
  if (core.ledger.mode === HANDLES && slots.count > 0) out.handles = true;
  if (b.policyOptions !== undefined) out.policyOptions = JSON.parse(JSON.stringify(b.policyOptions, (_, v) => (v === Infinity ? "Infinity" : v)));
  // the policy's history (version 3): what a rebuild now would carry over; none before its first build
  const ps = b.exportState();
  if (ps !== null) out.policyState = JSON.parse(JSON.stringify(ps)) as PolicyState;
  out.rng = b.rng.getState();
  const reserved = core.dispatcher.reservedQueue;
  if (reserved >= 0) out.reservedFor = core.state.queues[reserved].spec.name;
  out.wakeups = core.timers.all().filter((t) => t.queue === null).map((t) => t.time);
  // every burst's end still to come, a superseded opening's too (as in the simulator, it ends the burst then)
  const ends = core.timers.all().filter((t) => t.queue !== null).map((t) => ({ queue: t.queue!.spec.name, burst: t.burst, time: t.time }));
  if (ends.length > 0) out.burstEnds = ends;
  return out;
}

type SnapshotTask = SchedulerSnapshot["queues"][number]["waiting"][number];

/** Rebuilds a fresh scheduler's state from a checked snapshot (restoreScheduler). */
export function loadInto(core: LiveCore, s: SchedulerSnapshot): void {
  const b = core.binding;
  const ledger = core.ledger;
  core.state.time = s.time;
  core.origin = s.origin ?? 0;
  const slots = core.state.slots;
  // handle tasks keep their handles (their slots); tasks with ids take slots in order
  if (s.handles === true) ledger.mode = HANDLES;
  else if (s.queues.some((q) => q.running.length + q.waiting.length > 0)) ledger.mode = IDS;
  if (s.policyState !== undefined) {
    if (typeof b.fresh().importState !== "function") throw new InputError("snapshot.policyState", `policy '${b.policyName}' has no state to restore`);
    b.carried = s.policyState;
  }
  if (s.rng !== undefined) b.rng = Rng.fromState(s.rng);
  for (const t of s.wakeups ?? []) core.timers.add({ time: t, queue: null, burst: -1 });
  for (const qs of s.queues) {
    const q = new LiveQueue(core.state.queues.length, qs.spec, qs.since, slots);
    q.accumulated = qs.accumulated;
    core.state.push(q);
    core.byName.set(qs.name, q);
    core.setSpec(q, qs.spec);
    if (qs.openBurst) {
      const deadline = qs.openBurst.deadline ?? Infinity;
      q.openBurst = { ...qs.openBurst, deadline };
      // a snapshot without burstEnds (before they were kept): the open burst's own end
      if (Number.isFinite(deadline) && s.burstEnds === undefined) core.timers.add({ time: deadline, queue: q, burst: qs.openBurst.index });
    }
    const add = (r: SnapshotTask, running: boolean, started: number) => {
      const job = r.job ?? r.id;
      const tracked = b.events || r.job !== undefined;
      const arrival = r.arrival ?? r.submitted;
      let x: number;
      if (s.handles === true) slots.allocAt((x = Number(r.id)));
      else {
        x = slots.alloc();
        slots.id[x] = r.id;
        ledger.tasks.set(r.id, x);
      }
      if (tracked) {
        const j = q.jobs.get(job);
        if (j) j.left++;
        else q.jobs.set(job, { left: 1, arrival });
      }
      const demand = Float64Array.from(r.demand);
      slots.queue[x] = q;
      slots.demand[x] = demand;
      slots.job[x] = r.job;
      slots.submitted[x] = r.submitted;
      slots.arrival[x] = arrival;
      slots.burst[x] = r.burst ?? -1;
      slots.estimate[x] = r.estimate ?? NaN;
      if (running) {
        slots.state[x] = RUNNING;
        slots.started[x] = started;
        slots.startSeq[x] = ledger.starts++;
        q.runningCount++;
        ledger.addUsage(q, demand, 1);
      } else {
        slots.state[x] = WAITING;
        slots.started[x] = NaN;
        q.push(x);
        ledger.addPending(q, demand, 1);
      }
    };
    for (const r of qs.running) add(r, true, r.started);
    for (const w of qs.waiting) add(w, false, NaN);
  }
  for (const e of s.burstEnds ?? []) core.timers.add({ time: e.time, queue: core.byName.get(e.queue)!, burst: e.burst });
  b.stale = true;
  b.bind();
  if (s.reservedFor !== undefined) core.dispatcher.reservedQueue = core.byName.get(s.reservedFor)!.index;
}
