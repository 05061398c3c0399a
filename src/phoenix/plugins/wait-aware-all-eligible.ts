// Probe placement "wait-aware-probes-all-eligible" (an ablation, in no registered policy by
// default; issue 19): always, a job's probes go to the `count` eligible workers (all of them,
// not a sample) with the least estimated wait, ties in random order: the
// estimated remaining work of the running task (the job's estimate minus the time it has run,
// at least 0) plus the estimates of the queued entries that can still run a task (long tasks,
// and probes of jobs with unbound tasks). Long work counts like any other, so workers holding
// it are avoided while others are free, without a separate bit vector. With fewer eligible
// workers than probes the rest go round the chosen set again.
// Example: k = 2, eligible {A: idle, B: running 30 s of a 100 s estimate, C: idle with a queued
// probe of a 5 s job, D: idle} -> two of A and D (wait 0), in random order; never B (70 s).
import type { NodeModel } from "../node/model.js";
import type { NodePlugin } from "../node/plugin.js";
import { fillRoundRobin } from "../node/sampler.js";
import { IDLE, RUNNING, type Entry } from "../node/types.js";

/** Worker w's estimated wait for a new entry: the running task's estimated remainder plus the queued work that can still run. */
export function estimatedWait(m: NodeModel, w: number): number {
  let wait = 0;
  const cur = m.current[w];
  if (m.state[w] !== IDLE && cur !== null) {
    const est = cur.job.spec.estimate;
    wait += m.state[w] === RUNNING ? Math.max(0, est - (m.now - m.taskStart[w])) : est;
  }
  for (const e of m.queues[w]) if (canRun(e)) wait += e.job.spec.estimate;
  return wait;
}

const canRun = (e: Entry): boolean => e.task >= 0 || e.job.next < e.job.n;

export const waitAwareAllEligible: NodePlugin = {
  name: "wait-aware-probes-all-eligible",
  fills: ["placeProbes"],
  build: (m) => ({
    placeProbes(j, eligible, count) {
      // all eligible workers in random order (the tie order), then the least estimated waits
      const ws = m.sampler.sample(eligible, eligible.length);
      const wait = ws.map((w) => estimatedWait(m, w));
      const order = ws.map((_, i) => i).sort((x, y) => wait[x] - wait[y] || x - y);
      const targets = fillRoundRobin(order.slice(0, count).map((i) => ws[i]), count);
      for (const w of targets) m.send(w, j, -1, m.now + m.rtt / 2);
    },
  }),
};
