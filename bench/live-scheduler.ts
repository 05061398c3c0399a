// `npx tsx bench/live-scheduler.ts [sizes] [--rounds R] [--all]`: decisions per second of the live
// scheduler (createScheduler, DRF) with churn, at 1e3, 1e4 and 1e5 queues x K = 6, through its
// string-id API (submit / finish / schedule) and its handle API (submitHandle / finishHandle /
// scheduleHandles: the same decisions without id strings, Maps or result objects), against, in
// the same run:
//   - YARN-style: at every assignment, sort all queues by the DRF comparator (weighted dominant
//     share, then index) and start the first queue's task that fits: O(N log N) per decision;
//   - Mesos-style sorter: a sorted client list kept by removing and re-inserting the client whose
//     allocation changed (binary search + array splice): O(N) per decision;
//   - the id floor: only the bookkeeping every host of a string-keyed API pays per decision (a new
//     id string, Map set / get / delete, the result object), no scheduling: what is left of the
//     live scheduler's time above it is its own.
// One decision = a running task finishes, its queue submits a new task, and one task starts.
// Every queue starts with one running task and two waiting; the cluster is full, so each finish
// frees exactly one slot. Timed with tinybench on CPU time (bench/measure.ts): median per call;
// with several rounds every case is measured once per round and a ratio is the median of the
// per-round ratios (load drifts between rounds, not within one ratio). The machine's load is
// printed: on a shared machine absolute numbers move with it, ratios much less.
import { loadEngineSync } from "../src/engine/load.js";
import { createScheduler } from "../src/live/scheduler.js";
import { Rng } from "../src/random/rng.js";
import { machineInfo } from "./machine.js";
import { combineRounds, measure, median, type Measurement } from "./measure.js";

const K = 6;
const SIZES = (process.argv[2] && !process.argv[2].startsWith("--") ? process.argv[2] : "1000,10000,100000").split(",").map(Number);
const ROUNDS = Math.max(1, Number(process.argv[process.argv.indexOf("--rounds") + 1]) || 3);
const engine = loadEngineSync();

function demandsOf(n: number): number[][] {
  return Array.from({ length: n }, (_, q) => Array.from({ length: K }, (_, r) => 1 + ((q * 7 + r * 3) % 5)));
}

/** A DRF live scheduler sized for N queues' demands (the capacity their sum), and the queue names. */
function liveScheduler(n: number) {
  const demands = demandsOf(n);
  const capacity = new Array(K).fill(0);
  for (const d of demands) d.forEach((x, r) => (capacity[r] += x));
  const s = createScheduler({ policy: "drf", capacity, engine, clock: () => 0 });
  return { s, demands, names: demands.map((_, q) => `q${q}`) };
}

/** The live scheduler with N queues, full; returns one churn decision. */
function liveCase(n: number): () => void {
  const { s, demands, names } = liveScheduler(n);
  const index = new Map(names.map((x, q) => [x, q]));
  let id = 0;
  for (let q = 0; q < n; q++) {
    s.addQueue(names[q]);
    for (let i = 0; i < 3; i++) s.submit(names[q], { id: `t${id++}`, demand: demands[q] });
  }
  // running tasks by slot: id and queue index
  const slotId: string[] = [];
  const slotQueue: number[] = [];
  for (const t of s.schedule()) { slotId.push(t.id); slotQueue.push(index.get(t.queue)!); }
  const rng = new Rng(1);
  return () => {
    const at = Math.floor(rng.next() * slotId.length);
    const q = slotQueue[at];
    s.finish(slotId[at]);
    s.submit(names[q], { id: `n${id++}`, demand: demands[q] });
    const started = s.schedule();
    slotId[at] = started[0].id;
    slotQueue[at] = index.get(started[0].queue)!;
  };
}

/** The same churn through the handle API: the host keeps handles (small integers), no strings. */
function handleCase(n: number): () => void {
  const { s, demands, names } = liveScheduler(n);
  const vectors = demands.map((d) => Float64Array.from(d));
  const queueOf: number[] = []; // by handle
  for (let q = 0; q < n; q++) {
    s.addQueue(names[q]);
    for (let i = 0; i < 3; i++) queueOf[s.submitHandle(names[q], vectors[q])] = q;
  }
  const running = Int32Array.from(s.startedHandles.subarray(0, s.scheduleHandles()));
  const rng = new Rng(1);
  return () => {
    const at = Math.floor(rng.next() * running.length);
    const q = queueOf[running[at]];
    s.finishHandle(running[at]);
    queueOf[s.submitHandle(names[q], vectors[q])] = q;
    s.scheduleHandles();
    running[at] = s.startedHandles[0];
  };
}

/** The host-side bookkeeping of a string-keyed scheduler API per decision, with no scheduling at all. */
function idFloorCase(n: number): () => void {
  const tasks = new Map<string, { id: string; queue: number }>();
  const slotId: string[] = [];
  let id = 0;
  for (let q = 0; q < n; q++) for (let i = 0; i < 3; i++) { const t = { id: `t${id++}`, queue: q }; tasks.set(t.id, t); if (i === 0) slotId.push(t.id); }
  const rng = new Rng(1);
  const waiting: string[][] = Array.from({ length: n }, (_, q) => [`t${3 * q + 1}`, `t${3 * q + 2}`]);
  return () => {
    const at = Math.floor(rng.next() * slotId.length);
    const t = tasks.get(slotId[at])!;
    tasks.delete(t.id);
    const nt = { id: `n${id++}`, queue: t.queue };
    tasks.set(nt.id, nt);
    const w = waiting[t.queue];
    w.push(nt.id);
    const started = [{ id: w.shift()!, queue: `q${t.queue}` }];
    slotId[at] = started[0].id;
  };
}

/** Shared state of the baselines: usage per queue, one waiting task each, running counts. */
function baseState(n: number) {
  const demand = new Float64Array(n * K);
  const capacity = new Float64Array(K);
  demandsOf(n).forEach((d, q) => d.forEach((x, r) => { demand[q * K + r] = x; capacity[r] += x; }));
  const running = new Int32Array(n).fill(1);
  const key = new Float64Array(n);
  const used = Float64Array.from(capacity);
  const setKey = (q: number) => {
    let dom = 0;
    for (let r = 0; r < K; r++) dom = Math.max(dom, (running[q] * demand[q * K + r]) / capacity[r]);
    key[q] = dom;
  };
  for (let q = 0; q < n; q++) setKey(q);
  const fits = (q: number) => { for (let r = 0; r < K; r++) if (used[r] + demand[q * K + r] > capacity[r] * (1 + 1e-12)) return false; return true; };
  const change = (q: number, sign: 1 | -1) => { running[q] += sign; for (let r = 0; r < K; r++) used[r] += sign * demand[q * K + r]; setKey(q); };
  return { key, running, fits, change, rng: new Rng(1), n };
}

function yarnCase(n: number): () => void {
  const st = baseState(n);
  const order = Array.from({ length: n }, (_, i) => i);
  return () => {
    let v = Math.floor(st.rng.next() * n);
    while (st.running[v] === 0) v = (v + 1) % n;
    st.change(v, -1);
    order.sort((a, b) => st.key[a] - st.key[b] || a - b); // the DRF comparator, every assignment
    for (const q of order) if (st.fits(q)) { st.change(q, 1); break; }
  };
}

function mesosCase(n: number): () => void {
  const st = baseState(n);
  const sorted = Array.from({ length: n }, (_, i) => i).sort((a, b) => st.key[a] - st.key[b] || a - b);
  const less = (a: number, b: number) => st.key[a] < st.key[b] || (st.key[a] === st.key[b] && a < b);
  const place = (q: number) => { // binary search, then splice in
    let lo = 0, hi = sorted.length;
    while (lo < hi) { const mid = (lo + hi) >> 1; if (less(sorted[mid], q)) lo = mid + 1; else hi = mid; }
    sorted.splice(lo, 0, q);
  };
  const update = (q: number, sign: 1 | -1) => { sorted.splice(sorted.indexOf(q), 1); st.change(q, sign); place(q); };
  return () => {
    let v = Math.floor(st.rng.next() * n);
    while (st.running[v] === 0) v = (v + 1) % n;
    update(v, -1);
    for (const q of sorted) if (st.fits(q)) { update(q, 1); break; }
  };
}

const CASES = [["live (heap)", liveCase], ["live, handles", handleCase], ["id floor", idFloorCase], ["mesos-style sorter", mesosCase], ["yarn-style sort", yarnCase]] as const;
const skip = (name: string, n: number) => name === "yarn-style sort" && n > 10000 && !process.argv.includes("--all");

const machine = machineInfo();
process.stderr.write(`${machine.cpu}, ${machine.cores} cores, node ${machine.node}; load average at start ${machine.loadAverage.join(" ")}\n`);
const calls = new Map<string, () => void>();
for (const n of SIZES) for (const [name, make] of CASES) if (!skip(name, n)) calls.set(`${name}|${n}`, make(n));
const rounds = new Map<string, Measurement[]>();
for (let round = 0; round < ROUNDS; round++) {
  for (const [key, call] of calls) {
    const prev = rounds.get(key);
    const m = await measure(key, call, { timeMs: 300, minSamples: 8 }, prev?.[0].reps);
    rounds.set(key, [...(prev ?? []), m]);
    process.stderr.write(`round ${round + 1} ${key.replace("|", " N=")}: ${(m.medianMs * 1e6).toFixed(0)} ns\n`);
  }
}
const ns = (name: string, n: number) => { const r = rounds.get(`${name}|${n}`); return r ? combineRounds(r).medianMs * 1e6 : NaN; };
/** Median over rounds of the per-round ratio a/b. */
const ratio = (a: [string, number], b: [string, number]) => {
  const ra = rounds.get(`${a[0]}|${a[1]}`), rb = rounds.get(`${b[0]}|${b[1]}`);
  return ra && rb ? median(ra.map((m, i) => m.medianMs / rb[i].medianMs)) : NaN;
};
console.log(`load average at start ${machine.loadAverage.join(" ")}, at end ${machineInfo().loadAverage.join(" ")} (${machine.cores} cores); ${ROUNDS} rounds\n`);
console.log("| queues | implementation | decisions/s | ns/decision | x live |\n|---|---|---|---|---|");
for (const n of SIZES) {
  for (const [name] of CASES) {
    const t = ns(name, n);
    console.log(`| ${n} | ${name} | ${Number.isNaN(t) ? "skipped (> 10 s; --all)" : (1e9 / t).toExponential(3)} | ${Number.isNaN(t) ? "" : t.toFixed(0)} | ${Number.isNaN(t) ? "" : ratio([name, n], ["live (heap)", n]).toFixed(2)} |`);
  }
}
const sizes = SIZES.filter((n) => rounds.has(`live (heap)|${n}`));
for (let i = 1; i < sizes.length; i++) {
  const r = (name: string) => ratio([name, sizes[i]], [name, sizes[i - 1]]).toFixed(2);
  console.log(`\ntime(${sizes[i]})/time(${sizes[i - 1]}) per decision: live (string ids) ${r("live (heap)")}, live (handles) ${r("live, handles")}, id floor ${r("id floor")}`);
}
