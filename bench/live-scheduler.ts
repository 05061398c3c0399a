// `npx tsx bench/live-scheduler.ts`: decisions per second of the live scheduler (createScheduler,
// DRF) with churn, at 1e3, 1e4 and 1e5 queues x K = 6, against two baselines in the same run:
//   - YARN-style: at every assignment, sort all queues by the DRF comparator (weighted dominant
//     share, then index) and start the first queue's task that fits: O(N log N) per decision;
//   - Mesos-style sorter: a sorted client list kept by removing and re-inserting the client whose
//     allocation changed (binary search + array splice): O(N) per decision.
// One decision = a running task finishes, its queue submits a new task, and one task starts.
// Every queue starts with one running task and two waiting; the cluster is full, so each finish
// frees exactly one slot. Timed with tinybench (bench/measure.ts): median per call.
import { loadEngineSync } from "../src/engine/load.js";
import { createScheduler } from "../src/live/scheduler.js";
import { Rng } from "../src/des/random.js";
import { measure } from "./measure.js";

const K = 6;
const SIZES = (process.argv[2] ?? "1000,10000,100000").split(",").map(Number);
const engine = loadEngineSync();

function demandOf(q: number): number[] {
  return Array.from({ length: K }, (_, r) => 1 + ((q * 7 + r * 3) % 5));
}

/** The live scheduler with N queues, full; returns one churn decision. */
function liveCase(n: number): () => void {
  const capacity = new Array(K).fill(0);
  for (let q = 0; q < n; q++) demandOf(q).forEach((d, r) => (capacity[r] += d));
  const s = createScheduler({ policy: "drf", capacity, engine, clock: () => 0 });
  const running: string[] = [];
  let id = 0;
  for (let q = 0; q < n; q++) {
    s.addQueue(`q${q}`);
    for (let i = 0; i < 3; i++) s.submit(`q${q}`, { id: `t${id++}`, demand: demandOf(q) });
  }
  for (const t of s.schedule()) running.push(t.id);
  const rng = new Rng(1);
  const queueOf = new Map<string, string>();
  return () => {
    const at = Math.floor(rng.next() * running.length);
    const victim = running[at];
    const q = victim.startsWith("t") ? `q${Math.floor(Number(victim.slice(1)) / 3) % n}` : queueOf.get(victim)!;
    s.finish(victim);
    queueOf.delete(victim);
    const nid = `n${id++}`;
    queueOf.set(nid, q);
    s.submit(q, { id: nid, demand: demandOf(Number(q.slice(1))) });
    const started = s.schedule();
    running[at] = started[0]?.id ?? running[running.length - 1];
    if (!started[0]) running.pop();
    for (let i = 1; i < started.length; i++) running.push(started[i].id);
  };
}

/** Shared state of the baselines: usage per queue, one waiting task each, running counts. */
function baseState(n: number) {
  const demand = new Float64Array(n * K);
  const capacity = new Float64Array(K);
  for (let q = 0; q < n; q++) demandOf(q).forEach((d, r) => { demand[q * K + r] = d; capacity[r] += d; });
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

const rows: Array<{ n: number; name: string; perSec: number; ns: number }> = [];
for (const n of SIZES) {
  for (const [name, make] of [["live (heap)", liveCase], ["mesos-style sorter", mesosCase], ["yarn-style sort", yarnCase]] as const) {
    if (name === "yarn-style sort" && n > 10000 && !process.argv.includes("--all")) { rows.push({ n, name, perSec: NaN, ns: NaN }); continue; }
    const call = make(n);
    const m = await measure(`${name} ${n}`, call, { timeMs: 400, minSamples: 10 });
    rows.push({ n, name, perSec: 1000 / m.medianMs, ns: m.medianMs * 1e6 });
    process.stderr.write(`${name.padEnd(20)} N=${String(n).padStart(6)}: ${(1000 / m.medianMs).toExponential(3)} decisions/s (${(m.medianMs * 1e6).toFixed(0)} ns)\n`);
  }
}
const live = (n: number) => rows.find((r) => r.n === n && r.name === "live (heap)")?.ns;
console.log("| queues | implementation | decisions/s | ns/decision |\n|---|---|---|---|");
for (const r of rows) console.log(`| ${r.n} | ${r.name} | ${Number.isNaN(r.perSec) ? "skipped (> 10 s; --all)" : r.perSec.toExponential(3)} | ${Number.isNaN(r.ns) ? "" : r.ns.toFixed(0)} |`);
if (live(1e4) && live(1e5)) console.log(`\ntime(1e5)/time(1e4) per decision, live: ${(live(1e5)! / live(1e4)!).toFixed(2)}`);
