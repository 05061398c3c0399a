// `npm run bench:testkit`: how fast the test kit checks an allocator — axiom checks per
// second against the reference WASM engine, every axiom, N <= 50, K <= 6 (the sizes of our own
// axiom tests), so that a default `fairsched fuzz` run (100 inputs x 11 axioms, N <= 8, K <= 4)
// finishes in seconds. Also reported: the same run at the default fuzz sizes, and the share
// of the time spent inside engine.drf (so the number means something on any machine).
import { loadEngineSync } from "../src/index.js";
import { checkAllocator, referenceDrf, AXIOM_IDS, type Allocator } from "../src/testkit/index.js";

const engine = loadEngineSync({ backend: "wasm" });
const RUNS = Number(process.argv[2] ?? 200);
const ROUNDS = 3;

async function measure(label: string, sizes: { maxQueues: number; maxResources: number }): Promise<void> {
  const times: number[] = [];
  const inEngine: number[] = [];
  let calls = 0;
  for (let round = 0; round < ROUNDS; round++) {
    let engineMs = 0;
    calls = 0;
    const drf = referenceDrf(engine);
    const timed: Allocator = (s) => { const t = performance.now(); const out = drf(s); engineMs += performance.now() - t; calls++; return out; };
    const t0 = performance.now();
    const report = await checkAllocator(timed, { runs: RUNS, seed: 1000 + round, engine, ...sizes });
    const ms = performance.now() - t0;
    if (!report.passed) throw new Error(`the reference DRF failed ${report.failed.join(", ")}: the bench is void`);
    times.push(ms);
    inEngine.push(engineMs / ms);
  }
  const order = times.map((t, i) => [t, i] as const).sort((a, b) => a[0] - b[0]);
  const [ms, at] = order[Math.floor(ROUNDS / 2)];
  const checks = RUNS * AXIOM_IDS.length;
  console.log(`${label.padEnd(26)} ${ms.toFixed(0).padStart(7)} ms  ${(checks / (ms / 1000)).toFixed(0).padStart(8)} checks/s  ${(calls / (ms / 1000)).toFixed(0).padStart(8)} allocate calls/s  ${(100 * inEngine[at]).toFixed(0).padStart(3)}% in engine.drf`);
}

console.log(`test kit: ${RUNS} inputs x ${AXIOM_IDS.length} axioms per run (median of ${ROUNDS}), reference DRF on WASM`);
await measure("N <= 50, K <= 6", { maxQueues: 50, maxResources: 6 });
await measure("N <= 8, K <= 4 (fuzz default)", { maxQueues: 8, maxResources: 4 });
