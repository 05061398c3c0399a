// The discrete-event core: the event queue pops by (time, priority, seq), the environment's
// instant loop, and the runaway guard of periodic events.
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { EventQueue, type Keyed } from "../../src/des/event-queue.js";
import { Environment } from "../../src/des/environment.js";
import { SimulationError } from "../../src/errors.js";
import { RunawayGuard } from "../../src/des/runaway-guard.js";

type Ev = Keyed & { label: number };

describe("EventQueue", () => {
  it("pops by (time, priority, scheduling order), whatever the interleaving of pushes and pops", () => {
    const push = fc.record({ dt: fc.integer({ min: 0, max: 3 }), priority: fc.integer({ min: -1, max: 2 }) });
    fc.assert(fc.property(fc.array(fc.oneof(push, fc.constant(null)), { maxLength: 200 }), (ops) => {
      const q = new EventQueue<Ev>();
      const model: Ev[] = [];
      let label = 0;
      const popped: Ev[] = [];
      const expected: Ev[] = [];
      const order = (a: Ev, b: Ev) => a.time - b.time || a.priority - b.priority || a.seq - b.seq;
      for (const o of ops) {
        if (o) {
          const e = q.push(q.now + o.dt, { label: label++ }, o.priority);
          model.push(e);
        } else if (model.length > 0) {
          model.sort(order);
          expected.push(model.shift()!);
          popped.push(q.pop()!);
          expect(q.now).toBe(popped[popped.length - 1].time);
        }
      }
      model.sort(order);
      expected.push(...model);
      for (let e = q.pop(); e; e = q.pop()) popped.push(e);
      expect(popped.map((e) => e.label)).toEqual(expected.map((e) => e.label));
      // seq is the scheduling order
      expect([...popped].sort((a, b) => a.seq - b.seq).map((e) => e.label)).toEqual(popped.map((e) => e.label).sort((a, b) => a - b));
    }));
  });

  it("the header's example: push(5, A), push(3, B), push(5, C, -1), push(5, D) pops B, C, A, D", () => {
    const q = new EventQueue<Keyed & { name: string }>();
    q.push(5, { name: "A" }); q.push(3, { name: "B" }); q.push(5, { name: "C" }, -1); q.push(5, { name: "D" });
    const out: string[] = [];
    for (let e = q.pop(); e; e = q.pop()) out.push(e.name);
    expect(out).toEqual(["B", "C", "A", "D"]);
  });

  it("an event before now, or at NaN, is a SimulationError and leaves the queue as it was", () => {
    const q = new EventQueue<Ev>();
    q.push(2, { label: 0 });
    q.pop();
    expect(() => q.push(1, { label: 1 })).toThrow(SimulationError);
    expect(() => q.push(NaN, { label: 1 })).toThrow(/time went backwards/);
    expect(q.size).toBe(0);
    expect(q.now).toBe(2);
  });
});

describe("Environment", () => {
  it("runs instants: advance once per instant, every event of it applied, then one decision", () => {
    const env = new Environment<Ev>();
    const log: string[] = [];
    env.scheduleAt(1, { label: 1 });
    env.scheduleAt(1, { label: 2 }, -1);
    env.scheduleAt(3, { label: 3 });
    env.scheduleAt(9, { label: 9 });
    const stopped = env.runInstants({
      until: 5,
      advance: (t) => log.push(`advance ${t}`),
      apply: (e) => {
        log.push(`apply ${e.label}@${env.now}`);
        if (e.label === 2) env.schedule({ label: 20 }); // joins this instant
        if (e.label === 3) { env.schedule({ label: 4 }, 0, 1); return false; }
        return e.label !== 4 ? undefined : false;
      },
      decide: (t) => log.push(`decide ${t}`),
    });
    expect(stopped).toBe(true);
    expect(log).toEqual(["advance 1", "apply 2@1", "apply 1@1", "apply 20@1", "decide 1", "advance 3", "apply 3@3", "advance 4", "apply 4@4"]);
    expect(env.pending).toBe(1);
    expect(env.peekTime()).toBe(9);
    const seen: number[] = [];
    env.run((e) => seen.push(e.label));
    expect(seen).toEqual([9]);
    expect(env.now).toBe(9);
    expect(env.step()).toBeUndefined();
    expect(() => env.schedule({ label: 0 }, 0, -1)).toThrow(SimulationError);
  });
});

describe("RunawayGuard", () => {
  it("a repetition that does not advance, or one too many, throws", () => {
    const g = new RunawayGuard(2, (t) => new Error(`runaway at ${t}`));
    expect(g.next(0, 1)).toBe(1);
    expect(() => g.next(1e300, 1)).toThrow("runaway at 1e+300");
    const h = new RunawayGuard(2, (t) => new Error(`runaway at ${t}`));
    h.next(0, 1); h.next(1, 1);
    expect(() => h.next(2, 1)).toThrow("runaway at 2");
  });
});
