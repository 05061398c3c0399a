// The paper's headline shapes (docs/reproduction.md#headline-results) on a reduced `bopf` sweep, and the multi-LQ classes.
import { describe, expect, it } from "vitest";
import { getScenario } from "../../src/scenarios/index.js";
import { backends } from "../helpers/engines.js";
import { expectAboveOverSeeds, expectBelowOverSeeds, expectMeasuredOverSeeds } from "../helpers/over-seeds.js";

const engine = backends[0][1]();

/** The reduced `bopf` sweep (1, 8, 16 TQs; bursts 1x and 8x) for seeds 1-10, run once for every claim below. */
const SEEDS = Array.from({ length: 10 }, (_, i) => i + 1);
const sweeps = new Map<number, Array<ReturnType<NonNullable<ReturnType<typeof getScenario>>["run"]>>>();
/** The sweep without (0, the default) or with (1) the dispatch's starvation guard. */
const bySeed = (guard: 0 | 1) => {
  let s = sweeps.get(guard);
  if (!s) sweeps.set(guard, (s = SEEDS.map((seed) => getScenario("bopf")!.run({ seed, engine, params: { tqs: "1,8,16", scales: "1,8", tqJobs: 3, bursts: 3, ...(guard ? { starvationGuard: 1 } : {}) } }))));
  return s;
};
/** Per seed, column `name` of row `row` of table `table` (guard: the starvation guard on). */
const cell = (table: number, row: number, name: string, guard: 0 | 1 = 0) => bySeed(guard).map((r) => r.tables[table].rows[row][r.tables[table].columns.indexOf(name)] as number);
const ratio = (a: number[], b: number[]) => a.map((x, i) => x / b[i]);

// Every claim is over seeds 1-10 with a margin (test/helpers/over-seeds.ts: the 95% interval of
// the mean beyond the bound and a sign test p < 0.05); the numbers are in docs/reproduction-bopf.md.
describe("BoPF scenarios over seeds 1-10", () => {
  it("bopf: LQ time as SP's while DRF's grows with the TQs; TQs as DRF's and ahead of SP's with large bursts", { timeout: 1_800_000 }, () => {
    const x = [0, 1, 2].map((row) => cell(0, row, "x bopf vs drf"));
    expectBelowOverSeeds(x[0], 1.3, "1 TQ: BoPF over DRF"); // ~1 with one TQ
    expectAboveOverSeeds(x[2].map((v, i) => v - x[1][i]), 0, "BoPF over DRF at 16 TQs - at 8"); // rising with the TQs
    for (const row of [0, 1, 2]) expectBelowOverSeeds(ratio(cell(0, row, "LQ bopf"), cell(0, row, "LQ sp")), 1.25, `row ${row}: BoPF's LQ avg / SP's`);
    const big = 1; // bursts 8x
    expectBelowOverSeeds(ratio(cell(1, big, "TQ bopf"), cell(1, big, "TQ drf")), 1.05, "8x bursts: BoPF's TQ avg / DRF's");
    expectAboveOverSeeds(ratio(cell(1, big, "TQ sp"), cell(1, big, "TQ drf")), 1.05, "8x bursts: SP's TQ avg / DRF's");
    expectAboveOverSeeds(ratio(cell(1, big, "TQ sp"), cell(1, big, "TQ bopf")), 1.05, "8x bursts: SP's TQ avg / BoPF's");
  });

  // Not a paper magnitude under the default, work-conserving dispatch: SP slows the TQs with 8x
  // bursts every 300 s, but not by 1.2x (docs/reproduction-bopf.md, "The paper's shape over
  // seeds"; with the starvation guard it does, next test). Seeds 1-10.
  it("measured miss: with 8x bursts SP's TQs are 1.134 ± 0.032 times DRF's and as many times BoPF's (the paper: at least 1.2x)", { timeout: 1_800_000 }, () => {
    const drf = expectMeasuredOverSeeds(ratio(cell(1, 1, "TQ sp"), cell(1, 1, "TQ drf")), { mean: 1.134, half: 0.032 }, "8x bursts: SP's TQ avg / DRF's");
    const bopf = expectMeasuredOverSeeds(ratio(cell(1, 1, "TQ sp"), cell(1, 1, "TQ bopf")), { mean: 1.134, half: 0.032 }, "8x bursts: SP's TQ avg / BoPF's");
    expect(drf.lo as number).toBeLessThan(1.2);
    expect(bopf.lo as number).toBeLessThan(1.2);
  });

  it("bopf, starvation guard: SP's TQs at least 1.2x slower than DRF's and BoPF's with 8x bursts", { timeout: 1_800_000 }, () => {
    expectAboveOverSeeds(ratio(cell(1, 1, "TQ sp", 1), cell(1, 1, "TQ drf", 1)), 1.2, "8x bursts: SP's TQ avg / DRF's");
    expectAboveOverSeeds(ratio(cell(1, 1, "TQ sp", 1), cell(1, 1, "TQ bopf", 1)), 1.2, "8x bursts: SP's TQ avg / BoPF's");
  });

  // Not the paper's factors of improvement by a margin (Tables 3-4) under the default,
  // work-conserving dispatch (docs/reproduction-bopf.md, "The paper's shape over seeds"; with
  // the guard they hold, next test). BoPF's LQ speed-up over DRF, seeds 1-10.
  it("measured miss: BoPF over DRF is 1.779 ± 0.186 at 8 TQs and 2.943 ± 0.307 at 16 with the default dispatch (the paper: > 1.8x and > 3x)", { timeout: 1_800_000 }, () => {
    const c8 = expectMeasuredOverSeeds(cell(0, 1, "x bopf vs drf"), { mean: 1.779, half: 0.186 }, "8 TQs: BoPF over DRF");
    const c16 = expectMeasuredOverSeeds(cell(0, 2, "x bopf vs drf"), { mean: 2.943, half: 0.307 }, "16 TQs: BoPF over DRF");
    expect(c8.lo as number).toBeLessThan(1.8);
    expect(c16.lo as number).toBeLessThan(3);
  });

  it("bopf, starvation guard: the paper's factor of improvement over DRF (8 TQs > 1.8x, 16 TQs > 3x)", { timeout: 1_800_000 }, () => {
    expectAboveOverSeeds(cell(0, 1, "x bopf vs drf", 1), 1.8, "8 TQs: BoPF over DRF");
    expectAboveOverSeeds(cell(0, 2, "x bopf vs drf", 1), 3, "16 TQs: BoPF over DRF");
  });
});
