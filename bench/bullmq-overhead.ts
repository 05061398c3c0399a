// `npm run bench:bullmq [jobs]`: the fair pool (fairsched/bullmq) against plain BullMQ on the same
// redis-server (started here on a free local port). Two tenant queues, `jobs` jobs each, all
// enqueued before the clock starts; 8 slots in total: plain BullMQ runs one Worker per tenant
// queue with concurrency 4 (a static split, no fairness), the fair pool one capacity [8] with
// demand [1] per job. The clock runs from creating the consumers until Redis counts every job
// completed (polled every 5 ms, the same for both). Job bodies: empty (pure overhead) and a 10 ms
// sleep. Per job: wall-clock difference (fair - plain) / jobs, and CPU time of this process (the
// consumer: BullMQ client, pool, scheduler) / jobs. Wall-clock, median of three alternating runs
// (plain, fair, plain, ...); tinybench's many iterations do not fit runs of seconds.
import { availableParallelism } from "node:os";
import { Queue, Worker } from "bullmq";
import { startFairPool } from "../src/bullmq/fair-pool.js";
import { startRedis } from "./redis-server.js";

const JOBS = Number(process.argv[2] ?? 2000);
const ROUNDS = 3;
const TENANTS = ["A", "B"];
const SLOTS = 8;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const redis = await startRedis();
const connection = { host: "127.0.0.1", port: redis.port };
let run = 0;

async function enqueue(prefix: string, jobs: number, ms: number): Promise<Queue[]> {
  const queues = TENANTS.map((t) => new Queue(t, { connection, prefix }));
  for (const q of queues) {
    for (let i = 0; i < jobs; i += 500) {
      await q.addBulk(Array.from({ length: Math.min(500, jobs - i) }, () => ({ name: "job", data: { demand: [1], ms }, opts: { removeOnComplete: false } })));
    }
  }
  return queues;
}

async function allCompleted(queues: Queue[], jobs: number): Promise<void> {
  for (;;) {
    let n = 0;
    for (const q of queues) n += await q.getCompletedCount();
    if (n >= jobs * queues.length) return;
    await sleep(5);
  }
}

// Job bodies, counting how many run at once: both consumers must stay within SLOTS or the bench is void.
let runningNow = 0, maxRunning = 0;
const body = async (ms: number) => {
  maxRunning = Math.max(maxRunning, ++runningNow);
  try { if (ms > 0) await sleep(ms); else await Promise.resolve(); } finally { runningNow--; }
};

interface Sample { ms: number; cpuUs: number }

async function plain(jobs: number, ms: number): Promise<Sample> {
  const prefix = `plain${run++}`;
  const queues = await enqueue(prefix, jobs, ms);
  const cpu = process.cpuUsage();
  const t = performance.now();
  const workers = TENANTS.map((name) => new Worker(name, (job) => body(job.data.ms as number), { connection, prefix, concurrency: SLOTS / TENANTS.length }));
  await allCompleted(queues, jobs);
  const elapsed = performance.now() - t;
  const used = process.cpuUsage(cpu);
  await Promise.all(workers.map((w) => w.close()));
  await Promise.all(queues.map((q) => q.obliterate({ force: true }).then(() => q.close())));
  return { ms: elapsed, cpuUs: used.user + used.system };
}

async function fair(jobs: number, ms: number): Promise<Sample> {
  const prefix = `fair${run++}`;
  const queues = await enqueue(prefix, jobs, ms);
  const cpu = process.cpuUsage();
  const t = performance.now();
  const pool = await startFairPool({
    connection, prefix, capacity: [SLOTS], tenants: Object.fromEntries(TENANTS.map((n) => [n, {}])),
    process: (job) => body(job.data.ms as number),
  });
  await allCompleted(queues, jobs);
  const elapsed = performance.now() - t;
  const used = process.cpuUsage(cpu);
  await pool.close();
  await Promise.all(queues.map((q) => q.obliterate({ force: true }).then(() => q.close())));
  return { ms: elapsed, cpuUs: used.user + used.system };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const cell = (x: string, w: number) => x.padStart(w);

console.log(`fair pool vs plain BullMQ: ${TENANTS.length} tenants x N jobs, ${SLOTS} slots; ${availableParallelism()} cores; median of ${ROUNDS} alternating runs`);
console.log(`${"job body".padEnd(11)} ${cell("N/tenant", 8)} ${cell("plain jobs/s", 13)} ${cell("fair jobs/s", 12)} ${cell("fair/plain time", 16)} ${cell("wall/job", 10)} ${cell("plain CPU/job", 14)} ${cell("fair CPU/job", 13)} ${cell("fair/plain CPU", 15)}`);
try {
  for (const [ms, jobs] of [[0, JOBS], [10, Math.max(100, Math.round(JOBS / 4))]] as const) {
    const p: Sample[] = [], f: Sample[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      p.push(await plain(jobs, ms));
      f.push(await fair(jobs, ms));
    }
    const total = jobs * TENANTS.length;
    if (maxRunning > SLOTS) throw new Error(`${maxRunning} job bodies ran at once (slots: ${SLOTS}): the bench is void`);
    const tp = median(p.map((x) => x.ms)), tf = median(f.map((x) => x.ms));
    const cp = median(p.map((x) => x.cpuUs)) / total, cf = median(f.map((x) => x.cpuUs)) / total;
    console.log(`${(ms ? `${ms} ms sleep` : "empty").padEnd(11)} ${cell(String(jobs), 8)} ${cell((total / (tp / 1000)).toFixed(0), 13)} ${cell((total / (tf / 1000)).toFixed(0), 12)} ${cell((tf / tp).toFixed(2), 16)} ${cell((((tf - tp) / total) * 1000).toFixed(0), 7)} µs ${cell(cp.toFixed(0), 11)} µs ${cell(cf.toFixed(0), 10)} µs ${cell((cf / cp).toFixed(2), 15)}`);
  }
} finally {
  await redis.stop();
}
