// Probe placement "succinct-state" (Eagle's succinct state sharing, SSS, as its simulator models
// it in `send_probes_eagle` / `try_round_of_probing`; Phoenix places probes the same way): a
// short probe that reaches a worker running or holding long work is rejected, and the reply
// carries the worker's copy of the long-job bit vector, so the scheduler re-sends the probe, one
// round trip later, to a worker that bit vector shows long-free. The bit vector here is the
// central scheduler's current one (m.longLoad), which is what a rejection returns (no
// staleness). Only when no eligible worker is long-free do probes stay queued behind long work:
// the job has nowhere else to run.
//
// Example: 2 tasks -> 4 probes to {A, B, C, D}; B runs a long task -> A, C, D queue the probe
// at t + rtt/2, B rejects it and it is re-sent to a long-free eligible worker E (not already
// probed when possible), arriving at t + 1.5 rtt.
import type { NodeModel } from "../node/model.js";
import type { NodePlugin } from "../node/plugin.js";
import { fillRoundRobin } from "../node/sampler.js";

/** The eligible workers holding no long work. */
export function longFree(m: NodeModel, eligible: Int32Array): number[] {
  const free: number[] = [];
  for (const w of eligible) if (m.longLoad[w] === 0) free.push(w);
  return free;
}

export const succinctState: NodePlugin = {
  name: "succinct-state",
  fills: ["placeProbes"],
  build: (m) => ({
    placeProbes(j, eligible, count) {
      const free = longFree(m, eligible);
      const sampler = m.sampler;
      const first = sampler.sample(eligible, count);
      const rejected: number[] = [];
      const mark = sampler.newMark();
      for (const w of first) {
        if (m.longLoad[w] === 0) {
          sampler.marker[w] = mark;
          m.send(w, j, -1, m.now + m.rtt / 2);
        } else rejected.push(w);
      }
      let need = count - (first.length - rejected.length);
      if (need === 0) return;
      if (free.length === 0) {
        // every eligible worker holds long work (so none accepted: rejected = first): the
        // probes queue behind it, going round the set again
        for (const w of fillRoundRobin(rejected, count)) m.send(w, j, -1, m.now + m.rtt / 2);
        return;
      }
      // re-sent (rejected ones, and the surplus when fewer eligible workers than probes):
      // long-free workers not probed yet first, then round the long-free set again
      m.stats.resentProbes += rejected.length;
      const fresh = free.filter((w) => sampler.marker[w] !== mark);
      const again = sampler.sample(fresh, need);
      need -= again.length;
      if (need > 0) {
        const more = fillRoundRobin(sampler.sample(free, Math.min(need, free.length)), need);
        for (const w of more) again.push(w);
      }
      for (const w of again) m.send(w, j, -1, m.now + m.rtt / 2 + m.rtt);
    },
  }),
};
