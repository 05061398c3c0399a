// Sweeps: grid expansion and shards are deterministic, and a sweep split into 3 shards and merged
// prints byte-identical output to the unsharded run (cells run in worker threads).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it, onTestFinished } from "vitest";
import { InputError } from "../../src/errors.js";
import { loadEngineSync } from "../../src/index.js";
import { expandGrid, mergeSweepFiles, mergeSweepLines, parseShard, runSweep, shardCells, type SweepSpec } from "../../src/sweep/index.js";
import { formatSweep } from "../../src/report/sweep-text.js";
import { cellProgress } from "../../src/cli/progress.js";
import { TINY, tinyScenario } from "../fixtures/tiny-scenario.js";

const FIXTURE = new URL("../fixtures/tiny-scenario.ts", import.meta.url);
const tmp = mkdtempSync(join(tmpdir(), "fairsched-sweep-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const spec: SweepSpec = { scenario: TINY, policies: ["drf", "drf-w2"], params: { queues: [2, 3], jobs: [5] }, seeds: [1, 2, 3] };

describe("sweep grid", () => {
  it("expands policies x params x seeds in a fixed order, params keys sorted", () => {
    const cells = expandGrid({ ...spec, params: { queues: [2, 3], jobs: [5] } });
    expect(cells).toHaveLength(12);
    expect(cells[0]).toEqual({ index: 0, policy: "drf", params: { jobs: 5, queues: 2 }, seed: 1 });
    expect(cells[4]).toEqual({ index: 4, policy: "drf", params: { jobs: 5, queues: 3 }, seed: 2 });
    expect(cells[11]).toEqual({ index: 11, policy: "drf-w2", params: { jobs: 5, queues: 3 }, seed: 3 });
  });

  it("shards partition the cells round-robin", () => {
    const cells = expandGrid(spec);
    const shards = [1, 2, 3].map((i) => shardCells(cells, parseShard(`${i}/3`)).map((c) => c.index));
    expect(shards).toEqual([[0, 3, 6, 9], [1, 4, 7, 10], [2, 5, 8, 11]]);
    expect(() => parseShard("0/3")).toThrow(InputError);
    expect(() => parseShard("4/3")).toThrow("--shard");
    expect(() => expandGrid({ ...spec, seeds: [1, 1] })).toThrow("twice");
  });
});

describe("runSweep and merge", () => {
  const opts = { modules: [FIXTURE], progress: false as const };

  it("3 shards merged == the unsharded run, byte for byte", async () => {
    const whole = join(tmp, "whole.jsonl");
    const lines = await runSweep(spec, { ...opts, workers: 2, out: whole });
    expect(lines).toHaveLength(13);
    const shardFiles: string[] = [];
    for (const i of [3, 1, 2]) {
      const f = join(tmp, `shard-${i}.jsonl`);
      await runSweep(spec, { ...opts, workers: 1, shard: parseShard(`${i}/3`), out: f });
      shardFiles.push(f);
    }
    const single = formatSweep(mergeSweepFiles([whole]));
    const merged = formatSweep(mergeSweepFiles(shardFiles));
    expect(merged).toBe(single);
    expect(single).toContain("12/12 cells");
    // 3 seeds: one row per cell without its seed, mean ± 95% t-interval (issue 20; was one row per seed)
    expect(single.split("\n")[1]).toBe("policy  jobs  queues  seeds            q0            q1");
    // The file's cell lines are the same set as the returned ones (written in completion order).
    expect(readFileSync(whole, "utf8").trim().split("\n").sort()).toEqual([...lines].sort());

    // Each cell equals running the scenario directly in this thread with that policy and seed.
    const engine = loadEngineSync();
    const m = mergeSweepFiles(shardFiles);
    const c = m.cells[7];
    expect(c.report.tables).toEqual(tinyScenario.run({ policies: [c.cell.policy], seed: c.cell.seed, params: c.cell.params, engine }).tables);
  });

  it("merge refuses missing cells, other sweeps and conflicting duplicates", async () => {
    const a = await runSweep(spec, { ...opts, workers: 1, shard: parseShard("1/2") });
    const b = await runSweep(spec, { ...opts, workers: 1, shard: parseShard("2/2") });
    expect(() => mergeSweepLines([a])).toThrow("6 of 12 cells missing");
    expect(mergeSweepLines([a], { allowPartial: true }).missing).toEqual([1, 3, 5, 7, 9, 11]);
    expect(formatSweep(mergeSweepLines([b, a, a]))).toBe(formatSweep(mergeSweepLines([a, b])));
    const other = await runSweep({ ...spec, seeds: [9] }, { ...opts, workers: 1 });
    expect(() => mergeSweepLines([a, other], { names: ["a.jsonl", "other.jsonl"] })).toThrow(/other\.jsonl:1: belongs to another sweep/);
    const tampered = b.map((l, i) => (i === 1 ? l.replace(/"seed":(\d)/, '"seed":$1,"x":1') : l));
    expect(() => mergeSweepLines([b, tampered])).toThrow("appears twice with different results");
    const bad = join(tmp, "bad.jsonl");
    writeFileSync(bad, a.join("\n") + "\n{oops\n");
    expect(() => mergeSweepFiles([bad])).toThrow(`${bad}:8: not JSON`);
  });

  it("a failing cell is an error naming the cell", async () => {
    const err = await runSweep({ ...spec, policies: ["nope"] }, { ...opts, workers: 1 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InputError);
    expect((err as Error).message).toMatch(/^sweep cell 0 \(policy nope, seed 1, params .*\): policies: unknown policy 'nope'/);
  });
});

describe("sweep progress", () => {
  it("shows cells, percent and ETA on a TTY, nothing elsewhere", () => {
    // progress is never drawn under CI or TERM=dumb (test/cli/progress.test.ts): this test is about a terminal
    const saved = { CI: process.env.CI, TERM: process.env.TERM };
    delete process.env.CI;
    process.env.TERM = "xterm";
    onTestFinished(() => {
      for (const [k, v] of Object.entries(saved)) if (v === undefined) delete process.env[k]; else process.env[k] = v;
    });
    let out = "";
    let now = 0;
    const tty = { isTTY: true, write: (s: string) => ((out += s), true) } as unknown as NodeJS.WriteStream;
    const p = cellProgress("sweep x", 4, tty, () => now);
    now = 10_000;
    p.tick(); // 1 cell in 10 s -> 3 left, eta 30 s
    expect(out).toContain("sweep x 1/4 cells 25%  elapsed 10s  eta 30s");
    now = 100_000;
    p.tick(); p.tick(); p.tick();
    expect(out).toContain("4/4 cells 100%  elapsed 1m40s  eta 0s");
    p.done();
    let quiet = "";
    const pipe = { isTTY: false, write: (s: string) => ((quiet += s), true) } as unknown as NodeJS.WriteStream;
    const q = cellProgress("sweep x", 4, pipe);
    q.tick(); q.done();
    expect(quiet).toBe("");
  });
});
