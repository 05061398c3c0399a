// SWIM Facebook 2009 loader: a sample cut from the real TSV (test/fixtures/traces/), corrupted copies of
// it, and the model. The full file: swim.repro.test.ts.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { afterAll, describe, expect, it } from "vitest";
import { InputError } from "../../src/errors.js";
import { validateWorkload } from "../../src/sim/validate-workload.js";
import { LineProblem, SWIM_DEFAULTS, loadSwim, loadTrace, parseSwimLine, swimJob } from "../../src/traces/index.js";
import { fixturePath } from "../helpers/traces.js";

const FILE = fixturePath("swim/FB-2009-sample.tsv");
const MiB = 1024 * 1024;

const tmp = mkdtempSync(join(tmpdir(), "fairsched-swim-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function corruptCopy(n: number, replace: (line: string) => string, gz = false): string {
  const lines = readFileSync(FILE, "utf8").split("\n");
  lines[n - 1] = replace(lines[n - 1]);
  const out = join(tmp, `swim-corrupt-${n}.tsv${gz ? ".gz" : ""}`);
  writeFileSync(out, gz ? gzipSync(lines.join("\n")) : lines.join("\n"));
  return out;
}

describe("SWIM FB-2009, the committed sample", () => {
  // The sample is the file's first 400 lines (test/fixtures/traces/README.md). Expected numbers
  // computed independently with awk over the TSV (B = 67108864; the same awk gives the full
  // file's 406005 / 332135 / 1446 / 5320-429-145):
  //   wc -l -> 400 lines, all with 6 fields;
  //   maps    = sum of ($4 > 0 ? ceil($4 / B) : 1)                             -> 5621
  //   reduces = sum over $5 > 0 of max(1, ceil(max($5, $6) / B))               -> 6493 (152 such jobs)
  //   size classes by map count (<= 10, <= 500, more)                         -> 362 / 36 / 2
  it("counts, first and last job", async () => {
    const { workload, summary } = await loadSwim({ file: FILE });
    expect(summary).toMatchObject({ lines: 400, jobs: 400, tasks: 5621 + 6493, skipped: 0 });
    expect(workload.jobs.filter((j) => j.stages.length === 2).length).toBe(152);
    expect(workload.capacity).toEqual([4800, 9600]);
    // head -1: job0 49 49 740773 2339561 627471 -> 1 map, 1 reduce
    expect(workload.jobs[0]).toEqual({
      id: "job0", queue: "default", arrival: 49,
      stages: [
        { tasks: 1, demand: [1, 1], duration: 1 + 740773 / (8 * MiB) },
        { tasks: 1, demand: [1, 2], duration: 1 + (2339561 + 627471) / (8 * MiB), parents: [0] },
      ],
    });
    // tail -1: job399 10299 11 188009080 385636742 37780136 -> ceil(2.80) = 3 maps, ceil(5.75) = 6 reduces
    const last = workload.jobs.at(-1)!;
    expect(last).toMatchObject({ id: "job399", queue: "default", arrival: 10299 });
    expect(last.stages.map((s) => s.tasks)).toEqual([3, 6]);
    expect(() => validateWorkload(workload)).not.toThrow();
  });

  it("queues by size and loadTrace's format guess", async () => {
    const { workload } = await loadTrace(FILE, { params: { queueBy: "size" } });
    const count = (q: string) => workload.jobs.filter((j) => j.queue === q).length;
    expect([count("small"), count("medium"), count("large")]).toEqual([362, 36, 2]);
    expect(workload.queues.map((q) => q.name)).toEqual(["small", "medium", "large"]);
  });
});

describe("SWIM loader: corrupted copies", () => {
  it("rejects a negative byte count naming the file and line (gzip too)", async () => {
    const f = corruptCopy(250, (l) => l.replace(/\t\d+$/, "\t-5"), true);
    const err = await loadSwim({ file: f }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InputError);
    expect((err as Error).message).toBe(`${f}:250: reduce_output_bytes must be an integer >= 0 (bytes) (got "-5")`);
  });

  it("rejects a duplicate job id; lenient skips and counts each bad line", async () => {
    const lines = readFileSync(FILE, "utf8").split("\n");
    lines[9] = lines[9].replace(/^job\d+/, "job0");
    lines[19] = "garbage";
    const f = join(tmp, "swim-two-bad.tsv");
    writeFileSync(f, lines.join("\n"));
    await expect(loadSwim({ file: f })).rejects.toThrow(`${f}:10: job_id "job0" already used on line 1`);
    const { summary } = await loadSwim({ file: f, lenient: true });
    expect(summary).toMatchObject({ jobs: 398, skipped: 2, skippedByReason: { columns: 1, duplicate_id: 1 } });
  });
});

describe("SWIM model, on strings", () => {
  it("parses and maps", () => {
    expect(parseSwimLine("j\t1.5\t0\t0\t0\t0")).toEqual({ id: "j", submit: 1.5, gap: 0, inputBytes: 0, shuffleBytes: 0, outputBytes: 0 });
    expect(parseSwimLine("j\t1\t0\t1e3\t0\t0")).toBeInstanceOf(LineProblem); // bytes are integers
    const j = swimJob({ id: "x", submit: 0, gap: 0, inputBytes: 64 * MiB + 1, shuffleBytes: 10, outputBytes: 200 * MiB }, { ...SWIM_DEFAULTS, taskOverhead: 0, throughput: MiB });
    expect(j.stages.map((s) => s.tasks)).toEqual([2, 4]);
    expect(j.stages[0].duration).toBeCloseTo(32, 5);
    expect(j.stages[1].duration).toBeCloseTo(50, 4);
  });

  it("rejects bad options", async () => {
    await expect(loadSwim({ file: FILE, throughput: 0 })).rejects.toThrow("options.throughput");
    await expect(loadSwim({ file: FILE, mapDemand: [1] })).rejects.toThrow("options.mapDemand");
  });
});
