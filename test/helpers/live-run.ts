// Drives the live scheduler with a simulated workload's events (test/live/equivalence.test.ts,
// test/live/registry.test.ts): a job's arrival submits its tasks with their job id and burst, task
// ends finish them, then one schedule() per instant, as the simulator's scheduling point; the
// wake-ups the policy asks for, nextWakeup(), are instants too.
import { loadEngineSync } from "../../src/engine/load.js";
import { createScheduler } from "../../src/live/scheduler.js";
import type { Workload } from "../../src/policy/model.js";

const engine = loadEngineSync();

export interface Outcome { status: string; finish?: number }

/** Each job's outcome when the live scheduler is driven by the workload's events. */
export function liveRun(w: Workload, policy: string, policyOptions: Record<string, unknown> | undefined, starvationGuard: boolean): Map<string, Outcome> {
  let now = 0;
  const s = createScheduler({ policy, capacity: w.capacity, resources: w.resources, engine, clock: () => now, policyOptions, seed: 1, starvationGuard });
  const rejected = new Set<string>();
  for (const q of w.queues) {
    const a = s.addQueue(q.name, { kind: q.kind, weight: q.weight, path: q.path, bursts: q.bursts, minShare: q.params?.minShare as number | undefined, maxShare: q.params?.maxShare as number | undefined });
    if (a.class === "rejected") rejected.add(q.name);
  }
  const order = w.jobs.map((_, i) => i).sort((a, b) => w.jobs[a].arrival - w.jobs[b].arrival || a - b);
  const ends = new Map<number, string[]>(); // time -> task ids ending, in start order
  const left = new Map(w.jobs.map((j) => [j.id, j.stages[0].tasks]));
  const outcomes = new Map<string, Outcome>();
  const duration = new Map(w.jobs.map((j) => [j.id, j.stages[0].duration as number]));
  let next = 0;
  for (let guard = 0; next < order.length || ends.size > 0 || s.nextWakeup() !== null; guard++) {
    if (guard > 10_000) throw new Error("the live run does not end");
    const tArr = next < order.length ? w.jobs[order[next]].arrival : Infinity;
    const tEnd = ends.size ? Math.min(...ends.keys()) : Infinity;
    now = Math.max(now, Math.min(tArr, tEnd, s.nextWakeup() ?? Infinity));
    while (next < order.length && w.jobs[order[next]].arrival === now) {
      const j = w.jobs[order[next++]];
      if (rejected.has(j.queue)) { outcomes.set(j.id, { status: "rejected" }); continue; }
      for (let t = 0; t < j.stages[0].tasks; t++) s.submit(j.queue, { id: `${j.id}:${t}`, demand: j.stages[0].demand, job: j.id, ...(j.burst !== undefined ? { burst: j.burst } : {}) });
    }
    for (const id of ends.get(now) ?? []) {
      s.finish(id);
      const job = id.split(":")[0];
      left.set(job, left.get(job)! - 1);
      if (left.get(job) === 0) outcomes.set(job, { status: "finished", finish: now });
    }
    ends.delete(now);
    for (const { id } of s.schedule()) {
      const job = id.split(":")[0];
      const at = now + duration.get(job)!;
      ends.set(at, [...(ends.get(at) ?? []), id]);
    }
  }
  return outcomes;
}
