// docs/reproduction-bopf.md / the BoPF paper's Tables 3-4: with 1 LQ and N TQs the LQ's average
// completion time under SP stays low while DRF's grows with the number of TQs. Every claim is over
// seeds 1-10 with a margin (test/helpers/over-seeds.ts: the 95% interval of the mean beyond the
// bound and a sign test p < 0.05), never one seed. The workload keeps 4 jobs per TQ (not 10) so
// the 100+ runs stay affordable: the TQs are still backlogged through the third burst (t = 2100)
// at 8 and 16 TQs, which is what the claims are about.
import { describe, expect, it } from "vitest";
import { loadEngineSync } from "../../src/index.js";
import { simulate } from "../../src/sim/simulator.js";
import { bopfWorkload } from "../../src/workloads/bopf.js";
import { expectAboveOverSeeds, expectBelowOverSeeds, expectMeasuredOverSeeds } from "../helpers/over-seeds.js";

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
  // Not the paper's magnitude under the default, work-conserving dispatch (the shape holds, next
  // tests): SP's LQ, blocked at the head of the elastic order, sees TQ tasks take the room its
  // tasks wait for (docs/reproduction-bopf.md, "The paper's shape over seeds"). Seeds 1-10.
  it("measured miss, default dispatch: DRF/SP is 1.939 ± 0.172 at 8 TQs and 2.964 ± 0.298 at 16 (the paper: > 2.5 and > 4)", { timeout: 1_800_000 }, () => {
    const c8 = expectMeasuredOverSeeds(ratio(lqAvg(8, "drf", false), lqAvg(8, "sp", false)), { mean: 1.939, half: 0.172 }, "8 TQs, DRF/SP");
    const c16 = expectMeasuredOverSeeds(ratio(lqAvg(16, "drf", false), lqAvg(16, "sp", false)), { mean: 2.964, half: 0.298 }, "16 TQs, DRF/SP");
    expect(c8.hi as number).toBeLessThan(2.5);
    expect(c16.hi as number).toBeLessThan(4);
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

  // Not the paper's magnitudes by a margin with the reservation reading (unguaranteed queues
  // start nothing while a guaranteed LQ is below its guarantee; no starvation guard): the means
  // are above the bounds but the intervals hold them (docs/reproduction-bopf.md, "The paper's
  // shape over seeds"). Seeds 1-10.
  it("measured miss, reservation reading: DRF/SP is 2.578 ± 0.178 at 8 TQs and 4.200 ± 0.234 at 16 (the paper: > 2.5 and > 4)", { timeout: 1_800_000 }, () => {
    const c8 = expectMeasuredOverSeeds(ratio(lqAvg(8, "drf", true), lqAvg(8, "sp", true)), { mean: 2.578, half: 0.178 }, "8 TQs, DRF/SP");
    const c16 = expectMeasuredOverSeeds(ratio(lqAvg(16, "drf", true), lqAvg(16, "sp", true)), { mean: 4.2, half: 0.234 }, "16 TQs, DRF/SP");
    expect(c8.lo as number).toBeLessThan(2.5);
    expect(c16.lo as number).toBeLessThan(4);
  });
});
