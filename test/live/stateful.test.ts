// Model-based harness for the live scheduler (test/helpers/stateful.ts): random sequences of valid
// and invalid calls; a valid call must agree with a simple model (which tasks wait and run, no
// resource over capacity, schedule starts only waiting tasks of live queues), an invalid one must
// be an InputError naming the field and leave the scheduler exactly as before.
import fc from "fast-check";
import { describe, it } from "vitest";
import { InputError } from "../../src/errors.js";
import { createScheduler, restoreScheduler, type Scheduler } from "../../src/live/scheduler.js";
import { loadEngineSync } from "../../src/engine/load.js";
import { assertModelRun, command, expect, expectRefusedUnchanged, sameSnapshot, snapshot } from "../helpers/stateful.js";
import { FUZZ } from "../helpers/hostile.js";
import { POLICIES, advanceToWakeup, make, restoreOpArb, type Op } from "../helpers/live-ops.js";
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

// The attack's modes (issue 32): pathological weights and demands, restores mid-sequence (bursts
// reopened, min shares changed, job names shared by queues) and long uptimes under a wall-like
// clock. A scheduler and, after each "restore" op, its restored copy get every call: answers,
// errors and nextWakeup() must be equal, and a refused call must be an InputError that leaves the
// scheduler as it was.
type AttackOp =
  | Op
  | { k: "weight"; q: number; w: number }
  | { k: "odd"; q: number; d: [number, number] }
  | { k: "restore" }
  | { k: "long"; dt: number };

const attackOpArb: fc.Arbitrary<AttackOp> = fc.oneof(
  { weight: 10, arbitrary: restoreOpArb },
  { weight: 1, arbitrary: fc.record({ k: fc.constant("weight" as const), q: fc.nat(3), w: fc.constantFrom(2 ** -20, 2 ** 20, 1e300, 5e-324, 1.7e308, 2 ** -21, 0.5, 3) }) },
  { weight: 1, arbitrary: fc.record({ k: fc.constant("odd" as const), q: fc.nat(3), d: fc.constantFrom<[number, number]>([5e-324, 0], [10, 10], [1e-300, 10], [10 * (1 + 1e-9), 0], [0, 0], [Number.MIN_VALUE, Number.MIN_VALUE]) }) },
  { weight: 1, arbitrary: fc.constant({ k: "restore" as const }) },
  { weight: 1, arbitrary: fc.record({ k: fc.constant("long" as const), dt: fc.constantFrom(3600, 86_400, 7 * 86_400) }) },
);

interface Side { s: Scheduler; running: string[]; seq: number; bursts: number }

/** One op on one side; its answer (an InputError as its field and message). */
function attack(side: Side, op: AttackOp, clock: { t: number }): unknown {
  const { s } = side;
  try {
    switch (op.k) {
      case "submit": {
        const q = `q${op.q}`;
        const burst = op.q === 3 && op.burst ? Math.min(1, side.bursts++ >> 1) : undefined;
        const id = `t${side.seq++}`;
        s.submit(q, { id, demand: [op.x, op.y], job: op.shared ? `shared${op.job}` : `${q}j${op.job}`, burst });
        return id;
      }
      case "odd": {
        const id = `t${side.seq++}`;
        s.submit(`q${op.q}`, { id, demand: op.d });
        return id;
      }
      case "minShare": return s.updateQueue(`q${op.q}`, { minShare: op.min });
      case "weight": return s.updateQueue(`q${op.q}`, { weight: op.w });
      case "wake":
      case "schedule": {
        if (op.k === "wake") advanceToWakeup(s, clock);
        const started = s.schedule();
        side.running.push(...started.map((t) => t.id));
        return started;
      }
      case "finish": {
        if (side.running.length === 0) return null;
        const id = side.running[op.pick % side.running.length];
        s.finish(id);
        side.running.splice(side.running.indexOf(id), 1);
        return id;
      }
      case "cancel": {
        const id = `t${Math.max(0, side.seq - 1 - (op.pick % 4))}`;
        const out = s.cancel(id);
        if (out.wasRunning) side.running.splice(side.running.indexOf(id), 1);
        return out;
      }
      case "advance": clock.t += op.dt; return clock.t;
      case "long": clock.t += op.dt; return clock.t;
      case "restore": return null;
    }
  } catch (e) {
    if (!(e instanceof InputError)) throw e;
    return { refused: e.field, message: e.message };
  }
}

describe("live scheduler, attack modes", () => {
  it.each(POLICIES)("%s: pathological weights and demands, restores mid-sequence, long uptimes: refusals change nothing, restored copies decide alike", (policy) => {
    fc.assert(fc.property(fc.array(attackOpArb, { minLength: 1, maxLength: 60 }), (ops) => {
      const clock = { t: 1.8e9 }; // a wall-like clock
      const a: Side = { s: make(policy, () => clock.t), running: [], seq: 0, bursts: 0 };
      let b: Side | null = null;
      for (const op of ops) {
        if (op.k === "restore") {
          b = { s: restoreScheduler(JSON.parse(JSON.stringify(a.s.snapshot())), { engine, clock: () => clock.t }), running: [...a.running], seq: a.seq, bursts: a.bursts };
          continue;
        }
        const t0 = clock.t;
        const before = snapshot(a.s, IGNORE);
        const outA = attack(a, op, clock);
        if (outA !== null && typeof outA === "object" && "refused" in outA) {
          if (!sameSnapshot(before, snapshot(a.s, IGNORE))) throw new Error(`a refused ${op.k} (${JSON.stringify(outA)}) changed the scheduler`);
        }
        if (b) {
          clock.t = t0;
          expect(attack(b, op, clock)).toEqual(outA);
          expect(b.s.nextWakeup()).toEqual(a.s.nextWakeup());
        }
      }
      if (b) expect(b.s.shares()).toEqual(a.s.shares());
    }), { ...FUZZ, numRuns: Math.max(1, Math.round(FUZZ.numRuns / 5)) });
  });
});
