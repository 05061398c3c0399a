// Idle "work-stealing" (Hawk's randomized stealing): a worker of the short-only partition (any
// worker without a partition; any worker at all with stealers "any", as Hawk's simulator) that
// is idle with an empty queue contacts up to stealAttempts
// random workers; from the first that holds long work (running, or queued) it takes the short
// probes queued behind that long work whose job still has unbound tasks and whose constraints
// the thief satisfies.
import { satisfiesAll } from "../constraints.js";
import type { NodePlugin } from "../node/plugin.js";
import { IDLE, type Entry } from "../node/types.js";

export const workStealing: NodePlugin = {
  name: "work-stealing",
  fills: ["idle"],
  build: (m) => ({
    idle(thief) {
      // which workers may steal: by default the short-only partition (they never hold long tasks)
      if (m.o.stealers === "short-only" && thief >= (m.shortOnly > 0 ? m.shortOnly : m.workers)) return;
      const W = m.workers, queues = m.queues;
      for (let k = 0; k < m.o.stealAttempts; k++) {
        const v = m.stealRng.int(0, W - 1);
        if (v === thief) continue;
        const q = queues[v];
        if (q.length === 0) continue;
        const from = m.state[v] !== IDLE && m.current[v]?.job.long ? 0 : q.findIndex((x) => x.job.long);
        if (from < 0) continue;
        const keep: Entry[] = [];
        const take: Entry[] = [];
        for (let i = 0; i < q.length; i++) {
          const x = q[i];
          if (i >= from && !x.job.long && x.job.next < x.job.n && satisfiesAll(m.machines, thief, x.job.active)) take.push(x);
          else keep.push(x);
        }
        if (take.length === 0) continue;
        queues[v] = keep;
        for (const x of take) queues[thief].push(x);
        m.stats.stolenProbes += take.length;
        return;
      }
    },
  }),
};
