// What a `fairsched worker` reads from Redis, and what a `sweep --queue` submitter collects, are
// not trusted (src/sweep/job-check.ts), on a real redis-server with real worker processes:
// crafted jobs naming files outside --trace-dir, a FIFO, /dev/zero, a file whose first token is a
// secret, unknown scenarios by the dozen; a worker stuck in a cell stops on SIGTERM within its
// stated time; a forged result is reported as such and not written.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Queue, Worker as BullWorker } from "bullmq";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkCellJob, runSweepOnQueue, SweepCellsFailed, type SweepSpec } from "../../src/sweep/index.js";
import { InputError } from "../../src/errors.js";
import { SLOW } from "../fixtures/slow-scenario.js";
import { startRedis, type TestRedis } from "../../bench/redis-server.js";
import { startWorkerProcess, type WorkerProcess } from "../helpers/queue-workers.js";

const tmp = mkdtempSync(join(tmpdir(), "fairsched-trust-"));
const traceDir = join(tmp, "traces");
let redis: TestRedis;
const workers: WorkerProcess[] = [];
const connection = () => ({ host: "127.0.0.1", port: redis.port, maxRetriesPerRequest: 1 });

beforeAll(async () => {
  redis = await startRedis();
  execFileSync("mkdir", ["-p", traceDir]);
  writeFileSync(join(traceDir, "secret.tr"), "API_TOKEN=hunter2 and more\n");
  writeFileSync(join(tmp, "outside.tr"), "API_TOKEN=outside\n");
  writeFileSync(join(traceDir, "big.tr"), "x".repeat(5000));
  execFileSync("mkfifo", [join(traceDir, "fifo.tr")]);
  symlinkSync("/dev/zero", join(traceDir, "zero.tr"));
  symlinkSync(join(tmp, "outside.tr"), join(traceDir, "escape.tr"));
}, 60_000);
afterAll(async () => {
  await Promise.all(workers.map((w) => w.stop()));
  await redis?.stop();
  rmSync(tmp, { recursive: true, force: true });
}, 60_000);

const job = (scenario: string, params: Record<string, string | number>, index = 0) => ({
  fingerprint: "0123456789abcdef", scenario, backend: "js", keepCharts: false, cell: { index, policy: "drf", params, seed: 1 },
});

/** Adds crafted jobs and waits until each has failed or completed; returns their failedReason (or "completed"). */
async function outcomes(name: string, datas: unknown[]): Promise<string[]> {
  const q = new Queue(name, { connection: connection() });
  try {
    await q.addBulk(datas.map((data, i) => ({ name: "cell", data, opts: { jobId: `crafted-${i}`, attempts: 1 } })));
    const out: string[] = [];
    for (let i = 0; i < datas.length; i++) {
      for (;;) {
        const j = await q.getJob(`crafted-${i}`);
        if (j?.finishedOn) { out.push(j.failedReason || "completed"); break; }
        await new Promise((r) => setTimeout(r, 50));
      }
    }
    return out;
  } finally {
    await q.close();
  }
}

const threads = (pid: number) => Number(/Threads:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))![1]);

describe("a worker checks every job against its own registry and its --trace-dir", () => {
  it("files outside the trace dir, a FIFO, /dev/zero, a file past the size bound and a secret's first token never reach a job's failedReason", async () => {
    const name = "files";
    const w = startWorkerProcess(`${redis.url}/${name}`, {}, ["--trace-dir", traceDir, "--max-trace-bytes", "4096"]);
    workers.push(w);
    const reasons = await outcomes(name, [
      job("phoenix", { traceFile: "/etc/passwd" }),
      job("phoenix", { traceFile: "../outside.tr" }),
      job("phoenix", { traceFile: "escape.tr" }),
      job("phoenix", { traceFile: "missing.tr" }),
      job("phoenix", { traceFile: "fifo.tr" }),
      job("phoenix", { traceFile: "zero.tr" }),
      job("phoenix", { traceFile: "big.tr" }),
      job("phoenix", { traceFile: "secret.tr" }),
      job("phoenix", { traceDir: "/" }),
    ]);
    const notInside = (f: string) => `refused by the worker: job.cell.params.traceFile: "${f}" is not a regular file inside the worker's --trace-dir`;
    expect(reasons.slice(0, 6)).toEqual(["/etc/passwd", "../outside.tr", "escape.tr", "missing.tr", "fifo.tr", "zero.tr"].map(notInside));
    expect(reasons[6]).toBe("refused by the worker: job.cell.params.traceFile: \"big.tr\" is 5000 bytes, past the worker's bound of 4096 (--max-trace-bytes)");
    expect(reasons[7]).toMatch(/^the cell failed on its trace file( \([^)]*\))?; the reason is in the worker's log$/);
    expect(reasons[8]).toBe("refused by the worker: job.cell.params.traceDir: a queue worker reads trace files only as traceFile=NAME inside its --trace-dir");
    for (const r of reasons) expect(r).not.toMatch(/API_TOKEN|hunter2|root:/);
    // the operator sees the reason in the worker's own log
    expect(w.log()).toMatch(/cell 0 with trace file .*secret\.tr/);
  }, 300_000);

  it("jobs naming unknown scenarios, bad cells or extra fields are refused before any thread starts", async () => {
    const name = "names";
    const w = startWorkerProcess(`${redis.url}/${name}`, {}, []);
    workers.push(w);
    await until(() => /pulling cells/.test(w.log()), 240_000);
    const before = threads(w.child.pid!);
    const reasons = await outcomes(name, [
      ...Array.from({ length: 40 }, (_, i) => job(`no-such-scenario-${i}`, {})),
      job(SLOW, { nope: 1 }),
      job(SLOW, { queues: 2 }, -1),
      { ...job(SLOW, {}), extra: 1 },
      "a string",
    ]);
    for (let i = 0; i < 40; i++) expect(reasons[i]).toBe(`refused by the worker: job.scenario: "no-such-scenario-${i}" is not a scenario this worker knows (its registry and --module files)`);
    expect(reasons[40]).toMatch(/^refused by the worker: job\.cell\.params: unknown parameter 'nope' of scenario 'tiny-slow'/);
    expect(reasons[41]).toBe("refused by the worker: job.cell.index: expected an integer >= 0, got -1");
    expect(reasons[42]).toBe("refused by the worker: job.extra: is not a field of a sweep job");
    expect(reasons[43]).toBe("refused by the worker: job: expected a sweep cell job, got \"a string\"");
    // no thread pool was started for any of them (each would have added a thread)
    expect(threads(w.child.pid!) - before).toBeLessThan(10);
  }, 300_000);

  it("checkCellJob keeps a valid job as it was, the same on both sides", () => {
    const data = job(SLOW, { queues: 2 });
    expect(checkCellJob(JSON.parse(JSON.stringify(data)))).toEqual(data);
    expect(() => checkCellJob({ ...data, backend: "gpu" })).toThrow(InputError);
  });
});

async function until(cond: () => boolean, ms = 60_000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe("a worker stops on SIGTERM within --stop-ms + 1 s", () => {
  it("even with a cell that would run for ten minutes", async () => {
    const name = "stuck";
    const marks = mkdtempSync(join(tmp, "marks-"));
    const w = startWorkerProcess(`${redis.url}/${name}`, { FAIRSCHED_TEST_CELL_MS: "600000", FAIRSCHED_TEST_MARK_DIR: marks }, ["--stop-ms", "1000"]);
    workers.push(w);
    const q = new Queue(name, { connection: connection() });
    await q.add("cell", job(SLOW, { queues: 2 }), { jobId: "stuck-0" });
    await until(() => execFileSync("ls", [marks]).toString().trim() !== "", 240_000);
    const t0 = Date.now();
    w.child.kill("SIGTERM");
    const code = await w.exited;
    const took = Date.now() - t0;
    await q.close();
    expect(code).toBe(0);
    expect(w.log()).toMatch(/stopped after 0 cells/);
    // stated: --stop-ms (1000) + 1 s; measured from the signal to the process's exit, with 3 s
    // for a loaded machine's teardown (without the deadline it would be the cell's ten minutes)
    expect(took).toBeLessThan(1000 + 1000 + 3000);
  }, 300_000);
});

describe("a sweep --queue submitter checks what it collects", () => {
  const spec: SweepSpec = { scenario: SLOW, policies: ["drf"], params: { queues: [2] }, seeds: [1, 2] };

  it("a result that is not a report of its cell is reported as forged and not written", async () => {
    const name = "forged";
    const out = join(tmp, "forged.jsonl");
    // a forger's worker: answers seed 1 with a report of another seed, seed 2 with injected JSON
    const forger = new BullWorker(name, async (j) => {
      const d = j.data as { cell: { seed: number } };
      return d.cell.seed === 1
        ? JSON.stringify({ scenario: SLOW, seed: 99, params: {}, policies: ["drf"], tables: [] })
        : '{"scenario":"x"}},"evil":{';
    }, { connection: { ...connection(), maxRetriesPerRequest: null } });
    try {
      const err = await runSweepOnQueue(spec, `${redis.url}/${name}`, { pollMs: 50, out }).then(() => null, (e: unknown) => e);
      expect(err).toBeInstanceOf(SweepCellsFailed);
      const f = err as SweepCellsFailed;
      expect(f.failures.map((x) => x.reason)).toEqual([
        "forged result, not written: the report is of seed 99, not 1",
        "forged result, not written: the result is not JSON",
      ]);
      expect(f.lines).toHaveLength(1); // the header only
      expect(readFileSync(out, "utf8").trim().split("\n")).toHaveLength(1);
    } finally {
      await forger.close();
    }
  }, 120_000);
});
