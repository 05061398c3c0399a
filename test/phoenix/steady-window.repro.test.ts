// The Google steady-arrival window (src/phoenix/steady-window.ts) on the full GOOG_subtrace.tr
// (FAIRSCHED_TRACES, found by test/helpers/traces.ts): the window's numbers as the docs state
// them, and why the first 1,500 jobs are no replay at a utilization.
import { describe, expect, it } from "vitest";
import { loadEagleTrace } from "../../src/traces/eagle.js";
import { GOOGLE_STEADY_WINDOW, arrivalCv, arrivalWindow } from "../../src/phoenix/steady-window.js";
import { arrivalSpan, totalWork } from "../../src/phoenix/workload.js";
import { tracePath } from "../helpers/traces.js";

describe("GOOGLE_STEADY_WINDOW", () => {
  it("holds 5,722 jobs (5,499 short) arriving steadily (CV of arrivals per 1,000 s 0.08, earlier starts >= 0.2)", async () => {
    const tr = (await loadEagleTrace(tracePath("eagle-format/GOOG_subtrace.tr"))).jobs;
    const g = GOOGLE_STEADY_WINDOW;
    const w = arrivalWindow(tr, g.from, g.to);
    expect(w.length).toBe(5722);
    expect(w.filter((j) => !(j.meanDuration > 1129.532)).length).toBe(5499);
    expect(arrivalCv(w, 1000)).toBeLessThan(0.1);
    for (const from of [70_000, 72_000]) expect(arrivalCv(arrivalWindow(tr, from, Infinity), 1000)).toBeGreaterThan(0.2);
    // the first 1,500 jobs: most arrive within ~10,000 s of a 71,409 s span, so a cluster sized by
    // that span for 90% is offered far more than its capacity while they arrive
    const first = tr.slice(0, 1500);
    expect(arrivalSpan(first)).toBeCloseTo(71_409, 0);
    const dense = first.filter((j) => j.arrival - first[0].arrival >= 60_000);
    const workers = totalWork(first) / (arrivalSpan(first) * 0.9);
    expect(totalWork(dense) / (arrivalSpan(dense) * workers)).toBeGreaterThan(5);
  });

});
