// checkPolicy: stateful policies (the simulator's Policy interface) under generated
// workloads. The user's policy runs inside the simulator wrapped by an observer that sees
// every event and scheduling point and reconstructs the state right after each scheduling
// point (the first event after it changed one thing, which the observer undoes). From that:
// over-allocation, work conservation, each backlogged queue's time-averaged dominant share,
// and starvation. Failing workloads are shrunk by fast-check and reported as JSON.
import fc from "fast-check";
import { InputError } from "../errors.js";
import type { Engine } from "../engine/engine.js";
import { loadEngineSync } from "../engine/load.js";
import type { JobSpec, Workload } from "../policy/model.js";
import type { ClusterState as SimState, Policy, PolicyActions, PolicyContext, SimEvent } from "../policy/policy.js";
import { simulate, type SimResult } from "../sim/simulator.js";
import { describeThrown } from "./format.js";
import { fmt, fmtPair } from "./model.js";

export const POLICY_CHECK_IDS = ["no-over-allocation", "jobs-accounted", "work-conservation", "fair-share", "bounded-starvation", "determinism"] as const;
export type PolicyCheckId = (typeof POLICY_CHECK_IDS)[number];

export interface CheckPolicyOptions {
  /** Checks to run (default: all; work-conservation only with `workConserving`). */
  checks?: readonly PolicyCheckId[];
  /** The policy claims work conservation: no runnable task that fits is left waiting after a scheduling point (default false). */
  workConserving?: boolean;
  /** Workloads per check (default 50). */
  runs?: number;
  seed?: number;
  path?: string;
  /** Queues 1..maxQueues (default 4), resources 1..maxResources (default 3), jobs per queue 1..maxJobs (default 3), tasks per job 1..maxTasks (default 12). */
  maxQueues?: number;
  maxResources?: number;
  maxJobs?: number;
  maxTasks?: number;
  /**
   * bounded-starvation: the longest a queue with runnable tasks may hold no running task, in
   * units of the workload's longest task duration (default N + 1: each other queue may start
   * one task ahead of it as resources free up, and every running task has ended by then).
   */
  starvationTasks?: number;
  /** Relative tolerance (default 1e-9). */
  tolerance?: number;
  engine?: Engine;
}

export interface PolicyCheckReport {
  check: PolicyCheckId;
  passed: boolean;
  runs: number;
  message?: string;
  /** The shrunk workload (give it to `simulate` to see it run). */
  counterexample?: Workload;
  seed: number;
  path?: string;
}

export interface PolicyReport {
  passed: boolean;
  seed: number;
  checks: PolicyCheckReport[];
  failed: PolicyCheckId[];
}

/** One scheduling point, as the state was right after it (until the next event). */
interface Point {
  time: number;
  usage: Float64Array[];
  runnable: number[];
  /** Demand of the runnable tasks not started yet. */
  pending: Float64Array[];
  running: number[];
  next: Array<Float64Array | null>;
}

interface Observed {
  result?: SimResult;
  error?: string;
  points: Point[];
  overAllocated?: string;
}

/** Runs `workload` under a fresh policy wrapped by the observer. */
function observe(workload: Workload, make: () => Policy, engine: Engine): Observed {
  const inner = make();
  const points: Point[] = [];
  let open: { time: number } | null = null; // a scheduling point whose after-state is not captured yet
  const jobById = new Map(workload.jobs.map((j) => [j.id, j]));
  const stageDemand = (jobId: string, stage: number) => jobById.get(jobId)!.stages[stage].demand;
  const capture = (s: SimState, undo?: SimEvent) => {
    if (!open) return;
    const usage = s.queues.map((q) => Float64Array.from(q.usage));
    const runnable = s.queues.map((q) => q.runnableTasks);
    const pending = s.queues.map((q) => Float64Array.from(q.pending));
    const running = s.queues.map((q) => q.runningTasks);
    const next = s.queues.map((q) => (q.nextTask ? Float64Array.from(q.nextTask) : null));
    if (undo?.type === "taskEnd") {
      // the task that just ended was running right after the scheduling point
      const d = stageDemand(undo.job, undo.stage);
      d.forEach((v, r) => { usage[undo.queue][r] += v; });
      running[undo.queue]++;
    } else if (undo?.type === "arrival") {
      const job = jobById.get(undo.job)!;
      const added = job.stages.reduce((a, st) => a + ((st.parents ?? []).length === 0 ? st.tasks : 0), 0);
      runnable[undo.queue] -= added;
      for (const st of job.stages) if ((st.parents ?? []).length === 0) st.demand.forEach((v, r) => { pending[undo.queue][r] = Math.max(0, pending[undo.queue][r] - v * st.tasks); });
      if (runnable[undo.queue] === 0) next[undo.queue] = null;
    }
    points.push({ time: open.time, usage, runnable, pending, running, next });
    open = null;
  };
  let overAllocated: string | undefined;
  const atPoint = (s: SimState) => {
    if (open && open.time === s.time) return;
    capture(s);
    open = { time: s.time };
    for (let r = 0; r < s.capacity.length; r++) {
      if (s.used[r] > s.capacity[r] * (1 + 1e-9) + 1e-12 && !overAllocated) overAllocated = `at t = ${fmt(s.time)} resource ${r} is over-allocated: ${fmt(s.used[r])} of ${fmt(s.capacity[r])}`;
    }
  };
  const wrapped: Policy = {
    name: inner.name,
    init: (ctx: PolicyContext) => inner.init?.(ctx),
    admission: inner.admission ? (q: number) => inner.admission!(q) : undefined,
    onEvent: (ev: SimEvent, s: SimState, actions: PolicyActions) => {
      capture(s, ev);
      inner.onEvent?.(ev, s, actions);
    },
    report: inner.report ? () => inner.report!() : undefined,
  };
  if (inner.shares) wrapped.shares = (s, out) => { atPoint(s); inner.shares!(s, out); };
  if (inner.pickNext) wrapped.pickNext = (s) => { atPoint(s); return inner.pickNext!(s); };
  try {
    const result = simulate(workload, { policy: wrapped, engine, seed: workload.seed });
    return { result, points, overAllocated };
  } catch (e) {
    return { error: describeThrown(e), points, overAllocated };
  }
}

interface Knobs { maxQueues: number; maxResources: number; maxJobs: number; maxTasks: number }

/** Workloads: every queue has a job at t = 0 (all backlogged from the start), later jobs at random times. */
export function workloadArb(k: Knobs): fc.Arbitrary<Workload> {
  const frac = fc.oneof({ withCrossShrink: true }, fc.constant(0.25), fc.constant(0), fc.double({ min: 0.02, max: 0.5, noNaN: true }));
  const job = fc.record({
    arrival: fc.oneof({ withCrossShrink: true }, fc.constant(0), fc.double({ min: 0, max: 20, noNaN: true })),
    tasks: fc.integer({ min: 1, max: k.maxTasks }),
    demand: fc.array(frac, { minLength: k.maxResources, maxLength: k.maxResources }),
    duration: fc.oneof({ withCrossShrink: true }, fc.constant(1), fc.double({ min: 0.1, max: 5, noNaN: true })),
  });
  const queue = fc.record({ weight: fc.oneof({ withCrossShrink: true }, fc.constant(1), fc.integer({ min: 1, max: 4 })), jobs: fc.array(job, { minLength: 1, maxLength: k.maxJobs }) });
  return fc.record({
    k: fc.integer({ min: 1, max: k.maxResources }),
    capacity: fc.array(fc.oneof({ withCrossShrink: true }, fc.constant(8), fc.integer({ min: 2, max: 64 })), { minLength: k.maxResources, maxLength: k.maxResources }),
    queues: fc.array(queue, { minLength: 1, maxLength: k.maxQueues }),
  }).map(({ k: K, capacity, queues }) => {
    const cap = capacity.slice(0, K);
    const jobs: JobSpec[] = [];
    queues.forEach((q, i) => q.jobs.forEach((j, n) => {
      const share: number[] = j.demand.slice(0, K);
      if (!share.some((v) => v > 0)) share[0] = 0.25; // every task needs something
      jobs.push({
        id: `q${i}-j${n}`, queue: `q${i}`, arrival: n === 0 ? 0 : j.arrival,
        stages: [{ tasks: j.tasks, demand: share.map((v, r) => v * cap[r]), duration: j.duration }],
      });
    }));
    return {
      name: "testkit", resources: cap.map((_, r) => `r${r}`), capacity: cap,
      queues: queues.map((q, i) => ({ name: `q${i}`, kind: "TQ" as const, weight: q.weight })), jobs, params: {}, seed: 1,
    };
  });
}

type Check = (w: Workload, o: Observed, ctx: { make: () => Policy; engine: Engine; tol: number; starvationTasks?: number }) => string | null;

const taskDom = (w: Workload, job: JobSpec) => Math.max(...job.stages[0].demand.map((v, r) => v / w.capacity[r]));

const CHECKS: Record<PolicyCheckId, Check> = {
  "no-over-allocation": (_w, o) => o.overAllocated ?? (o.error && /over-allocated/.test(o.error) ? o.error : null),
  "jobs-accounted": (w, o) => {
    if (o.error) return `the run failed: ${o.error}`;
    const jobs = o.result!.jobs;
    if (jobs.length !== w.jobs.length) return `${w.jobs.length} jobs submitted, ${jobs.length} reported`;
    for (const j of jobs) {
      const out = j.outcome;
      if (out.status === "finished" ? !(out.finish >= j.arrival) : !(typeof out.reason === "string" && out.reason !== "")) return `job ${j.id} ends without a valid outcome: ${JSON.stringify(out)}`;
    }
    return null;
  },
  "work-conservation": (w, o) => {
    if (o.error) return null; // reported by jobs-accounted
    for (const p of o.points) {
      const free = w.capacity.map((c, r) => c - p.usage.reduce((a, u) => a + u[r], 0));
      for (let q = 0; q < p.next.length; q++) {
        const t = p.next[q];
        if (!t || p.runnable[q] === 0) continue;
        if (t.every((v, r) => v <= free[r] * (1 - 1e-9) - 1e-12 * w.capacity[r])) {
          return `at t = ${fmt(p.time)} queue ${q}'s next task [${Array.from(t, fmt).join(", ")}] fits in the free [${free.map(fmt).join(", ")}] but the policy started nothing more`;
        }
      }
    }
    return null;
  },
  "fair-share": (w, o, ctx) => {
    if (o.error) return null;
    // the window: from 0 until the first scheduling point after which some queue has nothing left to start
    const n = w.queues.length;
    let end = -1;
    for (const p of o.points) if (p.runnable.some((x) => x === 0)) { end = p.time; break; }
    if (end <= 0) return null;
    // its fair share at each moment: the sharing-incentive bound min(w_i / W, delta_i), delta_i
    // the dominant share of what it could use (usage + pending)
    const W = w.queues.reduce((a, q) => a + (q.weight ?? 1), 0);
    const dom = (x: ArrayLike<number>) => Math.max(...Array.from(x, (v, r) => v / w.capacity[r]));
    const held = new Array<number>(n).fill(0);
    const owed = new Array<number>(n).fill(0);
    o.points.forEach((p, j) => {
      if (p.time >= end) return;
      const dt = Math.min(end, o.points[j + 1]?.time ?? end) - p.time;
      for (let q = 0; q < n; q++) {
        held[q] += dom(p.usage[q]) * dt;
        owed[q] += Math.min((w.queues[q].weight ?? 1) / W, dom(p.usage[q].map((u, r) => u + p.pending[q][r]))) * dt;
      }
    });
    // one task of every queue: a queue can be held back by as much as every other queue's last task
    let slack = 0;
    for (let q = 0; q < n; q++) slack += Math.max(...w.jobs.filter((j) => j.queue === w.queues[q].name).map((j) => taskDom(w, j)));
    for (let q = 0; q < n; q++) {
      const avg = held[q] / end, fair = owed[q] / end;
      if (avg < fair - slack - ctx.tol) {
        const [a, f] = fmtPair(avg, fair - slack);
        return `queue ${q} held a time-averaged dominant share of ${a} over [0, ${fmt(end)}] while every queue was backlogged, below its weighted fair share ${fmt(fair)} minus one task per queue (${f})`;
      }
    }
    return null;
  },
  "bounded-starvation": (w, o, ctx) => {
    if (o.error) return null;
    const longest = Math.max(...w.jobs.map((j) => { const d = j.stages[0].duration; return typeof d === "number" ? d : Math.max(...d); }));
    const n = w.queues.length;
    const tasks = ctx.starvationTasks ?? n + 1;
    const bound = tasks * longest;
    const since = new Array<number>(n).fill(-1);
    for (const p of o.points) {
      for (let q = 0; q < n; q++) {
        const starving = p.runnable[q] > 0 && p.running[q] === 0;
        if (!starving) { since[q] = -1; continue; }
        if (since[q] < 0) since[q] = p.time;
        if (p.time - since[q] > bound * (1 + ctx.tol)) {
          return `queue ${q} had runnable tasks and none running from t = ${fmt(since[q])} to t = ${fmt(p.time)}, longer than ${fmt(tasks)} x the longest task (${fmt(bound)})`;
        }
      }
    }
    return null;
  },
  determinism: (w, o, ctx) => {
    const again = observe(w, ctx.make, ctx.engine);
    const a = JSON.stringify(o.result ? { jobs: o.result.jobs, metrics: o.result.metrics } : { error: o.error });
    const b = JSON.stringify(again.result ? { jobs: again.result.jobs, metrics: again.result.metrics } : { error: again.error });
    return a === b ? null : "the same workload run twice gave different results";
  },
};

/** Runs the checks against a stateful policy (`make` gives a fresh one per run; a Policy object is reused). */
export function checkPolicy(policy: Policy | (() => Policy), options: CheckPolicyOptions = {}): PolicyReport {
  const make = typeof policy === "function" ? policy : () => policy;
  const engine = options.engine ?? loadEngineSync();
  const runs = options.runs ?? 50;
  const seed = options.seed ?? (Math.random() * 2 ** 31) | 0;
  const checks = options.checks ?? POLICY_CHECK_IDS.filter((c) => c !== "work-conservation" || options.workConserving);
  for (const c of checks) if (!(c in CHECKS)) throw new InputError("checks", `unknown check '${c}' (known: ${POLICY_CHECK_IDS.join(", ")})`);
  const arb = workloadArb({ maxQueues: options.maxQueues ?? 4, maxResources: options.maxResources ?? 3, maxJobs: options.maxJobs ?? 3, maxTasks: options.maxTasks ?? 12 });
  const ctx = { make, engine, tol: options.tolerance ?? 1e-9, starvationTasks: options.starvationTasks };
  const reports: PolicyCheckReport[] = [];
  for (const id of checks) {
    let last: string | null = null;
    const details = fc.check(fc.property(arb, (w) => {
      let message: string | null;
      try {
        message = CHECKS[id](w, observe(w, make, engine), ctx);
      } catch (e) {
        // the policy's factory or a value it gave threw outside the run: a finding on this workload
        message = `checking the policy threw: ${describeThrown(e)}`;
      }
      if (message !== null) last = message; // the last failure is the shrunk case's
      return message === null;
    }), { numRuns: runs, seed, path: options.path });
    const r: PolicyCheckReport = { check: id, passed: !details.failed, runs: details.numRuns, seed };
    if (details.failed) {
      r.message = last ?? String(details.errorInstance);
      r.counterexample = details.counterexample?.[0];
      if (details.counterexamplePath) r.path = details.counterexamplePath;
    }
    reports.push(r);
  }
  const failed = reports.filter((r) => !r.passed).map((r) => r.check);
  return { passed: failed.length === 0, seed, checks: reports, failed };
}
