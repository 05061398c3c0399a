// docs/report.png is today's output: scripts/report-png.mjs (npm run docs:report-png) wrote it with
// docs/report.png.json beside it, naming the PNG's sha256 and the numbers the picture shows (the
// first chart's bars and the results table). Here the hash ties the two files together and a fresh
// run of the default scenario (seed 1, every policy) must give the same numbers.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadEngineSync } from "../../src/index.js";
import { formatCell } from "../../src/report/table.js";
import { scenarioPoint } from "../../src/report/scenario-point.js";
import { getScenario } from "../../src/scenarios/registry.js";
import { ROOT } from "./doc-files.js";

interface Shown {
  scenario: string; seed: number; policies: string[]; png: { sha256: string };
  chart: { title: string; categories: string[]; series: string[]; values: number[][] };
  table: { caption: string; columns: string[]; rows: string[][] };
}

const png = readFileSync(join(ROOT, "docs/report.png"));
const shown = JSON.parse(readFileSync(join(ROOT, "docs/report.png.json"), "utf8")) as Shown;

describe("docs/report.png", () => {
  it("is the picture docs/report.png.json describes, 1200 x 1500", () => {
    expect(createHash("sha256").update(png).digest("hex")).toBe(shown.png.sha256);
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([1200, 1500]);
  });

  it("shows the simulator's numbers: the default scenario, seed 1, every policy", () => {
    const report = getScenario("default")!.run({ seed: 1, engine: loadEngineSync() });
    expect([shown.scenario, shown.seed, shown.policies]).toEqual(["default", 1, report.policies]);
    const point = scenarioPoint(report)!;
    const [title, series] = Object.entries(point.charts)[0];
    expect(shown.chart.title).toBe(title);
    expect(shown.chart.categories).toEqual(report.policies);
    expect(shown.chart.series).toEqual(series.map((s) => s.name));
    expect(shown.chart.values).toEqual(series.map((s) => s.y));
    const table = report.tables[0];
    expect(shown.table.caption).toBe(table.title);
    expect(shown.table.columns).toEqual(table.columns);
    expect(shown.table.rows).toEqual(table.rows.map((r) => r.map((v) => formatCell(v))));
  }, 300_000);
});
