// `npx tsx bench/live-ltrf.ts [sizes] [--rounds R]`: decisions per second of the live scheduler under
// ltrf, mlrf and h-ltrf at 1e3, 1e4 and 1e5 queues (K = 2), and the ratios time(10N) / time(N) per
// decision from one run (docs/performance.md, "Live LTRF").
// One decision = a running task finishes, its queue submits a new task (a new job), one task starts,
// the clock 1 ms later than the previous decision (so the ledger integrates and quanta refresh).
// Every queue starts with one running and two waiting tasks; the cluster is full, so each finish
// frees exactly one slot. Timed with tinybench on CPU time (bench/measure.ts): median per call; a
// ratio is the median of the per-round ratios.
import { loadEngineSync } from "../src/engine/load.js";
import { createScheduler } from "../src/live/scheduler.js";
import { Rng } from "../src/random/rng.js";
import { machineInfo } from "./machine.js";
import { combineRounds, measure, median, type Measurement } from "./measure.js";

const K = 2;
const SIZES = (process.argv[2] && !process.argv[2].startsWith("--") ? process.argv[2] : "1000,10000,100000").split(",").map(Number);
const ROUNDS = Math.max(1, Number(process.argv[process.argv.indexOf("--rounds") + 1]) || 3);
const POLICIES = ["ltrf", "mlrf", "h-ltrf"];
const engine = loadEngineSync();

/** A live scheduler of `policy` with N queues (H-LTRF: groups of 100), full, on a clock the host moves; returns one churn decision. */
function liveCase(policy: string, n: number): () => void {
  const demands = Array.from({ length: n }, (_, q) => Array.from({ length: K }, (_, r) => 1 + ((q * 7 + r * 3) % 5)));
  const capacity = new Array(K).fill(0);
  for (const d of demands) d.forEach((x, r) => (capacity[r] += x));
  let now = 0;
  const s = createScheduler({ policy, capacity, engine, clock: () => now, policyOptions: { quantum: 1 } });
  const names = demands.map((_, q) => `q${q}`);
  const index = new Map(names.map((x, q) => [x, q]));
  for (let q = 0; q < n; q++) s.addQueue(names[q], policy === "h-ltrf" ? { path: [`g${q % 100}`] } : undefined);
  let id = 0;
  for (let q = 0; q < n; q++) for (let i = 0; i < 3; i++) s.submit(names[q], { id: `t${id++}`, demand: demands[q] });
  const slotId: string[] = [];
  const slotQueue: number[] = [];
  for (const t of s.schedule()) { slotId.push(t.id); slotQueue.push(index.get(t.queue)!); }
  const rng = new Rng(1);
  return () => {
    now += 0.001;
    const at = Math.floor(rng.next() * slotId.length);
    const q = slotQueue[at];
    s.finish(slotId[at]);
    s.submit(names[q], { id: `n${id++}`, demand: demands[q] });
    const started = s.schedule();
    slotId[at] = started[0].id;
    slotQueue[at] = index.get(started[0].queue)!;
  };
}

const machine = machineInfo();
process.stderr.write(`${machine.cpu}, ${machine.cores} cores, node ${machine.node}; load average at start ${machine.loadAverage.join(" ")}\n`);
const calls = new Map<string, () => void>();
for (const n of SIZES) for (const p of POLICIES) {
  const t0 = performance.now();
  calls.set(`${p}|${n}`, liveCase(p, n));
  process.stderr.write(`setup ${p} N=${n}: ${(performance.now() - t0).toFixed(0)} ms (add N queues, submit 3N tasks, one schedule() starting N)\n`);
}
const rounds = new Map<string, Measurement[]>();
for (let round = 0; round < ROUNDS; round++) {
  for (const [key, call] of calls) {
    const prev = rounds.get(key);
    const m = await measure(key, call, { timeMs: 300, minSamples: 8 }, prev?.[0].reps);
    rounds.set(key, [...(prev ?? []), m]);
    process.stderr.write(`round ${round + 1} ${key.replace("|", " N=")}: ${(m.medianMs * 1e6).toFixed(0)} ns\n`);
  }
}
const ns = (p: string, n: number) => combineRounds(rounds.get(`${p}|${n}`)!).medianMs * 1e6;
const ratio = (p: string, a: number, b: number) => {
  const ra = rounds.get(`${p}|${a}`)!, rb = rounds.get(`${p}|${b}`)!;
  return median(ra.map((m, i) => m.medianMs / rb[i].medianMs));
};
console.log(`load average at start ${machine.loadAverage.join(" ")}, at end ${machineInfo().loadAverage.join(" ")} (${machine.cores} cores); ${ROUNDS} rounds\n`);
console.log("| queues | policy | decisions/s | µs/decision |\n|---|---|---|---|");
for (const n of SIZES) for (const p of POLICIES) console.log(`| ${n} | ${p} | ${(1e9 / ns(p, n)).toExponential(2)} | ${(ns(p, n) / 1000).toFixed(1)} |`);
for (let i = 1; i < SIZES.length; i++) {
  console.log(`\ntime(${SIZES[i]})/time(${SIZES[i - 1]}) per decision: ${POLICIES.map((p) => `${p} ${ratio(p, SIZES[i], SIZES[i - 1]).toFixed(2)}`).join(", ")}`);
}
