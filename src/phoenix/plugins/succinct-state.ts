// Probe placement "succinct-state" (Eagle's succinct state sharing, SSS, as its simulator models
// it in `send_probes_eagle` / `try_round_of_probing`; Phoenix places probes the same way): a
// short probe that reaches a worker running or holding long work is rejected (the worker knows
// its own state), and the reply carries the long-job bit vector, so the scheduler re-sends the
// probe, one round trip later, to a worker that bit vector shows long-free. The bit vector is the
// central scheduler's current one (m.longLoad) by default, as in Eagle's simulator; with
// sssRefresh = X > 0 it is a snapshot refreshed at most every X seconds (LongBitmap), so a
// re-sent probe may land behind long work placed since. Only when the bit vector shows no
// eligible worker long-free do probes stay queued behind long work: the job has nowhere else
// to run.
//
// Example: 2 tasks -> 4 probes to {A, B, C, D}; B runs a long task -> A, C, D queue the probe
// at t + rtt/2, B rejects it and it is re-sent to a long-free eligible worker E (not already
// probed when possible), arriving at t + 1.5 rtt.
import type { NodeModel } from "../node/model.js";
import type { NodePlugin } from "../node/plugin.js";
import { fillRoundRobin } from "../node/sampler.js";

/** The schedulers' view of which workers hold long work: current, or refreshed every sssRefresh seconds. */
export class LongBitmap {
  private readonly snapshot: Uint8Array | null;
  private taken = -Infinity;

  constructor(private readonly m: NodeModel) {
    this.snapshot = m.o.sssRefresh > 0 ? new Uint8Array(m.workers) : null;
  }

  /** Worker w holds long work, as the schedulers' bit vector says now. */
  holdsLong(w: number): boolean {
    const s = this.snapshot;
    if (s === null) return this.m.longLoad[w] > 0;
    const now = this.m.now;
    if (now - this.taken >= this.m.o.sssRefresh) {
      const load = this.m.longLoad;
      for (let i = 0; i < s.length; i++) s[i] = load[i] > 0 ? 1 : 0;
      this.taken = now;
    }
    return s[w] === 1;
  }

  /** The eligible workers the bit vector shows holding no long work. */
  longFree(eligible: Int32Array): number[] {
    const free: number[] = [];
    for (const w of eligible) if (!this.holdsLong(w)) free.push(w);
    return free;
  }
}

export const succinctState: NodePlugin = {
  name: "succinct-state",
  fills: ["placeProbes"],
  build: (m) => {
    const bitmap = new LongBitmap(m);
    return {
      placeProbes(j, eligible, count) {
        const free = bitmap.longFree(eligible);
        const sampler = m.sampler;
        const first = sampler.sample(eligible, count);
        const rejected: number[] = [];
        const mark = sampler.newMark();
        for (const w of first) {
          // the worker itself knows whether it holds long work: its own state, never stale
          if (m.longLoad[w] === 0) {
            sampler.marker[w] = mark;
            m.send(w, j, -1, m.now + m.rtt / 2);
          } else rejected.push(w);
        }
        let need = count - (first.length - rejected.length);
        if (need === 0) return;
        if (free.length === 0) {
          // the bit vector shows every eligible worker holding long work: the rejected probes
          // (and the surplus) queue behind it, going round the set again
          for (const w of fillRoundRobin(rejected.length > 0 ? rejected : first.slice(), need)) m.send(w, j, -1, m.now + m.rtt / 2);
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
    };
  },
};
