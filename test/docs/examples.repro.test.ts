// Every example of README.md and docs/ (code blocks marked `js example`, `sh example`,
// `python example`) runs against the packed tarball installed in a fresh project: JavaScript as an
// ES module with node, shell through the installed `fairsched` CLI, Python with python3. A real
// redis-server runs for the BullMQ examples (REDIS_PORT). An example that throws or exits non-zero
// fails here, with its file and line.
import { spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startRedis, type TestRedis } from "../../bench/redis-server.js";
import { docFiles } from "./doc-files.js";
import { ROOT, packTarball, packedApp, type PackedApp } from "./packed-app.js";
import { snippetsIn, type Snippet } from "./snippets.js";

const snippets = docFiles().flatMap(snippetsIn);
const RUNNERS = { js: ["node"], sh: ["bash", "-e", "-o", "pipefail"], python: ["python3"] } as const;
const EXT = { js: "mjs", sh: "sh", python: "py" } as const;

let packDir: string;
let app: PackedApp;
let redis: TestRedis;

beforeAll(async () => {
  packDir = mkdtempSync(join(tmpdir(), "fairsched-pack-"));
  app = packedApp(packTarball(packDir));
  // a clone's examples/ beside the project, as the README's commands assume
  cpSync(join(ROOT, "examples"), join(app.dir, "examples"), { recursive: true });
  redis = await startRedis();
}, 120_000);

afterAll(async () => {
  await redis?.stop();
  app?.remove();
  if (packDir) rmSync(packDir, { recursive: true, force: true });
});

function run(s: Snippet) {
  // in the project's folder, as a user would run it (files it writes stay there)
  const file = `example-${s.file.replace(/\W/g, "_")}-${s.line}.${EXT[s.language]}`;
  writeFileSync(join(app.dir, file), s.code);
  const [cmd, ...args] = RUNNERS[s.language];
  return spawnSync(cmd, [...args, file], {
    cwd: app.dir, encoding: "utf8", timeout: 90_000,
    env: { ...app.env, REDIS_PORT: String(redis.port) },
  });
}

describe("examples in the docs", () => {
  it("the README and the user docs have examples in every language", () => {
    expect(snippets.filter((s) => s.file === "README.md").length).toBeGreaterThanOrEqual(5);
    expect(new Set(snippets.map((s) => s.language))).toEqual(new Set(["js", "sh", "python"]));
  });

  it.each(snippets.map((s) => [`${s.file}:${s.line} (${s.language})`, s] as const))("%s runs", (_name, s) => {
    const r = run(s);
    expect(r.error, _name).toBeUndefined();
    expect(r.status, `${_name} exited ${r.status}\nstdout: ${r.stdout.slice(-2000)}\nstderr: ${r.stderr.slice(-2000)}`).toBe(0);
  }, 120_000);
});
