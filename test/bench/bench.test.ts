// The benchmark suite's own plumbing (not timings): every registered case prepares and runs
// at a small size, the per-kernel floors read the staged input (same sum on both backends),
// and the report renders every case and ratio.
import { describe, expect, it } from "vitest";
import { registry, scenarios } from "../../bench/registry.js";
import { benchBackend } from "../../bench/backends.js";
import { srptInstance, ltrfInstance, crvInstance } from "../../bench/workload.js";
import { markdownTable, resultKey, scenarioTable, type Results, type ScenarioResults } from "../../bench/report.js";
import { burstSpecFloor } from "../../bench/bopf.js";
import { buildBopfBench } from "../../bench/bopf-scenario.js";
import type { Size } from "../../bench/cases.js";

const sizes: Size[] = [{ n: 100, k: 2 }, { n: 300, k: 6 }];

describe("bench modules", () => {
  for (const m of registry) {
    for (const c of m.cases) {
      it(`${c.id} prepares and runs`, () => {
        for (const s of sizes) {
          const call = c.prepare(s);
          call();
          call(); // repeatable: kernels must not consume their staged input
        }
      });
    }
  }

  it("ratios refer to cases of their module", () => {
    for (const m of [...registry, ...scenarios]) {
      const ids = new Set(m.cases.map((c) => c.id));
      for (const r of m.ratios) {
        expect(ids.has(r.numerator), r.numerator).toBe(true);
        expect(ids.has(r.denominator), r.denominator).toBe(true);
      }
    }
  });

  it("case ids are unique", () => {
    const ids = [...registry, ...scenarios].flatMap((m) => m.cases.map((c) => c.id));
    expect(new Set(ids).size).toBe(ids.length);
  });
});

describe("bench floors", () => {
  it("the WASM floor reads the staged views and sums like the JS twin", () => {
    const x = srptInstance(257, 3);
    const sums = (["wasm", "js"] as const).map((kind) => {
      const b = benchBackend(kind);
      const s = b.kernels.stage("srpt", x.n, x.k).views();
      s.demands.set(x.demands);
      s.rates.set(x.rates);
      s.remaining.set(x.remaining);
      return b.floorOver([s.demands, s.rates, s.remaining])();
    });
    let expected = 0;
    for (const a of [x.demands, x.rates, x.remaining]) expected += a.reduce((p, v) => p + v, 0);
    expect(sums[0]).toBe(sums[1]);
    expect(sums[0]).toBeCloseTo(expected, 6);
  });

  it("the SIMD floor adds in its documented order on both backends at every tail length; the scalar floor sums the same", () => {
    const wasm = benchBackend("wasm"), js = benchBackend("js");
    for (let len = 0; len <= 40; len++) {
      const x = srptInstance(len, 1);
      const [sw, sj] = [wasm, js].map((b) => {
        const s = b.kernels.stage("srpt", x.n, x.k).views();
        s.demands.set(x.demands);
        return { view: s.demands, sum: b.floorOver([s.demands])() };
      });
      expect(sw.sum).toBe(sj.sum);
      // lanes i % 16, combined pairwise, then the tail in order
      const lanes = new Array(16).fill(0);
      const full = len - (len % 16);
      for (let i = 0; i < full; i++) lanes[i % 16] += x.demands[i];
      const pair = (l: number) => ((lanes[l] + lanes[l + 2]) + (lanes[l + 4] + lanes[l + 6])) + ((lanes[l + 8] + lanes[l + 10]) + (lanes[l + 12] + lanes[l + 14]));
      let want = pair(0) + pair(1);
      for (let i = full; i < len; i++) want += x.demands[i];
      expect(sw.sum).toBe(want);
      expect(wasm.scalarFloorOver!([sw.view])()).toBeCloseTo(want, 9);
    }
  });

  it("rejects views that are not in the instance's memory", () => {
    const b = benchBackend("wasm");
    expect(() => b.floorOver([new Float64Array(4)])).toThrow(/not in this instance/);
  });

  it("the BoPF spec floor visits every queue", () => {
    const x = buildBopfBench(3, 2, 500, 7);
    expect(burstSpecFloor(x)).toBeGreaterThan(2);
  });
});

describe("bench inputs", () => {
  it("are deterministic and valid", () => {
    expect(srptInstance(100, 6).remaining).toEqual(srptInstance(100, 6).remaining);
    const l = ltrfInstance(100, 6);
    expect(l.pending.every((p) => Number.isInteger(p) && p >= 0)).toBe(true);
    const c = crvInstance(1000, 2);
    expect(c.offsets[0]).toBe(0);
    expect(c.offsets[c.q]).toBe(c.t);
    for (let j = 0; j < c.q; j++) expect(c.offsets[j + 1]).toBeGreaterThan(c.offsets[j]);
  });
});

describe("bench report", () => {
  it("renders every case and ratio", () => {
    const results: Results = new Map();
    for (const m of registry) for (const c of m.cases) for (const s of sizes) results.set(resultKey(c.id, s), { medianMs: 1, samples: 1, reps: 1, rme: 0 });
    const table = markdownTable(registry, sizes, results);
    for (const m of registry) for (const c of m.cases) expect(table).toContain(c.label);
    const sr: ScenarioResults = new Map();
    for (const m of scenarios) for (const c of m.cases) sr.set(c.id, { medianMs: 2, samples: 3, reps: 1, rme: 0 });
    const st = scenarioTable(scenarios, sr);
    for (const m of scenarios) for (const r of m.ratios) expect(st).toContain(r.label);
  });
});
