// The report's layout helpers: log axes only where values span decades; top-N series plus
// "other" summing the rest; summary chart before the tables, parameters last.
import { describe, expect, it } from "vitest";
import { chartSpecs, groupBars, renderHtmlReport, spansDecades, topSeries } from "../../src/report/html.js";
import { alignBands } from "../../src/report/chart-data.js";
import { empiricalCdf } from "../../src/stats/cdf.js";
import type { ScenarioReport } from "../../src/scenarios/scenario.js";

describe("report layout", () => {
  it("spansDecades: ratio above 20, positive values only", () => {
    expect(spansDecades([56, 209, 3000])).toBe(true);
    expect(spansDecades([56, 209])).toBe(false);
    expect(spansDecades([0, 10, 1000])).toBe(false);
    expect(spansDecades([null, 1, 100])).toBe(true);
  });

  it("topSeries keeps the max-1 largest in order and sums the rest into 'other'", () => {
    const x = [0, 1, 2];
    const s = [1, 5, 2, 4, 3].map((m, i) => ({ name: `q${i}`, x, y: [m, m, m] }));
    const t = topSeries(s, 3);
    expect(t.map((z) => z.name)).toEqual(["q1", "q3", "other (3)"]);
    expect(t[2].y).toEqual([6, 6, 6]);
    expect(topSeries(s, 5)).toEqual(s);
  });

  it("summary chart first, parameters last", () => {
    const r: ScenarioReport = {
      scenario: "s", seed: 1, params: { a: 1 }, policies: ["p"],
      tables: [{ title: "T", columns: ["policy", "v"], rows: [["p", 1]] }],
      charts: { "curve": [{ name: "p", x: [1, 2, 32], y: [1, 2, 3] }], "p: share": [{ name: "q", x: [0, 1], y: [0.1, 0.2] }] },
      chartAxes: { curve: { x: "n", y: "y", lines: true, logX: true } },
      metrics: {},
    };
    const html = renderHtmlReport([r]);
    const at = (s: string) => html.indexOf(s);
    expect(at("<figcaption>curve</figcaption>")).toBeGreaterThan(0);
    expect(at("<figcaption>curve</figcaption>")).toBeLessThan(at("<caption>T</caption>"));
    expect(at("<caption>T</caption>")).toBeLessThan(at("<figcaption>p: share</figcaption>"));
    expect(at("<figcaption>p: share</figcaption>")).toBeLessThan(at("<h3>Parameters</h3>"));
    const data = JSON.parse(/id="fairsched-data">([\s\S]*?)<\/script>/.exec(html)![1]);
    expect(data.charts[0]).toMatchObject({ title: "curve", xLabel: "n", step: false, logX: true });
  });

  it("grouped bars: series j of n sits at x + (j - (n-1)/2) * 0.8/n within its category", () => {
    const s = ["a", "b", "c", "d"].map((name) => ({ name, x: [0, 1], y: [1, 2] }));
    const g = groupBars(s);
    expect(g.map((z) => z.x[0])).toEqual([-0.3, -0.1, 0.1, 0.3].map((v) => expect.closeTo(v, 12)));
    expect(g[3].x[1]).toBeCloseTo(1.3, 12);
  });

  it("intervals are aligned on the union of the series' x, null where a series has no point or no interval", () => {
    const bands = alignBands([
      { name: "a", x: [1, 3], y: [5, 6], lo: [4, null], hi: [6, 7] },
      { name: "b", x: [2], y: [1] },
    ]);
    expect(bands).toEqual([[[4, null, null], [6, null, 7]], null]);
    expect(() => alignBands([{ name: "c", x: [1, 2], y: [1, 2], lo: [1], hi: [1, 2] }])).toThrow("lo and hi");
  });

  it("a bar chart's spec: categories, fixed y range, no log axis, bands per series", () => {
    const { curves } = chartSpecs(
      { bars: [{ name: "p", x: [0, 1, 2], y: [0.5, 0.6, 0.7], lo: [0.4, 0.5, 0.6], hi: [0.6, 0.7, 0.8] }, { name: "q", x: [0, 1, 2], y: [1, 1, 1] }] },
      { bars: { x: "deadline type", y: "SDR", bars: true, categories: ["A", "B", "C"], yRange: [0, 1], logX: true } },
      "r0", 8,
    );
    expect(curves[0]).toMatchObject({ bars: true, categories: ["A", "B", "C"], yRange: [0, 1], logX: false, step: false });
    expect(curves[0].data[0]).toEqual([-0.2, 0.2, 0.8, 1.2, 1.8, 2.2].map((v) => expect.closeTo(v, 12)));
    expect(curves[0].bands[0]![0]).toEqual([0.4, null, 0.5, null, 0.6, null]);
    expect(curves[0].bands[1]).toBeNull();
  });

  it("empiricalCdf: ties keep the highest fraction", () => {
    expect(empiricalCdf([3, 1, 2, 2])).toEqual({ x: [1, 2, 3], y: [0.25, 0.75, 1] });
  });
});
