// `npx tsx bench/live-queue-set.ts [sizes] [--rounds R]`: what adding queues costs the live
// scheduler: a fresh scheduler (K = 6), N addQueue calls (one LQ with bursts in 50, the rest
// TQs, seven H-LTRF groups), then one schedule(), which builds a policy whose rebuild was
// deferred. Per policy, microseconds per queue added, and the ratio of that cost at each size to
// the one below: 1 when an addQueue costs O(1) amortised, 10 per decade when it costs O(N).
// Timed with tinybench on CPU time (bench/measure.ts); with several rounds a ratio is the median
// of the per-round ratios.
import { loadEngineSync } from "../src/engine/load.js";
import { createScheduler } from "../src/live/scheduler.js";
import { machineInfo } from "./machine.js";
import { combineRounds, measure, median, type Measurement } from "./measure.js";

const K = 6;
const SIZES = (process.argv[2] && !process.argv[2].startsWith("--") ? process.argv[2] : "1000,10000").split(",").map(Number);
const ROUNDS = Math.max(1, Number(process.argv[process.argv.indexOf("--rounds") + 1]) || 3);
const POLICIES = ["drf", "ltrf", "h-ltrf", "mbvt", "bopf", "nbopf"];
const engine = loadEngineSync();
const capacity = new Array(K).fill(1000);

/** Adds n queues to a fresh scheduler under `policy`, then schedules once. */
function addQueues(policy: string, n: number): () => void {
  return () => {
    const s = createScheduler({ policy, capacity, engine, clock: () => 0 });
    for (let i = 0; i < n; i++) {
      const lq = i % 50 === 0;
      s.addQueue(`q${i}`, { kind: lq ? "LQ" : "TQ", bursts: lq ? [{ start: 0, window: 10, volume: new Array(K).fill(1) }] : undefined, path: [`g${i % 7}`] });
    }
    s.schedule();
  };
}

const machine = machineInfo();
process.stderr.write(`${machine.cpu}, ${machine.cores} cores, node ${machine.node}; load average at start ${machine.loadAverage.join(" ")}\n`);
const rounds = new Map<string, Measurement[]>();
for (let round = 0; round < ROUNDS; round++) {
  for (const policy of POLICIES) {
    for (const n of SIZES) {
      const key = `${policy}|${n}`;
      const prev = rounds.get(key);
      const m = await measure(key, addQueues(policy, n), { timeMs: 200, minSamples: 3 }, prev?.[0].reps);
      rounds.set(key, [...(prev ?? []), m]);
      process.stderr.write(`round ${round + 1} ${policy} N=${n}: ${((m.medianMs * 1000) / n).toFixed(2)} us per queue\n`);
    }
  }
}
const usPerQueue = (policy: string, n: number) => (combineRounds(rounds.get(`${policy}|${n}`)!).medianMs * 1000) / n;
const ratio = (policy: string, a: number, b: number) => {
  const ra = rounds.get(`${policy}|${a}`)!, rb = rounds.get(`${policy}|${b}`)!;
  return median(ra.map((m, i) => m.medianMs / a / (rb[i].medianMs / b)));
};
console.log(`load average at start ${machine.loadAverage.join(" ")}, at end ${machineInfo().loadAverage.join(" ")} (${machine.cores} cores); ${ROUNDS} rounds\n`);
console.log(`| policy | ${SIZES.map((n) => `us per queue, N = ${n}`).join(" | ")} | ${SIZES.slice(1).map((n, i) => `per-queue cost ${n} / ${SIZES[i]}`).join(" | ")} |`);
console.log(`|---|${SIZES.map(() => "---|").join("")}${SIZES.slice(1).map(() => "---|").join("")}`);
for (const p of POLICIES) {
  console.log(`| ${p} | ${SIZES.map((n) => usPerQueue(p, n).toFixed(2)).join(" | ")} | ${SIZES.slice(1).map((n, i) => ratio(p, n, SIZES[i]).toFixed(2)).join(" | ")} |`);
}
