// A fair pool in its own process, for the kill test (fair-pool-kill.test.ts): runs the tenants of
// FAIRSCHED_POOL (JSON: port, prefix, tenants, capacity, lockMs, snapshotKey) and prints
// "start <tenant> <job id>" when a job body begins; each job sleeps job.data.ms and returns the pid.
import { startFairPool } from "../../src/bullmq/fair-pool.js";

const cfg = JSON.parse(process.env.FAIRSCHED_POOL!) as {
  port: number; prefix: string; tenants: Record<string, { weight?: number }>; capacity: number[]; lockMs: number; snapshotKey: string;
};
await startFairPool({
  connection: { host: "127.0.0.1", port: cfg.port }, prefix: cfg.prefix, tenants: cfg.tenants, capacity: cfg.capacity,
  lockMs: cfg.lockMs, snapshotKey: cfg.snapshotKey, snapshotEveryMs: 50,
  process: async (job, tenant) => {
    process.stdout.write(`start ${tenant} ${job.id}\n`);
    await new Promise((r) => setTimeout(r, job.data.ms as number));
    return { pid: process.pid };
  },
});
process.stdout.write("ready\n");
