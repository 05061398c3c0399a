// `fairsched fuzz` as a user runs it (the built dist/, as `npm test` builds first): the
// reference DRF passes every axiom through --allocator and --cmd (JS and the stdlib Python
// example), each planted bug is found by a default run and named by the right axiom with a
// counterexample of <= 3 queues, and a crashing, hanging, garbage-printing or wrong-shape
// allocator is a finding with its input, never a crash or hang of the fuzzer. Every search runs
// from the suite's seed (test/helpers/suite-seed.ts), so the file is deterministic.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { AXIOM_IDS, type CheckReport } from "../../src/testkit/index.js";
import { suiteSeed } from "../helpers/suite-seed.js";

const root = new URL("../..", import.meta.url).pathname;
const bin = join(root, "dist/cli/main.js");
const fixture = (name: string) => join(root, "test/fixtures/testkit", name);

const SEED = suiteSeed();

/** `fairsched fuzz` with the suite's seed unless the arguments give one (or replay a case). */
function fuzz(args: string[]) {
  const seeded = args.includes("--seed") || args.includes("--replay") ? args : [...args, "--seed", String(SEED)];
  const r = spawnSync(process.execPath, [bin, "fuzz", ...seeded], { cwd: root, encoding: "utf8", timeout: 240_000, maxBuffer: 64 * 2 ** 20 });
  return { code: r.status, out: r.stdout, err: r.stderr };
}
function fuzzJson(args: string[]): { code: number | null; report: CheckReport } {
  const r = fuzz([...args, "--json"]);
  return { code: r.code, report: JSON.parse(r.out) as CheckReport };
}

describe("fairsched fuzz: no false alarm on the reference DRF", () => {
  const everyAxiom = (report: CheckReport) => {
    expect(report.failed).toEqual([]);
    expect(report.axioms.map((a) => a.axiom)).toEqual([...AXIOM_IDS]);
    for (const a of report.axioms) expect(a.runs, a.axiom).toBe(100);
  };

  it("--allocator examples/drf-allocator.mjs passes every axiom (exit 0)", () => {
    const { code, report } = fuzzJson(["--allocator", join(root, "examples/drf-allocator.mjs")]);
    everyAxiom(report);
    expect(code).toBe(0);
  });

  it("--cmd with the reference DRF behind JSON lines passes every axiom (exit 0)", () => {
    const { code, report } = fuzzJson(["--cmd", `node ${join(root, "examples/drf-cmd.mjs")}`]);
    everyAxiom(report);
    expect(code).toBe(0);
  });

  it("--cmd with the stdlib Python DRF example passes every axiom (exit 0)", () => {
    const { code, report } = fuzzJson(["--cmd", `python3 ${join(root, "examples/python-allocator/drf_allocator.py")}`]);
    everyAxiom(report);
    expect(code).toBe(0);
  });

  it("--tasks (task-granular mode) passes too, and the text report says so", () => {
    const r = fuzz(["--allocator", join(root, "examples/drf-allocator.mjs"), "--tasks", "--runs", "30"]);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^every axiom held \(seed -?\d+, task-granular\)/);
  });
});

describe("fairsched fuzz: planted bugs, default run", () => {
  const planted: Array<[string, string]> = [
    ["ignores-weights.mjs", "sharing-incentive"],
    ["idle-capacity.mjs", "pareto-efficiency"],
    ["rewards-inflation.mjs", "strategyproofness"],
    ["over-allocates.mjs", "feasibility"],
    ["order-dependent.mjs", "order-independence"],
  ];
  for (const [file, axiom] of planted) {
    it(`${file} fails ${axiom} with a shrunk case of <= 3 queues (exit 1)`, () => {
      const { code, report } = fuzzJson(["--allocator", fixture(file)]);
      expect(code).toBe(1);
      expect(report.failed).toContain(axiom);
      const a = report.axioms.find((x) => x.axiom === axiom)!;
      expect(a.counterexample!.axiom).toBe(axiom);
      expect(a.counterexample!.input.state.demands.length).toBeLessThanOrEqual(3);
      expect(a.message).toMatch(/queue \d|resource \d/);
    });
  }

  // Seed 331944765 once shrank rewards-inflation's strategyproofness case to 7 queues, 5 of them
  // idle: fast-check cannot drop a queue in front of the liar (drawn modulo the queue count);
  // the test-kit drops idle queues after it (src/testkit/drop-idle-queues.ts).
  it("seed 331944765: rewards-inflation's strategyproofness case keeps no idle queue (<= 3 queues)", () => {
    const { code, report } = fuzzJson(["--allocator", fixture("rewards-inflation.mjs"), "--axioms", "strategyproofness", "--seed", "331944765"]);
    expect(code).toBe(1);
    const state = report.axioms[0].counterexample!.input.state;
    expect(state.demands.length).toBeLessThanOrEqual(3);
    expect(state.demands.filter((d) => d.every((v) => v === 0))).toEqual([]);
  });

  it("the text report names the axiom, prints the shrunk case, and --replay reruns it", () => {
    const r = fuzz(["--allocator", fixture("over-allocates.mjs"), "--axioms", "feasibility"]);
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/FAIL {2}feasibility: resource \d is over-allocated/);
    const line = r.out.split("\n").find((l) => l.includes("shrunk case: "))!;
    const dir = mkdtempSync(join(tmpdir(), "fairsched-fuzz-"));
    const file = join(dir, "case.json");
    writeFileSync(file, line.slice(line.indexOf("shrunk case: ") + "shrunk case: ".length));
    const again = fuzz(["--allocator", fixture("over-allocates.mjs"), "--replay", file]);
    expect(again.code).toBe(1);
    expect(again.out).toMatch(/^FAIL {2}feasibility: resource \d is over-allocated/);
    const fixed = fuzz(["--allocator", join(root, "examples/drf-allocator.mjs"), "--replay", file]);
    expect(fixed.code).toBe(0);
    expect(fixed.out).toMatch(/feasibility: the case passes now/);
  });
});

describe("fairsched fuzz: a misbehaving allocator is a finding", () => {
  const small = ["--axioms", "feasibility", "--runs", "40", "--timeout-ms", "1500", "--max-answer-chars", "1048576"];
  const cases: Array<[string, RegExp]> = [
    ["crash", /the command exited \(code 3\), stderr: boom \(input: \{"capacity"/],
    ["hang", /did not answer within 1500 ms, twice .*\(input: \{"capacity"/],
    ["garbage", /printed garbage instead of a JSON line: "allocation: lots" \(input: /],
    ["shape", /returned 1 rows, expected 2 \(one per queue\)/],
    // #32 defect 10: a second answer is a finding that says so, never read as a later request's answer
    // (it is pinned on the input it followed when it comes in the same read as the answer or the next;
    // on a loaded machine it can come later, and is then reported at a later request, unshrunk)
    ["twice", /(printed two lines for one request: |printed a line nobody asked for \(it answered the previous request twice).*\(input: \{"capacity"/],
    // #32 defect 10: an answer line past the bound is named as such (was a timeout, or "not shrunk" with no reason)
    ["huge", /printed a line longer than 1048576 characters .*\(input: \{"capacity"/],
  ];
  for (const [mode, message] of cases) {
    it(`--cmd that misbehaves (${mode}): exit 1, the reason and the input`, () => {
      const { code, report } = fuzzJson(["--cmd", `node ${fixture("misbehaving-cmd.mjs")} ${mode}`, ...small]);
      expect(code).toBe(1);
      expect(report.failed).toEqual(["feasibility"]);
      expect(report.axioms[0].message).toMatch(message);
    });
  }

  it("a grandchild that left the process group with setsid is killed when the run ends (#32 defect 10)", () => {
    const dir = mkdtempSync(join(tmpdir(), "fairsched-fuzz-"));
    const pidFile = join(dir, "grandchild.pid");
    const cmd = `setsid sh -c 'echo $$ > ${pidFile}; exec sleep 300' </dev/null >/dev/null 2>&1 & exec node ${join(root, "examples/drf-cmd.mjs")}`;
    const { code } = fuzzJson(["--cmd", cmd, "--axioms", "feasibility", "--runs", "5"]);
    expect(code).toBe(0);
    const pid = Number(readFileSync(pidFile, "utf8"));
    expect(pid).toBeGreaterThan(0);
    // killed: gone, or a zombie until this machine's init reaps it
    let state = "gone";
    try { state = readFileSync(`/proc/${pid}/stat`, "utf8").replace(/^.*\) /, "")[0]; } catch { /* gone */ }
    expect(["gone", "Z"]).toContain(state);
  });

  it("--allocator module that spins forever on some input: its thread is stopped, exit 1", () => {
    const { code, report } = fuzzJson(["--allocator", fixture("hangs-sync.mjs"), ...small]);
    expect(code).toBe(1);
    expect(report.axioms[0].message).toMatch(/did not answer within 1500 ms, twice/);
    expect(report.axioms[0].counterexample!.input.state.demands).toHaveLength(3);
  });
});

describe("fairsched fuzz: usage errors exit 2 with one line", () => {
  const usage = (args: string[], re: RegExp) => {
    const r = fuzz(args);
    expect(r.code).toBe(2);
    expect(r.err.trim().split("\n")).toHaveLength(1);
    expect(r.err).toMatch(re);
  };
  it("neither or both of --allocator and --cmd", () => {
    usage([], /exactly one of --allocator/);
    usage(["--allocator", "a.mjs", "--cmd", "x"], /exactly one of --allocator/);
  });
  it("an unknown axiom, a bad number, a missing module, a module without a default export, a bad case file", () => {
    const drf = join(root, "examples/drf-allocator.mjs");
    usage(["--allocator", drf, "--axioms", "fairness"], /--axioms: unknown axiom 'fairness'/);
    usage(["--allocator", drf, "--runs", "0"], /--runs must be an integer >= 1/);
    usage(["--allocator", join(root, "no-such-file.mjs")], /--allocator: .*no-such-file\.mjs/);
    usage(["--allocator", join(root, "test/fixtures/testkit/baselines.ts")], /--allocator: /);
    const dir = mkdtempSync(join(tmpdir(), "fairsched-fuzz-"));
    writeFileSync(join(dir, "bad.json"), "{\"axiom\": \"nope\"}");
    usage(["--allocator", drf, "--replay", join(dir, "bad.json")], /--replay: .* is not a fuzz case/);
  });
});
