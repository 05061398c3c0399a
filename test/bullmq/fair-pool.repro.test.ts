// The BullMQ fair-share pool on a real redis-server. Under contention (every tenant keeps jobs
// waiting) the time-weighted dominant share each tenant really ran (from the start and end of
// every job body) stays within 10% of its DRF share; the expected shares come from the engine's DRF
// (progressive filling) on the tenants' whole backlogs, not from the pool's own scheduler.
import { Queue } from "bullmq";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFairPool } from "../../src/bullmq/fair-pool.js";
import { loadEngineSync } from "../../src/engine/load.js";
import { InputError } from "../../src/errors.js";
import { createScheduler } from "../../src/live/scheduler.js";
import { startRedis, type TestRedis } from "../../bench/redis-server.js";
import { ShareMeter } from "./share-meter.js";

let redis: TestRedis;
beforeAll(async () => { redis = await startRedis(); }, 30_000);
afterAll(async () => { await redis?.stop(); });

// Job lengths 300-500 ms, spread deterministically so that jobs end at different times.
const JOB_MS = 400;
const jobMs = (i: number) => 300 + ((i * 37) % 201);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Case {
  name: string;
  capacity: number[];
  tenants: Record<string, { demand: number[]; weight: number; jobs: number }>;
}

const CASES: Case[] = [
  // The DRF paper's example: A runs 3 jobs <1 CPU, 4 GB>, B 2 jobs <3 CPU, 1 GB>, 2/3 each.
  { name: "DRF paper: <1,4> and <3,1> on <9,18>", capacity: [9, 18], tenants: { A: { demand: [1, 4], weight: 1, jobs: 45 }, B: { demand: [3, 1], weight: 1, jobs: 30 } } },
  // Weights: same job shape, weight 3 vs 1 -> 6 and 2 of 8 slots (3/4 and 1/4).
  { name: "weights 3:1 on <8 CPU, 16 GB>", capacity: [8, 16], tenants: { heavy: { demand: [1, 2], weight: 3, jobs: 72 }, light: { demand: [1, 2], weight: 1, jobs: 24 } } },
];

describe("fair pool on BullMQ", () => {
  it.each(CASES)("under contention each tenant's measured share is within 10% of its DRF share ($name)", async (c) => {
    const connection = { host: "127.0.0.1", port: redis.port };
    const names = Object.keys(c.tenants);
    const prefix = `share${CASES.indexOf(c)}`;
    for (const t of names) {
      const q = new Queue(t, { connection, prefix });
      await q.addBulk(Array.from({ length: c.tenants[t].jobs }, (_, i) => ({ name: "job", data: { demand: c.tenants[t].demand, ms: jobMs(i) }, opts: { jobId: `${t}-${i}` } })));
      await q.close();
    }
    const engine = loadEngineSync();
    const drf = engine.drf({
      capacity: c.capacity,
      demands: names.map((t) => c.tenants[t].demand.map((x) => x * c.tenants[t].jobs)),
      weights: names.map((t) => c.tenants[t].weight),
    });
    const expected = Object.fromEntries(names.map((t, i) => [t, drf.dominantShare[i]]));

    const meter = new ShareMeter();
    const pool = await startFairPool({
      connection, prefix, capacity: c.capacity,
      tenants: Object.fromEntries(names.map((t) => [t, { weight: c.tenants[t].weight }])),
      process: (job, tenant) => meter.around(tenant, () => sleep(job.data.ms as number).then(() => job.id)),
    });
    const total = names.reduce((s, t) => s + c.tenants[t].jobs, 0);
    while (meter.runs.length < total) await sleep(50);
    await pool.close();

    // Contention lasts from the first start until the first tenant starts its last job.
    const from = Math.min(...meter.runs.map((r) => r.start));
    const to = Math.min(...names.map((t) => meter.nthStart(t, c.tenants[t].jobs)));
    expect(to - from).toBeGreaterThan(8 * JOB_MS);
    const measured = meter.dominantShares(from, to, Object.fromEntries(names.map((t) => [t, c.tenants[t].demand])), c.capacity);
    for (const t of names) {
      expect(Math.abs(measured[t] - expected[t]) / expected[t], `${t}: measured ${measured[t].toFixed(4)}, DRF ${expected[t].toFixed(4)}`).toBeLessThan(0.1);
    }
    // every job ran exactly once and BullMQ has them all completed
    expect(meter.runs.length).toBe(total);
    for (const t of names) {
      const q = new Queue(t, { connection, prefix });
      expect(await q.getCompletedCount()).toBe(c.tenants[t].jobs);
      expect(await q.getActiveCount()).toBe(0);
      await q.close();
    }
  }, 120_000);

  it("a tenant whose jobs arrive while another fills the pool gets its DRF share once running jobs end", async () => {
    const connection = { host: "127.0.0.1", port: redis.port };
    const prefix = "late";
    const capacity = [9, 18];
    const spec = { A: { demand: [1, 4], jobs: 50 }, B: { demand: [3, 1], jobs: 30 } } as const;
    const qa = new Queue("A", { connection, prefix });
    const qb = new Queue("B", { connection, prefix });
    await qa.addBulk(Array.from({ length: spec.A.jobs }, (_, i) => ({ name: "job", data: { demand: spec.A.demand, ms: jobMs(i) } })));
    const meter = new ShareMeter();
    const pool = await startFairPool({
      connection, prefix, capacity, tenants: { A: {}, B: {} },
      process: (job, tenant) => meter.around(tenant, () => sleep(job.data.ms as number)),
    });
    // A alone: it takes what it can use (4 jobs of <1, 4> on 18 GB); B's queue is empty (its worker waits on BullMQ's marker)
    while (meter.runs.length < 8) await sleep(20);
    expect(pool.running().A).toBe(4);
    const arrival = performance.now();
    await qb.addBulk(Array.from({ length: spec.B.jobs }, (_, i) => ({ name: "job", data: { demand: spec.B.demand, ms: jobMs(i) } })));
    while (meter.runs.length < spec.A.jobs + spec.B.jobs) await sleep(50);
    await pool.close();
    // B's jobs start as A's running ones end (no preemption): from one longest job after B's arrival
    // until the first tenant starts its last job, both hold their DRF share of 2/3.
    const from = arrival + 500;
    const to = Math.min(meter.nthStart("A", spec.A.jobs), meter.nthStart("B", spec.B.jobs));
    expect(to - from).toBeGreaterThan(8 * JOB_MS);
    const measured = meter.dominantShares(from, to, { A: [...spec.A.demand], B: [...spec.B.demand] }, capacity);
    for (const t of ["A", "B"] as const) expect(Math.abs(measured[t] - 2 / 3) / (2 / 3), `${t}: measured ${measured[t].toFixed(4)}`).toBeLessThan(0.1);
    await qa.close();
    await qb.close();
  }, 120_000);

  it("a job whose demand is wrong fails at once (not retried), naming the field; the others run", async () => {
    const connection = { host: "127.0.0.1", port: redis.port };
    const prefix = "bad";
    const q = new Queue("T", { connection, prefix });
    await q.add("bad", { demand: [1] }, { jobId: "bad", attempts: 5 });
    await q.add("too-big", { demand: [1, 99] }, { jobId: "too-big", attempts: 5 });
    await q.add("good", { demand: [1, 1] }, { jobId: "good" });
    const ran: string[] = [];
    const pool = await startFairPool({ connection, prefix, capacity: [2, 2], tenants: { T: {} }, process: async (job) => { ran.push(job.id!); } });
    while ((await q.getFailedCount()) + (await q.getCompletedCount()) < 3) await sleep(20);
    await pool.close();
    expect(ran).toEqual(["good"]);
    const bad = (await q.getJob("bad"))!;
    expect(bad.failedReason).toMatch(/job\.data\.demand: expected 2 numbers/);
    expect(bad.attemptsMade).toBe(1);
    expect((await q.getJob("too-big"))!.failedReason).toMatch(/job\.data\.demand\[1\]: 99 exceeds the capacity 2/);
    await q.close();
  }, 60_000);

  it("close() finishes running jobs and hands held ones back: a second pool runs the rest, nothing stalled or run twice", async () => {
    const connection = { host: "127.0.0.1", port: redis.port };
    const prefix = "close";
    const q = new Queue("T", { connection, prefix });
    await q.addBulk(Array.from({ length: 20 }, (_, i) => ({ name: "job", data: { demand: [1] }, opts: { jobId: `j${i}` } })));
    const ran: string[] = [];
    const body = async (job: { id?: string }) => { await sleep(200); ran.push(job.id!); };
    const first = await startFairPool({ connection, prefix, capacity: [2], tenants: { T: {} }, process: body });
    while (first.running().T < 2 || first.buffered().T === 0) await sleep(10);
    await first.close();
    expect(first.running().T).toBe(0);
    expect(first.buffered().T).toBe(0);
    const afterFirst = ran.length;
    expect(afterFirst).toBeGreaterThanOrEqual(2);
    expect(await q.getActiveCount()).toBe(0);
    expect(await q.getWaitingCount()).toBe(20 - afterFirst);
    const second = await startFairPool({ connection, prefix, capacity: [2], tenants: { T: {} }, process: body });
    while ((await q.getCompletedCount()) < 20) await sleep(20);
    await second.close();
    expect([...ran].sort()).toEqual(Array.from({ length: 20 }, (_, i) => `j${i}`).sort());
    for (const job of await q.getCompleted(0, -1)) expect(job.stalledCounter, job.id).toBe(0);
    await q.close();
  }, 60_000);

  it("bad options are InputErrors naming the field", async () => {
    const connection = { host: "127.0.0.1", port: redis.port };
    const base = { connection, capacity: [1], tenants: { T: {} }, process: async () => 0 };
    await expect(startFairPool({ ...base, tenants: {} })).rejects.toThrow(/^tenants: names no tenant/);
    await expect(startFairPool({ ...base, prefetch: 0 })).rejects.toThrow(InputError);
    await expect(startFairPool({ ...base, prefetch: 0 })).rejects.toThrow(/^prefetch:/);
    await expect(startFairPool({ ...base, capacity: [-1] })).rejects.toThrow(/^capacity\[0\]:/);
    await expect(startFairPool({ ...base, policy: "nope" })).rejects.toThrow(/^policy:/);
    // snapshots: unreadable, or of another pool shape
    const q = new Queue("T", { connection });
    await (await q.backend.client).set("bad-snapshot", "{nope");
    await expect(startFairPool({ ...base, snapshotKey: "bad-snapshot" })).rejects.toThrow(/^snapshotKey: Redis key 'bad-snapshot' holds no JSON snapshot/);
    await q.close();
    const other = createScheduler({ policy: "drf", capacity: [2] });
    other.addQueue("T");
    await expect(startFairPool({ ...base, snapshot: other.snapshot() })).rejects.toThrow(/^snapshot\.capacity: is \[2\] but the pool's capacity is \[1\]/);
    await expect(startFairPool({ ...base, capacity: [2], policy: "fifo", snapshot: other.snapshot() })).rejects.toThrow(/^snapshot\.policy: is 'drf'/);
  }, 60_000);
});
