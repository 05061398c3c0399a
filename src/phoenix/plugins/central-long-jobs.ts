// Long-job placement "central-long-jobs" (Hawk, Eagle): a central scheduler binds each task of a
// long job to the eligible worker outside the short-only partition (any eligible worker when
// none is outside it) whose long backlog, as the scheduler estimates it (task count x the
// job's estimate), frees first; ties by worker id.
import type { NodePlugin } from "../node/plugin.js";

export const centralLongJobs: NodePlugin = {
  name: "central-long-jobs",
  fills: ["placeLong"],
  build: (m) => {
    // the central scheduler's view of each worker's long backlog: when it frees
    const longFreeEst = new Float64Array(m.workers);
    return {
      placeLong(j, eligible) {
        let cand = Array.from(eligible).filter((w) => w >= m.shortOnly);
        if (cand.length === 0) cand = Array.from(eligible);
        // min-heap of candidate workers by estimated free time, ties by id: a strict total
        // order, so the root is always the unique minimum and the workers chosen do not depend
        // on the heap's layout (built in O(n), not sorted)
        const now = m.now;
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
          m.longLoad[w]++;
          m.send(w, j, t, now + m.rtt / 2);
        }
      },
    };
  },
};
