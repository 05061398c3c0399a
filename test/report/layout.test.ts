// The report's layout helpers: log axes only where values span decades; top-N series plus
// "other" summing the rest; summary chart before the tables, parameters last.
import { describe, expect, it } from "vitest";
import { renderHtmlReport, spansDecades, topSeries } from "../../src/report/html.js";
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
});
