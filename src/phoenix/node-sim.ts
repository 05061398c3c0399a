// The node-level discrete-event simulator of SPEC §7 (separate from the queue-level one in
// src/sim): one execution slot and one queue per worker, late binding, probes, a central
// scheduler for long jobs, heartbeats, and queue reordering through engine.crvReorder —
// one kernel call per reordering round over every queue that changed, never one per queue.
//
// Time line of a short job (probe ratio 2, network round trip 0.5 ms): it arrives at t,
// sends 2n probes that reach their workers at t + 0.25 ms; when a probe reaches the head of
// an idle worker the worker asks the job's scheduler for a task and gets one (or a cancel,
// when all n tasks are already bound) 0.5 ms later; the task then runs its trace duration.
// Its response time is the end of its last task minus t.
//
// Events at one instant run in (time, sequence) order; the reordering round ("flush") of an
// instant is scheduled behind every event already queued for it, so all probes that land
// together are ordered together before an idle worker picks its next entry.
import type { Engine } from "../engine/engine.js";
import { InputError, describeValue } from "../engine/errors.js";
import { Rng } from "../sim/random.js";
import { ConstraintIndex, satisfiesAll, validateConstraint, type Constraint, type Machines } from "./constraints.js";
import { EventQueue } from "./event-queue.js";
import { generateMachines } from "./machines.js";
import { CrvTable, WorkerHistory } from "./monitor.js";
import { tableIIThreshold } from "./crv-threshold.js";
import { getNodePolicy, type NodePolicy } from "./policies.js";
import { movedAhead } from "./moved-ahead.js";
import type { PhoenixJob } from "./workload.js";

export interface NodeSimOptions {
  engine: Engine;
  policy: string | NodePolicy;
  workers: number;
  seed: number;
  /** Long-job cutoff on the mean task duration, seconds (eagle-trace.ts EAGLE_CUTOFFS). */
  cutoff: number;
  /** Worker attributes; default: generated from the seed (machines.ts). */
  machines?: Machines;
  /** Probes per task. Default 2. */
  probeRatio?: number;
  /**
   * Minimum probes per short job, whatever its task count. Default 0 (none: SPEC §7 says probe
   * ratio 2). Eagle's simulator uses max(probeRatio x tasks, 20) (its MIN_NR_PROBES); kept as an
   * option to measure that difference.
   */
  minProbes?: number;
  /** Round trip of a probe's task request, seconds. Default 0.0005. */
  networkDelay?: number;
  /** Heartbeat of the CRV monitor, seconds. Default 9. */
  heartbeat?: number;
  /** Times a task may be bypassed. Default 5. */
  slackThreshold?: number;
  /**
   * CRV_threshold of every constraint when tableIIThresholds is off, and of constraints without
   * a Table II row (memory) when it is on. Default 1 (more waiting tasks than workers).
   */
  crvThreshold?: number;
  /**
   * Per-constraint CRV_threshold = the constraint's Table II relative slowdown (crv-threshold.ts;
   * §IV-B: "The CRV_threshold for each constraint is determined based on the task execution
   * statistics given in the Table II"). Default true; false = crvThreshold for all (ablation).
   */
  tableIIThresholds?: boolean;
  /** Fixed E[W] limit in seconds, used only when qwaitLoad is 0. Default 90 (one Yahoo cutoff). */
  qwaitThreshold?: number;
  /**
   * Qwait_threshold as a load (§IV-B: "We conservatively set the Qwait_threshold which
   * translates to peak utilization"; peak = the rho 0.9 of §IV-A, below which SRPT is best): a
   * worker is congested when its E[W] exceeds the E[W] it would have at load qwaitLoad with its
   * own service moments (monitor.ts waitAtLoad), i.e. when its measured load exceeds qwaitLoad.
   * A fixed limit in seconds flags every worker that recently ran a long task (its E[S^2] /
   * 2E[S] alone is minutes): with 90 s, 78-83% of workers were in CRV mode at Yahoo 90% load,
   * 5-15% with load 0.9. Default 0.9; 0 = the fixed qwaitThreshold (ablation).
   */
  qwaitLoad?: number;
  /** Fraction of workers reserved for short tasks (when the policy partitions). Default 0.02. */
  shortOnlyFraction?: number;
  /** Victims an idle worker contacts per stealing attempt (Hawk). Default 10. */
  stealAttempts?: number;
  /** Tasks per worker in the E[W] history. Default 16. */
  historyLength?: number;
  /**
   * Width in seconds of the windows of the busy profile (result.busyProfile); 0 = no profile.
   * Default 0. Example: 1000 -> busyProfile[k] = busy fraction of the workers over
   * [first arrival + 1000k, first arrival + 1000(k+1)).
   */
  busyWindow?: number;
}

export interface JobOutcome {
  arrival: number;
  /** End of the last task, or NaN when rejected. */
  end: number;
  response: number;
  long: boolean;
  constrained: boolean;
  /** Set when the job could not run, e.g. no worker satisfies its hard constraints. */
  rejected?: string;
  relaxedSoft: number;
}

export interface NodeSimResult {
  policy: string;
  workers: number;
  jobs: JobOutcome[];
  /** Tasks moved ahead of a task that was ahead of them, over all reordering rounds. */
  reorderedTasks: number;
  /** Of those, in queues reordered in CRV mode (the paper's Table III "Reordered tasks"). */
  crvReorderedTasks: number;
  reorderRounds: number;
  /** Worker-queue reorderings in CRV mode (queue x round). */
  crvQueueRounds: number;
  /** Monitor rounds (heartbeats) in which some constraint's CRV exceeded its threshold. */
  hotHeartbeats: number;
  /** Sum over monitor rounds of the workers in CRV mode (E[W] above Qwait_threshold while hot). */
  crvWorkerBeats: number;
  stolenProbes: number;
  cancelledProbes: number;
  /** Short probes that reached a worker holding long work (queued or running), as Eagle's STATS_SH_QUEUED_BEHIND_BIG. */
  probesBehindLong: number;
  /** Short probes rejected by a worker holding long work and re-sent (succinct state sharing). */
  resentProbes: number;
  /** Busy task-seconds / (workers x (last end - first arrival)). */
  utilization: number;
  /**
   * Busy task-seconds inside [first arrival, last arrival] / (workers x that span): the load the
   * cluster carried while jobs kept arriving, without the drain after the last arrival (one long
   * straggler stretches the makespan and drags `utilization` down). Example: 10 workers, jobs
   * arriving over 0..100 s, 600 busy task-seconds inside that window -> 0.6.
   */
  arrivalUtilization: number;
  makespan: number;
  events: number;
  /**
   * Busy fraction of the workers per window of busyWindow seconds from the first arrival to the
   * last task end (empty when busyWindow is 0; the last window is partial and divided by its
   * full width). Example: 10 workers, window 100 s, tasks busy 600 worker-seconds in [0, 100)
   * -> busyProfile[0] = 0.6.
   */
  busyProfile: Float64Array;
}

const ARRIVE = 0, PROBE = 1, GRANT = 2, END = 3, FREE = 4, HEARTBEAT = 5, FLUSH = 6;
const IDLE = 0, REQUESTING = 1, RUNNING = 2;

interface Job {
  spec: PhoenixJob;
  n: number;
  long: boolean;
  next: number;
  done: number;
  end: number;
  ids: number[];
  active: Constraint[];
  rejected?: string;
  relaxed: number;
}

interface Entry {
  job: Job;
  /** Bound task for a long task placed centrally; -1 for a probe. */
  task: number;
  slack: number;
  enq: number;
  /** When the probe first reached this worker (a sticky probe keeps it; enq restarts). */
  arrived: number;
}

export function simulateNodes(jobsIn: readonly PhoenixJob[], opts: NodeSimOptions): NodeSimResult {
  const o = checkOptions(opts);
  const policy = typeof opts.policy === "string" ? getNodePolicy(opts.policy) : opts.policy;
  const W = o.workers;
  const rng = new Rng(o.seed);
  const placeRng = rng.fork();
  const stealRng = rng.fork();
  const machines = opts.machines ?? generateMachines(W, rng.fork());
  if (machines.count !== W) throw new InputError("machines", `describes ${machines.count} workers, expected workers=${W}`);
  const index = new ConstraintIndex(machines);
  const crv = new CrvTable(index.supply, o.tableIIThresholds ? (c) => tableIIThreshold(index.list[c], o.crvThreshold) : () => o.crvThreshold);
  const history = new WorkerHistory(W, o.historyLength);
  const shortOnly = policy.partition ? Math.floor(W * o.shortOnlyFraction) : 0;

  if (!Array.isArray(jobsIn)) throw new InputError("jobs", `expected an array of jobs, got ${describeValue(jobsIn)}`);
  const jobs: Job[] = jobsIn.map((spec, i) => {
    checkJob(spec, i);
    return { spec, n: spec.durations.length, long: spec.estimate > o.cutoff, next: 0, done: 0, end: NaN, ids: [], active: [], relaxed: 0 };
  });

  // worker state
  const queues: Entry[][] = Array.from({ length: W }, () => []);
  const state = new Uint8Array(W);
  const current: (Entry | null)[] = new Array(W).fill(null);
  const currentTask = new Int32Array(W).fill(-1);
  const taskStart = new Float64Array(W);
  const longLoad = new Int32Array(W); // long entries queued or running
  const longFreeEst = new Float64Array(W); // central scheduler's view of each worker's long backlog
  const flagged = new Uint8Array(W); // CRV mode (Phoenix), set at heartbeats
  const waitEst = new Float64Array(W); // E[W] per worker at the last heartbeat (Phoenix)
  const dirty = new Uint8Array(W);
  const dirtyList: number[] = [];

  const ev = new EventQueue();
  let now = -Infinity;
  let flushPending = false;
  let active = 0;
  let busy = 0;
  let busyInArrivals = 0;
  const firstArr = jobs.reduce((m, j) => Math.min(m, j.spec.arrival), Infinity);
  const lastArr = jobs.reduce((m, j) => Math.max(m, j.spec.arrival), -Infinity);
  const stats = { reorderedTasks: 0, crvReorderedTasks: 0, reorderRounds: 0, crvQueueRounds: 0, hotHeartbeats: 0, crvWorkerBeats: 0, stolenProbes: 0, cancelledProbes: 0, probesBehindLong: 0, resentProbes: 0, events: 0 };
  const rtt = o.networkDelay;
  // busy worker-seconds per window (busyWindow option); grown as tasks end
  const profile: number[] = [];
  const addBusy = (from: number, to: number): void => {
    const bw = o.busyWindow;
    // one number per window: a window tiny against the span would allocate without bound
    if (!((to - firstArr) / bw <= MAX_WINDOWS)) throw new InputError("busyWindow", `${bw} s gives more than ${MAX_WINDOWS} windows up to t = ${to} s; use a wider window`);
    for (let k = Math.floor((from - firstArr) / bw); firstArr + k * bw < to; k++) {
      const lo = Math.max(from, firstArr + k * bw), hi = Math.min(to, firstArr + (k + 1) * bw);
      while (profile.length <= k) profile.push(0);
      profile[k] += hi - lo;
    }
  };

  for (let i = 0; i < jobs.length; i++) ev.push(jobs[i].spec.arrival, ARRIVE, i);
  // monitor ticks allowed: far beyond any trace's (Yahoo at 90% load: ~5,000)
  const maxBeats = Math.max(2 ** 22, 1000 * jobs.length);
  let beats = 0;
  // (firstArr, not Math.min(...arrivals): spreading ~125k arguments overflows the call stack)
  if (jobs.length > 0) ev.push(firstArr, HEARTBEAT);
  let hot = false; // some constraint's CRV above the threshold (last heartbeat)
  let activeShort = 0; // short jobs arrived and not finished
  let monitorIdle = false;

  const markDirty = (w: number): void => {
    if (!dirty[w]) {
      dirty[w] = 1;
      dirtyList.push(w);
    }
    if (!flushPending) {
      flushPending = true;
      ev.push(now, FLUSH);
    }
  };

  const enqueue = (w: number, e: Entry): void => {
    e.enq = now;
    e.arrived = now;
    if (e.task < 0 && !e.job.long && longLoad[w] > 0) stats.probesBehindLong++;
    queues[w].push(e);
    markDirty(w);
  };

  const launched = (j: Job): void => {
    for (const c of j.ids) crv.add(c, -1);
  };

  const startTask = (w: number, e: Entry, task: number, at: number): void => {
    state[w] = RUNNING;
    current[w] = e;
    currentTask[w] = task;
    taskStart[w] = at;
    ev.push(at + e.job.spec.durations[task], END, w);
  };

  /** The worker takes its head entry (or its sticky probe's next task). */
  const serve = (w: number, e: Entry): void => {
    const j = e.job;
    if (e.task >= 0) {
      startTask(w, e, e.task, now);
      return;
    }
    // late binding: ask the job's scheduler; the answer arrives one round trip later
    state[w] = REQUESTING;
    current[w] = e;
    if (j.next < j.n) {
      const task = j.next++;
      launched(j);
      currentTask[w] = task;
      ev.push(now + rtt, GRANT, w, task);
    } else {
      stats.cancelledProbes++;
      currentTask[w] = -1;
      ev.push(now + rtt, FREE, w);
    }
  };

  const dispatch = (w: number): void => {
    if (state[w] !== IDLE) return;
    const q = queues[w];
    if (q.length === 0 && policy.stealing && w < shortOnlyOrAll()) steal(w);
    if (q.length === 0) return;
    const e = q.shift()!;
    serve(w, e);
  };
  // Hawk steals on workers of the short-only partition (they never hold long tasks); without a
  // partition every worker may steal.
  const shortOnlyOrAll = (): number => (shortOnly > 0 ? shortOnly : W);

  const steal = (thief: number): void => {
    for (let k = 0; k < o.stealAttempts; k++) {
      const v = stealRng.int(0, W - 1);
      if (v === thief) continue;
      const q = queues[v];
      if (q.length === 0) continue;
      // Hawk steals the short probes queued behind a long task (running or queued)
      let from = state[v] !== IDLE && current[v]?.job.long ? 0 : q.findIndex((x) => x.job.long);
      if (from < 0) continue;
      const keep: Entry[] = [];
      const take: Entry[] = [];
      for (let i = 0; i < q.length; i++) {
        const x = q[i];
        if (i >= from && !x.job.long && x.job.next < x.job.n && satisfiesAll(machines, thief, x.job.active)) take.push(x);
        else keep.push(x);
      }
      if (take.length === 0) continue;
      queues[v] = keep;
      for (const x of take) queues[thief].push(x);
      stats.stolenProbes += take.length;
      return;
    }
  };

  const eligibleFor = (j: Job, i: number): Int32Array | null => {
    const spec = j.spec;
    let cs = spec.constraints;
    if (policy.relaxCongestedSoft && cs.some((c) => !c.hard)) {
      const kept = cs.filter((c) => c.hard || !crv.congested(index.id(c)));
      j.relaxed += cs.length - kept.length;
      cs = kept;
    }
    let e = index.eligible(cs);
    if (e.length === 0 && cs.some((c) => !c.hard)) {
      // soft constraints are relaxed when no worker satisfies them
      const hard = cs.filter((c) => c.hard);
      j.relaxed += cs.length - hard.length;
      cs = hard;
      e = index.eligible(cs);
    }
    if (e.length === 0) {
      j.rejected = "no worker satisfies its hard constraints";
      return null;
    }
    j.active = cs;
    j.ids = cs.map((c) => index.id(c));
    void i;
    return e;
  };

  const placeCentral = (j: Job, eligible: Int32Array): void => {
    let cand = Array.from(eligible).filter((w) => w >= shortOnly);
    if (cand.length === 0) cand = Array.from(eligible);
    // min-heap of candidate workers by estimated free time of their long backlog, ties by id:
    // a strict total order, so the root is always the unique minimum and the workers chosen do
    // not depend on the heap's layout (built in O(n), not sorted)
    const key = (w: number) => Math.max(now, longFreeEst[w]);
    const h = cand;
    const less = (a: number, b: number) => key(a) < key(b) || (key(a) === key(b) && a < b);
    const siftDown = (i: number, w: number): void => {
      for (;;) {
        let c = 2 * i + 1;
        if (c >= h.length) break;
        if (c + 1 < h.length && less(h[c + 1], h[c])) c++;
        if (!less(h[c], w)) break;
        h[i] = h[c];
        i = c;
      }
      h[i] = w;
    };
    for (let i = (h.length >> 1) - 1; i >= 0; i--) siftDown(i, h[i]);
    for (let t = 0; t < j.n; t++) {
      const w = h[0];
      longFreeEst[w] = key(w) + j.spec.estimate;
      siftDown(0, w);
      longLoad[w]++;
      ev.push(now + rtt / 2, PROBE, w, entryId(j, t));
    }
  };

  // probes and centrally placed tasks in flight, addressed by id
  const inFlight = new Map<number, Entry>();
  let nextEntry = 0;
  const entryId = (j: Job, task: number): number => {
    const id = nextEntry++;
    inFlight.set(id, { job: j, task, slack: 0, enq: 0, arrived: 0 });
    return id;
  };

  const marker = new Int32Array(W);
  let mark = 0;
  const placeProbes = (j: Job, eligible: Int32Array): void => {
    const count = Math.max(o.probeRatio * (j.n - j.next), o.minProbes);
    if (policy.succinctState) {
      placeProbesSss(j, eligible, count);
      return;
    }
    const targets = sample(eligible, count);
    // fewer eligible workers than probes: the remaining probes go round the set again
    for (let k = 0; targets.length < count; k++) targets.push(targets[k]);
    for (const w of targets) ev.push(now + rtt / 2, PROBE, w, entryId(j, -1));
  };

  /**
   * Eagle's succinct state sharing (SSS), as its simulator models it (`send_probes_eagle`,
   * `try_round_of_probing`): a short probe that reaches a worker running or holding long work
   * is rejected, and the reply carries the worker's copy of the long-job bit vector, so the
   * scheduler re-sends the probe, one round trip later, to a worker that bit vector shows
   * long-free. Phoenix places probes the same way (§IV-A: "similar to Eagle's Succinct State
   * Sharing"). The bit vector here is the central scheduler's current one (longLoad), which is
   * what a rejection returns; there is no heartbeat staleness in Eagle's SSS. Only when no
   * eligible worker is long-free (a constrained job whose workers all hold long work) do
   * probes stay queued behind long work: the job has nowhere else to run.
   *
   * Example: 2 tasks -> 4 probes to {A, B, C, D}; B runs a long task -> A, C, D queue the probe
   * at t + rtt/2, B rejects it and it is re-sent to a long-free eligible worker E (not already
   * probed when possible), arriving at t + 1.5 rtt.
   */
  const placeProbesSss = (j: Job, eligible: Int32Array, count: number): void => {
    const free: number[] = [];
    for (const w of eligible) if (longLoad[w] === 0) free.push(w);
    if (policy.waitAwareProbes && hot && free.length > 0) {
      // ablation: the long-free workers with the lowest E[W] (sampleByWait)
      const t = sampleByWait(free, count);
      for (let k = 0; t.length < count; k++) t.push(t[k]);
      for (const w of t) ev.push(now + rtt / 2, PROBE, w, entryId(j, -1));
      return;
    }
    const first = sample(eligible, count);
    const rejected: number[] = [];
    mark++;
    for (const w of first) {
      if (longLoad[w] === 0) {
        marker[w] = mark;
        ev.push(now + rtt / 2, PROBE, w, entryId(j, -1));
      } else rejected.push(w);
    }
    let need = count - (first.length - rejected.length);
    if (need === 0) return;
    if (free.length === 0) {
      // every eligible worker holds long work (so none accepted: rejected = first): the
      // probes have nowhere else to go and queue behind it, going round the set again
      for (let k = 0; rejected.length < count; k++) rejected.push(rejected[k]);
      for (const w of rejected) ev.push(now + rtt / 2, PROBE, w, entryId(j, -1));
      return;
    }
    // re-sent (rejected ones, and the surplus when fewer eligible workers than probes):
    // long-free workers not probed yet first, then round the long-free set again
    stats.resentProbes += rejected.length;
    const fresh = free.filter((w) => marker[w] !== mark);
    const again = sample(fresh, need);
    need -= again.length;
    if (need > 0) {
      const more = sample(free, Math.min(need, free.length));
      for (let k = 0; more.length < need; k++) more.push(more[k]);
      for (const w of more) again.push(w);
    }
    for (const w of again) ev.push(now + rtt / 2 + rtt, PROBE, w, entryId(j, -1));
  };

  /**
   * Phoenix under congestion: within the long-free eligible workers (as Eagle), a uniform
   * sample of up to 2k, of which the k with the lowest E[W] win; only when that set is
   * exhausted do probes go to workers holding long work. Example: k = 2, long-free sample
   * {A: E[W] 3 s, B: 400 s, C: 0 s, D: 40 s} -> C and A.
   */
  const sampleByWait = (preferred: ArrayLike<number>, k: number): number[] => {
    const cand = sample(preferred, Math.min(preferred.length, 2 * k));
    const order = cand.map((_, i) => i).sort((x, y) => waitEst[cand[x]] - waitEst[cand[y]] || x - y);
    return order.slice(0, k).map((i) => cand[i]);
  };

  /** Up to k distinct members of xs, uniformly. */
  const sample = (xs: ArrayLike<number>, k: number): number[] => {
    const m = xs.length;
    if (m === 0) return [];
    if (k >= m) return placeRng.shuffle(Array.from(xs));
    const out: number[] = [];
    mark++;
    if (k * 3 < m) {
      while (out.length < k) {
        const w = xs[placeRng.int(0, m - 1)];
        if (marker[w] !== mark) {
          marker[w] = mark;
          out.push(w);
        }
      }
      return out;
    }
    const copy = Array.from(xs);
    for (let i = 0; i < k; i++) {
      const r = i + placeRng.int(0, m - 1 - i);
      const t = copy[i]; copy[i] = copy[r]; copy[r] = t;
      out.push(copy[i]);
    }
    return out;
  };

  const arrive = (j: Job, i: number): void => {
    const eligible = eligibleFor(j, i);
    if (!eligible) return;
    active++;
    for (const c of j.ids) crv.add(c, j.n);
    if (!j.long) {
      activeShort++;
      if (monitorIdle) monitorRound();
    }
    if (j.long && policy.longJobs === "central") placeCentral(j, eligible);
    else placeProbes(j, eligible);
  };

  /**
   * CRV score a probe competes with in a CRV-mode queue. Only constraints that are congested
   * (CRV above CRV_threshold) trigger CRV-based reordering (Algorithm 1; §IV-B "When this ratio
   * goes beyond a set CRV_threshold ..."), so a probe whose constraints are all below the
   * threshold scores 0 and stays in SRPT order with the unconstrained ones.
   */
  const promoteScore = (j: Job): number => (policy.congestedOnly ? crv.congestedScore(j.ids) : crv.score(j.ids));
  const srptKey = (e: Entry): number => e.job.spec.estimate * Math.max(1, e.job.n - e.job.next);
  // newestProbeFirst ablation (policies.ts): short probes keyed by arrival, newest first; long
  // entries keep their SRPT key shifted behind every short probe. lifoBase exceeds every
  // probe arrival time (the last job arrival plus a day), so keys stay >= 0.
  const lifoBase = jobs.reduce((m, j) => Math.max(m, j.spec.arrival), 0) + 86400;
  const queueKey = policy.newestProbeFirst
    ? (e: Entry): number => (e.task < 0 && !e.job.long ? lifoBase - e.arrived : lifoBase + srptKey(e))
    : srptKey;
  const modeOf = (w: number): 0 | 1 | 2 => (policy.crvReordering && flagged[w] ? 2 : policy.baseMode);

  /** One kernel call reorders every listed queue. */
  const reorder = (ws: readonly number[]): void => {
    const sel = ws.filter((w) => queues[w].length >= 2 && modeOf(w) !== 0);
    if (sel.length === 0) return;
    let t = 0;
    for (const w of sel) t += queues[w].length;
    const offsets = new Uint32Array(sel.length + 1);
    const score = new Float64Array(t), runtime = new Float64Array(t), slack = new Int32Array(t);
    const mode = new Uint8Array(sel.length);
    const flat: Entry[] = new Array(t);
    let k = 0, anyCrv = false;
    sel.forEach((w, qi) => {
      offsets[qi] = k;
      mode[qi] = modeOf(w);
      if (mode[qi] === 2) { anyCrv = true; stats.crvQueueRounds++; }
      for (const e of queues[w]) {
        flat[k] = e;
        // long tasks were placed by the central scheduler: CRV promotes short probes only
        score[k] = e.task >= 0 ? 0 : promoteScore(e.job);
        runtime[k] = queueKey(e);
        slack[k] = e.slack;
        k++;
      }
    });
    offsets[sel.length] = t;
    const r = opts.engine.crvReorder({ queueOffsets: offsets, crv: score, runtime, slack, mode: mode as unknown as ArrayLike<0 | 1 | 2>, slackThreshold: o.slackThreshold });
    for (let i = 0; i < t; i++) flat[i].slack = r.slack[i];
    sel.forEach((w, qi) => {
      const q = queues[w];
      for (let p = offsets[qi]; p < offsets[qi + 1]; p++) q[p - offsets[qi]] = flat[r.order[p]];
    });
    stats.reorderRounds++;
    stats.reorderedTasks += r.reordered;
    if (anyCrv) {
      sel.forEach((_, qi) => {
        if (mode[qi] === 2) stats.crvReorderedTasks += movedAhead(r.order, offsets[qi], offsets[qi + 1]);
      });
    }
  };

  const heartbeat = (): void => {
    if (policy.crvReordering) monitorRound();
  };

  /** The CRV monitor's round (Algorithm 1): CRVs, E[W] per worker, CRV-mode flags. */
  const monitorRound = (): void => {
    // No short job in the system: no queue holds a probe to promote, so the CRV/E[W] round
    // is skipped (it is O(workers) and the Google runs have ~250k heartbeats, mostly after the
    // last short job). The first short arrival runs a round at once (monitorIdle).
    if (activeShort === 0) {
      monitorIdle = true;
      return;
    }
    monitorIdle = false;
    hot = crv.refresh();
    if (!hot) {
      // nothing congested: no queue is in CRV mode and placement ignores E[W]
      flagged.fill(0);
      return;
    }
    stats.hotHeartbeats++;
    const congested: number[] = [];
    for (let w = 0; w < W; w++) {
      waitEst[w] = history.expectedWait(w, now);
      const was = flagged[w];
      const limit = o.qwaitLoad > 0 ? history.waitAtLoad(w, o.qwaitLoad) : o.qwaitThreshold;
      flagged[w] = hot && waitEst[w] > limit ? 1 : 0;
      stats.crvWorkerBeats += flagged[w];
      // a queue that just entered CRV mode is re-sorted now if it holds a probe to promote;
      // afterwards every insertion re-sorts it (flush), so steady congested queues are not
      // re-sorted each heartbeat (that cost 5M queue sorts per Yahoo run for no change)
      if (flagged[w] && !was && queues[w].length >= 2 && queues[w].some((e) => e.task < 0 && promoteScore(e.job) > 0)) congested.push(w);
    }
    reorder(congested);
  };

  let firstArrival = Infinity;
  for (;;) {
    const e = ev.pop();
    if (!e) break;
    if (e.time < now) throw new Error(`phoenix simulator: time went backwards (${e.time} < ${now})`);
    now = e.time;
    stats.events++;
    switch (e.type) {
      case ARRIVE: {
        firstArrival = Math.min(firstArrival, now);
        arrive(jobs[e.a], e.a);
        break;
      }
      case PROBE: {
        const entry = inFlight.get(e.b)!;
        inFlight.delete(e.b);
        enqueue(e.a, entry);
        break;
      }
      case GRANT: {
        const w = e.a;
        startTask(w, current[w]!, e.b, now);
        break;
      }
      case FREE: {
        const w = e.a;
        state[w] = IDLE;
        current[w] = null;
        dispatch(w);
        break;
      }
      case END: {
        const w = e.a;
        const entry = current[w]!;
        const j = entry.job;
        const dur = now - taskStart[w];
        busy += dur;
        busyInArrivals += Math.max(0, Math.min(now, lastArr) - Math.max(taskStart[w], firstArr));
        if (o.busyWindow > 0) addBusy(taskStart[w], now);
        history.record(w, entry.enq, dur);
        if (entry.task >= 0) longLoad[w]--;
        j.done++;
        if (j.done === j.n) {
          j.end = now;
          active--;
          if (!j.long) activeShort--;
        }
        state[w] = IDLE;
        current[w] = null;
        // Sticky batch probing: the probe is not consumed by its task; it stays at the head of
        // the worker's queue and, at this task end, competes again under the queue's discipline
        // (Eagle's simulator keeps a successful short probe in `queued_probes` and re-runs its
        // SRPT selection at every free slot). Under SRPT its job's remaining work has just
        // shrunk, so it usually wins again; under CRV mode (Phoenix, Algorithm 1) a probe of a
        // more congested constraint can take the worker between two tasks of the sticky job.
        // Example: worker runs job A (4 tasks left x 10 s, CRV 0.3); a probe of job B (6 tasks
        // left x 10 s, CRV 2.5) waits. SRPT: A's key 40 s vs B's 60 s -> A again. CRV mode: B is
        // promoted -> B runs, A's probe stays queued behind it (slack + 1).
        const sticky = policy.stickyProbes && entry.task < 0 && j.next < j.n && !(policy.suspendStickyWhenCongested && flagged[w]);
        if (sticky) {
          entry.enq = now;
          queues[w].unshift(entry);
          if (queues[w].length >= 2 && modeOf(w) !== 0) markDirty(w); // reorder, then dispatch at the flush
          else dispatch(w);
        } else dispatch(w);
        break;
      }
      case HEARTBEAT: {
        heartbeat();
        if (active > 0 || ev.size > 0) {
          // the monitor ticks while anything is active: a heartbeat below the time resolution
          // (now + heartbeat == now) never advances, and one tiny against the run's span
          // (or a task lasting 1e300 s) means billions of ticks: refused by name, not a hang
          const next = now + o.heartbeat;
          if (!(next > now)) throw new InputError("heartbeat", `${o.heartbeat} s is below the time resolution at t = ${now} s (t + heartbeat == t)`);
          if (++beats > maxBeats) throw new InputError("heartbeat", `the run needs more than ${maxBeats} heartbeats (span / heartbeat at t = ${now} s): the heartbeat or a task duration is out of scale`);
          ev.push(next, HEARTBEAT);
        }
        break;
      }
      case FLUSH: {
        flushPending = false;
        const ws = dirtyList.splice(0);
        for (const w of ws) dirty[w] = 0;
        reorder(ws);
        for (const w of ws) dispatch(w);
        break;
      }
    }
  }

  const outcomes: JobOutcome[] = jobs.map((j) => ({
    arrival: j.spec.arrival,
    end: j.end,
    response: j.end - j.spec.arrival,
    long: j.long,
    constrained: j.spec.constraints.length > 0,
    ...(j.rejected ? { rejected: j.rejected } : {}),
    relaxedSoft: j.relaxed,
  }));
  for (const [i, j] of jobs.entries()) {
    if (!j.rejected && j.done !== j.n) throw new Error(`phoenix simulator: job ${i} ended with ${j.done}/${j.n} tasks done`);
  }
  // a loop, not Math.max(...ends): spreading ~125k arguments overflows the call stack
  let lastEnd = -Infinity;
  for (const x of outcomes) if (x.end > lastEnd) lastEnd = x.end;
  const makespan = lastEnd - firstArrival;
  return {
    policy: policy.name, workers: W, jobs: outcomes,
    reorderedTasks: stats.reorderedTasks, crvReorderedTasks: stats.crvReorderedTasks,
    reorderRounds: stats.reorderRounds, crvQueueRounds: stats.crvQueueRounds,
    hotHeartbeats: stats.hotHeartbeats, crvWorkerBeats: stats.crvWorkerBeats,
    stolenProbes: stats.stolenProbes, cancelledProbes: stats.cancelledProbes,
    probesBehindLong: stats.probesBehindLong, resentProbes: stats.resentProbes,
    utilization: makespan > 0 ? busy / (W * makespan) : 0,
    arrivalUtilization: lastArr > firstArr ? busyInArrivals / (W * (lastArr - firstArr)) : 0, makespan, events: stats.events,
    busyProfile: Float64Array.from(profile, (b) => b / (W * o.busyWindow)),
  };
}

type Resolved = Required<Omit<NodeSimOptions, "engine" | "policy" | "machines">>;

/**
 * One job's fields, named on failure: a NaN or negative duration would schedule its end
 * at NaN or in the past (the event queue's order breaks), a NaN estimate makes the job
 * neither long nor short, and a malformed constraint would throw a TypeError deep in the
 * constraint index.
 */
function checkJob(spec: unknown, i: number): void {
  if (spec === null || typeof spec !== "object") throw new InputError(`jobs[${i}]`, `expected {arrival, durations, estimate, constraints}, got ${describeValue(spec)}`);
  const j = spec as PhoenixJob;
  if (!(j.durations instanceof Float64Array) || j.durations.length === 0) throw new InputError(`jobs[${i}].durations`, "must be a non-empty Float64Array");
  for (let t = 0; t < j.durations.length; t++) {
    const d = j.durations[t];
    if (!(d >= 0) || !Number.isFinite(d)) throw new InputError(`jobs[${i}].durations[${t}]`, `must be a finite number >= 0 (got ${describeValue(d)})`);
  }
  if (typeof j.arrival !== "number" || !Number.isFinite(j.arrival) || !(j.arrival >= 0)) throw new InputError(`jobs[${i}].arrival`, `must be a finite number >= 0 (got ${describeValue(j.arrival)})`);
  if (typeof j.estimate !== "number" || !(j.estimate >= 0) || !Number.isFinite(j.estimate)) throw new InputError(`jobs[${i}].estimate`, `must be a finite number >= 0 (got ${describeValue(j.estimate)})`);
  if (!Array.isArray(j.constraints)) throw new InputError(`jobs[${i}].constraints`, `expected an array of constraints, got ${describeValue(j.constraints)}`);
  j.constraints.forEach((c, x) => validateConstraint(`jobs[${i}].constraints[${x}]`, c));
}

/** Windows of the busy profile at most (busyWindow against the run's span). */
const MAX_WINDOWS = 2 ** 24;

/** Workers beyond this would allocate gigabytes of per-worker state (the papers' clusters have ~10^4). */
const MAX_WORKERS = 2 ** 24;

function checkOptions(opts: NodeSimOptions): Resolved {
  if (opts === null || typeof opts !== "object") throw new InputError("options", `expected an object, got ${describeValue(opts)}`);
  const r: Resolved = {
    workers: opts.workers, seed: opts.seed, cutoff: opts.cutoff,
    probeRatio: opts.probeRatio ?? 2, minProbes: opts.minProbes ?? 0, networkDelay: opts.networkDelay ?? 0.0005, heartbeat: opts.heartbeat ?? 9,
    slackThreshold: opts.slackThreshold ?? 5, crvThreshold: opts.crvThreshold ?? 1, tableIIThresholds: opts.tableIIThresholds ?? true, qwaitThreshold: opts.qwaitThreshold ?? 90, qwaitLoad: opts.qwaitLoad ?? 0.9,
    shortOnlyFraction: opts.shortOnlyFraction ?? 0.02, stealAttempts: opts.stealAttempts ?? 10, historyLength: opts.historyLength ?? 16,
    busyWindow: opts.busyWindow ?? 0,
  };
  const int = (f: keyof Resolved, min: number) => {
    const v = r[f];
    if (typeof v !== "number" || !Number.isInteger(v) || v < min) throw new InputError(f, `must be a whole number >= ${min} (got ${describeValue(v)})`);
  };
  const pos = (f: keyof Resolved, allowZero: boolean) => {
    const v = r[f];
    if (typeof v !== "number" || !Number.isFinite(v) || v < 0 || (!allowZero && v === 0)) throw new InputError(f, `must be a finite number ${allowZero ? ">=" : ">"} 0 (got ${describeValue(v)})`);
  };
  int("workers", 1); int("probeRatio", 1);
  if (r.workers > MAX_WORKERS) throw new InputError("workers", `must be at most 2^24 = ${MAX_WORKERS} (got ${r.workers})`); int("minProbes", 0); int("slackThreshold", 0); int("stealAttempts", 0); int("historyLength", 2);
  if (!Number.isFinite(r.seed)) throw new InputError("seed", `must be a finite number (got ${describeValue(r.seed)})`);
  pos("cutoff", true); pos("networkDelay", true); pos("heartbeat", false); pos("crvThreshold", true); pos("qwaitThreshold", true); pos("busyWindow", true);
  if (!(typeof r.qwaitLoad === "number" && r.qwaitLoad >= 0 && r.qwaitLoad < 1)) throw new InputError("qwaitLoad", `must be in [0, 1) (got ${describeValue(r.qwaitLoad)})`);
  if (typeof r.tableIIThresholds !== "boolean") throw new InputError("tableIIThresholds", `must be true or false (got ${describeValue(r.tableIIThresholds)})`);
  if (!(r.shortOnlyFraction >= 0 && r.shortOnlyFraction < 1)) throw new InputError("shortOnlyFraction", `must be in [0, 1) (got ${describeValue(r.shortOnlyFraction)})`);
  return r;
}
