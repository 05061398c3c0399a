// Model-based harness for the live scheduler (test/helpers/stateful.ts): random sequences of valid
// and invalid calls; a valid call must agree with a simple model (which tasks wait and run, no
// resource over capacity, schedule starts only waiting tasks of live queues), an invalid one must
// be an InputError naming the field and leave the scheduler exactly as before.
import fc from "fast-check";
import { describe, it } from "vitest";
import { createScheduler, type Scheduler } from "../../src/live/scheduler.js";
import { loadEngineSync } from "../../src/engine/load.js";
import { assertModelRun, command, expect, expectRefusedUnchanged } from "../helpers/stateful.js";
import { unjustifiedWaits } from "../helpers/guard-check.js";

const engine = loadEngineSync();
/** Policies that run the shared dispatch (the others pick tasks themselves). */
const SHARE_POLICIES = new Set(["drf", "sp", "bopf", "nbopf", "mbvt"]);
const CAP = [8, 8];
interface Model { queues: string[]; waiting: Map<string, { q: string; d: number[] }>; running: Map<string, { q: string; d: number[] }>; next: number }
// a task's back-reference to its queue (cyclic; the queue itself is compared through the state)
const IGNORE = new Set(["engine", "clock", "queue"]);
const qName = fc.constantFrom("A", "B", "C");
const demand = fc.tuple(fc.integer({ min: 0, max: 8 }), fc.integer({ min: 0, max: 8 }));

function used(m: Model): number[] {
  const u = [0, 0];
  for (const t of m.running.values()) t.d.forEach((x, r) => (u[r] += x));
  return u;
}

/**
 * The commands; `workConserving`: schedule() leaves no queue whose next task fits (not FIFO, which
 * blocks behind its head); `guarded` (the share policies' dispatch, whose starvation guard is on
 * by default): none beyond the room held for the head of the DRF order (test/helpers/guard-check.ts).
 */
const commands = (workConserving: boolean, guarded: boolean) => [
  qName.map((q) => command<Model, Scheduler>(`addQueue(${q})`, (m, s) => {
    if (m.queues.includes(q)) { expectRefusedUnchanged(() => s.addQueue(q), s, { field: /^name$/, ignore: IGNORE }); return; }
    s.addQueue(q); m.queues.push(q);
  })),
  fc.tuple(qName, demand).map(([q, d]) => command<Model, Scheduler>(`submit(${q}, ${d})`, (m, s) => {
    const id = `t${m.next}`;
    if (!m.queues.includes(q)) { expectRefusedUnchanged(() => s.submit(q, { id, demand: d }), s, { field: /^queue$/, ignore: IGNORE }); return; }
    s.submit(q, { id, demand: d }); m.waiting.set(id, { q, d }); m.next++;
  })),
  fc.constantFrom<[string, unknown]>(["task.demand", [1]], ["task.demand[0]", [-1, 0]], ["task.demand[1]", [1, 9]], ["task.demand[0]", [NaN, 1]], ["task.id", "dup"], ["task.demnd", "key"]).map(([field, bad]) =>
    command<Model, Scheduler>(`bad submit ${field}`, (m, s) => {
      if (m.queues.length === 0) return;
      const q = m.queues[0];
      const task = field === "task.id" ? { id: [...m.waiting.keys(), ...m.running.keys()][0] ?? "", demand: [1, 1] } : field === "task.demnd" ? { id: "zz", demnd: [1, 1] } : { id: "zz", demand: bad };
      expectRefusedUnchanged(() => s.submit(q, task as never), s, { field: new RegExp(`^${field.replace(/[[\].]/g, "\\$&")}$`), ignore: IGNORE });
    })),
  fc.constant(command<Model, Scheduler>("schedule()", (m, s) => {
    const started = s.schedule();
    for (const { id, queue } of started) {
      const t = m.waiting.get(id);
      expect(t?.q).toBe(queue);
      m.waiting.delete(id); m.running.set(id, t!);
    }
    used(m).forEach((u, r) => expect(u).toBeLessThanOrEqual(CAP[r]));
    // work conserving: no queue's next waiting task fits after schedule() (beyond the guard's room)
    if (!workConserving) return;
    const u = used(m);
    const queues = m.queues.map((q) => {
      const usage = [0, 0];
      for (const t of m.running.values()) if (t.q === q) t.d.forEach((x, r) => (usage[r] += x));
      return { usage, weight: 1, head: [...m.waiting.values()].find((t) => t.q === q)?.d ?? null };
    });
    expect(unjustifiedWaits(CAP, u, queues, guarded)).toEqual([]);
  })),
  fc.nat().map((i) => command<Model, Scheduler>("finish", (m, s) => {
    const ids = [...m.running.keys()];
    if (ids.length === 0) { expectRefusedUnchanged(() => s.finish("nope"), s, { field: /^id$/, ignore: IGNORE }); return; }
    const id = ids[i % ids.length];
    s.finish(id); m.running.delete(id);
  })),
  fc.nat().map((i) => command<Model, Scheduler>("cancel waiting", (m, s) => {
    const ids = [...m.waiting.keys()];
    if (ids.length === 0) return;
    const id = ids[i % ids.length];
    expect(s.cancel(id).wasRunning).toBe(false); m.waiting.delete(id);
  })),
  fc.constant(command<Model, Scheduler>("bad finish of a waiting task", (m, s) => {
    const id = [...m.waiting.keys()][0];
    if (id) expectRefusedUnchanged(() => s.finish(id), s, { field: /^id$/, ignore: IGNORE });
  })),
  qName.map((q) => command<Model, Scheduler>(`removeQueue(${q})`, (m, s) => {
    const running = [...m.running.values()].some((t) => t.q === q);
    if (!m.queues.includes(q) || running) { expectRefusedUnchanged(() => s.removeQueue(q), s, { field: /^name$/, ignore: IGNORE }); return; }
    const back = s.removeQueue(q).map((t) => t.id).sort();
    const mine = [...m.waiting].filter(([, t]) => t.q === q).map(([id]) => id).sort();
    expect(back).toEqual(mine);
    for (const id of mine) m.waiting.delete(id);
    m.queues = m.queues.filter((x) => x !== q);
  })),
  fc.constantFrom<[string, unknown]>(["options.weight", { weight: 0 }], ["options.kind", { kind: "XQ" }], ["options.wieght", { wieght: 2 }]).map(([field, o]) =>
    command<Model, Scheduler>(`bad updateQueue ${field}`, (m, s) => {
      if (m.queues.length) expectRefusedUnchanged(() => s.updateQueue(m.queues[0], o as never), s, { field: new RegExp(`^${field.replace(/\./g, "\\.")}$`), ignore: IGNORE });
    })),
];

describe("live scheduler, model-based", () => {
  // every policy: queues come and go between tasks (the policy is rebuilt), work conservation holds
  it.each(["drf", "sp", "fifo", "bopf", "nbopf", "mbvt", "ltrf", "mlrf", "h-ltrf"])("%s: valid calls agree with the model; invalid ones are InputErrors that change nothing", (policy) => {
    let t = 0;
    assertModelRun(fc.constant(() => ({
      model: { queues: [], waiting: new Map(), running: new Map(), next: 0 } as Model,
      real: createScheduler({ policy, capacity: CAP, engine, clock: () => (t += 0.5) }),
    })), commands(policy !== "fifo", SHARE_POLICIES.has(policy)), { maxCommands: 60 });
  });
});
