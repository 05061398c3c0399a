// SWIM Facebook 2009 loader on the full TSV (FAIRSCHED_TRACES, found by test/helpers/traces.ts):
// the counts computed independently with awk. The same checks on the committed sample run in
// npm test (swim.test.ts).
import { describe, expect, it } from "vitest";
import { validateWorkload } from "../../src/sim/validate-workload.js";
import { loadSwim, loadTrace } from "../../src/traces/index.js";
import { tracePath } from "../helpers/traces.js";

const FILE = tracePath("swim/FB-2009_samples_24_times_1hr_0.tsv");
const MiB = 1024 * 1024;

describe("SWIM FB-2009, the real file", () => {
  // Expected numbers computed independently with awk over the TSV (B = 67108864):
  //   wc -l -> 5894 lines, all with 6 fields;
  //   maps    = sum of ($4 > 0 ? ceil($4 / B) : 1)                             -> 406005
  //   reduces = sum over $5 > 0 of max(1, ceil(max($5, $6) / B))               -> 332135 (1446 such jobs)
  //   size classes by map count (<= 10, <= 500, more)                         -> 5320 / 429 / 145
  it("counts, first and last job", async () => {
    const { workload, summary } = await loadSwim({ file: FILE });
    expect(summary).toMatchObject({ lines: 5894, jobs: 5894, tasks: 406005 + 332135, skipped: 0 });
    expect(workload.jobs.filter((j) => j.stages.length === 2).length).toBe(1446);
    expect(workload.capacity).toEqual([4800, 9600]);
    // head -1: job0 49 49 740773 2339561 627471 -> 1 map, 1 reduce
    expect(workload.jobs[0]).toEqual({
      id: "job0", queue: "default", arrival: 49,
      stages: [
        { tasks: 1, demand: [1, 1], duration: 1 + 740773 / (8 * MiB) },
        { tasks: 1, demand: [1, 2], duration: 1 + (2339561 + 627471) / (8 * MiB), parents: [0] },
      ],
    });
    // tail -1: job5893 86404 3 5116 0 606629 -> map-only, the maps write the output
    expect(workload.jobs.at(-1)).toEqual({
      id: "job5893", queue: "default", arrival: 86404,
      stages: [{ tasks: 1, demand: [1, 1], duration: 1 + (5116 + 606629) / (8 * MiB) }],
    });
    expect(() => validateWorkload(workload)).not.toThrow();
  });

  it("queues by size and loadTrace's format guess", async () => {
    const { workload } = await loadTrace(FILE, { params: { queueBy: "size" } });
    const count = (q: string) => workload.jobs.filter((j) => j.queue === q).length;
    expect([count("small"), count("medium"), count("large")]).toEqual([5320, 429, 145]);
    expect(workload.queues.map((q) => q.name)).toEqual(["small", "medium", "large"]);
  });
});
