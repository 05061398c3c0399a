// `fairsched/bullmq` (Node only): fair share across tenants for BullMQ on Redis (docs/bullmq.md).
export { startFairPool, type FairJobData, type FairPool, type FairPoolOptions, type TenantOptions } from "./fair-pool.js";
export { restorePoolScheduler, type PoolSchedulerSpec } from "./restore.js";
