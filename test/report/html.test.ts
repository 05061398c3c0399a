// The HTML report as text: self-contained, escaped, carrying the run's data. (The browser test
// checks that it actually draws.)
import { describe, expect, it } from "vitest";
import { loadEngineSync } from "../../src/index.js";
import { alignSeries, cdfSeries } from "../../src/report/chart-data.js";
import { escapeHtml, jsonForScript, renderHtmlReport } from "../../src/report/html.js";
import type { ScenarioReport } from "../../src/scenarios/index.js";
import { tinyScenario } from "../fixtures/tiny-scenario.js";

const engine = loadEngineSync({ backend: "js" });

function dataBlock(html: string): { charts: Array<{ id: string; title: string; series: string[]; data: unknown[][] }> } {
  const m = /<script type="application\/json" id="fairsched-data">([\s\S]*?)<\/script>/.exec(html);
  if (!m) throw new Error("no data block");
  return JSON.parse(m[1]);
}

describe("renderHtmlReport", () => {
  const report = tinyScenario.run({ seed: 7, engine });

  it("is one offline file: uPlot inlined, a CSP that forbids the network, no external references", () => {
    const html = renderHtmlReport([report]);
    expect(html.startsWith("<!doctype html>")).toBe(true);
    expect(html).toContain("default-src 'none'");
    expect(html).toMatch(/uPlot/);
    expect(html).not.toMatch(/<script[^>]+src=/i);
    expect(html).not.toMatch(/<link[^>]+stylesheet/i);
    expect(html).not.toMatch(/(src|href)="(https?:)?\/\//i);
    // Exactly three scripts: data, uPlot, the drawing code.
    expect(html.match(/<\/script>/g)).toHaveLength(3);
  });

  it("carries charts, CDFs, tables, parameters and seed", () => {
    const html = renderHtmlReport([report]);
    const data = dataBlock(html);
    const titles = data.charts.map((c) => c.title);
    // the summary (all jobs' completion CDF) comes first, then the share charts and per-queue CDFs
    expect(titles[0]).toMatch(/^All jobs/);
    expect(titles.slice(1).map((t) => t.replace(/ \(log time axis\)$/, "")).sort()).toEqual(["drf: dominant share per queue", "drf-w2: dominant share per queue", "Queue q0", "Queue q1", "Queue q2"].sort());
    const alloc = data.charts.find((c) => c.title === "drf: dominant share per queue")!;
    expect(alloc.series).toEqual(["q0", "q1", "q2"]);
    expect(alloc.data[0]).toEqual(report.charts!["drf: dominant share per queue"][0].x);
    expect(alloc.data[1]).toEqual(report.charts!["drf: dominant share per queue"][0].y);
    const all = data.charts[0];
    expect(all.series).toEqual(["drf", "drf-w2"]);
    expect(html).toContain("seed 7");
    expect(html).toContain("<caption>Average completion time per queue (steps)</caption>");
    expect(html).toMatch(/<th>steps<\/th><td><code>40<\/code><\/td>/);
  });

  it("escapes hostile names everywhere (no </script> or markup injection)", () => {
    const evil = `</script><script>alert(1)</script><!--&"'`;
    const r: ScenarioReport = {
      scenario: evil, seed: 1, params: { [evil]: evil }, policies: [evil],
      tables: [{ title: evil, columns: [evil], rows: [[evil]], notes: [evil] }],
      charts: { [evil]: [{ name: evil, x: [0, 1], y: [0.5, NaN] }] },
      metrics: { [evil]: { completionTimes: { [evil]: [1, 2, 3] } } },
    };
    const html = renderHtmlReport([r]);
    expect(html.match(/<\/script>/g)).toHaveLength(3);
    expect(html).not.toContain("<script>alert(1)");
    const data = dataBlock(html);
    const share = data.charts.find((c) => c.title === evil)!;
    expect(share.series).toEqual([evil]);
    expect(share.data[1]).toEqual([0.5, null]); // NaN is a gap, not 0
    expect(data.charts.map((c) => c.title.replace(/ \(log time axis\)$/, "")).sort()).toEqual([evil, "All jobs", `Queue ${evil}`].sort());
    expect(escapeHtml(evil)).not.toMatch(/[<>"']/);
    expect(JSON.parse(jsonForScript(evil))).toBe(evil);
  });

  it("renders several reports with distinct chart ids", () => {
    const html = renderHtmlReport([report, tinyScenario.run({ seed: 8, engine, policies: ["drf"] })]);
    const ids = dataBlock(html).charts.map((c) => c.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(html).toContain(`id="${id}"`);
  });
});

describe("chart data", () => {
  it("CDF: exact for small samples, ties collapsed", () => {
    expect(cdfSeries("a", [3, 1, 2, 2])).toEqual({ name: "a", x: [1, 2, 3], y: [0.25, 0.75, 1] });
    expect(cdfSeries("a", [])).toEqual({ name: "a", x: [], y: [] });
  });

  it("CDF: large samples reduced to quantiles, ending at the maximum", () => {
    const v = Array.from({ length: 10_000 }, (_, i) => i + 1);
    const s = cdfSeries("a", v, 100);
    expect(s.x).toHaveLength(100);
    expect(s.x.at(-1)).toBe(10_000);
    expect(s.y.at(-1)).toBe(1);
    expect(s.x[49]).toBe(5000);
  });

  it("aligns series with different x on the union", () => {
    const a = alignSeries([{ name: "a", x: [0, 2], y: [1, 2] }, { name: "b", x: [1, 2], y: [3, 4] }]);
    expect(a).toEqual([[0, 1, 2], [1, null, 2], [null, 3, 4]]);
  });
});
