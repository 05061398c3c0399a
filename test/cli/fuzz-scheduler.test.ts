// `fairsched fuzz --scheduler` as a user runs it (the built dist/): fairsched's own `serve` passes
// what its policy claims, each planted bug (JS and Python) is found from a fixed seed and named by
// the right property, a saved trace replays (failing on the planted bug, passing on serve), and
// usage errors exit 2. A run restricted with --properties searches exactly as a default run does
// for those properties (each property draws its scenarios from the same seed).
import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { SchedulerReport } from "../../src/testkit/index.js";

const root = new URL("../..", import.meta.url).pathname;
const bin = join(root, "dist/cli/main.js");
const serve = `node ${bin} serve`;
const planted = (lang: "mjs" | "py", bug: string) => `${lang === "py" ? "python3" : "node"} ${join(root, `examples/planted-schedulers/planted.${lang}`)} ${bug}`;

function fuzz(args: string[]) {
  const r = spawnSync(process.execPath, [bin, "fuzz", ...args], { cwd: root, encoding: "utf8", timeout: 400_000, maxBuffer: 64 * 2 ** 20 });
  return { code: r.status, out: r.stdout, err: r.stderr };
}
function fuzzJson(args: string[]): { code: number | null; report: SchedulerReport } {
  const r = fuzz([...args, "--json"]);
  return { code: r.code, report: JSON.parse(r.out) as SchedulerReport };
}

describe("fairsched fuzz --scheduler: fairsched serve", () => {
  it("drf passes every property it claims in a default run (exit 0)", () => {
    const { code, report } = fuzzJson(["--scheduler", serve, "--claims", "drf", "--seed", "1"]);
    expect(report.failed).toEqual([]);
    expect(report.properties.map((p) => p.runs)).toEqual(report.properties.map(() => 50));
    expect(code).toBe(0);
  }, 400_000);

  it("the preemption properties are skipped with a note, not passed silently", () => {
    const { report } = fuzzJson(["--scheduler", serve, "--init", "{\"policy\": \"drf\"}", "--properties", "no-preemption-cycle,minimal-victims", "--runs", "5"]);
    for (const p of report.properties) expect(p.skipped).toMatch(/does not preempt/);
  });
});

describe("fairsched fuzz --scheduler: planted bugs", () => {
  const bugs: Array<[string, string]> = [
    ["ping-pong", "no-preemption-cycle"],
    ["round-robin", "long-run-share"],
    ["split", "split-resistance"],
    ["call-timing", "call-rate-independence"],
  ];
  for (const lang of ["mjs", "py"] as const) {
    for (const [bug, property] of bugs) {
      it(`${lang} ${bug} fails ${property} (exit 1) with a shrunk trace`, () => {
        const { code, report } = fuzzJson(["--scheduler", planted(lang, bug), "--seed", "1", "--properties", property]);
        expect(code).toBe(1);
        expect(report.failed).toEqual([property]);
        const p = report.properties[0];
        expect(p.message).not.toMatch(/not shrunk/);
        expect(p.trace!.split("\n")[0]).toMatch(/^\{"fuzz":\{"property":/);
      }, 400_000);
    }
  }

  it("a planted scheduler without its bug passes every property", () => {
    const { code, report } = fuzzJson(["--scheduler", planted("mjs", "none"), "--seed", "1", "--runs", "20"]);
    expect(report.failed).toEqual([]);
    expect(code).toBe(0);
  }, 400_000);

  it("the printed trace replays: it fails on the planted bug, passes on fairsched serve, and its requests replay by hand", () => {
    const { report } = fuzzJson(["--scheduler", planted("mjs", "split"), "--seed", "1", "--properties", "split-resistance"]);
    const dir = mkdtempSync(join(tmpdir(), "fairsched-fuzzsched-"));
    const file = join(dir, "trace.jsonl");
    writeFileSync(file, report.properties[0].trace! + "\n");
    const again = fuzz(["--scheduler", planted("mjs", "split"), "--replay", file]);
    expect(again.code).toBe(1);
    expect(again.out).toMatch(/^FAIL {2}split-resistance: tenant q0/);
    const fixed = fuzz(["--scheduler", serve, "--init", "{\"policy\": \"drf\"}", "--replay", file]);
    expect(fixed.out).toMatch(/split-resistance: the case passes now/);
    expect(fixed.code).toBe(0);
    // by hand: the trace's requests piped into the same scheduler are all answered, none refused
    const requests = report.properties[0].trace!.split("\n").filter((l) => !l.startsWith("{\"fuzz\""));
    const byHand = spawnSync("node", [join(root, "examples/planted-schedulers/planted.mjs"), "split"], { input: requests.join("\n") + "\n", encoding: "utf8" });
    const answers = byHand.stdout.trim().split("\n").map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(answers).toHaveLength(requests.length);
    expect(answers.filter((a) => "error" in a)).toEqual([]);
  }, 400_000);
});

describe("fairsched fuzz --scheduler: usage errors exit 2 with one line", () => {
  const usage = (args: string[], re: RegExp) => {
    const r = fuzz(args);
    expect(r.code).toBe(2);
    expect(r.err.trim().split("\n")).toHaveLength(1);
    expect(r.err).toMatch(re);
  };
  it("an unknown property or policy, bad --init, both --cmd and --scheduler, a file that is no trace", () => {
    usage(["--scheduler", serve, "--properties", "fairness"], /--properties: unknown property 'fairness'/);
    usage(["--scheduler", serve, "--claims", "nope"], /--claims: unknown policy 'nope'/);
    usage(["--scheduler", serve, "--init", "[1]"], /--init: must be a JSON object/);
    usage(["--scheduler", serve, "--cmd", "x"], /exactly one of --allocator/);
    const dir = mkdtempSync(join(tmpdir(), "fairsched-fuzzsched-"));
    writeFileSync(join(dir, "bad.jsonl"), "{\"op\": \"init\"}\n");
    usage(["--scheduler", serve, "--replay", join(dir, "bad.jsonl")], /--replay: has no \{"fuzz"/);
  });
});
