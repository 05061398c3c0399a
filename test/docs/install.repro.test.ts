// The packed tarball installed without its optional peers (bullmq, ioredis), as
// `npm install fairsched --omit=peer` or an install that never asked for them leaves it: the engine
// and the CLI work, `fairsched/bullmq` and the Redis-queue sweep say in one line what to install,
// and `--help` points to the repository's docs (the tarball ships no docs/).
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { packTarball, packedApp, type PackedApp } from "./packed-app.js";

const PEERS_LINE = "fairsched/bullmq needs bullmq and ioredis, not installed: npm install bullmq ioredis";
let packDir: string;
let app: PackedApp;

beforeAll(() => {
  packDir = mkdtempSync(join(tmpdir(), "fairsched-pack-"));
  app = packedApp(packTarball(packDir), { without: ["bullmq", "ioredis"] });
}, 120_000);

afterAll(() => {
  app?.remove();
  if (packDir) rmSync(packDir, { recursive: true, force: true });
});

const node = (...args: string[]) => spawnSync("node", args, { cwd: app.dir, env: app.env, encoding: "utf8", timeout: 60_000 });
const cli = (...args: string[]) => spawnSync("fairsched", args, { cwd: app.dir, env: app.env, encoding: "utf8", timeout: 60_000 });

describe("an install without the optional peers", () => {
  it("declares bullmq and ioredis as optional peers, not dependencies", () => {
    const pkg = JSON.parse(readFileSync(join(app.dir, "node_modules/fairsched/package.json"), "utf8"));
    expect(Object.keys(pkg.dependencies).sort()).toEqual(["@assemblyscript/loader", "commander", "fast-check", "uplot"]);
    expect(Object.keys(pkg.peerDependencies).sort()).toEqual(["bullmq", "ioredis"]);
    expect(pkg.peerDependenciesMeta).toEqual({ bullmq: { optional: true }, ioredis: { optional: true } });
  });

  it("runs the engine (ESM and CommonJS)", () => {
    const esm = node("--input-type=module", "-e", 'import { loadEngineSync } from "fairsched"; console.log(Array.from(loadEngineSync().drf({ capacity: [9, 18], demands: [[9, 36], [27, 9]] }).allocation).join())');
    expect([esm.status, esm.stdout.trim()]).toEqual([0, "3,12,6,2"]);
    const cjs = node("-e", 'const { loadEngineSync } = require("fairsched"); console.log(Array.from(loadEngineSync().drf({ capacity: [9, 18], demands: [[9, 36], [27, 9]] }).allocation).join())');
    expect([cjs.status, cjs.stdout.trim()]).toEqual([0, "3,12,6,2"]);
  });

  it("importing fairsched/bullmq says in one line what to install (ESM and CommonJS)", () => {
    const esm = node("--input-type=module", "-e", 'try { await import("fairsched/bullmq"); } catch (e) { console.log(e.message); process.exit(3); }');
    expect([esm.status, esm.stdout.trim()]).toEqual([3, PEERS_LINE]);
    const cjs = node("-e", 'try { require("fairsched/bullmq"); } catch (e) { console.log(e.message); process.exit(3); }');
    expect([cjs.status, cjs.stdout.trim()]).toEqual([3, PEERS_LINE]);
  });

  it("the CLI runs, and sweep --queue and worker say what to install (exit 2, one line)", () => {
    const list = cli("list");
    expect(list.status).toBe(0);
    const sweep = cli("sweep", "--scenario", "ltrf-table1", "--queue", "redis://127.0.0.1:1/cells");
    expect([sweep.status, sweep.stderr.trim()]).toEqual([2, "fairsched: fairsched sweep --queue needs bullmq, not installed: npm install bullmq"]);
    const worker = cli("worker", "--queue", "redis://127.0.0.1:1/cells");
    expect([worker.status, worker.stderr.trim()]).toEqual([2, "fairsched: fairsched worker needs bullmq, not installed: npm install bullmq"]);
  });

  it("--help points to the repository's docs, since the package has no docs/", () => {
    const help = cli("--help");
    expect(help.status).toBe(0);
    expect(help.stdout).toContain("Documentation: https://github.com/fairsched/fairsched/tree/main/docs");
  });
});
