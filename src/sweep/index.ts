// Parameter sweeps: the grid and its shards (grid.ts), running cells on this machine's cores
// (run.ts, worker.ts), the JSON-lines format and the merge of shards (lines.ts), and the merged
// result as tables (tables.ts). Text formatting lives in the report layer (src/report/sweep-text.ts).
export { expandGrid, fingerprint, normalizeSpec, parseShard, shardCells, type ParamValue, type Shard, type SweepCell, type SweepSpec } from "./grid.js";
export { runSweep, type SweepOptions } from "./run.js";
export { mergeSweepFiles, mergeSweepLines, type MergedSweep, type SweepHeader, type SweepLine } from "./lines.js";
export { sweepTables } from "./tables.js";
export { runSweepOnQueue, startQueueWorker, SweepCellsFailed, type CellJob, type QueueSweepOptions, type QueueWorker, type QueueWorkerOptions } from "./queue.js";
export { parseQueueUrl, type QueueAddress } from "./queue-url.js";
export { checkCellJob, checkCellResult, DEFAULT_MAX_TRACE_BYTES, type TraceAccess } from "./job-check.js";
