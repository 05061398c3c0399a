// Stateful fuzz (issue 21): HLtrf and QuantumUpdater against simple models, under random
// sequences of valid and invalid calls (test/helpers/stateful.ts). An invalid call is an
// InputError that leaves the object and the caller's arrays exactly as before; a valid one
// gives the model's answer bit for bit.
import fc from "fast-check";
import { describe, it } from "vitest";
import { HLtrf, type HltrfCall } from "../../src/ltrf/hltrf.js";
import { QuantumUpdater } from "../../src/ltrf/quantum.js";
import { buildTree, type QueueTree } from "../../src/ltrf/tree.js";
import { assertModelRun, command, expect, expectRefusedUnchanged } from "../helpers/stateful.js";

// ---------------------------------------------------------------- HLtrf

/**
 * Algorithm 2 written plainly: linear scans instead of heaps. Ties: a leaf by (U/w, index), a
 * child by (U/w, its first leaf), as documented in src/ltrf/hltrf.ts for tieBreak "index".
 */
class HltrfModel {
  readonly waitSince: Float64Array;
  readonly starvedServed: Float64Array;
  readonly hadPending: Uint8Array;
  usage: Float64Array;
  time = 0;
  constructor(readonly tree: QueueTree, readonly tWait: number) {
    this.waitSince = new Float64Array(tree.leaves);
    this.starvedServed = new Float64Array(tree.leaves);
    this.hadPending = new Uint8Array(tree.leaves);
    this.usage = new Float64Array(tree.leaves);
  }

  allocate(c: { time: number; free: number[]; tasks: number[]; pending: number[]; increments: number[]; maxStarts?: number }): { count: number[]; free: number[]; done: boolean } {
    const { tree } = this;
    const n = tree.leaves, k = c.free.length;
    const free = c.free.slice();
    const count = new Array<number>(n).fill(0);
    const left = c.pending.slice();
    const active = new Array<boolean>(n).fill(false);
    for (let i = 0; i < n; i++) {
      if (c.pending[i] === 0 || !this.hadPending[i]) this.waitSince[i] = c.time;
      this.hadPending[i] = c.pending[i] > 0 ? 1 : 0;
      if (c.pending[i] === 0) continue;
      if (c.tasks.slice(i * k, i * k + k).every((x) => x === 0)) {
        count[i] = c.pending[i];
        this.usage[i] += c.pending[i] * c.increments[i];
        left[i] = 0;
        this.waitSince[i] = c.time;
      } else active[i] = true;
    }
    const U = (v: number): number => {
      if (v < n) return this.usage[v];
      let s = 0;
      for (let i = 0; i < n; i++) for (let p = tree.parent[i]; p >= 0; p = tree.parent[p]) if (p === v) s += this.usage[i];
      return s;
    };
    const hasActive = (v: number): boolean => (v < n ? active[v] : tree.children[v].some(hasActive));
    let started = 0;
    const limit = c.maxStarts ?? Infinity;
    for (;;) {
      let lowest = -1;
      for (let i = 0; i < n; i++) {
        if (active[i] && (lowest < 0 || U(i) / tree.weight[i] < U(lowest) / tree.weight[lowest])) lowest = i;
      }
      if (lowest < 0) return { count, free, done: true };
      let leaf: number;
      const starved = c.time - this.waitSince[lowest] >= this.tWait;
      if (starved) leaf = lowest;
      else {
        let v = tree.root;
        while (v >= n) {
          let best = -1;
          for (const ch of tree.children[v]) {
            if (!hasActive(ch)) continue;
            const key = U(ch) / tree.weight[ch], bk = best < 0 ? 0 : U(best) / tree.weight[best];
            if (best < 0 || key < bk || (key === bk && tree.firstLeaf[ch] < tree.firstLeaf[best])) best = ch;
          }
          v = best;
        }
        leaf = v;
      }
      let fits = true;
      for (let r = 0; r < k; r++) if (c.tasks[leaf * k + r] > free[r]) fits = false;
      if (!fits) {
        active[leaf] = false;
        continue;
      }
      if (started === limit) return { count, free, done: false };
      started++;
      for (let r = 0; r < k; r++) free[r] -= c.tasks[leaf * k + r];
      count[leaf]++;
      if (starved && this.tWait > 0) this.starvedServed[leaf]++;
      this.waitSince[leaf] = c.time;
      this.usage[leaf] += c.increments[leaf];
      if (--left[leaf] === 0) active[leaf] = false;
    }
  }
}

interface HReal {
  h: HLtrf;
  usage: Float64Array;
  time: number;
}

const LEAF_SETS = [
  [{ name: "A", path: ["G1"] }, { name: "B", path: ["G1"] }, { name: "C", path: ["G2"] }, { name: "D", path: ["G2"] }],
  [{ name: "A" }, { name: "B", path: ["constructor"], weight: 2 }, { name: "C", path: ["constructor", "x"] }],
  [{ name: "A", path: ["o", "t1"], weight: 3 }, { name: "B", path: ["o", "t2"] }, { name: "C", path: ["p"] }, { name: "D" }, { name: "E", path: ["o", "t1"] }],
];
const K = 2;

const validCall = (n: number) =>
  fc.record({
    dt: fc.integer({ min: 0, max: 3 }),
    free: fc.array(fc.integer({ min: 0, max: 8 }), { minLength: K, maxLength: K }),
    tasks: fc.array(fc.integer({ min: 0, max: 3 }), { minLength: n * K, maxLength: n * K }),
    pending: fc.array(fc.integer({ min: 0, max: 4 }), { minLength: n, maxLength: n }),
    increments: fc.array(fc.integer({ min: 0, max: 5 }), { minLength: n, maxLength: n }),
    maxStarts: fc.option(fc.integer({ min: 0, max: 6 }), { nil: undefined, freq: 3 }),
  });

type Breakage = "nan-task" | "short-pending" | "alias" | "overflow" | "negative-free" | "nan-time" | "fraction-pending" | "group-overflow";
const BREAKAGES: Breakage[] = ["nan-task", "short-pending", "alias", "overflow", "negative-free", "nan-time", "fraction-pending", "group-overflow"];

function hltrfCommands(n: number) {
  const allocate = validCall(n).map((v) =>
    command<HltrfModel, HReal>(`allocate ${JSON.stringify(v)}`, (m, r) => {
      const time = r.time + v.dt;
      r.time = time;
      const c: HltrfCall = {
        time, free: Float64Array.from(v.free), tasks: Float64Array.from(v.tasks), pending: Float64Array.from(v.pending),
        usage: r.usage, increments: Float64Array.from(v.increments), count: new Float64Array(n), maxStarts: v.maxStarts,
      };
      const done = r.h.allocate(c);
      const want = m.allocate({ time, free: v.free, tasks: v.tasks, pending: v.pending, increments: v.increments, maxStarts: v.maxStarts });
      expect(done).toBe(want.done);
      expect(Array.from(c.count)).toEqual(want.count);
      expect(Array.from(c.free)).toEqual(want.free);
      expect(Array.from(r.usage)).toEqual(Array.from(m.usage));
      expect(Array.from(r.h.waitSince)).toEqual(Array.from(m.waitSince));
      expect(Array.from(r.h.starvedServed)).toEqual(Array.from(m.starvedServed));
    }),
  );
  const refused = fc.tuple(validCall(n), fc.constantFrom(...BREAKAGES), fc.nat(n - 1)).map(([v, how, at]) =>
    command<HltrfModel, HReal>(`refused ${how} at ${at}`, (_m, r) => {
      const c: HltrfCall = {
        time: r.time, free: Float64Array.from(v.free), tasks: Float64Array.from(v.tasks), pending: Float64Array.from(v.pending),
        usage: r.usage, increments: Float64Array.from(v.increments), count: new Float64Array(n), maxStarts: v.maxStarts,
      };
      const savedUsage = r.usage.slice();
      switch (how) {
        case "nan-task": c.tasks[at * K] = NaN; break;
        case "short-pending": c.pending = c.pending.subarray(1); break;
        case "alias": c.count = c.pending; break;
        case "negative-free": c.free[0] = -1; break;
        case "nan-time": c.time = NaN; break;
        case "fraction-pending": c.pending[at] = 0.5; break;
        case "overflow":
          // one start of leaf `at` (alone, with resources for it) takes its usage past f64
          c.pending.fill(0);
          c.pending[at] = 1;
          c.tasks.fill(0);
          c.tasks[at * K] = 1;
          c.free[0] = 1;
          c.usage = Float64Array.from(r.usage, (u, i) => (i === at ? Number.MAX_VALUE : u));
          c.increments[at] = Number.MAX_VALUE;
          c.maxStarts = undefined;
          break;
        case "group-overflow":
          c.usage = Float64Array.from(r.usage).fill(1e308);
          break;
      }
      expectRefusedUnchanged(() => r.h.allocate(c), { h: r.h, call: c }, { ignore: SCRATCH });
      expect(Array.from(r.usage)).toEqual(Array.from(savedUsage));
    }),
  );
  return [allocate, refused];
}

/** HLtrf's buffers rebuilt at the start of every call (never read before being rewritten). */
const SCRATCH = new Set(["nodeUsage", "leafHeap", "childHeap", "left", "demanding"]);

// ---------------------------------------------------------------- QuantumUpdater

/** The quantum tree written plainly: nodes keyed by their full path of (kind, name) steps. */
class QuantumModel {
  readonly keys: string[] = [JSON.stringify([])];
  readonly q: number[];
  readonly parent: number[] = [-1];
  readonly done: Array<{ sum: number; n: number }> = [{ sum: 0, n: 0 }];
  readonly informed: boolean[] = [false];
  readonly running = new Map<string, { app: number; start: number; q: number }>();
  nextRefresh = 0;
  constructor(q0: number, readonly every: number) {
    this.q = [q0];
  }

  node(steps: Array<[string, string]>): number {
    let v = 0;
    for (let j = 1; j <= steps.length; j++) {
      const key = JSON.stringify(steps.slice(0, j));
      let id = this.keys.indexOf(key);
      if (id < 0) {
        id = this.keys.length;
        this.keys.push(key);
        this.q.push(this.q[v]);
        this.parent.push(v);
        this.done.push({ sum: 0, n: 0 });
        this.informed.push(false);
      }
      v = id;
    }
    return v;
  }

  refresh(t: number, force: boolean): void {
    if (!force && t < this.nextRefresh) return;
    this.nextRefresh = t + this.every;
    const tune = (v: number): boolean => {
      const kids = this.parent.map((p, i) => (p === v ? i : -1)).filter((i) => i >= 0);
      if (kids.length === 0) {
        if (this.done[v].n > 0) {
          this.q[v] = this.done[v].sum / this.done[v].n;
          this.informed[v] = true;
        }
        return this.informed[v];
      }
      let s = 0, c = 0;
      for (const ch of kids) if (tune(ch)) { s += this.q[ch]; c++; }
      if (c > 0) {
        this.q[v] = s / c;
        this.informed[v] = true;
      }
      return this.informed[v];
    };
    tune(0);
  }
}

const NAMES = ["a", "b", "a/b", "constructor", "__proto__", "toString", ""];
const pathArb = fc.array(fc.constantFrom(...NAMES), { maxLength: 3 });
const TASK_IDS = ["t1", "t2", "t3", "constructor", "__proto__"];

function quantumCommands() {
  const steps = (path: string[], app?: string): Array<[string, string]> => [...path.map((p): [string, string] => ["q", p]), ...(app === undefined ? [] : [["a", app] as [string, string]])];
  const queue = pathArb.map((path) => command<QuantumModel, QuantumUpdater>(`queue ${JSON.stringify(path)}`, (m, r) => {
    expect(r.queue(path)).toBe(m.node(steps(path)));
  }));
  const app = fc.tuple(pathArb, fc.constantFrom(...NAMES)).map(([path, name]) => command<QuantumModel, QuantumUpdater>(`app ${JSON.stringify(path)} ${JSON.stringify(name)}`, (m, r) => {
    expect(r.app(path, name)).toBe(m.node(steps(path, name)));
  }));
  const start = fc.tuple(fc.nat(20), fc.constantFrom(...TASK_IDS), fc.integer({ min: 0, max: 30 })).map(([node, id, t]) => command<QuantumModel, QuantumUpdater>(`start ${node} ${id} ${t}`, (m, r) => {
    // any node id of the updater is accepted (the updater does not tell apps from queues);
    // ids out of range and an id already running are refused
    if (node >= m.keys.length || m.running.has(id)) {
      expectRefusedUnchanged(() => r.taskStarted(node, id, t), r, { field: /^(appNode|taskId)$/ });
      return;
    }
    r.taskStarted(node, id, t);
    m.running.set(id, { app: node, start: t, q: m.q[node] });
  }));
  const finish = fc.tuple(fc.constantFrom(...TASK_IDS), fc.integer({ min: 0, max: 40 })).map(([id, t]) => command<QuantumModel, QuantumUpdater>(`finish ${id} ${t}`, (m, r) => {
    const run = m.running.get(id);
    if (!run || t < run.start) {
      expectRefusedUnchanged(() => r.taskFinished(id, t), r, { field: /^(taskId|t)$/ });
      return;
    }
    expect(r.assumed(id, t)).toBe(Math.max(run.q, t - run.start));
    expect(r.taskFinished(id, t)).toBe(t - run.start);
    m.running.delete(id);
    m.done[run.app].sum += t - run.start;
    m.done[run.app].n++;
  }));
  const refresh = fc.tuple(fc.integer({ min: 0, max: 40 }), fc.boolean()).map(([t, force]) => command<QuantumModel, QuantumUpdater>(`refresh ${t} ${force}`, (m, r) => {
    r.refresh(t, force);
    m.refresh(t, force);
    for (let v = 0; v < m.keys.length; v++) expect(r.quantum(v)).toBe(m.q[v]);
  }));
  const hostile = fc.tuple(fc.constantFrom<unknown>(NaN, Infinity, "3", null, -1, 1.5), fc.constantFrom("quantum", "refresh", "assumed", "path", "app")).map(([x, what]) => command<QuantumModel, QuantumUpdater>(`hostile ${what} ${String(x)}`, (_m, r) => {
    const f = {
      quantum: () => r.quantum(x as number),
      refresh: () => r.refresh(typeof x === "number" && Number.isFinite(x) ? NaN : (x as number)),
      assumed: () => r.assumed("t1", typeof x === "number" && Number.isFinite(x) ? NaN : (x as number)),
      path: () => r.queue(["a", (typeof x === "string" ? null : x) as string]),
      app: () => r.app(["a"], (typeof x === "string" ? null : x) as string),
    }[what];
    expectRefusedUnchanged(f, r, { field: /^(node|t|path\[1\]|app)$/ });
  }));
  return [queue, app, start, finish, refresh, hostile];
}

describe("stateful fuzz: LTRF", () => {
  it("HLtrf: random valid and invalid allocate sequences match the plain model; refused calls change nothing", () => {
    // one run per leaf set: the command arbitraries depend on the number of leaves
    for (const leaves of LEAF_SETS) {
      const setup = fc.constantFrom(0, 1, 2, Infinity).map((tWait) => () => {
        const tree = buildTree(leaves);
        return { model: new HltrfModel(tree, tWait), real: { h: new HLtrf(tree, { tWait }), usage: new Float64Array(tree.leaves), time: 0 } };
      });
      assertModelRun(setup, hltrfCommands(leaves.length), { maxCommands: 25, runs: 1 / 3 });
    }
  });

  it("QuantumUpdater: random sequences match the plain model; refused calls change nothing", () => {
    const setup = fc.tuple(fc.integer({ min: 0, max: 20 }), fc.integer({ min: 0, max: 5 })).map(([q0, every]) => () => ({ model: new QuantumModel(q0, every), real: new QuantumUpdater(q0, every) }));
    assertModelRun(setup, quantumCommands(), { maxCommands: 40 });
  });
});
