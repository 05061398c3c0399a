// Google cluster trace 2011 loader: the real part file (found by test/helpers/traces.ts), corrupted copies,
// and the mapping rules on hand-written rows.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gunzipSync, gzipSync } from "node:zlib";
import { afterAll, describe, expect, it } from "vitest";
import { InputError } from "../../src/errors.js";
import { validateWorkload } from "../../src/sim/validate-workload.js";
import { GoogleTraceBuilder, LineProblem, loadGoogle2011, loadTrace, parseJobEvent, parseTaskEvent } from "../../src/traces/index.js";
import { IssueLog } from "../../src/traces/issues.js";
import { tracePath } from "../helpers/traces.js";

const DIR = tracePath("google-2011");
const TASKS = join(DIR, "task_events-part-00001-of-00500.csv.gz");
const JOBS = join(DIR, "job_events-part-00001-of-00500.csv.gz");

const tmp = mkdtempSync(join(tmpdir(), "fairsched-google-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** A copy of the real task_events with line `n` (1-based) replaced, gzipped like the original. */
function corruptCopy(n: number, replace: (line: string) => string): string {
  const lines = gunzipSync(readFileSync(TASKS)).toString("utf8").split("\n");
  lines[n - 1] = replace(lines[n - 1]);
  const out = join(tmp, `task_events-corrupt-${n}.csv.gz`);
  writeFileSync(out, gzipSync(lines.join("\n")));
  return out;
}

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

describe("Google 2011 loader: corrupted copies", () => {
  it("rejects a bad event_type naming the file and line", async () => {
    const f = corruptCopy(40_000, (l) => l.split(",").map((x, i) => (i === 5 ? "9" : x)).join(","));
    const err = await loadGoogle2011({ taskEvents: f }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InputError);
    expect((err as Error).message).toContain(`${f}:40000`);
    expect((err as Error).message).toContain("event_type must be an integer 0..8");
  });

  it("rejects a short row; lenient mode skips and counts it", async () => {
    const f = corruptCopy(123, (l) => l.split(",").slice(0, 7).join(","));
    await expect(loadGoogle2011({ taskEvents: f })).rejects.toThrow(`${f}:123: expected 13 comma-separated task_events columns, got 7`);
    const { summary } = await loadGoogle2011({ taskEvents: f, lenient: true });
    expect(summary.skipped).toBe(1);
    expect(summary.skippedByReason).toEqual({ columns: 1 });
    expect(summary.firstSkipped[0]).toContain(`${f}:123`);
  });

  it("rejects a non-numeric request", async () => {
    const f = corruptCopy(77_776, (l) => l.split(",").map((x, i) => (i === 10 ? "0.1O" : x)).join(","));
    await expect(loadGoogle2011({ taskEvents: f })).rejects.toThrow(`${f}:77776: memory_request must be a number >= 0 or empty`);
  });

  it("reports a truncated gzip as an InputError naming the file", async () => {
    const whole = readFileSync(TASKS);
    const f = join(tmp, "task_events-truncated.csv.gz");
    writeFileSync(f, whole.subarray(0, whole.length >> 1));
    const err = await loadGoogle2011({ taskEvents: f }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InputError);
    expect((err as Error).message).toMatch(new RegExp(`^${f.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}:\\d+: cannot gunzip`));
  });

  it("names a missing file", async () => {
    await expect(loadGoogle2011({ taskEvents: join(tmp, "nope.csv.gz") })).rejects.toThrow("no such file");
  });
});

describe("Google 2011 rows and mapping, on strings", () => {
  const row = (t: number, task: number, type: number, extra = "a,0,0,0.5,0.25,0.001,0") =>
    `${t},,42,${task},,${type},${extra}`;

  it("parses a row with empty optional fields", () => {
    const e = parseTaskEvent("5,,7,3,,0,,,,,,,");
    expect(e).toEqual({ time: 5, jobId: "7", taskIndex: 3, type: 0, user: "", schedulingClass: null, cpu: null, memory: null, disk: null });
    expect(parseTaskEvent("9223372036854775807,,7,3,,4,u,1,0,0.1,0.1,0,0")).toMatchObject({ time: Infinity, type: 4 });
    expect(parseTaskEvent("5,,7,-3,,0,,,,,,,")).toBeInstanceOf(LineProblem);
    expect(parseTaskEvent("")).toEqual(new LineProblem("blank", "blank line"));
    expect(parseJobEvent("1,,9,0,u,2,name,logical")).toEqual({ time: 1, jobId: "9", type: 0, user: "u", schedulingClass: 2, name: "name", logicalName: "logical" });
  });

  function build(rows: string[], censored: "clip" | "drop" = "clip") {
    const b = new GoogleTraceBuilder();
    for (const r of rows) {
      const e = parseTaskEvent(r);
      if (e instanceof LineProblem) throw new Error(e.message);
      b.addTaskEvent(e);
    }
    const log = new IssueLog(false);
    const { workload } = b.build({ name: "t", machines: 10, queueBy: "user", censored }, log);
    return { workload, summary: log.summary(rows.length, workload) };
  }

  it("the last complete run counts; unsorted rows map like sorted ones; equal demands share a stage", () => {
    const rows = [
      row(1_000_000, 0, 0), row(2_000_000, 0, 1), row(3_000_000, 0, 2), // evicted after 1 s
      row(3_000_000, 0, 0), row(4_000_000, 0, 1), row(9_000_000, 0, 4), // reran 5 s, finished
      row(1_500_000, 1, 0), row(2_500_000, 1, 1), row(4_500_000, 1, 4), // 2 s
      row(1_200_000, 2, 0, "a,0,0,0.1,0.1,0,0"), row(1_300_000, 2, 1, "a,0,0,0.1,0.1,0,0"), row(1_400_000, 2, 3, "a,0,0,0.1,0.1,0,0"),
    ];
    const sorted = build(rows);
    expect(sorted.workload.jobs).toEqual([{
      id: "42", queue: "a", arrival: 0,
      stages: [
        { tasks: 2, demand: [0.5, 0.25, 0.001], duration: [5, 2] },
        { tasks: 1, demand: [0.1, 0.1, 0], duration: 0.1 },
      ],
    }]);
    const shuffled = build([...rows].reverse());
    expect(shuffled.workload).toEqual(sorted.workload);
  });

  it("censored runs: clipped to the slice, or dropped", () => {
    const rows = [
      row(1_000_000, 0, 4),                         // ended, never scheduled here: started before
      row(2_000_000, 1, 0), row(3_000_000, 1, 1),   // still running at the end (10 s)
      row(4_000_000, 2, 0),                         // only submitted
      row(5_000_000, 3, 1), row(10_000_000, 3, 5),  // killed after 5 s, no SUBMIT here: arrives at its start
    ];
    const clip = build(rows);
    expect(clip.workload.jobs[0].stages[0].duration).toEqual([0, 7, 5].map((d, i) => (i === 0 ? 1e-6 : d)));
    expect(clip.workload.jobs[0].arrival).toBe(0);
    expect(clip.summary.excluded).toEqual({ never_scheduled: 1 });
    expect(clip.summary.adjusted).toEqual({ clipped_running_at_slice_end: 1, clipped_started_before_slice: 1 });
    const drop = build(rows, "drop");
    expect(drop.workload.jobs).toEqual([{ id: "42", queue: "a", arrival: 4, stages: [{ tasks: 1, demand: [0.5, 0.25, 0.001], duration: 5 }] }]);
    expect(drop.summary.excluded).toEqual({ never_scheduled: 1, running_at_slice_end: 1, started_before_slice: 1 });
  });
});
