// Each property of the whole-scheduler fuzzer as one check of one scenario: null, or the finding
// with the requests that show it. The properties judged on one run share that run (cached by
// scenario, since every property's search draws the same scenarios from the same seed).
import { fmt } from "../model.js";
import { drive, type DriveResult, type ModelQueue, type Observer } from "./driver.js";
import {
  guaranteeObserver, longRunShareObserver, minimalVictimsObserver, preemptionCycleObserver, priorityObserver,
  starvationObserver, steadyWindows, workConservationObserver, dominant, type SteadyWindow,
} from "./observers.js";
import type { Scenario, SchedulerPropertyId, SchedulerRequest, SchedulerSupports, SchedulerTarget } from "./types.js";
import { longestTask } from "./workload.js";

export interface PropertyContext {
  target: SchedulerTarget;
  init: Record<string, unknown>;
  tolerance: number;
  /** Base runs by scenario (JSON), shared by the properties judged on one run. */
  cache: Map<string, BaseRun>;
  /** Requests sent so far (for the ops/s figure). */
  counter: { ops: number };
}

export interface Finding {
  message: string;
  /** The runs that show it: one list of requests each. */
  runs: Array<{ label: string; requests: SchedulerRequest[] }>;
}

type Driven = DriveResult & { supports: SchedulerSupports; broken: boolean };
interface BaseRun { result: Driven; window: SteadyWindow | null }

/** Properties judged on the base run, and their observers. */
const OBSERVED: Partial<Record<SchedulerPropertyId, (s: Scenario, ctx: PropertyContext) => Observer>> = {
  guarantee: () => guaranteeObserver(),
  "work-conservation": () => workConservationObserver(),
  "bounded-starvation": (s) => starvationObserver(s.queues.length * Math.max(1, longestTask(s))),
  "long-run-share": (s, ctx) => longRunShareObserver(s, ctx.tolerance),
  "no-preemption-cycle": () => preemptionCycleObserver(),
  "minimal-victims": () => minimalVictimsObserver(),
  "priority-consistent": () => priorityObserver(),
};

/** Properties that need the scheduler to preempt (declared by init's `supports.preempt`). */
export const NEEDS_PREEMPT: readonly SchedulerPropertyId[] = ["no-preemption-cycle", "minimal-victims", "priority-consistent"];

async function counted(ctx: PropertyContext, scenario: Scenario, observers: Record<string, Observer>, variant: Parameters<typeof drive>[4] = {}): Promise<Driven> {
  const r = await drive(scenario, ctx.target, ctx.init, observers, variant);
  ctx.counter.ops += r.requests.length;
  return r;
}

async function baseRun(scenario: Scenario, ctx: PropertyContext): Promise<BaseRun> {
  const key = JSON.stringify(scenario);
  const hit = ctx.cache.get(key);
  if (hit) return hit;
  const observers: Record<string, Observer> = {};
  for (const [id, make] of Object.entries(OBSERVED)) observers[id] = make!(scenario, ctx);
  const windows = steadyWindows(scenario);
  observers._windows = { onPoint(p) { if (p.settled) windows.record(p); return null; } };
  const result = await counted(ctx, scenario, observers);
  const run: BaseRun = { result, window: windows.longest(lastTime(result)) };
  if (ctx.cache.size > 1000) ctx.cache.clear();
  ctx.cache.set(key, run);
  return run;
}

const lastTime = (r: Driven): number => { for (let i = r.requests.length - 1; i >= 0; i--) if (typeof r.requests[i].time === "number") return r.requests[i].time!; return 0; };

const broke = (r: Driven, label: string): Finding | null =>
  r.broken ? { message: r.failures.get("capacity")!, runs: [{ label, requests: r.requests }] } : null;

/** Checks one property on one scenario. */
export async function checkProperty(id: SchedulerPropertyId, scenario: Scenario, ctx: PropertyContext): Promise<Finding | null> {
  const base = await baseRun(scenario, ctx);
  const r = base.result;
  if (id === "capacity" || OBSERVED[id]) {
    const m = r.failures.get(id);
    if (m !== undefined) return { message: m, runs: [{ label: "run", requests: r.requests }] };
    return broke(r, "run");
  }
  const bad = broke(r, "run");
  if (bad) return bad;
  if (id === "determinism") return determinism(r, ctx);
  if (id === "call-rate-independence") return callRate(scenario, r, ctx);
  return splitResistance(scenario, base, ctx);
}

async function determinism(r: Driven, ctx: PropertyContext): Promise<Finding | null> {
  // sent all at once (a command target pipelines them), compared in order
  const again = await Promise.all(r.requests.map((req) => ctx.target.send(req)));
  ctx.counter.ops += r.requests.length;
  for (let i = 0; i < r.requests.length; i++) {
    const a = JSON.stringify(r.answers[i]), b = JSON.stringify(again[i]);
    if (a !== b) {
      return {
        message: `replaying the same ${r.requests.length} requests, request ${i + 1} (${JSON.stringify(r.requests[i])}) was answered ${clip(a)} the first time and ${clip(b)} the second`,
        runs: [{ label: "run (sent twice)", requests: r.requests.slice(0, i + 1) }],
      };
    }
  }
  return null;
}

const clip = (s: string) => (s.length > 300 ? s.slice(0, 300) + "..." : s);

async function callRate(scenario: Scenario, r: Driven, ctx: PropertyContext): Promise<Finding | null> {
  const more = await counted(ctx, scenario, {}, { extraCalls: true });
  const runs = [{ label: "schedule at events", requests: r.requests }, { label: "schedule also between events", requests: more.requests }];
  if (more.broken) return { message: `with schedule also called between events: ${more.failures.get("capacity")}`, runs };
  const ids = new Set([...r.starts.keys(), ...more.starts.keys()]);
  const diffs = [...ids].map((id) => ({ id, a: r.starts.get(id), b: more.starts.get(id) })).filter((d) => d.a !== d.b);
  if (diffs.length === 0) return null;
  diffs.sort((x, y) => Math.min(x.a ?? Infinity, x.b ?? Infinity) - Math.min(y.a ?? Infinity, y.b ?? Infinity));
  const d = diffs[0];
  const when = (t: number | undefined) => (t === undefined ? "never" : `at t=${fmt(t)}`);
  return {
    message: `calling schedule also between events changed a decision: task ${d.id} started ${when(d.a)} when schedule was called only at events, ${when(d.b)} when it was also called in between (${diffs.length} task(s) differ)`,
    runs,
  };
}

async function splitResistance(scenario: Scenario, base: BaseRun, ctx: PropertyContext): Promise<Finding | null> {
  const windows = steadyWindows(scenario);
  const split = await counted(ctx, scenario, { _windows: { onPoint(p) { if (p.settled) windows.record(p); return null; } } }, { split: true });
  const runs = [{ label: `tenant q0 as one queue`, requests: base.result.requests }, { label: `tenant q0 as ${scenario.split} queues of weight w/${scenario.split}`, requests: split.requests }];
  if (split.broken) return { message: `with tenant q0 split into ${scenario.split} queues: ${split.failures.get("capacity")}`, runs };
  const one = base.window, many = windows.longest(lastTime(split));
  // judged only when both runs have a steady window with the same tenants, q0 among them
  const tenants = (w: SteadyWindow) => [...new Set(w.queues.map((q) => q.tenant))].sort().join(",");
  if (!one || !many || tenants(one) !== tenants(many) || !one.queues.some((q) => q.tenant === 0)) return null;
  const total = (w: SteadyWindow) => w.queues.filter((q) => q.tenant === 0).reduce((s, q) => s + (w.average.get(q.name) ?? 0), 0);
  const a = total(one), b = total(many);
  const slack = Math.max(...one.queues.map((q: ModelQueue) => dominant(scenario.queues[q.tenant].demand, scenario.capacity))) + ctx.tolerance;
  if (Math.abs(a - b) <= slack) return null;
  return {
    message: `tenant q0 (weight ${fmt(scenario.queues[0].weight)}) averaged dominant share ${fmt(a)} as one queue (t=${fmt(one.from)}..${fmt(one.to)}) but ${fmt(b)} as ${scenario.split} queues of weight ${fmt(scenario.queues[0].weight / scenario.split)} (t=${fmt(many.from)}..${fmt(many.to)}), with ${one.queues.filter((q) => q.tenant !== 0).map((q) => q.name).join(", ")} backlogged too (allowed: +-${fmt(slack)}); no trees, so the split is k sibling queues of weight w/k`,
    runs,
  };
}
