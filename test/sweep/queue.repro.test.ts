// The sweep on a real queue: real redis-server, real `fairsched worker` processes. The collected
// lines equal the local sweep's, byte for byte, through a SIGKILLed worker, a Redis restart that
// loses every job, a worker frozen (SIGSTOP) until its cell was run again elsewhere, and a cell that
// throws (reported with its parameters and seed, run once).
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatSweep } from "../../src/report/sweep-text.js";
import { mergeSweepLines, parseQueueUrl, runSweep, runSweepOnQueue, SweepCellsFailed, type SweepSpec } from "../../src/sweep/index.js";
import { InputError } from "../../src/errors.js";
import { SLOW } from "../fixtures/slow-scenario.js";
import { startRedis, type TestRedis } from "../../bench/redis-server.js";
import { SLOW_FIXTURE, startWorkerProcess, type WorkerProcess } from "../helpers/queue-workers.js";

const spec: SweepSpec = { scenario: SLOW, policies: ["drf", "drf-w2"], params: { queues: [2, 3] }, seeds: [1, 2, 3] };
const CELL_MS = 300;
const LOCK_MS = 1500;
const tmp = mkdtempSync(join(tmpdir(), "fairsched-queue-"));
let redis: TestRedis;
let local: string[];
const workers: WorkerProcess[] = [];

beforeAll(async () => {
  redis = await startRedis();
  local = await runSweep(spec, { modules: [SLOW_FIXTURE], workers: 1 });
}, 300_000);
afterAll(async () => {
  await Promise.all(workers.map((w) => { w.child.kill("SIGCONT"); return w.stop(); }));
  await redis?.stop();
  rmSync(tmp, { recursive: true, force: true });
}, 300_000);

function markDir(name: string): string {
  const d = join(tmp, name);
  mkdirSync(d, { recursive: true });
  return d;
}

function spawnWorkers(n: number, marks: string, queue: string): WorkerProcess[] {
  const started = Array.from({ length: n }, () => startWorkerProcess(queue, { FAIRSCHED_TEST_MARK_DIR: marks, FAIRSCHED_TEST_CELL_MS: String(CELL_MS) }, ["--lock-ms", String(LOCK_MS)]));
  workers.push(...started);
  return started;
}

/** Markers: which process started which cell (pid_policy_seed_params_time). */
function marks(dir: string): Array<{ pid: number; cell: string }> {
  return readdirSync(dir).map((f) => {
    const [pid, policy, seed, params] = f.split("_");
    return { pid: Number(pid), cell: `${policy}_${seed}_${params}` };
  });
}

async function until(cond: () => boolean, what: string, ms = 280_000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}


describe("queue URL", () => {
  it("parses redis://HOST:PORT/NAME and names the field when it is wrong", () => {
    expect(parseQueueUrl("redis://127.0.0.1:7000/sweeps")).toEqual({ host: "127.0.0.1", port: 7000, name: "sweeps" });
    expect(() => parseQueueUrl("http://127.0.0.1:7000/x")).toThrow(InputError);
    expect(() => parseQueueUrl("redis://127.0.0.1:7000/")).toThrow("--queue");
    expect(() => parseQueueUrl("nonsense")).toThrow("redis://HOST:PORT/NAME");
  });
});

describe("sweep on a BullMQ queue with real worker processes", () => {
  it("a worker SIGKILLed mid-cell: its cell is run again by the other, output identical", async () => {
    const queue = `${redis.url}/kill`;
    const dir = markDir(join(tmp, "kill"));
    const [a, b] = spawnWorkers(2, dir, queue);
    const run = runSweepOnQueue(spec, queue, { pollMs: 50 });
    await until(() => marks(dir).some((m) => m.pid === a.child.pid), "worker A to start a cell");
    a.child.kill("SIGKILL");
    const lines = await run;
    expect(lines).toEqual(local);
    expect(formatSweep(mergeSweepLines([lines]))).toBe(formatSweep(mergeSweepLines([local])));
    const killedCell = marks(dir).find((m) => m.pid === a.child.pid)!.cell;
    // The killed worker's cell was started again by the survivor.
    expect(marks(dir).filter((m) => m.cell === killedCell).map((m) => m.pid)).toContain(b.child.pid);
    expect(await a.exited).toBe(null);
    await b.stop();
  }, 300_000);

  it("Redis restarted (without persistence: every job lost) mid-sweep: the sweep resumes, output identical", async () => {
    const queue = `${redis.url}/restart`;
    const dir = markDir(join(tmp, "restart"));
    const ws = spawnWorkers(2, dir, queue);
    const errors: string[] = [];
    let requeued = 0;
    const run = runSweepOnQueue(spec, queue, { pollMs: 50, onRedisError: (e) => errors.push(e.message), onRequeue: (n) => { requeued += n; } });
    await until(() => marks(dir).length >= 3, "three cells started");
    await redis.restart();
    const lines = await run;
    expect(lines).toEqual(local);
    // The submitter did see Redis go away: a command failed while it was down, or (ioredis
    // reconnected before any command failed) the jobs it was waiting for had vanished and
    // were enqueued again.
    expect(errors.length + requeued).toBeGreaterThan(0);
    await Promise.all(ws.map((w) => w.stop()));
  }, 300_000);

  it("a frozen worker finishing a cell that was already run elsewhere is counted once", async () => {
    const queue = `${redis.url}/dup`;
    const dir = markDir(join(tmp, "dup"));
    const [a, b] = spawnWorkers(2, dir, queue);
    const run = runSweepOnQueue(spec, queue, { pollMs: 50 });
    await until(() => marks(dir).some((m) => m.pid === a.child.pid), "worker A to start a cell");
    a.child.kill("SIGSTOP");
    const frozenCell = marks(dir).find((m) => m.pid === a.child.pid)!.cell;
    await until(() => marks(dir).some((m) => m.cell === frozenCell && m.pid === b.child.pid), "B to rerun A's cell");
    a.child.kill("SIGCONT"); // A now finishes its stale copy of the cell
    const lines = await run;
    expect(lines).toEqual(local);
    expect(new Set(lines.map((l) => l)).size).toBe(lines.length);
    await Promise.all([a.stop(), b.stop()]);
  }, 300_000);

  it("a cell that throws is reported with its policy, seed and parameters, and run once", async () => {
    const queue = `${redis.url}/boom`;
    const dir = markDir(join(tmp, "boom"));
    const ws = spawnWorkers(1, dir, queue);
    const bad: SweepSpec = { ...spec, policies: ["drf", "boom"], params: { queues: [2] }, seeds: [7] };
    const err = await runSweepOnQueue(bad, queue, { pollMs: 50 }).then(() => null, (e: unknown) => e);
    expect(err).toBeInstanceOf(SweepCellsFailed);
    const f = err as SweepCellsFailed;
    expect(f.failures.map((x) => x.cell)).toEqual([{ index: 1, policy: "boom", params: { queues: 2 }, seed: 7 }]);
    expect(f.message).toContain("cell 1 (policy boom, seed 7, params {\"queues\":2}): policies: unknown policy 'boom' (known: drf, drf-w2)");
    expect(f.lines).toHaveLength(2); // the header and the good cell
    expect(marks(dir).filter((m) => m.cell.startsWith("boom_"))).toHaveLength(1);
    await Promise.all(ws.map((w) => w.stop()));
  }, 300_000);
});
