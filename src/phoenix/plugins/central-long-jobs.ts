// Long-job placement "central-long-jobs" (Hawk, Eagle): a central scheduler binds each task of a
// long job to the eligible worker outside the short-only partition (any eligible worker when
// none is outside it) whose long backlog, as the scheduler estimates it (task count x the
// job's estimate), frees first; ties by worker id.
import { Heap } from "../../collections/heap.js";
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
        // candidate workers by estimated free time, ties by id: a strict total order, so the
        // minimum is unique and the workers chosen do not depend on the heap's layout
        const now = m.now;
        const key = (w: number) => Math.max(now, longFreeEst[w]);
        const h = new Heap<number>((a, b) => key(a) < key(b) || (key(a) === key(b) && a < b));
        for (const w of cand) h.appendUnordered(w);
        for (let t = 0; t < j.n; t++) {
          const w = h.pop()!;
          longFreeEst[w] = key(w) + j.spec.estimate;
          h.push(w);
          m.longLoad[w]++;
          m.send(w, j, t, now + m.rtt / 2);
        }
      },
    };
  },
};
