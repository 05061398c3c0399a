// The report's lead: what the scenario is about (scenario-point.ts), the latency queues kept out of
// "other", an outlier bar cut at the axis, and why a column is 0 in every row (column-notes.ts).
import { describe, expect, it } from "vitest";
import { outlierCap, topSeries } from "../../src/report/html.js";
import { zeroColumnNotes } from "../../src/report/column-notes.js";
import { latencyQueues, scenarioPoint } from "../../src/report/scenario-point.js";
import type { ScenarioReport } from "../../src/scenarios/scenario.js";

const queue = (name: string, kind: string, avg: number, p90: number) => ({ name, kind, avgCompletion: avg, p90 });
const report = (metrics: Record<string, unknown>, policies = ["drf", "bopf"]): ScenarioReport =>
  ({ scenario: "s", seed: 7, params: {}, policies, tables: [], metrics });

describe("scenarioPoint", () => {
  it("one LQ: its average and p90 completion per policy, as bars over the policies", () => {
    const r = report({
      drf: { metrics: { queues: [queue("LQ0", "LQ", 167, 196), queue("TQ0", "TQ", 3000, 6000)] } },
      bopf: { metrics: { queues: [queue("LQ0", "LQ", 73, 79), queue("TQ0", "TQ", 3001, 6001)] } },
    });
    expect([...latencyQueues(r)]).toEqual(["LQ0"]);
    const p = scenarioPoint(r)!;
    const [[title, series]] = Object.entries(p.charts);
    expect(title).toBe("LQ completion time per policy (s, seed 7)");
    expect(series.map((s) => [s.name, s.y])).toEqual([["LQ0 average", [167, 73]], ["LQ0 p90", [196, 79]]]);
    expect(p.chartAxes[title]).toMatchObject({ bars: true, categories: ["drf", "bopf"] });
  });

  it("bopf's sweep over TQ counts: one group per count, one bar per policy", () => {
    const r = report({ byTqs: [{ x: 1, drf: { LQ: { avgCompletion: 41 } }, bopf: { LQ: { avgCompletion: 40 } } }, { x: 32, drf: { LQ: { avgCompletion: 417 } }, bopf: { LQ: { avgCompletion: 101 } } }] });
    const p = scenarioPoint(r)!;
    const [[title, series]] = Object.entries(p.charts);
    expect(p.chartAxes[title].categories).toEqual(["1 TQ", "32 TQs"]);
    expect(series.map((s) => [s.name, s.y])).toEqual([["drf", [41, 417]], ["bopf", [40, 101]]]);
  });

  it("no latency queue in the metrics: no point chart", () => {
    expect(scenarioPoint(report({ drf: { metrics: { queues: [queue("A", "TQ", 1, 2)] } } }))).toBeNull();
    expect(scenarioPoint(report({}))).toBeNull();
  });
});

describe("the latency queues are never folded into 'other'", () => {
  it("topSeries keeps the named queues even when they are the smallest", () => {
    const s = ["LQ0", "TQ0", "TQ1", "TQ2", "TQ3"].map((name, i) => ({ name, x: [0, 1], y: [i === 0 ? 0.01 : i, i === 0 ? 0.01 : i] }));
    expect(topSeries(s, 3).map((x) => x.name)).toEqual(["TQ2", "TQ3", "other (3)"]);
    expect(topSeries(s, 3, new Set(["LQ0"])).map((x) => x.name)).toEqual(["LQ0", "TQ3", "other (3)"]);
  });
});

describe("outlierCap", () => {
  it("cuts the axis above bars 20x the median, at 1.25x the tallest other bar", () => {
    expect(outlierCap([[0, 1, 2, 3], [167, 73, 8319, 66], [196, 79, 9671, 72]])).toBeCloseTo(1.25 * 196);
    expect(outlierCap([[0, 1, 2], [167, 73, 417]])).toBeNull();
  });
});

describe("zeroColumnNotes", () => {
  const table = { title: "t", columns: ["policy", "LQ met", "rejected", "util"], rows: [["drf", 0, 0, 0.78], ["bopf", 0, 0, 0.79]] };
  it("says why each all-zero column is zero, with the report's deadlineSlack", () => {
    const notes = zeroColumnNotes(table, { deadlineSlack: 2 });
    expect(notes).toHaveLength(2);
    expect(notes[0]).toMatch(/^LQ met is 0 in every row: .*deadlineSlack \(2\)/);
    expect(notes[1]).toMatch(/^rejected is 0 in every row: .*admission control/);
  });
  it("says nothing about a column with a non-zero value, or a one-row table", () => {
    expect(zeroColumnNotes({ ...table, rows: [["drf", 0.5, 1, 0.7], ["bopf", 0, 0, 0.7]] })).toEqual([]);
    expect(zeroColumnNotes({ ...table, rows: [["drf", 0, 0, 0.7]] })).toEqual([]);
  });
});
