// Google cluster trace 2011 loader: a sample cut from the real part file (test/fixtures/traces/),
// corrupted copies of it, and the mapping rules on hand-written rows. The full part file:
// google2011.repro.test.ts.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gunzipSync, gzipSync } from "node:zlib";
import { afterAll, describe, expect, it } from "vitest";
import { InputError } from "../../src/errors.js";
import { validateWorkload } from "../../src/sim/validate-workload.js";
import { GoogleTraceBuilder, LineProblem, loadGoogle2011, loadTrace, parseJobEvent, parseTaskEvent } from "../../src/traces/index.js";
import { IssueLog } from "../../src/traces/issues.js";
import { fixturePath } from "../helpers/traces.js";

const TASKS = fixturePath("google-2011/task_events-sample.csv.gz");
const JOBS = fixturePath("google-2011/job_events-sample.csv.gz");
/** Scheduling classes in the sample: zcat task_events-sample.csv.gz | cut -d, -f8 | sort -u. */
const CLASSES = ["class-0", "class-1", "class-2", "class-3"];

const tmp = mkdtempSync(join(tmpdir(), "fairsched-google-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** A copy of the sample task_events with line `n` (1-based) replaced, gzipped like the original. */
function corruptCopy(n: number, replace: (line: string) => string): string {
  const lines = gunzipSync(readFileSync(TASKS)).toString("utf8").split("\n");
  lines[n - 1] = replace(lines[n - 1]);
  const out = join(tmp, `task_events-corrupt-${n}.csv.gz`);
  writeFileSync(out, gzipSync(lines.join("\n")));
  return out;
}

describe("Google 2011 task_events, the committed sample", () => {
  // The sample is the part file's first 5,000 rows and the job_events rows of their jobs
  // (test/fixtures/traces/README.md). Expected numbers computed independently of the loader with
  // zcat + awk (the awk of the README, which gives the full part's 13151 / 7331 / 4493 / 31):
  //   zcat task_events-sample.csv.gz | wc -l                                         -> 5000
  //   zcat job_events-sample.csv.gz | wc -l                                          -> 268
  //   per task, walking rows in order (SCHEDULE opens a run, EVICT/FAIL/FINISH/KILL/LOST closes it):
  //     with a complete run 179, still running at the end 1465, ended without a SCHEDULE in the
  //     sample (started before it) 367, only submitted 8 (2019 distinct (job_id, task_index)).
  //   distinct job_id over tasks with a run 168; over the 179 complete tasks 62.
  it("clip (default): every task with a run, censored runs cut at the sample's edges", async () => {
    const { workload, summary } = await loadGoogle2011({ taskEvents: TASKS, jobEvents: JOBS });
    expect(summary).toMatchObject({
      lines: 5000 + 268,
      tasks: 179 + 1465 + 367,
      jobs: 168,
      skipped: 0,
      excluded: { never_scheduled: 8 },
      adjusted: { clipped_running_at_slice_end: 1465, clipped_started_before_slice: 367 },
    });
    expect(workload.resources).toEqual(["cpu", "memory", "disk"]);
    expect(workload.capacity).toEqual([12583, 12583, 12583]);
    // First and last timestamps of the sample (awk min/max of column 1): 5611824441, 5965668014.
    expect(workload.params).toMatchObject({ timeOrigin_us: 5611824441, sliceLength_s: 353.843573 });
    expect(workload.jobs[0].arrival).toBe(0);
    for (let i = 1; i < workload.jobs.length; i++) expect(workload.jobs[i].arrival).toBeGreaterThanOrEqual(workload.jobs[i - 1].arrival);
    expect(() => validateWorkload(workload)).not.toThrow();
  });

  it("drop: only tasks with a complete run inside the sample", async () => {
    const { workload, summary } = await loadGoogle2011({ taskEvents: TASKS, censored: "drop" });
    expect(summary).toMatchObject({
      lines: 5000, tasks: 179, jobs: 62, skipped: 0,
      excluded: { never_scheduled: 8, running_at_slice_end: 1465, started_before_slice: 367 },
      adjusted: {},
    });
    // awk over complete tasks, job arrival = min(first SUBMIT, run start), sorted: first job
    // 515042969 (27 complete tasks) at 5621081272 µs; last job 6252034287 (1 task, from
    // `zcat ... | grep ,6252034287,`): SUBMIT 5895421385, SCHEDULE 5897151628, FINISH
    // 5917572424, requests 0, 0.0001554, 0.
    const first = workload.jobs[0];
    expect(first.id).toBe("515042969");
    expect(first.arrival).toBeCloseTo((5621081272 - 5611824441) / 1e6, 9);
    expect(first.stages.reduce((n, s) => n + s.tasks, 0)).toBe(27);
    expect(workload.jobs.at(-1)).toMatchObject({
      id: "6252034287",
      arrival: (5895421385 - 5611824441) / 1e6,
      stages: [{ tasks: 1, demand: [0, 0.0001554, 0], duration: (5917572424 - 5897151628) / 1e6 }],
    });
    expect(() => validateWorkload(workload)).not.toThrow();
  });

  it("queues by scheduling class and a chosen cluster size", async () => {
    const { workload } = await loadGoogle2011({ taskEvents: TASKS, queueBy: "class", machines: 50 });
    expect(workload.queues.map((q) => q.name).sort()).toEqual(CLASSES);
    expect(workload.capacity).toEqual([50, 50, 50]);
  });

  it("loadTrace guesses the format and picks up the sibling job_events", async () => {
    const { summary } = await loadTrace(TASKS);
    expect(summary.lines).toBe(5000 + 268);
  });

  it("is deterministic: two loads give the same workload", async () => {
    const a = await loadGoogle2011({ taskEvents: TASKS });
    const b = await loadGoogle2011({ taskEvents: TASKS });
    expect(JSON.stringify(a.workload)).toBe(JSON.stringify(b.workload));
  });
});

describe("Google 2011 loader: corrupted copies", () => {
  it("rejects a bad event_type naming the file and line", async () => {
    const f = corruptCopy(4_000, (l) => l.split(",").map((x, i) => (i === 5 ? "9" : x)).join(","));
    const err = await loadGoogle2011({ taskEvents: f }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InputError);
    expect((err as Error).message).toContain(`${f}:4000`);
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
    const f = corruptCopy(5_000, (l) => l.split(",").map((x, i) => (i === 10 ? "0.1O" : x)).join(","));
    await expect(loadGoogle2011({ taskEvents: f })).rejects.toThrow(`${f}:5000: memory_request must be a number >= 0 or empty`);
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
