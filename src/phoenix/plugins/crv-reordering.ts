// Phoenix's CRV monitor and CRV reordering, "crv-reordering" (docs/policies/phoenix.md,
// Algorithm 1). Fills three points: the heartbeat (the monitor's round), the short-arrival
// wake-up, and the queue order (it wraps the order it finds, e.g. srpt-queues).
//
// Each monitor round: every constraint's CRV = waiting tasks that need it / workers that hold
// it (monitor.ts CrvTable). When some CRV exceeds its CRV_threshold ("hot"), each worker's E[W]
// (Pollaczek-Khinchin over its recent tasks, monitor.ts WorkerHistory) is compared with
// Qwait_threshold (the E[W] it would have at load qwaitLoad, or the fixed qwaitThreshold); a
// worker above it is in CRV mode: its queue is ordered by the CRV kernel mode, which promotes
// the probes whose largest congested CRV is the queue's maximum. Other queues keep the wrapped
// order.
//
// Only congested constraints (CRV above their threshold) give a probe a CRV score, so a probe
// whose constraints are all below it scores 0 and stays in the wrapped order with the
// unconstrained ones (congestedOnly; false scores every constraint's CRV, an ablation).
//
// With no short job in the system no queue holds a probe to promote, so the round (O(workers))
// is skipped until the next short arrival, which runs it at once.
import type { QueueOrder } from "../node/hooks.js";
import type { NodePlugin } from "../node/plugin.js";
import type { Job } from "../node/types.js";

export function crvReordering(opts: { congestedOnly: boolean } = { congestedOnly: true }): NodePlugin {
  return {
    name: opts.congestedOnly ? "crv-reordering" : "crv-reordering-all-constraints",
    fills: ["heartbeat", "shortJobArrived", "queueOrder", "congestion"],
    build: (m, hooks) => {
      const base = hooks.queueOrder;
      const W = m.workers;
      const flagged = new Uint8Array(W); // CRV mode, set at monitor rounds
      const waitEst = new Float64Array(W); // E[W] per worker at the last hot round
      let hot = false;
      let asleep = false;
      const score = opts.congestedOnly ? (j: Job) => m.crv.congestedScore(j.ids) : (j: Job) => m.crv.score(j.ids);
      const queueOrder: QueueOrder = {
        mode: (w) => (flagged[w] ? 2 : base.mode(w)),
        key: (e) => base.key(e),
        score,
      };

      const round = (): void => {
        if (m.activeShort === 0) {
          asleep = true;
          return;
        }
        asleep = false;
        hot = m.crv.refresh();
        if (!hot) {
          // nothing congested: no queue is in CRV mode
          flagged.fill(0);
          return;
        }
        m.stats.hotHeartbeats++;
        const o = m.o;
        const entered: number[] = [];
        for (let w = 0; w < W; w++) {
          waitEst[w] = m.history.expectedWait(w, m.now);
          const was = flagged[w];
          const limit = o.qwaitLoad > 0 ? m.history.waitAtLoad(w, o.qwaitLoad) : o.qwaitThreshold;
          flagged[w] = hot && waitEst[w] > limit ? 1 : 0;
          m.stats.crvWorkerBeats += flagged[w];
          // a queue that just entered CRV mode is re-sorted now if it holds a probe to promote;
          // afterwards every insertion re-sorts it (the flush), so steady congested queues are
          // not re-sorted each heartbeat
          const q = m.queues[w];
          if (flagged[w] && !was && q.length >= 2 && q.some((e) => e.task < 0 && score(e.job) > 0)) entered.push(w);
        }
        m.reorder(entered);
      };

      return {
        queueOrder,
        heartbeat: round,
        shortJobArrived: () => {
          if (asleep) round();
        },
        congestion: {
          get hot() {
            return hot;
          },
          flagged: (w) => flagged[w] === 1,
          waitEstimate: (w) => waitEst[w],
        },
      };
    },
  };
}
