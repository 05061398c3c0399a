// Generator options from the authors' setups (issue 19 item 2): identical LQ demand (Fig. 10)
// and a cap on TQ task length. Properties over seeds; the defaults leave the workload unchanged.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { InputError } from "../../src/errors.js";
import { bopfWorkload } from "../../src/workloads/bopf.js";
import { caught } from "../helpers/caught.js";

const seed = fc.integer({ min: 0, max: 2 ** 31 - 1 });
const RUNS = { numRuns: 40, seed: 0x1019 };

describe("bopfWorkload options", () => {
  it("identicalLqs: every LQ burst has LQ0's first demand and volume; TQ jobs and arrivals unchanged", () => {
    fc.assert(fc.property(seed, fc.integer({ min: 1, max: 4 }), (s, lqs) => {
      const base = bopfWorkload({ lqs, tqs: 2, tqJobs: 2, bursts: 3, period: [150, 110, 60] }, s);
      const same = bopfWorkload({ lqs, tqs: 2, tqJobs: 2, bursts: 3, period: [150, 110, 60], identicalLqs: true }, s);
      const lqJobs = same.jobs.filter((j) => j.queue.startsWith("LQ"));
      const first = lqJobs[0];
      expect(first).toEqual(base.jobs[0]);
      for (const j of lqJobs) for (const st of j.stages) expect(st.demand).toEqual(first.stages[0].demand);
      const bursts = same.queues.flatMap((q) => q.bursts ?? []);
      for (const b of bursts) for (let r = 0; r < b.volume.length; r++) expect(b.volume[r]).toBeCloseTo(bursts[0].volume[r], 9);
      // only the LQ demands change: arrivals, tasks, durations and TQ jobs as without the option
      expect(same.jobs.map((j) => [j.id, j.arrival, j.stages.map((x) => [x.tasks, x.duration])])).toEqual(base.jobs.map((j) => [j.id, j.arrival, j.stages.map((x) => [x.tasks, x.duration])]));
      expect(same.jobs.filter((j) => j.queue.startsWith("TQ"))).toEqual(base.jobs.filter((j) => j.queue.startsWith("TQ")));
    }), RUNS);
  });

  it("tqMaxTask caps TQ task durations and changes nothing else; 600 is the default", () => {
    fc.assert(fc.property(seed, fc.integer({ min: 1, max: 600 }), (s, cap) => {
      const base = bopfWorkload({ tqs: 2, tqJobs: 3, bursts: 1 }, s);
      expect(bopfWorkload({ tqs: 2, tqJobs: 3, bursts: 1, tqMaxTask: 600 }, s)).toEqual(base);
      const capped = bopfWorkload({ tqs: 2, tqJobs: 3, bursts: 1, tqMaxTask: cap }, s);
      capped.jobs.forEach((j, i) => {
        const b = base.jobs[i];
        j.stages.forEach((st, si) => {
          const want = Array.isArray(b.stages[si].duration) ? (b.stages[si].duration as number[]).map((d) => Math.min(cap, d)) : b.stages[si].duration;
          expect(st.duration).toEqual(want);
          expect({ ...st, duration: 0 }).toEqual({ ...b.stages[si], duration: 0 });
        });
      });
    }), RUNS);
  });

  it("bad values name the parameter", () => {
    for (const [p, field] of [[{ tqMaxTask: 0 }, "params.tqMaxTask"], [{ tqMaxTask: NaN }, "params.tqMaxTask"], [{ identicalLqs: 1 }, "params.identicalLqs"]] as const) {
      const e = caught(() => bopfWorkload(p as never));
      expect(e).toBeInstanceOf(InputError);
      expect((e as InputError).field).toBe(field);
    }
  });
});
