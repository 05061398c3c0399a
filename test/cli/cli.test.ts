// The CLI as a user runs it (the built dist/, as `npm test` builds first): output, JSON,
// and error paths (one line naming the problem, non-zero exit, never a stack trace).
import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { fixturePath } from "../helpers/traces.js";

const bin = new URL("../../dist/cli/main.js", import.meta.url).pathname;
function run(args: string[], input?: string) {
  const r = spawnSync(process.execPath, [bin, ...args], { input, encoding: "utf8", timeout: 120_000, maxBuffer: 256 * 2 ** 20 });
  return { code: r.status, out: r.stdout, err: r.stderr };
}
function expectOneLineError(r: { code: number | null; err: string; out: string }, re: RegExp) {
  expect(r.code).not.toBe(0);
  expect(r.err.trim().split("\n")).toHaveLength(1);
  expect(r.err).toMatch(/^fairsched: /);
  expect(r.err).toMatch(re);
  expect(r.err).not.toMatch(/\n\s+at /);
}

describe("fairsched CLI", () => {
  it("simulate prints the comparison table; --json is valid JSON with the same numbers", () => {
    const table = run(["simulate", "--policies", "drf,sp", "--param", "tqs=2", "--param", "tqJobs=2"]);
    expect(table.code).toBe(0);
    expect(table.out).toMatch(/Completion times: 1 LQ \+ 2 TQs/);
    expect(table.out).toMatch(/^drf /m);
    const json = run(["simulate", "--policies", "drf,sp", "--param", "tqs=2", "--param", "tqJobs=2", "--json"]);
    const report = JSON.parse(json.out);
    expect(report.scenario).toBe("default");
    expect(report.policies).toEqual(["drf", "sp"]);
    expect(report.params.tqs).toBe(2);
    expect(report.metrics.drf.metrics.classes.LQ.jobs).toBe(4);
  });

  it("--out writes the JSON report", () => {
    const dir = mkdtempSync(join(tmpdir(), "fairsched-"));
    const file = join(dir, "r.json");
    const r = run(["simulate", "--policies", "drf", "--param", "tqs=1", "--param", "tqJobs=1", "--out", file]);
    expect(r.code).toBe(0);
    expect(JSON.parse(readFileSync(file, "utf8")).policies).toEqual(["drf"]);
  });

  it("simulate --trace replays the Google 2011 sample under DRF, BoPF and LTRF", () => {
    // 168 jobs with a run in the sample (test/traces/google2011.test.ts); the full part: cli/trace-replay.repro.test.ts
    const trace = fixturePath("google-2011/task_events-sample.csv.gz");
    const r = run(["simulate", "--trace", trace, "--format", "google2011", "--policies", "drf,bopf,ltrf", "--param", "machines=300", "--json"]);
    expect(r.code).toBe(0);
    const report = JSON.parse(r.out);
    expect(report.policies).toEqual(["drf", "bopf", "ltrf"]);
    for (const p of ["drf", "bopf", "ltrf"]) {
      const tq = report.metrics[p].metrics.classes.TQ;
      expect(tq.jobs).toBe(168);
      expect(tq.finished + tq.dropped + tq.rejected).toBe(tq.jobs);
    }
  });

  it("list names scenarios and policies", () => {
    const r = run(["list"]);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/scenarios:\n {2}default /);
    expect(r.out).toMatch(/^ {2}drf /m);
  });

  it("allocate answers the DRF worked example from stdin and from a file", () => {
    const state = JSON.stringify({ capacity: [9, 18], queues: [{ name: "A", demand: [9, 36] }, { name: "B", demand: [27, 9] }] });
    const r = run(["allocate", "--policy", "drf"], state);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out).queues.map((q: { allocation: number[] }) => q.allocation)).toEqual([[3, 12], [6, 2]]);
    const dir = mkdtempSync(join(tmpdir(), "fairsched-"));
    writeFileSync(join(dir, "s.json"), state);
    expect(JSON.parse(run(["allocate", "--policy", "drf", "--input", join(dir, "s.json")]).out).policy).toBe("drf");
  });

  it("error paths: one line, non-zero exit, no stack trace", () => {
    expectOneLineError(run(["simulate", "--scenario", "nope"]), /--scenario: unknown scenario 'nope'/);
    expectOneLineError(run(["simulate", "--policies", "nope"]), /policies: unknown policy 'nope'/);
    expectOneLineError(run(["simulate", "--seed", "abc"]), /--seed must be an integer/);
    expectOneLineError(run(["simulate", "--param", "tqs"]), /expected name=value/);
    expectOneLineError(run(["simulate", "--param", "tqs=many"]), /--param tqs: must be a number/);
    expectOneLineError(run(["simulate", "--param", "preemption=2"]), /--param preemption: must be 0 or 1/);
    expectOneLineError(run(["simulate", "--trace", "/nonexistent/task_events-x.csv.gz"]), /nonexistent/);
    expectOneLineError(run(["frobnicate"]), /unknown command 'frobnicate'/);
    expectOneLineError(run(["allocate"]), /required option '--policy <name>' not specified/);
    expectOneLineError(run(["allocate", "--policy", "drf", "--input", "/nonexistent/x.json"]), /--input: cannot read \/nonexistent\/x.json: ENOENT/);
    expectOneLineError(run(["allocate", "--policy", "drf"], "{not json"), /--input: - is not valid JSON/);
    expectOneLineError(run(["allocate", "--policy", "drf"], JSON.stringify({ capacity: [1, 0], queues: [] })), /fairsched: capacity\[1\]: must be a finite number > 0/); // the user's field, not the internal workload's (issue 21, finding 15)
    expectOneLineError(run(["allocate", "--policy", "drf"], JSON.stringify({ capacity: [1], queues: [{ name: "a", demand: [-1] }] })), /queues\[0\].demand\[0\]: must be a finite number >= 0/);
    expectOneLineError(run(["allocate", "--policy", "fifo"], JSON.stringify({ capacity: [1], queues: [] })), /task-level policy/);
    expectOneLineError(run(["simulate", "--policies", "drf", "--out", "/nonexistent/dir/r.json", "--param", "tqs=1", "--param", "tqJobs=1"]), /--out: cannot write/);
  });
});
