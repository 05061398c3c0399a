// The CLI's conventions (issue 20): --version, unknown parameter names, a closed pipe, stdout for
// data and stderr for status, sanitised names, missing and special files named as such, Eagle
// `.tr` replays, every policy of every model in `list`. Runs the built dist/ as a user would.
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { listAllocators } from "../../src/justice/registry.js";
import { listNodePolicies } from "../../src/phoenix/policies.js";
import { listPolicies } from "../../src/sim/registry.js";
import { listScenarios } from "../../src/scenarios/registry.js";

const bin = new URL("../../dist/cli/main.js", import.meta.url).pathname;
const TINY = ["--param", "tqs=1", "--param", "tqJobs=1", "--policies", "drf"];
function run(args: string[], env: Record<string, string> = {}) {
  const r = spawnSync(process.execPath, [bin, ...args], { encoding: "utf8", env: { ...process.env, ...env }, timeout: 300_000 });
  return { code: r.status, out: r.stdout, err: r.stderr };
}
function oneLineError(r: { code: number | null; out: string; err: string }, pattern: RegExp) {
  expect(r.code).toBe(2);
  expect(r.out).toBe("");
  expect(r.err.trim().split("\n")).toHaveLength(1);
  expect(r.err).toMatch(pattern);
  expect(r.err).not.toMatch(/\n\s+at /);
}

describe("fairsched CLI conventions", () => {
  it("--version and -V print the package.json version on stdout", () => {
    const { version } = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8"));
    for (const flag of ["--version", "-V"]) {
      const r = run([flag]);
      expect(r.code).toBe(0);
      expect(r.out).toBe(`${version}\n`);
      expect(r.err).toBe("");
    }
  });

  it("unknown --param and --grid names are errors listing the scenario's known names", () => {
    oneLineError(run(["simulate", "--param", "tqz=3"]), /--param: unknown parameter 'tqz' of scenario 'default' \(known: .*\btqs\b.*\)/);
    oneLineError(run(["simulate", "--scenario", "bopf", "--param", "lqs=2"]), /unknown parameter 'lqs' of scenario 'bopf' \(known: .*\bscales\b/);
    oneLineError(run(["simulate", "--scenario", "ltrf-table1", "--param", "x=1"]), /unknown parameter 'x' of scenario 'ltrf-table1' \(known: none\)/);
    oneLineError(run(["sweep", "--grid", "bogus=1,2", "--out", join(tmpdir(), "never.jsonl")]), /--grid: unknown parameter 'bogus' of scenario 'default'/);
    // every built-in declares its names, and its known names are accepted (no run: --grid checks only names)
    for (const s of listScenarios()) expect(Array.isArray(s.params), s.name).toBe(true);
  });

  it("unknown trace-loader parameters are errors listing the loader's names", () => {
    const dir = mkdtempSync(join(tmpdir(), "fs-conv-"));
    const swim = join(dir, "t.tsv");
    writeFileSync(swim, "job0\t0\t0\t1000\t1000\t1000\n");
    oneLineError(run(["simulate", "--trace", swim, "--param", "machinez=4"]), /--param: unknown parameter 'machinez' of the swim trace loader \(known: .*machines/);
  });

  it("a closed pipe ends quietly: simulate --json | head -c 100", () => {
    const dir = mkdtempSync(join(tmpdir(), "fs-pipe-"));
    const err = join(dir, "err");
    const out = execFileSync("bash", ["-c", `set -o pipefail; "${process.execPath}" "${bin}" simulate --json 2>"${err}" | head -c 100; echo " status=\${PIPESTATUS[0]}"`], { encoding: "utf8" });
    expect(out).toMatch(/^\{\n  "scenario": "default"/);
    expect(out).toMatch(/ status=0\n$/);
    expect(readFileSync(err, "utf8")).toBe("");
  });

  it("data on stdout, status on stderr", () => {
    const dir = mkdtempSync(join(tmpdir(), "fs-out-"));
    const file = join(dir, "r.json");
    const r = run(["simulate", ...TINY, "--out", file]);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^scenario default, seed 1, policies drf\n/);
    expect(r.out).not.toMatch(/written/);
    expect(r.err).toBe(`report written to ${file}\n`);
  });

  it("a missing file, a directory, a FIFO and a device are named as such", () => {
    const dir = mkdtempSync(join(tmpdir(), "fs-special-"));
    oneLineError(run(["simulate", "--trace", "/missing.csv"]), /--trace: no such file: \/missing.csv$/m);
    oneLineError(run(["simulate", "--trace", dir]), /is a directory, expected a regular trace file/);
    const fifo = join(dir, "task_events-fifo.csv");
    execFileSync("mkfifo", [fifo]);
    oneLineError(run(["simulate", "--trace", fifo]), /is a FIFO \(named pipe\)/);
    oneLineError(run(["simulate", "--trace", "/dev/null", "--format", "swim"]), /\/dev\/null is a character device/);
  });

  it("names from files reach the terminal sanitised (no raw ESC, CSI or bidi override)", () => {
    const dir = mkdtempSync(join(tmpdir(), "fs-esc-"));
    const evil = join(dir, "a\u001b[2J\u202eb.tsv");
    const r = run(["simulate", "--trace", evil]);
    expect(r.code).toBe(2);
    expect(r.err).not.toMatch(/[\u001b\u009b\u202e]/);
    expect(r.err).toContain("a\\x1b[2J\\u202eb.tsv");
    // a real SWIM file under that name: table title, notes and JSON carry the name escaped
    writeFileSync(evil, Array.from({ length: 6 }, (_, i) => `job${i}\t${i * 10}\t10\t1000000\t2000000\t1000\n`).join(""));
    const t = run(["simulate", "--trace", evil, "--policies", "drf"]);
    expect(t.code).toBe(0);
    expect(t.out).not.toMatch(/[\u001b\u009b\u202e]/);
    expect(t.out).toContain("a\\x1b[2J\\u202eb.tsv");
    const j = run(["simulate", "--trace", evil, "--policies", "drf", "--json"]);
    expect(j.out).not.toMatch(/[\u001b\u009b\u202e]/);
    expect(() => JSON.parse(j.out)).not.toThrow();
  });

  it("--format eagle replays a Hawk/Eagle .tr file on the node-level model", () => {
    const dir = mkdtempSync(join(tmpdir(), "fs-eagle-"));
    const file = join(dir, "YH_tiny.tr");
    const lines = Array.from({ length: 40 }, (_, i) => {
      const n = 1 + (i % 4);
      const d = Array.from({ length: n }, (_, k) => 5 + ((i * 7 + k * 3) % 20));
      return `${i * 2} ${n} ${d.reduce((a, b) => a + b, 0) / n} ${d.join(" ")}`;
    });
    writeFileSync(file, lines.join("\n") + "\n");
    const r = run(["simulate", "--trace", file, "--format", "eagle", "--policies", "phoenix,sparrow-c", "--param", "util=0.9", "--json"]);
    expect(r.err).toBe("");
    expect(r.code).toBe(0);
    const rep = JSON.parse(r.out);
    expect(rep.scenario).toBe("phoenix");
    expect(rep.params.traceFile).toBe(file);
    expect(rep.tables[0].title).toMatch(/YH_tiny\.tr \(40 jobs/);
    expect(rep.tables[0].rows.map((row: unknown[]) => row[5])).toEqual(["phoenix", "sparrow-c"]);
    // the .tr extension is enough; an unknown policy is named against the node policies
    oneLineError(run(["simulate", "--trace", file, "--policies", "drf"]), /unknown node policy 'drf'; known: .*phoenix/);
    oneLineError(run(["simulate", "--trace", file, "--param", "nope=1"]), /unknown parameter 'nope' of scenario 'phoenix'/);
  });

  it("list names every policy of every model", () => {
    const r = run(["list"]);
    expect(r.code).toBe(0);
    const names = new Set(r.out.split("\n").map((l) => /^ {2}(\S+)/.exec(l)?.[1]).filter(Boolean));
    for (const p of [...listScenarios(), ...listPolicies(), ...listAllocators(), ...listNodePolicies()]) expect(names, p.name).toContain(p.name);
    expect(r.out).toMatch(/allocators \(Justice/);
    expect(r.out).toMatch(/node policies \(Phoenix/);
  });
});
