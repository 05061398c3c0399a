// The shape of the Justice paper's §5 over seeds 1-10 of the `paper-small` preset (the paper
// preset reduced 10x: 600 jobs, 225 / 450 CPUs; feasible deadlines), per deadline type, never one
// seed: a claim holds when the 95% interval of the paired difference (same jobs and deadlines per
// seed) excludes 0 and the sign test gives p < 0.05. Claims of the paper that do not hold here are
// asserted as the measured numbers (MEASURED below: every type's paired difference, mean and 95%
// half-width), so a change either way is seen. The numbers: docs/reproduction-justice.md.
import { describe, expect, it } from "vitest";
import { DEADLINE_TYPES, type DeadlineType } from "../../src/justice/deadlines.js";
import { compare, runJusticeSeeds, seedValues, type SeedMetric } from "../../src/scenarios/justice-seeds.js";
import { round3 } from "../helpers/over-seeds.js";

const SEEDS = 10;
const r = runJusticeSeeds(1, SEEDS, { preset: "paper-small" });
type Setting = "high" | "moderate";

/** a is above b on the metric: 95% interval of a - b above 0, sign test p < 0.05. */
function expectAbove(setting: Setting, d: DeadlineType, a: string, b: string, m: SeedMetric): void {
  const c = compare(r, setting, d, a, b, m);
  const what = `${setting} ${d} ${m}: ${a} - ${b} = ${c.ci.mean.toFixed(3)} ± ${c.ci.half?.toFixed(3)} (${c.sign.positive}+/${c.sign.negative}-)`;
  expect(c.ci.lo as number, what).toBeGreaterThan(0);
  expect(c.sign.p, what).toBeLessThan(0.05);
}
const expectBelow = (s: Setting, d: DeadlineType, a: string, b: string, m: SeedMetric) => expectAbove(s, d, b, a, m);
const VARIABLE: DeadlineType[] = ["Jockey2x4x", "90loose", "Aria1x3x", "Aria2x4x"];

/** A paired difference's mean and 95% half-width over the seeds, as measured (3 decimals). */
type Measured = Record<DeadlineType, [mean: number, half: number]>;

/** Every type's a - b (highly constrained), to 3 decimals, equals the measured table; returns the intervals. */
function expectMeasured(a: string, b: string, m: SeedMetric, measured: Measured): Record<DeadlineType, { lo: number; hi: number }> {
  const out = {} as Record<DeadlineType, { lo: number; hi: number }>;
  const got = Object.fromEntries(DEADLINE_TYPES.map((d) => {
    const c = compare(r, "high", d, a, b, m).ci;
    out[d] = { lo: c.lo as number, hi: c.hi as number };
    return [d, [round3(c.mean), round3(c.half as number)]];
  }));
  const what = `high ${m}: ${a} - ${b} per type ${JSON.stringify(got)}`;
  expect(got, what).toEqual(measured);
  return out;
}
/** The deadline types whose interval lies entirely above 0. */
const above = (cs: Record<DeadlineType, { lo: number; hi: number }>) => DEADLINE_TYPES.filter((d) => cs[d].lo > 0);
/** The deadline types whose interval lies entirely below 0. */
const below = (cs: Record<DeadlineType, { lo: number; hi: number }>) => DEADLINE_TYPES.filter((d) => cs[d].hi < 0);

describe(`justice shape over seeds 1-${SEEDS} (paper-small)`, () => {
  it("runs every deadline type, both capacities and the four allocators for every seed", () => {
    expect(r.cells).toHaveLength(SEEDS);
    for (const cs of r.cells) expect(cs).toHaveLength(2 * 7 * 4);
    expect(r.capacities.every((c) => c.high === 225 && c.moderate === 450)).toBe(true);
  });

  it("SDR: Justice above Baseline FS and Reactive FS on every deadline type, highly constrained (paper Fig. 4)", () => {
    for (const d of DEADLINE_TYPES) {
      expectAbove("high", d, "justice", "baseline-fs", "sdr");
      expectAbove("high", d, "justice", "reactive-fs", "sdr");
    }
  });

  it("SDR: Justice above Reactive FS on every type, and above Baseline FS on every type but Aria2x4x, moderately constrained", () => {
    for (const d of DEADLINE_TYPES) {
      expectAbove("moderate", d, "justice", "reactive-fs", "sdr");
      if (d !== "Aria2x4x") expectAbove("moderate", d, "justice", "baseline-fs", "sdr");
    }
  });

  it("Fixed1x, moderately constrained: Justice makes exactly the Oracle's decisions (same SDR and PTR on every seed)", () => {
    for (const m of ["sdr", "ptr"] as const) expect(seedValues(r, "moderate", "Fixed1x", "justice", m)).toEqual(seedValues(r, "moderate", "Fixed1x", "oracle", m));
  });

  it("SDR: the Oracle above Justice on every deadline type, highly constrained", () => {
    for (const d of DEADLINE_TYPES) expectAbove("high", d, "oracle", "justice", "sdr");
  });

  // Paper §5.2: Justice "performs similarly to the Oracle". It does not here: the Oracle's SDR is
  // 0.18 to 0.22 above Justice's on every type, highly constrained (docs/reproduction-justice.md).
  it("measured miss, SDR: the Oracle - Justice is 0.18-0.22 on every type, highly constrained (the paper: similar)", () => {
    const cs = expectMeasured("oracle", "justice", "sdr", SDR_ORACLE_JUSTICE);
    for (const d of DEADLINE_TYPES) expect(cs[d].lo, d).toBeGreaterThan(0.05);
  });

  it("Jain's index: Justice above Baseline FS and Reactive FS on every deadline type, moderately constrained (paper Fig. 2)", () => {
    for (const d of DEADLINE_TYPES) {
      expectAbove("moderate", d, "justice", "baseline-fs", "jain");
      expectAbove("moderate", d, "justice", "reactive-fs", "jain");
    }
  });

  // Paper Fig. 2 has Justice above both fair-share allocators on Jain's index; highly constrained
  // it is not on every type (docs/reproduction-justice.md): against Reactive FS every type's
  // interval but Fixed2x's lies above 0; against Baseline FS only Jockey2x4x's and Aria2x4x's.
  it("measured miss, Jain's index: Justice above Reactive FS on every type but Fixed2x, above Baseline FS only on Jockey2x4x and Aria2x4x, highly constrained", () => {
    expect(above(expectMeasured("justice", "reactive-fs", "jain", JAIN_JUSTICE_REACTIVE))).toEqual(DEADLINE_TYPES.filter((d) => d !== "Fixed2x"));
    expect(above(expectMeasured("justice", "baseline-fs", "jain", JAIN_JUSTICE_BASELINE))).toEqual(["Jockey2x4x", "Aria2x4x"]);
  });

  it("Jain's index: Justice above the Oracle on the variable deadlines Jockey2x4x, 90loose, Aria1x3x, Aria2x4x (paper §5.1)", () => {
    for (const s of ["high", "moderate"] as const) for (const d of VARIABLE) expectAbove(s, d, "justice", "oracle", "jain");
  });

  it("WTR: Justice below Baseline FS on every type, highly constrained; the Oracle wastes nothing", () => {
    for (const d of DEADLINE_TYPES) {
      expectBelow("high", d, "justice", "baseline-fs", "wtr");
      for (const s of ["high", "moderate"] as const) expect(seedValues(r, s, d, "oracle", "wtr").every((x) => x === 0)).toBe(true);
    }
  });

  // Paper §5.3: up to 100% lower WTR than Reactive FS. Highly constrained, Justice - Reactive FS
  // is lower on Fixed1x and Jockey1x2x, higher on Jockey2x4x, the rest within noise
  // (docs/reproduction-justice.md).
  it("measured miss, WTR: Justice below Reactive FS only on Fixed1x and Jockey1x2x, above on Jockey2x4x, highly constrained", () => {
    const cs = expectMeasured("justice", "reactive-fs", "wtr", WTR_JUSTICE_REACTIVE);
    expect(below(cs)).toEqual(["Fixed1x", "Jockey1x2x"]);
    expect(above(cs)).toEqual(["Jockey2x4x"]);
  });

  // Paper §5.3: up to 221% higher PTR than Reactive FS at 2,250 CPUs. Highly constrained here,
  // Justice - Reactive FS is above 0 on no type (docs/reproduction-justice.md).
  it("measured miss, PTR: Justice above Reactive FS on no type, highly constrained (the paper: up to 221% higher)", () => {
    expect(above(expectMeasured("justice", "reactive-fs", "ptr", PTR_JUSTICE_REACTIVE))).toEqual([]);
  });

  it("where Justice loses: PTR below Reactive FS on Jockey2x4x, Aria1x3x and Aria2x4x, highly constrained", () => {
    for (const d of ["Jockey2x4x", "Aria1x3x", "Aria2x4x"] as const) expectBelow("high", d, "justice", "reactive-fs", "ptr");
  });

  it("where Justice loses: PTR below Reactive FS on Fixed2x, Jockey2x4x, 90loose, Aria1x3x, Aria2x4x, moderately constrained", () => {
    for (const d of ["Fixed2x", "Jockey2x4x", "90loose", "Aria1x3x", "Aria2x4x"] as const) expectBelow("moderate", d, "justice", "reactive-fs", "ptr");
  });

  it("where Justice loses: moderately constrained Aria1x3x and Aria2x4x, PTR near 0 and WTR above Reactive FS", () => {
    for (const d of ["Aria1x3x", "Aria2x4x"] as const) {
      expectBelow("moderate", d, "justice", "reactive-fs", "ptr");
      expectAbove("moderate", d, "justice", "reactive-fs", "wtr");
      const ptr = seedValues(r, "moderate", d, "justice", "ptr");
      expect(Math.max(...ptr)).toBeLessThan(0.06);
    }
  });

  it("utilization: Justice below both fair-share allocators on every type and capacity (paper §5.4)", () => {
    for (const s of ["high", "moderate"] as const) {
      for (const d of DEADLINE_TYPES) {
        expectBelow(s, d, "justice", "baseline-fs", "utilization");
        expectBelow(s, d, "justice", "reactive-fs", "utilization");
      }
    }
  });
});

describe(`justice ablations over seeds 1-${SEEDS} (paper-small, Aria2x4x, moderately constrained)`, () => {
  const only = { preset: "paper-small", deadlines: "Aria2x4x" };
  const base = runJusticeSeeds(1, SEEDS, only, ["justice"]);
  const values = (x: typeof base, m: SeedMetric) => seedValues(x, "moderate", "Aria2x4x", "justice", m);
  const diff = (x: typeof base, m: SeedMetric) => values(x, m).map((v, i) => v - values(base, m)[i]);

  it("the lowest-fraction-ever clamp causes most of the waste: without it WTR falls on every seed, PTR stays near 0", () => {
    const off = runJusticeSeeds(1, SEEDS, { ...only, clampToMin: 0 }, ["justice"]);
    const d = diff(off, "wtr");
    expect(d.every((x) => x < -0.3), `WTR change ${d.map((x) => x.toFixed(2))}`).toBe(true);
    expect(Math.max(...values(off, "ptr"))).toBeLessThan(0.06);
  });

  it("elsewhere the clamp helps: without it the moderately constrained Fixed2x PTR falls on every seed", () => {
    const on = runJusticeSeeds(1, SEEDS, { preset: "paper-small", deadlines: "Fixed2x" }, ["justice"]);
    const off = runJusticeSeeds(1, SEEDS, { preset: "paper-small", deadlines: "Fixed2x", clampToMin: 0 }, ["justice"]);
    const v = (x: typeof on) => seedValues(x, "moderate", "Fixed2x", "justice", "ptr");
    expect(v(off).every((x, i) => x < v(on)[i])).toBe(true);
  });

  it("wave rounding is not the cause: under the fluid runtime Justice equals the Oracle's PTR on Fixed2x, while Aria2x4x stays far below it", () => {
    const f = runJusticeSeeds(1, SEEDS, { preset: "paper-small", deadlines: "Fixed2x,Aria2x4x", runtime: "fluid" }, ["justice", "oracle"]);
    const v = (d: DeadlineType, a: string) => seedValues(f, "moderate", d, a, "ptr");
    expect(v("Fixed2x", "justice")).toEqual(v("Fixed2x", "oracle"));
    expect(Math.max(...v("Aria2x4x", "justice"))).toBeLessThan(0.15);
    expect(Math.min(...v("Aria2x4x", "oracle"))).toBeGreaterThan(0.5);
  });

  it("learning from single-task jobs costs PTR: without them PTR rises on every seed", () => {
    const off = runJusticeSeeds(1, SEEDS, { ...only, trackSingleTask: 0 }, ["justice"]);
    const d = diff(off, "ptr");
    expect(d.every((x) => x > 0), `PTR change ${d.map((x) => x.toFixed(3))}`).toBe(true);
  });
});

// The measured tables of the misses above: [mean, 95% half-width] of the paired difference over
// seeds 1-10 of paper-small, highly constrained (docs/reproduction-justice.md).
const SDR_ORACLE_JUSTICE: Measured = { Fixed1x: [0.21, 0.037], Fixed2x: [0.206, 0.016], Jockey1x2x: [0.192, 0.018], Jockey2x4x: [0.184, 0.027], "90loose": [0.191, 0.014], Aria1x3x: [0.221, 0.023], Aria2x4x: [0.207, 0.022] };
const JAIN_JUSTICE_REACTIVE: Measured = { Fixed1x: [0.102, 0.032], Fixed2x: [0.027, 0.053], Jockey1x2x: [0.067, 0.052], Jockey2x4x: [0.071, 0.048], "90loose": [0.052, 0.047], Aria1x3x: [0.058, 0.047], Aria2x4x: [0.063, 0.042] };
const JAIN_JUSTICE_BASELINE: Measured = { Fixed1x: [0.047, 0.055], Fixed2x: [0.009, 0.066], Jockey1x2x: [0.026, 0.065], Jockey2x4x: [0.076, 0.057], "90loose": [0.03, 0.06], Aria1x3x: [0.028, 0.06], Aria2x4x: [0.063, 0.053] };
const WTR_JUSTICE_REACTIVE: Measured = { Fixed1x: [-0.171, 0.066], Fixed2x: [0.008, 0.086], Jockey1x2x: [-0.096, 0.075], Jockey2x4x: [0.087, 0.071], "90loose": [-0.033, 0.085], Aria1x3x: [0.01, 0.1], Aria2x4x: [0.062, 0.097] };
const PTR_JUSTICE_REACTIVE: Measured = { Fixed1x: [-0.014, 0.06], Fixed2x: [-0.135, 0.105], Jockey1x2x: [-0.069, 0.072], Jockey2x4x: [-0.231, 0.086], "90loose": [-0.106, 0.088], Aria1x3x: [-0.147, 0.082], Aria2x4x: [-0.226, 0.12] };
