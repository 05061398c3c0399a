// A fair pool in a real child process is SIGKILLed mid-job. BullMQ's semantics are at-least-once
// execution and exactly-once completion: the jobs the dead pool held (running or only fetched) go
// back to their queues through BullMQ's stalled check once their locks lapse, and run again. A new
// pool restarted from the snapshot the dead one persisted in Redis keeps the tenants' accumulated
// usage, and its accounting is right from the first moment: at every sample the scheduler's
// running count per tenant equals the job bodies really running in it. In the end every job is
// completed exactly once (one completion record each, none failed, none left active).
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { Queue } from "bullmq";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFairPool } from "../../src/bullmq/fair-pool.js";
import type { SchedulerSnapshot } from "../../src/live/scheduler.js";
import { startRedis, type TestRedis } from "../../bench/redis-server.js";
import { ShareMeter } from "./share-meter.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const CHILD = fileURLToPath(new URL("./pool-child.ts", import.meta.url));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let redis: TestRedis;
beforeAll(async () => { redis = await startRedis(); }, 30_000);
afterAll(async () => { await redis?.stop(); });

async function until(cond: () => boolean | Promise<boolean>, what: string, ms = 60_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await cond())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

describe("fair pool: a worker process killed mid-job", () => {
  it("loses no job, and the pool restarted from its snapshot has the right accounting", async () => {
    const connection = { host: "127.0.0.1", port: redis.port };
    const prefix = "kill";
    const snapshotKey = "kill:pool-snapshot";
    const capacity = [9, 18];
    const spec = { A: { demand: [1, 4], jobs: 15 }, B: { demand: [3, 1], jobs: 10 } } as const;
    const tenants = { A: {}, B: {} };
    const queues = { A: new Queue("A", { connection, prefix }), B: new Queue("B", { connection, prefix }) };
    for (const t of ["A", "B"] as const) {
      await queues[t].addBulk(Array.from({ length: spec[t].jobs }, (_, i) => ({ name: "job", data: { demand: spec[t].demand, ms: 700 }, opts: { jobId: `${t}-${i}` } })));
    }
    const total = spec.A.jobs + spec.B.jobs;

    // 1. the pool in a child process; killed once it runs jobs and has persisted a snapshot showing them
    const child = spawn(process.execPath, ["--import", "tsx", CHILD], {
      cwd: ROOT, stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, FAIRSCHED_POOL: JSON.stringify({ port: redis.port, prefix, tenants, capacity, lockMs: 1000, snapshotKey }) },
    });
    let out = "";
    child.stdout!.on("data", (d) => { out += d; });
    child.stderr!.on("data", (d) => { out += d; });
    const exited = new Promise<NodeJS.Signals | null>((r) => child.once("exit", (_code, signal) => r(signal)));
    const client = await queues.A.backend.client;
    const persisted = async () => JSON.parse((await client.get(snapshotKey)) ?? "null") as SchedulerSnapshot | null;
    const runningIn = (s: SchedulerSnapshot | null) => (s ? s.queues.reduce((n, q) => n + q.running.length, 0) : 0);
    // past the first wave (some jobs completed, so the snapshot carries history), mid-job in the second
    await until(async () => (await queues.A.getCompletedCount()) + (await queues.B.getCompletedCount()) >= 3 && runningIn(await persisted()) >= 3, `the child to run its second wave (output: ${out})`);
    child.kill("SIGKILL");
    expect(await exited).toBe("SIGKILL");

    const before = (await persisted())!;
    expect(runningIn(before)).toBeGreaterThan(0);
    const startedInChild = new Set([...out.matchAll(/^start (\w) (\S+)$/gm)].map((m) => m[2]));
    const completedByChild = new Set<string>();
    for (const t of ["A", "B"] as const) for (const j of await queues[t].getCompleted(0, -1)) completedByChild.add(j.id!);
    const killedMidJob = [...startedInChild].filter((id) => !completedByChild.has(id));
    expect(killedMidJob.length).toBeGreaterThan(0);
    // the dead pool's jobs (running or fetched) are still active in Redis under its lapsing locks
    expect((await queues.A.getActiveCount()) + (await queues.B.getActiveCount())).toBeGreaterThanOrEqual(killedMidJob.length);

    // 2. a new pool from the persisted snapshot
    const meter = new ShareMeter();
    const pool = await startFairPool({
      connection, prefix, tenants, capacity, snapshotKey, lockMs: 1000, stalledIntervalMs: 300,
      process: (job, tenant) => meter.around(tenant, async () => { await sleep(job.data.ms as number); return { pid: process.pid, tenant }; }),
    });
    const restored = pool.scheduler.shares();
    for (const s of restored) {
      // nothing of the dead pool counts as running or waiting; its history is kept
      const q = before.queues.find((x) => x.name === s.queue)!;
      expect(s.accumulated).toBeGreaterThanOrEqual(q.accumulated);
      expect(s.accumulated).toBeGreaterThan(0);
    }
    // accounting = reality at every sample until every job is done
    const mismatches: string[] = [];
    let samples = 0;
    const sampler = setInterval(() => {
      samples++;
      for (const s of pool.scheduler.shares()) {
        if (s.running !== meter.runningNow(s.queue)) mismatches.push(`${s.queue}: scheduler ${s.running}, really ${meter.runningNow(s.queue)}`);
      }
    }, 10);
    try {
      await until(async () => (await queues.A.getCompletedCount()) + (await queues.B.getCompletedCount()) === total, "every job completed", 90_000);
    } finally {
      clearInterval(sampler);
    }
    expect(samples).toBeGreaterThan(50);
    expect(mismatches).toEqual([]);
    expect(pool.scheduler.shares().map((s) => [s.queue, s.running, s.waiting])).toEqual([["A", 0, 0], ["B", 0, 0]]);
    await pool.close();

    // 3. every job completed exactly once; the ones killed mid-job were moved back by the stalled check and re-run here
    for (const t of ["A", "B"] as const) {
      expect(await queues[t].getFailedCount()).toBe(0);
      expect(await queues[t].getActiveCount()).toBe(0);
      expect(await queues[t].getWaitingCount()).toBe(0);
      expect(await queues[t].getCompletedCount()).toBe(spec[t].jobs);
    }
    for (const id of killedMidJob) {
      const job = (await queues[id[0] as "A" | "B"].getJob(id))!;
      expect(await job.getState()).toBe("completed");
      expect(job.returnvalue.pid, id).toBe(process.pid);
      expect(job.stalledCounter, id).toBe(1);
    }
    // jobs completed by the child were not run again
    expect(meter.runs.length).toBe(total - completedByChild.size);
    await queues.A.close();
    await queues.B.close();
  }, 180_000);
});
