// A small weighted-DRF scheduler speaking the JSON-lines ops of `fairsched serve`, with one bug
// planted on purpose (argv[2]); `fairsched fuzz --scheduler` must find each and name it:
//   ping-pong       preempts the newest task of another queue whenever its own queue waits and
//                   nothing fits, and declares "supports": {"preempt": true}  -> no-preemption-cycle
//   round-robin     takes queues in turn, one task each, by task count       -> long-run-share
//   split           weights are kept as whole numbers (k queues of w/k gain)  -> split-resistance
//   call-timing     starts at most one task per schedule call                -> call-rate-independence
//   none            no bug
//   node examples/planted-schedulers/planted.mjs split   (examples/planted-schedulers/planted.py is the same in Python)
import { createInterface } from "node:readline";

const bug = process.argv[2] ?? "none";
let capacity = [], queues = new Map(), tasks = new Map(), turn = 0, order = 0;

const share = (q) => Math.max(0, ...q.usage.map((u, r) => u / capacity[r]));
const weight = (q) => (bug === "split" ? Math.max(1, Math.round(q.weight)) : q.weight);
const free = () => capacity.map((c, r) => c - [...queues.values()].reduce((s, q) => s + q.usage[r], 0));
const fits = (d, f) => d.every((v, r) => v <= f[r] + 1e-9);

function start(q, t, started) {
  q.waiting.shift();
  t.running = true;
  t.order = order++;
  q.running.add(t);
  t.demand.forEach((v, r) => (q.usage[r] += v));
  started.push({ id: t.id, queue: q.name });
}
function stop(t) {
  const q = queues.get(t.queue);
  q.running.delete(t);
  t.running = false;
  t.demand.forEach((v, r) => (q.usage[r] -= v));
}

function schedule() {
  const started = [], preempted = [];
  const list = [...queues.values()];
  for (;;) {
    const f = free();
    const ready = list.filter((q) => q.waiting.length > 0 && fits(q.waiting[0].demand, f));
    if (ready.length === 0) break;
    let q;
    if (bug === "round-robin") { q = ready.find((x) => list.indexOf(x) >= turn % list.length) ?? ready[0]; turn = list.indexOf(q) + 1; }
    else q = ready.reduce((a, b) => (share(b) / weight(b) < share(a) / weight(a) ? b : a));
    start(q, q.waiting[0], started);
    if (bug === "call-timing") break;
  }
  if (bug === "ping-pong") {
    // a waiting queue takes the newest task of another queue started before this call (which then waits and does the same)
    const before = order - started.length;
    for (const q of list) {
      if (q.waiting.length === 0 || fits(q.waiting[0].demand, free())) continue;
      const victim = [...tasks.values()].filter((t) => t.running && t.queue !== q.name && t.order < before).sort((a, b) => b.order - a.order)[0];
      if (!victim) continue;
      stop(victim);
      queues.get(victim.queue).waiting.unshift(victim);
      preempted.push(victim.id);
      if (fits(q.waiting[0].demand, free())) start(q, q.waiting[0], started);
      break;
    }
  }
  return bug === "ping-pong" ? { started, preempted } : { started };
}

function handle(req) {
  switch (req.op) {
    case "init": capacity = req.capacity; queues = new Map(); tasks = new Map(); turn = 0; order = 0;
      return { ok: true, ...(bug === "ping-pong" ? { supports: { preempt: true } } : {}) };
    case "addQueue": queues.set(req.queue, { name: req.queue, weight: req.weight ?? 1, waiting: [], running: new Set(), usage: capacity.map(() => 0) }); return { admission: { class: "admitted" } };
    case "removeQueue": { const q = queues.get(req.queue); queues.delete(req.queue); return { waiting: q.waiting.map((t) => ({ id: t.id, demand: t.demand })) }; }
    case "submit": { const t = { id: req.task.id, queue: req.queue, demand: req.task.demand, running: false }; tasks.set(t.id, t); queues.get(req.queue).waiting.push(t); return { ok: true }; }
    case "cancel": { const t = tasks.get(req.id); const q = queues.get(t.queue); if (t.running) stop(t); else q.waiting.splice(q.waiting.indexOf(t), 1); tasks.delete(req.id); return { id: t.id, queue: t.queue, wasRunning: t.running }; }
    case "finish": { const t = tasks.get(req.id); stop(t); tasks.delete(req.id); return { ok: true }; }
    case "schedule": return schedule();
    case "nextWakeup": return { time: null };
    default: return { error: `unknown op ${req.op}` };
  }
}

for await (const line of createInterface({ input: process.stdin })) {
  if (!line.trim()) continue;
  let out;
  try { out = handle(JSON.parse(line)); } catch (e) { out = { error: String(e?.message ?? e) }; }
  process.stdout.write(JSON.stringify(out) + "\n");
}
