// The CLI writes what it is asked, as the name says, and says the form it wants: `--shard 0/2`
// is refused with the 1-based form; a shard needs --out; `simulate --out f.txt` is refused before
// the run (a report is .html or .json); a sweep without --out writes no file into the working
// directory; a scenario's errors name the flag the user wrote. Runs the built dist/ as a user would.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const bin = new URL("../../dist/cli/main.js", import.meta.url).pathname;
const TINY = ["--param", "tqs=1", "--param", "tqJobs=1", "--policies", "drf"];
const SWEEP_TINY = ["--grid", "tqs=1", "--grid", "tqJobs=1", "--policies", "drf"];
function run(args: string[], cwd?: string) {
  const r = spawnSync(process.execPath, [bin, ...args], { encoding: "utf8", cwd, timeout: 300_000 });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

describe("what the CLI is asked to write", () => {
  it("--shard 0/2 is refused with the form it wants", () => {
    const r = run(["sweep", "--shard", "0/2", "--out", join(tmpdir(), "never.jsonl")]);
    expect(r.code).toBe(2);
    expect(r.err).toBe("fairsched: --shard: must be i/n with 1 <= i <= n, e.g. 2/3 for the second of three shards (got '0/2'); shards are numbered from 1: a sweep in 2 shards is --shard 1/2 ... --shard 2/2\n");
  });

  it("a shard without --out is refused: its lines are what merge needs", () => {
    const r = run(["sweep", "--shard", "1/2"]);
    expect(r.code).toBe(2);
    expect(r.err).toBe("fairsched: --out: --shard 1/2 needs --out FILE: the shard's JSON lines, for `fairsched merge`\n");
  });

  it("simulate --out with an extension other than .html or .json is refused before the run, writing nothing", () => {
    const dir = mkdtempSync(join(tmpdir(), "fs-ext-"));
    const r = run(["simulate", ...TINY, "--out", join(dir, "f.txt")]);
    expect(r.code).toBe(2);
    expect(r.out).toBe("");
    expect(r.err).toMatch(/^fairsched: --out: .*f\.txt: the report is written as \.html \(a self-contained page\) or \.json \(the report as JSON\); name the file with one of them\n$/);
    expect(readdirSync(dir)).toEqual([]);
    const ok = run(["simulate", ...TINY, "--out", join(dir, "r.JSON")]);
    expect(ok.code).toBe(0);
    expect(JSON.parse(readFileSync(join(dir, "r.JSON"), "utf8")).policies).toEqual(["drf"]);
  });

  it("a sweep without --out prints its tables and writes no file; with --out it writes the lines there", () => {
    const dir = mkdtempSync(join(tmpdir(), "fs-sweep-"));
    const r = run(["sweep", ...SWEEP_TINY, "--workers", "1"], dir);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/drf/);
    expect(r.err).not.toMatch(/written/);
    expect(readdirSync(dir)).toEqual([]);
    const w = run(["sweep", ...SWEEP_TINY, "--workers", "1", "--out", "lines.jsonl"], dir);
    expect(w.code).toBe(0);
    expect(readdirSync(dir)).toEqual(["lines.jsonl"]);
    expect(w.err).toMatch(/results written to lines\.jsonl/);
  });

  it("a scenario's errors name the flag the user wrote: --param NAME and --policies, not params.NAME", () => {
    expect(run(["simulate", "--scenario", "justice", "--param", "runtime=bogus"]).err).toBe("fairsched: --param runtime: must be one of waves, fluid\n");
    expect(run(["simulate", "--policies", "nope", "--param", "tqs=1"]).err).toMatch(/^fairsched: --policies: unknown policy 'nope' \(known: /);
  });
});
