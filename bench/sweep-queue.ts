// `npm run bench:sweep-queue [seeds]`: the queue-backed sweep against the local one, on one grid
// (ltrf-table1, policies mlrf,ltrf x seeds 1..N). Cells per second for the plain local sweep (1
// thread, and all cores) and for the queue with 1, 2 and 4 local `fairsched worker` processes of
// one thread each (started and ready before the clock starts; Redis started here on a free local
// port). Queue overhead per cell = queue with 1 worker / cells - local steady state per cell
// (local with 1 thread minus its thread startup, a one-cell sweep's time): the cost
// of enqueueing, BullMQ's locks and moves, and the submitter's polling. Wall-clock, median of
// three runs each: these runs take seconds, so tinybench's many iterations do not fit.
import { spawn, type ChildProcess } from "node:child_process";
import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import { runSweep, runSweepOnQueue, type SweepSpec } from "../src/sweep/index.js";
import { startRedis } from "./redis-server.js";

const SEEDS = Number(process.argv[2] ?? 30);
const ROUNDS = 3;
const spec: SweepSpec = { scenario: "ltrf-table1", policies: ["mlrf", "ltrf"], seeds: Array.from({ length: SEEDS }, (_, i) => i + 1) };
const cells = spec.policies.length * SEEDS;
const CLI = fileURLToPath(new URL("../src/cli/main.ts", import.meta.url));

async function median(f: () => Promise<unknown>): Promise<number> {
  const ms: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    const t = performance.now();
    await f();
    ms.push(performance.now() - t);
  }
  return ms.sort((a, b) => a - b)[1];
}

function startWorker(queue: string): Promise<ChildProcess> {
  const c = spawn(process.execPath, ["--import", "tsx", CLI, "worker", "--queue", queue, "--workers", "1"], { stdio: ["ignore", "ignore", "pipe"] });
  return new Promise((resolve, reject) => {
    let err = "";
    c.stderr!.on("data", (d) => { err += d; if (err.includes("pulling cells")) resolve(c); });
    c.once("exit", (code) => reject(new Error(`worker exited ${code}: ${err}`)));
  });
}

const rows: Array<[string, number]> = [];
const report = (label: string, ms: number) => {
  rows.push([label, ms]);
  console.log(`${label.padEnd(34)} ${(ms / 1000).toFixed(2).padStart(7)} s  ${(cells / (ms / 1000)).toFixed(1).padStart(7)} cells/s`);
};

console.log(`grid: ${spec.scenario} x ${spec.policies.join(",")} x ${SEEDS} seeds = ${cells} cells; ${availableParallelism()} cores; median of ${ROUNDS}`);
const expected = await runSweep(spec, { workers: 1 });
report("local sweep, 1 thread", await median(() => runSweep(spec, { workers: 1 })));
report(`local sweep, ${availableParallelism()} threads`, await median(() => runSweep(spec)));
// The local sweep starts its threads (and engines) on every run; the queue's workers were started
// before the clock. The startup is the time of a one-cell sweep; without it, per cell:
const startup = await median(() => runSweep({ ...spec, policies: ["mlrf"], seeds: [1] }, { workers: 1 }));
const localPerCell = (rows[0][1] - startup) / (cells - 1);
console.log(`local thread startup ${(startup / 1000).toFixed(2)} s; local steady state ${localPerCell.toFixed(2)} ms/cell = ${(1000 / localPerCell).toFixed(1)} cells/s`);
const redis = await startRedis();
try {
  for (const n of [1, 2, 4]) {
    const queue = `${redis.url}/bench${n}`;
    const workers = await Promise.all(Array.from({ length: n }, () => startWorker(queue)));
    try {
      let same = true;
      report(`queue, ${n} worker process${n > 1 ? "es" : ""}`, await median(async () => {
        const lines = await runSweepOnQueue(spec, queue, { pollMs: 20 });
        same &&= lines.join("\n") === expected.join("\n");
      }));
      if (!same) throw new Error("the queue's lines differ from the local sweep's: the bench is void");
    } finally {
      await Promise.all(workers.map((w) => new Promise((r) => { w.once("exit", r); w.kill("SIGTERM"); })));
    }
  }
} finally {
  await redis.stop();
}
const queue1 = rows[2][1];
console.log(`queue overhead per cell (1 worker process vs 1 local thread, startup excluded): ${(queue1 / cells - localPerCell).toFixed(2)} ms`);
