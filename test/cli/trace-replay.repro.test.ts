// The CLI replaying the full Google 2011 part file (FAIRSCHED_TRACES, found by
// test/helpers/traces.ts) under DRF, BoPF and LTRF, as a user runs it (the built dist/). The same
// on the committed sample: cli.test.ts.
import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { tracePath } from "../helpers/traces.js";

const bin = new URL("../../dist/cli/main.js", import.meta.url).pathname;

describe("fairsched simulate --trace, the full part file", () => {
  it("simulate --trace replays the real Google 2011 part under DRF, BoPF and LTRF", () => {
    const trace = tracePath("google-2011/task_events-part-00001-of-00500.csv.gz");
    const r = spawnSync(process.execPath, [bin, "simulate", "--trace", trace, "--format", "google2011", "--policies", "drf,bopf,ltrf", "--param", "machines=300", "--json"], { encoding: "utf8", timeout: 120_000, maxBuffer: 256 * 2 ** 20 });
    expect(r.status, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(report.policies).toEqual(["drf", "bopf", "ltrf"]);
    for (const p of ["drf", "bopf", "ltrf"]) {
      const tq = report.metrics[p].metrics.classes.TQ;
      expect(tq.jobs).toBeGreaterThan(1000);
      expect(tq.finished + tq.dropped + tq.rejected).toBe(tq.jobs);
    }
  });
});
