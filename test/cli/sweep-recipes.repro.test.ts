// The recipes in docs/sweeps.md, run as written: the Kubernetes Indexed Job's container script
// once per JOB_COMPLETION_INDEX and the Slurm array script once per SLURM_ARRAY_TASK_ID (with a
// `fairsched` on PATH that runs this checkout), then `fairsched merge`; and `fairsched sweep --queue`
// with two `fairsched worker` processes on a real redis-server. Each prints exactly the tables of
// the one-machine `fairsched sweep`.
import { spawn } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startRedis, type TestRedis } from "../../bench/redis-server.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const DOC = readFileSync(join(ROOT, "docs/sweeps.md"), "utf8");
const tmp = mkdtempSync(join(tmpdir(), "fairsched-recipes-"));
const bin = join(tmp, "bin");
const SHARDS = 3;
const SEEDS = "1..3";
const SCENARIO = "ltrf-table1";
let expected: string;

/** Runs a command; resolves with stdout, rejects with stderr on a non-zero exit. */
function run(cmd: string, args: string[], env: Record<string, string> = {}, cwd = tmp): Promise<string> {
  return new Promise((resolve, reject) => {
    const c = spawn(cmd, args, { cwd, env: { ...process.env, PATH: `${bin}:${process.env.PATH}`, ...env }, stdio: ["ignore", "pipe", "pipe"] });
    let out = "", err = "";
    c.stdout.on("data", (d) => { out += d; });
    c.stderr.on("data", (d) => { err += d; });
    c.on("exit", (code) => (code === 0 ? resolve(out) : reject(new Error(`${cmd} ${args.join(" ")} exited ${code}: ${err}`))));
  });
}

/** The tables: stdout without the final "results written to <file>" line. */
const tables = (stdout: string) => stdout.replace(/results written to .*\n$/, "");

/** The code block after `<!-- recipe:NAME -->` in docs/sweeps.md. */
function recipe(name: string): string {
  const at = DOC.indexOf(`<!-- recipe:${name} -->`);
  expect(at).toBeGreaterThan(0);
  const m = /```\w*\n([\s\S]*?)```/.exec(DOC.slice(at));
  return m![1];
}

/** A YAML block scalar (`- |`) under `args:`, dedented. */
function yamlArgsScript(yaml: string): string {
  const lines = yaml.split("\n");
  const start = lines.findIndex((l, i) => /^\s*- \|\s*$/.test(l) && /^\s*args:\s*$/.test(lines[i - 1] ?? ""));
  expect(start).toBeGreaterThan(0);
  const body: string[] = [];
  const indent = lines[start + 1].match(/^\s*/)![0].length;
  for (const l of lines.slice(start + 1)) {
    if (l.trim() !== "" && l.match(/^\s*/)![0].length < indent) break;
    body.push(l.slice(indent));
  }
  return body.join("\n");
}

beforeAll(async () => {
  mkdirSync(bin);
  const loader = pathToFileURL(createRequire(import.meta.url).resolve("tsx")).href;
  writeFileSync(join(bin, "fairsched"), `#!/bin/sh\nexec "${process.execPath}" --import "${loader}" "${join(ROOT, "src/cli/main.ts")}" "$@"\n`);
  chmodSync(join(bin, "fairsched"), 0o755);
  expected = tables(await run("fairsched", ["sweep", "--scenario", SCENARIO, "--seeds", SEEDS, "--workers", "1", "--out", "local.jsonl"]));
  expect(expected).toContain(`${SCENARIO} sweep:`);
}, 120_000);
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe("docs/sweeps.md recipes", () => {
  it("Kubernetes Indexed Job: the container script per JOB_COMPLETION_INDEX, then merge", async () => {
    const script = yamlArgsScript(recipe("kubernetes"));
    expect(script).toContain("JOB_COMPLETION_INDEX");
    const results = join(tmp, "k8s");
    mkdirSync(results);
    await Promise.all(Array.from({ length: SHARDS }, (_, i) =>
      run("/bin/sh", ["-c", script], { JOB_COMPLETION_INDEX: String(i), SHARDS: String(SHARDS), SCENARIO, SEEDS, RESULTS: results })));
    const files = Array.from({ length: SHARDS }, (_, i) => join(results, `sweep-${i}.jsonl`));
    expect(await run("fairsched", ["merge", ...files])).toBe(expected);
  }, 180_000);

  it("Slurm array: the sbatch script per SLURM_ARRAY_TASK_ID, then merge", async () => {
    const script = recipe("slurm");
    expect(script).toContain("#SBATCH --array=");
    writeFileSync(join(tmp, "sweep.sbatch"), script);
    await Promise.all(Array.from({ length: SHARDS }, (_, i) =>
      run("bash", ["sweep.sbatch"], { SLURM_ARRAY_TASK_ID: String(i), SLURM_ARRAY_TASK_COUNT: String(SHARDS), SCENARIO, SEEDS, RESULTS: "slurm" })));
    const files = Array.from({ length: SHARDS }, (_, i) => join(tmp, "slurm", `sweep-${i}.jsonl`));
    expect(await run("fairsched", ["merge", ...files])).toBe(expected);
  }, 180_000);

  describe("queue", () => {
    let redis: TestRedis;
    beforeAll(async () => { redis = await startRedis(); });
    afterAll(async () => { await redis?.stop(); });

    it("fairsched sweep --queue with two fairsched worker processes prints the one-machine tables", async () => {
      const queue = `${redis.url}/recipes`;
      const workers = [0, 1].map(() => spawn(join(bin, "fairsched"), ["worker", "--queue", queue, "--workers", "1"], { cwd: tmp, stdio: "ignore" }));
      try {
        const out = await run("fairsched", ["sweep", "--scenario", SCENARIO, "--seeds", SEEDS, "--queue", queue, "--out", "queued.jsonl"]);
        expect(tables(out)).toBe(expected);
      } finally {
        await Promise.all(workers.map((w) => new Promise((r) => { w.once("exit", r); w.kill("SIGTERM"); })));
      }
    }, 180_000);
  });
});
