// docs/reproduction-bopf.md / the BoPF paper's Tables 3-4: with 1 LQ and N TQs the LQ's average
// completion time under SP stays low while DRF's grows with the number of TQs. Every claim is over
// seeds 1-10 with a margin (test/helpers/over-seeds.ts: the 95% interval of the mean beyond the
// bound and a sign test p < 0.05), never one seed. The workload keeps 4 jobs per TQ (not 10) so
// the 100+ runs stay affordable: the TQs are still backlogged through the third burst (t = 2100)
// at 8 and 16 TQs, which is what the claims are about.
import { describe, it } from "vitest";
import { loadEngineSync } from "../../src/index.js";
import { simulate } from "../../src/sim/simulator.js";
import { bopfWorkload } from "../../src/workloads/bopf.js";
import { expectAboveOverSeeds, expectBelowOverSeeds } from "../helpers/over-seeds.js";

const SEEDS = Array.from({ length: 10 }, (_, i) => i + 1);
const COUNTS = [1, 2, 4, 8, 16];
const engine = loadEngineSync();
const runs = new Map<string, number[]>();

/** Per seed, the LQ's average completion time with `tqs` TQs under `policy`. */
function lqAvg(tqs: number, policy: string, reservation: boolean, starvationGuard = false): number[] {
  if (policy === "drf") reservation = false; // DRF guarantees no queue: the option changes nothing
  const key = `${tqs}/${policy}/${reservation}/${starvationGuard}`;
  let xs = runs.get(key);
  if (!xs) {
    xs = SEEDS.map((seed) => simulate(bopfWorkload({ tqs, bursts: 3, tqJobs: 4 }, seed), { policy, engine, reservation, starvationGuard }).metrics.classes.LQ.avgCompletion!);
    runs.set(key, xs);
  }
  return xs;
}
const ratio = (a: number[], b: number[]) => a.map((x, i) => x / b[i]);
const diff = (a: number[], b: number[]) => a.map((x, i) => x - b[i]);

describe("BoPF paper shape under DRF and SP, over seeds 1-10", () => {
  // KNOWN FAILURE (the paper's magnitude under the default, work-conserving dispatch: the shape
  // holds, next test, but not the magnitude). Over seeds 1-10 (DRF/SP, mean ± 95% interval
  // [min, max]): 8 TQs 1.939 ± 0.172 [1.439, 2.201], 16 TQs 2.964 ± 0.298 [2.119, 3.587]: SP's LQ,
  // blocked at the head of the elastic order, sees TQ tasks take the room its tasks wait for.
  it.fails("default dispatch: the paper's magnitude (8 TQs: DRF/SP > 2.5, 16 TQs: > 4)", { timeout: 1_800_000 }, () => {
    expectAboveOverSeeds(ratio(lqAvg(8, "drf", false), lqAvg(8, "sp", false)), 2.5, "8 TQs, DRF/SP");
    expectAboveOverSeeds(ratio(lqAvg(16, "drf", false), lqAvg(16, "sp", false)), 4, "16 TQs, DRF/SP");
  });

  // With the dispatch's starvation guard (starvationGuard: true; docs/policies/simulator.md) the
  // blocked LQ's room is held: 8 TQs 3.043 ± 0.135 [2.754, 3.403], 16 TQs 5.334 ± 0.180 [5.020, 5.804].
  it("starvation guard: the paper's magnitude (8 TQs: DRF/SP > 2.5, 16 TQs: > 4)", { timeout: 1_800_000 }, () => {
    expectAboveOverSeeds(ratio(lqAvg(8, "drf", false, true), lqAvg(8, "sp", false, true)), 2.5, "8 TQs, DRF/SP");
    expectAboveOverSeeds(ratio(lqAvg(16, "drf", false, true), lqAvg(16, "sp", false, true)), 4, "16 TQs, DRF/SP");
  });

  it("default dispatch: SP's LQ well below DRF's at 8 and 16 TQs, and the gap grows with the TQs", { timeout: 1_800_000 }, () => {
    const r8 = ratio(lqAvg(8, "drf", false), lqAvg(8, "sp", false));
    const r16 = ratio(lqAvg(16, "drf", false), lqAvg(16, "sp", false));
    expectAboveOverSeeds(r8, 1.5, "8 TQs, DRF/SP");
    expectAboveOverSeeds(r16, 2, "16 TQs, DRF/SP");
    expectAboveOverSeeds(diff(r16, r8), 0, "DRF/SP at 16 TQs - at 8");
  });

  it("DRF's LQ completion grows with the number of TQs; SP's stays far below (reservation reading)", { timeout: 1_800_000 }, () => {
    const drf = COUNTS.map((n) => lqAvg(n, "drf", true));
    const sp = COUNTS.map((n) => lqAvg(n, "sp", true));
    for (let i = 1; i < COUNTS.length; i++) expectAboveOverSeeds(diff(drf[i], drf[i - 1]), 0, `DRF's LQ avg at ${COUNTS[i]} TQs - at ${COUNTS[i - 1]}`);
    expectBelowOverSeeds(ratio(drf[0], sp[0]), 1.6, "1 TQ, DRF/SP"); // about the same
    for (let i = 0; i < COUNTS.length; i++) expectAboveOverSeeds(ratio(drf[4], sp[i]), 3, `DRF at 16 TQs / SP at ${COUNTS[i]}`);
  });

  // KNOWN FAILURE (the paper's magnitudes with the reservation reading, unguaranteed queues
  // start nothing while a guaranteed LQ is below its guarantee, without the starvation guard):
  // over seeds 1-10 the means are above the bounds but not by a margin: 8 TQs 2.578 ± 0.178
  // [2.113, 2.914] (7 of 10 seeds above 2.5), 16 TQs 4.200 ± 0.234 [3.648, 4.721] (8 of 10 above 4).
  it.fails("reservation reading: the paper's magnitude (8 TQs: DRF/SP > 2.5, 16 TQs: > 4)", { timeout: 1_800_000 }, () => {
    expectAboveOverSeeds(ratio(lqAvg(8, "drf", true), lqAvg(8, "sp", true)), 2.5, "8 TQs, DRF/SP");
    expectAboveOverSeeds(ratio(lqAvg(16, "drf", true), lqAvg(16, "sp", true)), 4, "16 TQs, DRF/SP");
  });
});
