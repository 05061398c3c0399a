// Issue 21, findings 1, 15 (timestamps) and 16 (names) in the trace loaders: files that are not
// regular files, lines beyond the line bound (plain and gzip bombs), timestamps past 2^53 µs, and
// names with terminal control characters. Every failure is an InputError naming the file (and
// line), caught by the caller's try/catch; nothing hangs.
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { afterAll, describe, expect, it } from "vitest";
import { InputError } from "../../src/errors.js";
import { forEachLine } from "../../src/traces/lines.js";
import { loadGoogle2011 } from "../../src/traces/google2011.js";
import { loadSwim } from "../../src/traces/swim.js";
import { loadTrace } from "../../src/traces/index.js";
import { parseTaskEvent } from "../../src/traces/google2011-parse.js";
import { LineProblem } from "../../src/traces/issues.js";

const dir = mkdtempSync(join(tmpdir(), "fairsched-hostile-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function inputError(p: Promise<unknown>): Promise<InputError> {
  try {
    await p;
  } catch (e) {
    expect(e).toBeInstanceOf(InputError);
    return e as InputError;
  }
  throw new Error("expected an InputError");
}

const GOOD = "j0\t0\t0\t1000\t0\t10";

describe("trace files that are not regular files are refused up front", () => {
  it("/dev/zero (a character device): a catchable InputError naming it as a device", async () => {
    let caught: unknown = null;
    try {
      await loadTrace("/dev/zero", { format: "swim" });
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(InputError);
    expect((caught as InputError).field).toBe("/dev/zero");
    expect((caught as InputError).message).toMatch(/character device/);
  });

  it("a FIFO is refused without opening it for a blocking read (no hang)", async () => {
    const fifo = join(dir, "pipe.tsv");
    execFileSync("mkfifo", [fifo]);
    const e = await inputError(loadSwim({ file: fifo }));
    expect(e.field).toBe(fifo);
    expect(e.message).toMatch(/FIFO/);
  });

  it("a directory is refused, naming it as a directory", async () => {
    const d = join(dir, "adir.tsv");
    mkdirSync(d);
    const e = await inputError(loadSwim({ file: d }));
    expect(e.field).toBe(d);
    expect(e.message).toMatch(/directory/);
  });

  it("a missing file is 'no such file'", async () => {
    const e = await inputError(loadSwim({ file: join(dir, "none.tsv") }));
    expect(e.message).toMatch(/no such file/);
  });
});

describe("line length bound", () => {
  it("a line longer than the bound is an InputError naming file:line (default 1 MiB)", async () => {
    const f = join(dir, "long.tsv");
    writeFileSync(f, `${GOOD}\n${"x".repeat(1024 * 1024 + 1)}\n`);
    const e = await inputError(loadSwim({ file: f }));
    expect(e.field).toBe(`${f}:2`);
    expect(e.message).toMatch(/longer than 1048576 bytes/);
    // a line of exactly the bound is read (and is then a bad SWIM line, not a length error)
    const g = join(dir, "exact.tsv");
    writeFileSync(g, `${"y".repeat(1024 * 1024)}\n`);
    const e2 = await inputError(loadSwim({ file: g }));
    expect(e2.field).toBe(`${g}:1`);
    expect(e2.message).not.toMatch(/longer than/);
  });

  it("the bound is configurable (maxLineBytes) and counts bytes, not characters; lenient mode does not skip it", async () => {
    const f = join(dir, "short-bound.tsv");
    writeFileSync(f, `${GOOD}\r\nj1\t0\t0\t1000\t0\t10\n${"é".repeat(40)}\n`);
    const e = await inputError(loadSwim({ file: f, maxLineBytes: 64, lenient: true }));
    expect(e.field).toBe(`${f}:3`);
    const r = await loadSwim({ file: f, maxLineBytes: 80, lenient: true });
    expect(r.summary.lines).toBe(3);
    expect(r.summary.jobs).toBe(2);
    await expect(loadSwim({ file: f, maxLineBytes: 0 })).rejects.toThrow(/options\.maxLineBytes/);
    await expect(loadTrace(f, { format: "swim", params: { maxLineBytes: 64 } })).rejects.toThrow(/:3: line is longer than 64 bytes/);
  });

  it("a gzip bomb (16 MiB of one letter in ~16 KB) stops at the line bound, naming file:1", async () => {
    const f = join(dir, "bomb.tsv.gz");
    writeFileSync(f, gzipSync(Buffer.alloc(16 * 1024 * 1024, "a")));
    const e = await inputError(loadSwim({ file: f }));
    expect(e.field).toBe(`${f}:1`);
    expect(e.message).toMatch(/longer than 1048576 bytes/);
  });

  it("forEachLine splits LF, CRLF (also across chunks) and a final line without terminator like readline did", async () => {
    const f = join(dir, "ends.txt");
    // 70 KB first line so the CR of its CRLF ends a 64 KiB read chunk boundary region
    const first = "a".repeat(65535);
    writeFileSync(f, `${first}\r\nb\r\n\nc\rd\ne`);
    const got: string[] = [];
    const n = await forEachLine(f, (l) => { got.push(l); });
    expect(n).toBe(6);
    expect(got.map((l) => (l.length > 10 ? `${l.length}` : l))).toEqual(["65535", "b", "", "c", "d", "e"]);
  });
});

describe("finding 15: timestamps and indices past 2^53 lose precision and are refused", () => {
  const row = (time: string, index = "0") => `${time},,6251812952,${index},1,1,user1,0,0,0.1,0.1,0.001,0`;
  it("parseTaskEvent: a timestamp above 2^53 µs is a LineProblem; 2^53 itself and the end-of-trace marker are not", () => {
    expect(parseTaskEvent(row("9007199254740993"))).toBeInstanceOf(LineProblem);
    expect(parseTaskEvent(row("99999999999999999999"))).toBeInstanceOf(LineProblem);
    expect(parseTaskEvent(row("9007199254740992"))).not.toBeInstanceOf(LineProblem);
    expect((parseTaskEvent(row("9223372036854775807")) as { time: number }).time).toBe(Infinity);
    expect(parseTaskEvent(row("5", "9007199254740993"))).toBeInstanceOf(LineProblem);
  });

  it("the loader names file:line", async () => {
    const f = join(dir, "task_events-big.csv");
    writeFileSync(f, `${row("600000000")}\n${row("9007199254740993")}\n`);
    const e = await inputError(loadGoogle2011({ taskEvents: f }));
    expect(e.field).toBe(`${f}:2`);
    expect(e.message).toMatch(/2\^53/);
  });
});

describe("finding 16: names with terminal control characters", () => {
  it("SWIM job ids and Google user (queue) and job names reach the workload escaped", async () => {
    const f = join(dir, "esc.tsv");
    writeFileSync(f, `j\x1b]0;owned\x07\t0\t0\t1000\t0\t10\nk\u009b31m\u202e\t1\t1\t1000\t0\t10\n`);
    const r = await loadSwim({ file: f });
    const ids = r.workload.jobs.map((j) => j.id);
    expect(ids).toEqual(["j\\x1b]0;owned\\x07", "k\\x9b31m\\u202e"]);
    expect(r.summary.adjusted).toMatchObject({ names_escaped: 2 });
    const g = join(dir, "task_events-esc.csv");
    writeFileSync(g, [
      "600000000,,7,0,1,0,u\x1b[2J,0,0,0.1,0.1,0.001,0",
      "600000001,,7,0,1,1,u\x1b[2J,0,0,0.1,0.1,0.001,0",
      "700000000,,7,0,1,4,u\x1b[2J,0,0,0.1,0.1,0.001,0",
    ].join("\n"));
    const gr = await loadGoogle2011({ taskEvents: g });
    expect(gr.workload.queues.map((q) => q.name)).toEqual(["u\\x1b[2J"]);
    for (const s of [JSON.stringify(gr.workload), JSON.stringify(r.workload)]) expect(/[\u0000-\u001f\u007f-\u009f]/.test(JSON.parse(JSON.stringify(s)))).toBe(false);
  });

  it("two raw names that escape to the same text are a bad line, not one merged name", async () => {
    const f = join(dir, "collide.tsv");
    writeFileSync(f, `a\x1b\t0\t0\t1000\t0\t10\na\\x1b\t1\t1\t1000\t0\t10\n`);
    const e = await inputError(loadSwim({ file: f }));
    expect(e.field).toBe(`${f}:2`);
    expect(e.message).toMatch(/escap/);
  });

  it("error messages naming a file or a value carry no raw control characters", async () => {
    const f = join(dir, "bad\x1b[31m.tsv");
    writeFileSync(f, "x\u009b\t0\n");
    const e = await inputError(loadSwim({ file: f }));
    expect(/[\u0000-\u001f\u007f-\u009f]/.test(e.message)).toBe(false);
    expect(/[\u0000-\u001f\u007f-\u009f]/.test(e.field)).toBe(false);
  });
});
