// The temporal properties judged on one run, as observers of the driver's scheduling points
// (docs/testkit.md gives each definition and tolerance). The relational ones (split-resistance,
// call-rate-independence, determinism) compare runs: ./relational.ts.
import { fmt } from "../model.js";
import type { ModelQueue, ModelTask, Observer, Point } from "./driver.js";
import type { Scenario } from "./types.js";
import { longestTask } from "./workload.js";

const EPS = 1e-9;

export const dominant = (x: number[], cap: number[]): number => x.reduce((m, v, r) => Math.max(m, v / cap[r]), 0);
const fits = (d: number[], free: number[], cap: number[]) => d.every((v, r) => v <= free[r] + EPS * cap[r]);
const vec = (x: number[]) => `[${x.map(fmt).join(", ")}]`;

/** guarantee: after every point, no queue below its min share has a next task that fits in what is free. */
export function guaranteeObserver(): Observer {
  return {
    onPoint(p) {
      if (!p.settled) return null;
      for (const q of p.queues) {
        if (!q.present || q.minShare <= 0 || q.waiting.length === 0) continue;
        const share = dominant(q.usage, p.capacity);
        const next = q.waiting[0];
        if (share < q.minShare - EPS && fits(next.demand, p.free, p.capacity)) {
          return `at t=${fmt(p.time)} queue ${q.name} is at dominant share ${fmt(share)}, below its min share ${fmt(q.minShare)}, and its next task ${next.id} ${vec(next.demand)} fits in the free ${vec(p.free)}, yet it was not started`;
        }
      }
      return null;
    },
  };
}

/** work-conservation: after every point, no queue's next task fits in what is free. */
export function workConservationObserver(): Observer {
  return {
    onPoint(p) {
      if (!p.settled) return null;
      for (const q of p.queues) {
        const next = q.waiting[0];
        if (q.present && next && fits(next.demand, p.free, p.capacity)) {
          return `at t=${fmt(p.time)} queue ${q.name}'s next task ${next.id} ${vec(next.demand)} fits in the free ${vec(p.free)}, yet nothing started it`;
        }
      }
      return null;
    },
  };
}

/** bounded-starvation: a queue that has waiting tasks and none running gets one started within `bound` seconds. */
export function starvationObserver(bound: number): Observer {
  const since = new Map<string, number>();
  const check = (q: ModelQueue, time: number): string | null => {
    const s = since.get(q.name);
    if (s !== undefined && time - s > bound + EPS) {
      return `queue ${q.name} had tasks waiting and none running from t=${fmt(s)} to t=${fmt(time)} (${fmt(time - s)} s; the bound is ${fmt(bound)} s = queues x longest task)`;
    }
    return null;
  };
  let last: Point | null = null;
  return {
    onPoint(p) {
      last = p;
      for (const q of p.queues) {
        const m = check(q, p.time);
        if (m) return m;
        if (q.present && q.waiting.length > 0 && q.running.size === 0) { if (!since.has(q.name)) since.set(q.name, p.time); } else since.delete(q.name);
      }
      return null;
    },
    finish(end) {
      if (!last) return null;
      for (const q of last.queues) { const m = check(q, Math.max(end, last.time)); if (m) return m; }
      return null;
    },
  };
}

/** Continuous weighted DRF of queues that all want more: progressive filling of dominant shares. */
export function fairShares(demands: number[][], weights: number[], cap: number[]): number[] {
  const n = demands.length, k = cap.length;
  const norm = demands.map((d) => { const ds = dominant(d, cap); return d.map((v, r) => v / cap[r] / ds); });
  const share = new Array<number>(n).fill(0);
  const active = new Array<boolean>(n).fill(true);
  const used = new Array<number>(k).fill(0);
  for (let round = 0; round < n && active.some(Boolean); round++) {
    // the level at which the next resource saturates, each active queue at share w_i * level
    let step = Infinity, full = -1;
    for (let r = 0; r < k; r++) {
      let slope = 0;
      for (let i = 0; i < n; i++) if (active[i]) slope += weights[i] * norm[i][r];
      if (slope > EPS && (1 - used[r]) / slope < step) { step = (1 - used[r]) / slope; full = r; }
    }
    if (full < 0) break;
    for (let i = 0; i < n; i++) if (active[i]) share[i] += weights[i] * step;
    for (let r = 0; r < k; r++) for (let i = 0; i < n; i++) if (active[i]) used[r] += weights[i] * step * norm[i][r];
    for (let i = 0; i < n; i++) if (active[i] && norm[i][full] > EPS) active[i] = false;
  }
  return share;
}

/** A stretch of time during which the same queues, all backlogged, held the cluster. */
export interface SteadyWindow {
  from: number;
  to: number;
  /** Time-averaged dominant share by queue name. */
  average: Map<string, number>;
  /** The queues (model objects) of the window. */
  queues: ModelQueue[];
}

/**
 * Records the settled states and finds the longest steady window: the queues with tasks are the
 * same and all backlogged throughout, at least two of them, and it lasts at least
 * `warmup + 2 x longest task` (its first `warmup` = longest task is not averaged: tasks started
 * before it have ended by then).
 */
export function steadyWindows(scenario: Scenario) {
  const d = Math.max(1, longestTask(scenario));
  const states: Array<{ time: number; key: string; shares: Map<string, number>; queues: ModelQueue[] }> = [];
  const record = (p: Point) => {
    const active = p.queues.filter((q) => q.present && (q.waiting.length > 0 || q.running.size > 0));
    const steady = active.length >= 2 && active.every((q) => q.waiting.length > 0);
    const key = steady ? active.map((q) => q.name).join(",") : "";
    const last = states[states.length - 1];
    if (last && last.time === p.time) states.pop();
    states.push({ time: p.time, key, shares: new Map(active.map((q) => [q.name, dominant(q.usage, p.capacity)])), queues: active });
  };
  const longest = (end: number): SteadyWindow | null => {
    let best: SteadyWindow | null = null;
    for (let i = 0; i < states.length; i++) {
      if (!states[i].key || (i > 0 && states[i - 1].key === states[i].key)) continue;
      let j = i;
      while (j + 1 < states.length && states[j + 1].key === states[i].key) j++;
      const to = j + 1 < states.length ? states[j + 1].time : end;
      const from = states[i].time + d;
      if (to - from < 2 * d || (best && to - from <= best.to - best.from)) continue;
      const average = new Map<string, number>();
      for (let x = i; x <= j; x++) {
        const a = Math.max(states[x].time, from), b = x + 1 < states.length ? Math.min(states[x + 1].time, to) : to;
        if (b <= a) continue;
        for (const [name, s] of states[x].shares) average.set(name, (average.get(name) ?? 0) + (s * (b - a)) / (to - from));
      }
      best = { from, to, average, queues: states[i].queues };
    }
    return best;
  };
  return { record, longest };
}

/** Each window queue's fair share: weighted DRF of the window's queues by their task shapes. */
export function windowFair(w: SteadyWindow, scenario: Scenario, taskOf: (q: ModelQueue) => number[]): Map<string, number> {
  const fair = fairShares(w.queues.map(taskOf), w.queues.map((q) => q.weight), scenario.capacity);
  return new Map(w.queues.map((q, i) => [q.name, fair[i]]));
}

/** long-run-share: over the longest steady window, each queue's average dominant share is its weighted DRF share within slack. */
export function longRunShareObserver(scenario: Scenario, tolerance: number): Observer {
  const windows = steadyWindows(scenario);
  return {
    onPoint(p) { if (p.settled) windows.record(p); return null; },
    finish(end) {
      const w = windows.longest(end);
      if (!w) return null;
      const taskOf = (q: ModelQueue) => scenario.queues[q.tenant].demand;
      const fair = windowFair(w, scenario, taskOf);
      // a min share above the fair share changes the fair allocation: such windows are not judged
      if (w.queues.some((q) => q.minShare > fair.get(q.name)! + EPS)) return null;
      const slack = Math.max(...w.queues.map((q) => dominant(taskOf(q), scenario.capacity))) + tolerance;
      for (const q of w.queues) {
        const got = w.average.get(q.name) ?? 0, want = fair.get(q.name)!;
        if (Math.abs(got - want) > slack) {
          const others = w.queues.filter((o) => o !== q).map((o) => `${o.name} ${fmt(w.average.get(o.name) ?? 0)} (fair ${fmt(fair.get(o.name)!)}, weight ${fmt(o.weight)})`).join(", ");
          return `from t=${fmt(w.from)} to t=${fmt(w.to)}, with ${w.queues.map((x) => x.name).join(", ")} all backlogged, queue ${q.name} (weight ${fmt(q.weight)}, tasks ${vec(taskOf(q))}) averaged dominant share ${fmt(got)}; its weighted DRF share is ${fmt(want)} (allowed: +-${fmt(slack)} = largest task's share + ${fmt(tolerance)}); ${others}`;
        }
      }
      return null;
    },
  };
}

const ids = (ts: ModelTask[]) => ts.map((t) => t.id).join(", ");

/** no-preemption-cycle: the running set never comes back with preemptions in between and no finish, cancel or departure. */
export function preemptionCycleObserver(): Observer {
  let seen = new Map<string, number>();
  let killedSince = new Set<number>();
  let index = 0;
  return {
    onPoint(p) {
      if (p.worldChanged) { seen = new Map(); killedSince = new Set(); }
      index++;
      if (p.preempted.length > 0) killedSince.add(index);
      const key = p.queues.flatMap((q) => [...q.running].map((t) => t.id)).sort().join(",");
      const before = seen.get(key);
      if (before !== undefined && [...killedSince].some((i) => i > before)) {
        return `at t=${fmt(p.time)} the running tasks {${key}} are the same as ${index - before} scheduling point(s) before, with preemptions in between (this point preempted ${ids(p.preempted) || "nothing"}) and no task finished: a preemption cycle`;
      }
      seen.set(key, index);
      return null;
    },
  };
}

/** minimal-victims: every task a point preempts was needed to fit what it started. */
export function minimalVictimsObserver(): Observer {
  return {
    onPoint(p) {
      if (p.preempted.length === 0) return null;
      const k = p.capacity.length;
      const need = new Array<number>(k).fill(0);
      for (const t of p.started) for (let r = 0; r < k; r++) need[r] += t.demand[r];
      const freed = p.freeBefore.slice();
      for (const t of p.preempted) for (let r = 0; r < k; r++) freed[r] += t.demand[r];
      for (const v of p.preempted) {
        const without = freed.map((f, r) => f - v.demand[r]);
        if (need.every((x, r) => x <= without[r] + EPS * p.capacity[r])) {
          return `at t=${fmt(p.time)} the scheduler preempted ${ids(p.preempted)} to start ${ids(p.started) || "nothing"} (needing ${vec(need)}), but without preempting ${v.id} ${vec(v.demand)} there was room (${vec(without)})`;
        }
      }
      return null;
    },
  };
}

/** priority-consistent: a victim's queue, after the preemption, is not further below its weighted share than the queue that gains. */
export function priorityObserver(): Observer {
  return {
    onPoint(p) {
      if (p.preempted.length === 0) return null;
      const byName = new Map(p.queues.map((q) => [q.name, q]));
      const wds = (name: string, usage: number[]) => dominant(usage, p.capacity) / byName.get(name)!.weight;
      for (const v of p.preempted) {
        const after = p.usageBefore.get(v.queue)!.map((u, r) => u - v.demand[r]);
        for (const s of p.started) {
          if (s.queue === v.queue) continue;
          const gainer = wds(s.queue, p.usageBefore.get(s.queue)!), victim = wds(v.queue, after);
          if (victim < gainer - EPS) {
            return `at t=${fmt(p.time)} the scheduler preempted ${v.id} of ${v.queue} (weighted dominant share ${fmt(victim)} after it) to start ${s.id} of ${s.queue} (weighted dominant share ${fmt(gainer)} before it): the victim's queue was the more deserving`;
          }
        }
      }
      return null;
    },
  };
}
