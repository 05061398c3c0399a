// Google cluster trace 2011 loader on the full part file (FAIRSCHED_TRACES, found by
// test/helpers/traces.ts): the counts computed independently with zcat + awk. The same checks on
// the committed sample run in npm test (google2011.test.ts).
import { describe, expect, it } from "vitest";
import { validateWorkload } from "../../src/sim/validate-workload.js";
import { loadGoogle2011, loadTrace } from "../../src/traces/index.js";
import { tracePath } from "../helpers/traces.js";

const TASKS = tracePath("google-2011/task_events-part-00001-of-00500.csv.gz");
const JOBS = tracePath("google-2011/job_events-part-00001-of-00500.csv.gz");

describe("Google 2011 task_events, the real part file", () => {
  // Expected numbers computed independently of the loader with zcat + awk:
  //   zcat task_events-part-00001-of-00500.csv.gz | wc -l                          -> 77776
  //   zcat job_events-part-00001-of-00500.csv.gz | wc -l                           -> 3099
  //   distinct (job_id, task_index)                                                -> 25006
  //   per task, walking rows in order (SCHEDULE opens a run, EVICT/FAIL/FINISH/KILL/LOST closes it):
  //     with a complete run 13151, still running at the end 7331, ended without a SCHEDULE in the
  //     slice (started before it) 4493, only submitted 31 (13151 + 7331 + 4493 + 31 = 25006).
  //   distinct job_id over the 13151 complete tasks                                -> 972
  it("clip (default): every task with a run, censored runs cut at the slice's edges", async () => {
    const { workload, summary, jobNames } = await loadGoogle2011({ taskEvents: TASKS, jobEvents: JOBS });
    expect(summary).toMatchObject({
      lines: 77776 + 3099,
      tasks: 13151 + 7331 + 4493,
      jobs: 1323,
      skipped: 0,
      excluded: { never_scheduled: 31 },
      adjusted: { clipped_running_at_slice_end: 7331, clipped_started_before_slice: 4493 },
    });
    expect(workload.resources).toEqual(["cpu", "memory", "disk"]);
    expect(workload.capacity).toEqual([12583, 12583, 12583]);
    // First and last timestamps of the file (awk min/max of column 1): 5611824441, 10622388150.
    expect(workload.params).toMatchObject({ timeOrigin_us: 5611824441, sliceLength_s: 5010.563709 });
    // Last job by arrival, from `zcat ... | grep ,6252282587,`: task 0 SUBMIT at 10620937033,
    // SCHEDULE at 10622369436, no end in the slice -> clipped at 10622388150; requests 0, 0.0001554, 0.
    expect(workload.jobs.at(-1)).toEqual({
      id: "6252282587",
      queue: "/2WebBqImWuoAsnGB4CcpuKuNXVXCMiNPvDLG5cMlPQ=",
      arrival: (10620937033 - 5611824441) / 1e6,
      stages: [{ tasks: 1, demand: [0, 0.0001554, 0], duration: (10622388150 - 10622369436) / 1e6 }],
    });
    // Its logical job name from job_events (grep ,6252282587, job_events...: last column).
    expect(jobNames["6252282587"]).toBe("8Kg2ER3aHAvIRwr1ntpvencLP6YDISd7OG7xfS5QVMs=");
    expect(workload.jobs[0].arrival).toBe(0);
    for (let i = 1; i < workload.jobs.length; i++) expect(workload.jobs[i].arrival).toBeGreaterThanOrEqual(workload.jobs[i - 1].arrival);
    expect(() => validateWorkload(workload)).not.toThrow();
  });

  it("drop: only tasks with a complete run inside the slice", async () => {
    const { workload, summary } = await loadGoogle2011({ taskEvents: TASKS, censored: "drop" });
    expect(summary).toMatchObject({
      lines: 77776, tasks: 13151, jobs: 972, skipped: 0,
      excluded: { never_scheduled: 31, running_at_slice_end: 7331, started_before_slice: 4493 },
      adjusted: {},
    });
    // awk over complete tasks, job arrival = min(first SUBMIT, run start), sorted:
    // first job 6251995937 (15 tasks) at 5612587446 µs; last job 6252278570 (1 task): SUBMIT
    // 10571820835, SCHEDULE 10573228003, FINISH 10597643271, requests 0.03125, 0.0159, 3.815e-05.
    const first = workload.jobs[0];
    expect(first.id).toBe("6251995937");
    expect(first.arrival).toBeCloseTo((5612587446 - 5611824441) / 1e6, 9);
    expect(first.stages.reduce((n, s) => n + s.tasks, 0)).toBe(15);
    expect(workload.jobs.at(-1)).toMatchObject({
      id: "6252278570",
      arrival: (10571820835 - 5611824441) / 1e6,
      stages: [{ tasks: 1, demand: [0.03125, 0.0159, 3.815e-5], duration: (10597643271 - 10573228003) / 1e6 }],
    });
    expect(() => validateWorkload(workload)).not.toThrow();
  });

  it("queues by scheduling class and a chosen cluster size", async () => {
    const { workload } = await loadGoogle2011({ taskEvents: TASKS, queueBy: "class", machines: 50 });
    expect(workload.queues.map((q) => q.name).sort()).toEqual(["class-0", "class-1", "class-2", "class-3"]);
    expect(workload.capacity).toEqual([50, 50, 50]);
  });

  it("loadTrace guesses the format and picks up the sibling job_events", async () => {
    const { summary } = await loadTrace(TASKS);
    expect(summary.lines).toBe(77776 + 3099);
  });

  it("is deterministic: two loads give the same workload", async () => {
    const a = await loadGoogle2011({ taskEvents: TASKS });
    const b = await loadGoogle2011({ taskEvents: TASKS });
    expect(JSON.stringify(a.workload)).toBe(JSON.stringify(b.workload));
  });
});
