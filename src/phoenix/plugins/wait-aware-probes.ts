// Probe placement "wait-aware-probes" (an ablation, in no registered policy by default; wraps
// the placement it finds, e.g. succinct-state): while the CRV monitor reports congestion
// (m.hooks.congestion.hot), a job's probes go to the long-free eligible workers with the lowest
// E[W] from the last monitor round, taken from a uniform sample twice the probe count (the
// sample keeps the herd effect of a pure argmin away). Otherwise, or when no eligible worker is
// long-free, the wrapped placement decides.
// Example: k = 2, long-free sample {A: E[W] 3 s, B: 400 s, C: 0 s, D: 40 s} -> C and A.
import type { NodePlugin } from "../node/plugin.js";
import { fillRoundRobin } from "../node/sampler.js";
import { LongBitmap } from "./succinct-state.js";

export const waitAwareProbes: NodePlugin = {
  name: "wait-aware-probes",
  fills: ["placeProbes"],
  build: (m, hooks) => {
    const inner = hooks.placeProbes;
    const bitmap = new LongBitmap(m);
    return {
      placeProbes(j, eligible, count) {
        const congestion = m.hooks.congestion;
        const free = bitmap.longFree(eligible);
        if (!(congestion.hot && free.length > 0)) {
          inner(j, eligible, count);
          return;
        }
        const cand = m.sampler.sample(free, Math.min(free.length, 2 * count));
        const order = cand.map((_, i) => i).sort((x, y) => congestion.waitEstimate(cand[x]) - congestion.waitEstimate(cand[y]) || x - y);
        const targets = fillRoundRobin(order.slice(0, count).map((i) => cand[i]), count);
        for (const w of targets) m.send(w, j, -1, m.now + m.rtt / 2);
      },
    };
  },
};

