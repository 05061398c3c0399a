// `fairsched allocate` (src/cli/allocate.ts, docs/cli.md "allocate"): unknown keys named, usage above
// capacity refused, every policy of `fairsched list` answers or says why not in one line, M-BVT and
// BoPF read `time` and open bursts, task answers come in order, bad input names the user's field.
import { describe, expect, it } from "vitest";
import { allocate } from "../../src/cli/allocate.js";
import { loadEngineSync } from "../../src/engine/load.js";
import { InputError } from "../../src/errors.js";
import { listAllocators } from "../../src/justice/registry.js";
import { listNodePolicies } from "../../src/phoenix/policies.js";
import { listPolicies, policyNames } from "../../src/sim/registry.js";

const engine = loadEngineSync();
const state = { capacity: [9, 18], queues: [{ name: "A", demand: [9, 36] }, { name: "B", demand: [27, 9] }] };
const fieldOf = (f: () => unknown) => { try { f(); } catch (e) { return (e as InputError).field; } return null; };
const errorOf = (f: () => unknown): InputError => {
  try { f(); } catch (e) { expect(e).toBeInstanceOf(InputError); return e as InputError; }
  throw new Error("expected an InputError");
};
const tasks = (prefix: string, demand: number[], n: number, submitted?: number) =>
  Array.from({ length: n }, (_, i) => ({ id: `${prefix}${i}`, demand, ...(submitted === undefined ? {} : { submitted }) }));
/** The DRF paper's example with tasks: capacity <9, 18>, A's tasks <1, 4>, B's <3, 1>, many each. */
const drfExample = { capacity: [9, 18], queues: [{ name: "A", tasks: tasks("a", [1, 4], 10) }, { name: "B", tasks: tasks("b", [3, 1], 10) }] };
type Answer = { queues?: Array<{ name: string; allocation: number[]; dominantShare: number; guaranteed?: string; openBurst?: number }>; start?: Array<{ id: string; queue: string }>; startRefused?: string; admissions?: Array<{ queue: string; class: string }> };
const run = (policy: string, input: unknown) => allocate(policy, input, engine) as Answer;

/** Every policy `fairsched list` prints, of every model (src/cli/program.ts lists these three registries). */
const listed = [...listPolicies().map((p) => p.name), ...listAllocators().map((a) => a.name), ...listNodePolicies().map((p) => p.name)];

describe("fairsched allocate", () => {
  it("unknown keys are errors naming them and listing the known ones", () => {
    expect(fieldOf(() => allocate("drf", { ...state, capacty: [1] }, engine))).toBe("capacty");
    expect(fieldOf(() => allocate("drf", { ...state, queues: [{ name: "A", demnd: [1, 1] }] }, engine))).toBe("queues[0].demnd");
    const e = errorOf(() => run("drf", { ...state, capacty: [1], queus: [] }));
    expect(e.message).toMatch(/^capacty: unknown key; also unknown: queus \(known: time, capacity, resources, queues, reservedFor\)$/);
    expect(fieldOf(() => run("drf", { capacity: [9, 18], queues: [{ name: "A", tasks: [{ id: "a", demand: [1, 1], dmand: 1 }] }] }))).toBe("queues[0].tasks[0].dmand");
    expect(fieldOf(() => run("drf", { capacity: [9, 18], queues: [{ name: "A", running: [{ id: "a", demand: [1, 1], submitted: 0 }] }] }))).toBe("queues[0].running[0].submitted");
  });

  it("reservedFor (the dispatch's starvation guard): the reserved queue is tried first and its room held; a name that is no queue is refused", () => {
    // X holds 6 of 8; A and B (share 0, a tie) wait: A's [1, 1] fits, B's [4, 1] does not
    const state8 = { capacity: [8, 8], queues: [{ name: "X", running: [{ id: "x1", demand: [6, 1] }] }, { name: "A", tasks: [{ id: "a1", demand: [1, 1] }] }, { name: "B", tasks: [{ id: "b1", demand: [4, 1] }] }] };
    expect(run("drf", state8).start).toEqual([{ id: "a1", queue: "A" }]); // the tie goes to A (lower index)
    expect(run("drf", { ...state8, reservedFor: "B" }).start).toEqual([]); // B kept its reservation: A's task would take B's room
    expect(fieldOf(() => run("drf", { ...state8, reservedFor: "Z" }))).toBe("reservedFor");
    expect(fieldOf(() => run("drf", { ...state8, reservedFor: 1 }))).toBe("reservedFor");
  });

  it("usage above capacity is refused, running tasks included", () => {
    const q = [{ name: "A", demand: [9, 18], usage: [6, 10] }, { name: "B", demand: [9, 18], usage: [6, 2] }];
    expect(fieldOf(() => allocate("drf", { capacity: [9, 18], queues: q }, engine))).toBe("queues[*].usage[0]");
    const r = [{ name: "A", running: tasks("a", [5, 1], 1) }, { name: "B", running: tasks("b", [5, 1], 1) }];
    expect(fieldOf(() => run("drf", { capacity: [9, 18], queues: r }))).toBe("queues[*].usage[0]");
  });

  it("every policy listed by `fairsched list` answers or gives a one-line reason", () => {
    expect(listed.length).toBeGreaterThanOrEqual(17);
    for (const p of listed) {
      for (const input of [state, drfExample]) {
        let out: Answer;
        try { out = run(p, input); } catch (e) {
          expect(e, p).toBeInstanceOf(InputError);
          expect((e as InputError).field).toBe("--policy");
          expect((e as Error).message, p).not.toMatch(/\n/);
          // it says why: another model (and where it runs), or the live scheduler's reason
          expect((e as Error).message, p).toMatch(/Justice deadline allocator|Phoenix node-level|not supported by the live scheduler|task-level policy/);
          continue;
        }
        if (out.queues) expect(out.queues.some((q) => q.dominantShare > 0), `${p} gives every queue nothing`).toBe(true);
        else expect(out.start!.length, `${p} starts nothing`).toBeGreaterThan(0);
        if (input === drfExample) expect(out.start !== undefined || typeof out.startRefused === "string", p).toBe(true);
      }
    }
    expect(errorOf(() => run("justice", state)).message).toMatch(/fairsched simulate --scenario justice --policies justice/);
    expect(errorOf(() => run("phoenix", state)).message).toMatch(/fairsched simulate --scenario phoenix --policies phoenix/);
    expect(errorOf(() => run("nope", state)).message).toMatch(/unknown policy 'nope' \(queue-level: drf, .*Justice: justice.*Phoenix: phoenix/);
  });

  it("the DRF paper's example with tasks: 3 of A's and 2 of B's start, alternating by dominant share", () => {
    const out = run("drf", drfExample);
    expect(out.start).toEqual([
      { id: "a0", queue: "A" }, { id: "b0", queue: "B" }, { id: "a1", queue: "A" }, { id: "b1", queue: "B" }, { id: "a2", queue: "A" },
    ]);
    const [a, b] = out.queues!;
    expect(a.allocation[0]).toBeCloseTo(3, 12);
    expect(a.allocation[1]).toBeCloseTo(12, 12);
    expect(b.allocation).toEqual([6, 2]);
  });

  it("task-level policies return the tasks to start in order: FIFO by submission, head-of-line blocking", () => {
    const input = { time: 10, capacity: [4, 4], queues: [
      { name: "late", tasks: tasks("l", [1, 1], 3, 5) },
      { name: "early", tasks: [{ id: "e0", demand: [1, 1], submitted: 1 }, { id: "e1", demand: [4, 4], submitted: 1 }, { id: "e2", demand: [1, 1], submitted: 1 }] },
    ] };
    // e0 first (submitted at 1), then e1 (<4,4>) does not fit and blocks everything behind it
    expect(run("fifo", input).start).toEqual([{ id: "e0", queue: "early" }]);
    const free = { ...input, queues: [input.queues[0], { name: "early", tasks: [{ id: "e0", demand: [1, 1], submitted: 1 }] }] };
    expect(run("fifo", free).start).toEqual([{ id: "e0", queue: "early" }, { id: "l0", queue: "late" }, { id: "l1", queue: "late" }, { id: "l2", queue: "late" }]);
    // running tasks hold their resources: only what is free is handed out
    const busy = { capacity: [4, 4], queues: [{ name: "q", running: tasks("r", [3, 3], 1), tasks: tasks("t", [1, 1], 3) }] };
    expect(run("fifo", busy).start).toEqual([{ id: "t0", queue: "q" }]);
    // a share policy with tasks answers both: targets and the tasks the live scheduler starts
    const sp = run("sp", { capacity: [4, 4], queues: [{ name: "tq", tasks: tasks("t", [1, 1], 4) }, { name: "lq", kind: "LQ", tasks: tasks("l", [1, 1], 2) }] });
    expect(sp.start!.slice(0, 2)).toEqual([{ id: "l0", queue: "lq" }, { id: "l1", queue: "lq" }]);
    expect(sp.start).toHaveLength(4);
    expect(sp.queues!.map((q) => q.guaranteed)).toEqual([undefined, "hard"]);
  });

  it("task-level policies without tasks say what to give", () => {
    const e = errorOf(() => run("fifo", state));
    expect(e.message).toMatch(/task-level policy .*queues\[i\]\.tasks/);
  });

  it("M-BVT builds runnable queues from the input: demanding queues get resources; an open burst warps the LQ ahead", () => {
    const input = (time: number) => ({ time, capacity: [10, 10], queues: [
      { name: "lq", kind: "LQ", demand: [10, 10], bursts: [{ start: 0, window: 10, volume: [20, 20] }, { start: 100, window: 10, volume: [20, 20] }] },
      { name: "tq", demand: [10, 10] },
    ] });
    const closed = run("mbvt", input(50)).queues!;
    expect(closed.map((q) => q.allocation)).toEqual([[5, 5], [5, 5]]);
    expect(closed[0].openBurst).toBeUndefined();
    const open = run("mbvt", input(5)).queues!;
    expect(open[0].openBurst).toBe(0);
    for (const q of open) expect(q.dominantShare, q.name).toBeGreaterThan(0);
    expect(open[0].dominantShare).toBeGreaterThan(open[1].dominantShare);
    // with tasks: runnable from the task lists, never all zero
    const withTasks = run("mbvt", { capacity: [10, 10], queues: [{ name: "a", tasks: tasks("a", [1, 2], 20) }, { name: "b", tasks: tasks("b", [2, 1], 20) }] });
    for (const q of withTasks.queues!) expect(q.dominantShare).toBeGreaterThan(0);
  });

  it("BoPF: an admitted hard LQ whose burst is open at `time` gets its burst rate; closed, it gets its DRF share", () => {
    const bursts = [0, 100, 200].map((start) => ({ start, window: 10, volume: [80, 80] })); // rate 8 per resource
    const input = (time: number, extra: Record<string, unknown> = {}) => ({ time, capacity: [10, 10], queues: [
      { name: "lq", kind: "LQ", demand: [10, 10], bursts, ...extra },
      { name: "tq", demand: [10, 10] },
    ] });
    for (const variant of ["bopf", "nbopf"]) {
      const open = run(variant, input(105));
      expect(open.admissions!.map((a) => a.class)).toEqual(["hard", "elastic"]);
      expect(open.queues![0]).toMatchObject({ guaranteed: "hard", openBurst: 1 });
      for (const x of open.queues![0].allocation) expect(x).toBeGreaterThanOrEqual(8 - 1e-9);
      const closed = run(variant, input(50));
      expect(closed.queues![0].guaranteed).toBeUndefined();
      expect(closed.queues!.map((q) => q.allocation)).toEqual([[5, 5], [5, 5]]);
      // openBurst given: past its window but still open (volume not consumed), or explicitly none
      expect(run(variant, input(50, { openBurst: 0 })).queues![0].allocation[0]).toBeGreaterThanOrEqual(8 - 1e-9);
      expect(run(variant, input(105, { openBurst: null })).queues!.map((q) => q.allocation)).toEqual([[5, 5], [5, 5]]);
    }
  });

  it("BoPF with tasks: the live scheduler starts the open-burst LQ's tasks up to its rate first (or says why it cannot run BoPF)", () => {
    const bursts = [0, 100, 200].map((start) => ({ start, window: 10, volume: [80, 80] }));
    const input = (time: number) => ({ time, capacity: [10, 10], queues: [
      { name: "tq", tasks: tasks("t", [1, 1], 10) },
      { name: "lq", kind: "LQ", bursts, tasks: tasks("l", [1, 1], 10) },
    ] });
    const open = run("bopf", input(105));
    expect(open.queues![1]).toMatchObject({ guaranteed: "hard", openBurst: 1 });
    if (open.start === undefined) {
      expect(open.startRefused).toMatch(/not supported by the live scheduler/);
      return;
    }
    // guaranteed phase: the LQ up to its target (its rate, 8 per resource), then DRF on the rest
    expect(open.start.slice(0, 8).map((t) => t.queue)).toEqual(new Array(8).fill("lq"));
    expect(open.start.slice(8).map((t) => t.queue)).toEqual(["tq", "tq"]);
    const closed = run("bopf", input(50)).start!;
    expect(closed.filter((t) => t.queue === "lq")).toHaveLength(5);
    expect(closed.filter((t) => t.queue === "tq")).toHaveLength(5);
  });

  it("bad inputs are InputErrors naming the user's field (never an internal name) and leave the input as it was", () => {
    const q = (extra: Record<string, unknown>) => ({ capacity: [9, 18], time: 5, queues: [{ name: "A", demand: [1, 1] }, { name: "B", ...extra }] });
    const cases: Array<[unknown, string]> = [
      [null, "input"],
      [[], "input"],
      [{ capacity: [1, 0], queues: [] }, "capacity[1]"],
      [{ capacity: [1], queues: {} }, "queues"],
      [{ capacity: [1], queues: [], time: -1 }, "time"],
      [{ capacity: [1], queues: [], resources: ["cpu", "mem"] }, "resources"],
      [q({ demand: [NaN, 1] }), "queues[1].demand[0]"],
      [q({ demand: [1] }), "queues[1].demand"],
      [q({ usage: [1, -1] }), "queues[1].usage[1]"],
      [q({ weight: 0 }), "queues[1].weight"],
      [q({ kind: "BQ" }), "queues[1].kind"],
      [q({ name: "A" }), "queues[1].name"],
      [q({ kind: "LQ", bursts: [{ start: 0, window: 0, volume: [1, 1] }] }), "queues[1].bursts[0].window"],
      [q({ kind: "LQ", bursts: [{ start: 0, window: 1, volume: [1] }] }), "queues[1].bursts[0].volume"],
      [q({ openBurst: 0 }), "queues[1].openBurst"],
      [q({ kind: "LQ", bursts: [{ start: 0, window: 1, volume: [1, 1] }], openBurst: 1 }), "queues[1].openBurst"],
      [q({ kind: "LQ", bursts: [{ start: 9, window: 1, volume: [1, 1] }], openBurst: 0 }), "queues[1].openBurst"],
      [q({ tasks: {} }), "queues[1].tasks"],
      [q({ tasks: [{ id: "", demand: [1, 1] }] }), "queues[1].tasks[0].id"],
      [q({ tasks: [{ id: "x", demand: [1, 1] }, { id: "x", demand: [1, 1] }] }), "queues[1].tasks[1].id"],
      [q({ tasks: [{ id: "x", demand: [1, 1, 1] }] }), "queues[1].tasks[0].demand"],
      [q({ tasks: [{ id: "x", demand: [10, 1] }] }), "queues[1].tasks[0].demand[0]"],
      [q({ tasks: [{ id: "x", demand: [1, 1], submitted: -2 }] }), "queues[1].tasks[0].submitted"],
      [q({ tasks: [{ id: "x", demand: [1, 1], submitted: 6 }] }), "queues[1].tasks[0].submitted"],
      [q({ running: [{ id: "x", demand: [1, Infinity] }] }), "queues[1].running[0].demand[1]"],
      [q({ demand: [1, 1], tasks: [] }), "queues[1].tasks"],
      [q({ usage: [1, 1], running: [] }), "queues[1].running"],
      [q({ accumulated: 5 }), "queues[1].accumulated"], // unknown: a one-shot state carries no history (docs/cli.md)
      [q({ params: { minShare: 2 } }), "queues[1].params.minShare"],
      [q({ params: { maxShre: 0.5 } }), "queues[1].params.maxShre"],
      [q({ params: { warp: -1 } }), "queues[1].params.warp"],
    ];
    for (const [input, field] of cases) {
      const before = JSON.stringify(input);
      const e = errorOf(() => run("drf", input));
      expect(e.field, before).toBe(field);
      expect(e.message).not.toMatch(/workload|demands\[|\n/);
      expect(JSON.stringify(input)).toBe(before);
    }
    const dup = { capacity: [9, 18], queues: [{ name: "A", running: [{ id: "x", demand: [1, 1] }] }, { name: "B", tasks: [{ id: "x", demand: [1, 1] }] }] };
    expect(errorOf(() => run("drf", dup)).message).toMatch(/^queues\[1\]\.tasks\[0\]\.id: duplicate task id "x" \(also queues\[0\]\.running\[0\]\.id\)$/);
  });

  it("an answer does not change the input, and the same input gives the same bits", () => {
    for (const p of policyNames()) {
      const input = { time: 3, capacity: [9, 18], queues: [{ name: "A", kind: "LQ", tasks: tasks("a", [1, 4], 6), bursts: [{ start: 0, window: 10, volume: [9, 18] }, { start: 50, window: 10, volume: [9, 18] }] }, { name: "B", running: tasks("r", [3, 1], 1), tasks: tasks("b", [3, 1], 6) }] };
      const before = JSON.stringify(input);
      let a: string, b: string;
      try { a = JSON.stringify(run(p, input)); b = JSON.stringify(run(p, input)); } catch (e) { expect(e).toBeInstanceOf(InputError); continue; }
      expect(JSON.stringify(input)).toBe(before);
      expect(a).toBe(b);
    }
  });
});
