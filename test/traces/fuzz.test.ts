// Adversarial audit of the trace loaders (SWIM .tsv, Google 2011 task/job events, Eagle .tr)
// on hostile lines: every pure line parser returns a record or a LineProblem (never throws);
// a loader reading a file of such lines returns a workload that simulate() accepts, or
// throws an InputError naming `file:line` (strict) / counts the line (lenient).
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { InputError } from "../../src/index.js";
import { LineProblem, loadTrace, parseJobEvent, parseSwimLine, parseTaskEvent } from "../../src/traces/index.js";
import { parseEagleLine, parseEagleTrace } from "../../src/traces/eagle.js";
import { validateWorkload } from "../../src/sim/validate-workload.js";
import { FUZZ } from "../helpers/hostile.js";

const dir = mkdtempSync(join(tmpdir(), "fairsched-fuzz-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// tokens a hostile line is made of: numbers at the edges, signs, exponents, huge digit runs
const token = fc.oneof(
  { weight: 4, arbitrary: fc.integer({ min: 0, max: 5000 }).map(String) },
  { weight: 3, arbitrary: fc.constantFrom("0", "-0", "-1", "1e400", "1e-400", "5e-324", "1.7976931348623157e308", "NaN", "Infinity", "0x1F", " ", "", "1.5", ".5", "5.", "1e3", "9".repeat(30), "9".repeat(400), "18446744073709551615", "9007199254740993", "abc", "\u00a0", "\t", ",") },
);
const lineOf = (sep: string, min: number, max: number) => fc.array(token, { minLength: min, maxLength: max }).map((ts) => ts.join(sep));

function parses(f: () => unknown): void {
  let r: unknown;
  try {
    r = f();
  } catch (e) {
    throw new Error(`a pure line parser threw ${(e as Error).name}: ${(e as Error).message}`);
  }
  expect(r === null || r instanceof LineProblem || typeof r === "object").toBe(true);
}

describe("fuzz trace line parsers", () => {
  it("SWIM, Google task/job events: a hostile line is a record or a LineProblem, and a record's numbers are finite", () => {
    fc.assert(
      fc.property(lineOf("\t", 0, 8), lineOf(",", 0, 15), lineOf(",", 0, 10), (swim, task, job) => {
        parses(() => parseSwimLine(swim));
        parses(() => parseTaskEvent(task));
        parses(() => parseJobEvent(job));
        const s = parseSwimLine(swim);
        if (!(s instanceof LineProblem)) for (const v of [s.submit, s.gap, s.inputBytes, s.shuffleBytes, s.outputBytes]) expect(Number.isFinite(v) && v >= 0).toBe(true);
        const t = parseTaskEvent(task);
        if (!(t instanceof LineProblem)) for (const v of [t.cpu, t.memory, t.disk]) expect(v === null || (Number.isFinite(v) && v >= 0)).toBe(true);
      }),
      { ...FUZZ, numRuns: FUZZ.numRuns * 3 },
    );
  });

  it("Eagle .tr: a hostile line is a job or a plain Error (the loader adds file:line); a job's numbers are finite", () => {
    fc.assert(
      fc.property(lineOf(" ", 0, 8), (line) => {
        let job: ReturnType<typeof parseEagleLine> = null;
        try {
          job = parseEagleLine(line);
        } catch (e) {
          expect(e instanceof Error && !(e instanceof TypeError) && !(e instanceof RangeError)).toBe(true);
          // the loader names file and line
          const err = (() => { try { parseEagleTrace(`1 1 1 1\n${line}`, "x.tr"); } catch (x) { return x; } return null; })();
          expect(err instanceof InputError && (err as InputError).field === "x.tr:2").toBe(true);
          return;
        }
        if (job) {
          expect(Number.isFinite(job.arrival) && job.arrival >= 0 && Number.isFinite(job.meanDuration)).toBe(true);
          job.durations.forEach((d) => expect(Number.isFinite(d) && d >= 0).toBe(true));
        }
      }),
      { ...FUZZ, numRuns: FUZZ.numRuns * 3 },
    );
  });
});

describe("fuzz trace loaders", () => {
  let n = 0;
  const good = "j0\t0\t0\t1000\t0\t10";
  it("loadTrace (SWIM): a file with a hostile line loads into a valid workload or throws InputError naming file:line", async () => {
    await fc.assert(
      fc.asyncProperty(lineOf("\t", 5, 7), fc.boolean(), async (line, lenient) => {
        const file = join(dir, `w${n++}.tsv`);
        writeFileSync(file, `${good}\n${line}\n`);
        try {
          const { workload } = await loadTrace(file, { lenient });
          validateWorkload(workload); // whatever loaded is a workload simulate() accepts
        } catch (e) {
          expect(e instanceof InputError).toBe(true);
          expect((e as InputError).field).toMatch(/:\d+$/);
        }
      }),
      { ...FUZZ, numRuns: Math.ceil(FUZZ.numRuns / 3) },
    );
  });

  it("loadTrace (Google 2011): a task_events file with a hostile event loads into a valid workload or throws InputError naming file:line", async () => {
    const ok = ["0,,1,0,5,0,u,1,2,0.1,0.1,0.01,0", "1000000,,1,0,5,1,u,1,2,0.1,0.1,0.01,0", "5000000,,1,0,5,4,u,1,2,0.1,0.1,0.01,0"];
    // an event of task 1 of job 1 whose fields are each plausible or hostile
    const field = (plausible: string) => fc.oneof({ weight: 3, arbitrary: fc.constant(plausible) }, { weight: 1, arbitrary: token });
    const eventArb = fc.tuple(field("2000000"), field(""), field("1"), field("1"), field("5"), fc.constantFrom("0", "1", "4", "5", "9"), field("u"), field("1"), field("2"), field("0.2"), field("0.3"), field("0.01"), field("0")).map((f) => f.join(","));
    await fc.assert(
      fc.asyncProperty(fc.array(eventArb, { minLength: 1, maxLength: 3 }), fc.boolean(), async (events, lenient) => {
        const file = join(dir, `task_events-${n++}.csv`);
        writeFileSync(file, [...ok, ...events].join("\n") + "\n");
        try {
          const { workload } = await loadTrace(file, { lenient, params: { jobEvents: "none" } });
          validateWorkload(workload);
        } catch (e) {
          expect(e instanceof InputError).toBe(true);
          expect((e as InputError).field).toMatch(/:\d+$|task_events-\d+\.csv$/);
        }
      }),
      { ...FUZZ, numRuns: Math.ceil(FUZZ.numRuns / 3) },
    );
  });

  it("finding (failing before the fix): a SWIM line of 10^30 input bytes became a job of ~10^22 map tasks, refused only by simulate() without file and line", async () => {
    const file = join(dir, "huge.tsv");
    writeFileSync(file, `${good}\nj1\t1\t1\t${"9".repeat(30)}\t0\t10\n`);
    const err = await loadTrace(file).then(() => null, (e: unknown) => e);
    expect(err instanceof InputError).toBe(true);
    expect((err as InputError).field).toBe(`${file}:2`);
  });

  it("finding (failing before the fix): a Google request above the cluster's M machines was refused only by simulate(), without file and line", async () => {
    const file = join(dir, "task_events-big.csv");
    const lines = ["0,,1,0,5,0,u,1,2,0.1,0.1,0.01,0", "1000000,,1,0,5,1,u,1,2,0.1,0.1,0.01,0", "5000000,,1,0,5,4,u,1,2,0.1,0.1,9007199254740993,0"];
    writeFileSync(file, lines.join("\n") + "\n");
    const err = await loadTrace(file, { params: { jobEvents: "none" } }).then(() => null, (e: unknown) => e);
    expect(err instanceof InputError).toBe(true);
    expect((err as InputError).field).toBe(`${file}:3`);
  });
});
