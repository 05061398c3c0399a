// LTYARN's adaptive task quantum (Quantum Updater, §6.2.1 and Fig. 4 of the paper). Task
// durations are unknown in advance, so a running task counts an assumed execution time:
// the quantum Q of its application when it starts, raised to its running time once it runs
// longer, and its actual running time when it finishes.
//
// Quanta live in a tree root -> parent queues -> leaf queues -> applications. Top-down
// (arrows 1-3): a new node starts with its parent's quantum, the root with the admin's
// threshold Q0. Bottom-up, at most every `refreshInterval` (arrows 4-7): an application's
// quantum becomes the average running time of its finished tasks, and every queue's (and
// the root's) the average of its children's quanta. Children with no finished task below
// them yet are left out of the average (they only echo the initial guess back); a node
// with no informed child keeps its quantum.
//
// Example: Q0 = 10. App a1 finishes tasks of 4 s and 8 s (Q = 6), a2 one of 12 s (Q = 12);
// both in leaf queue "fb": Q(fb) = 9; "fb" is the only informed child of the root: Q0 = 9,
// and a new app in an untouched queue now starts from 9.
import { InputError, describeValue } from "../errors.js";
import { stateArray, stateNumber, stateObject, stateString } from "../policy/state-check.js";

/** A node's key: the steps from the root, "q:<queue>" or "a:<app>" (names may contain ':'). */
export type QuantumKey = string[];

/** One node of an exported tree. */
export interface QuantumNodeState { key: QuantumKey; q: number; informed: boolean; sum: number; done: number }

interface QNode {
  parent: number;
  children: number[];
  q: number;
  informed: boolean;
  /** Applications: sum and count of finished running times. */
  sum: number;
  done: number;
  /** Child queues and applications by name (separate maps: an app and a queue may share a name). */
  queues: Map<string, number>;
  apps: Map<string, number>;
}

function newNode(parent: number, q: number): QNode {
  return { parent, children: [], q, informed: false, sum: 0, done: 0, queues: new Map(), apps: new Map() };
}

export class QuantumUpdater {
  private readonly nodes: QNode[] = [];
  private readonly running = new Map<string, { app: number; start: number; q: number }>();
  private nextRefresh: number;
  readonly refreshInterval: number;

  constructor(q0: number, refreshInterval = 1) {
    if (typeof q0 !== "number" || !(q0 >= 0) || !Number.isFinite(q0)) throw new InputError("quantum", `must be a finite number >= 0 (got ${describeValue(q0)})`);
    if (typeof refreshInterval !== "number" || !(refreshInterval >= 0) || !Number.isFinite(refreshInterval)) throw new InputError("refreshInterval", `must be a finite number >= 0 (got ${describeValue(refreshInterval)})`);
    this.refreshInterval = refreshInterval;
    this.nextRefresh = 0;
    this.nodes.push(newNode(-1, q0));
  }

  /** The queue node for a path (root = []), created top-down with inherited quanta. */
  queue(path: readonly string[]): number {
    checkPath(path);
    // one step per path element, each looked up among its parent's children: ['a', 'b'] and
    // ['a/b'] are different queues, and an app is keyed by its queue and its name
    let v = 0;
    for (const name of path) v = this.child(v, "queues", name);
    return v;
  }

  /** The application node `app` in queue `path`, created with the leaf queue's quantum. */
  app(path: readonly string[], app: string): number {
    if (typeof app !== "string") throw new InputError("app", `must be a string (got ${describeValue(app)})`);
    return this.child(this.queue(path), "apps", app);
  }

  quantum(node: number): number {
    return this.nodes[this.nodeId("node", node)].q;
  }

  taskStarted(appNode: number, taskId: string, t: number): void {
    this.nodeId("appNode", appNode);
    if (typeof taskId !== "string") throw new InputError("taskId", `must be a string (got ${describeValue(taskId)})`);
    checkTime(t);
    // a second start under a running id would lose the first task's start time
    if (this.running.has(taskId)) throw new InputError("taskId", `task '${taskId}' is already running (ids are unique among running tasks)`);
    this.running.set(taskId, { app: appNode, start: t, q: this.nodes[appNode].q });
  }

  /** Assumed execution time of a running task at time t: max(Q at its start, running time). */
  assumed(taskId: string, t: number): number {
    checkTime(t);
    const r = this.running.get(taskId);
    if (!r) throw new InputError("taskId", `no running task '${taskId}'`);
    return Math.max(r.q, t - r.start);
  }

  /** Records the actual running time; returns it. */
  taskFinished(taskId: string, t: number): number {
    checkTime(t);
    const r = this.running.get(taskId);
    if (!r) throw new InputError("taskId", `no running task '${String(taskId)}'`);
    // a finish before the start would make the app's mean (its quantum) negative
    if (!(t >= r.start)) throw new InputError("t", `the finish time ${t} is before the task's start ${r.start}`);
    this.running.delete(taskId);
    const a = this.nodes[r.app];
    const d = t - r.start;
    a.sum += d;
    a.done++;
    return d;
  }

  /** Bottom-up self-tuning, if the refresh interval has passed. */
  refresh(t: number, force = false): void {
    checkTime(t);
    if (!force && t < this.nextRefresh) return;
    this.nextRefresh = t + this.refreshInterval;
    this.tune(0);
  }

  private tune(v: number): boolean {
    const node = this.nodes[v];
    if (node.children.length === 0) {
      if (node.done > 0) {
        node.q = node.sum / node.done;
        node.informed = true;
      }
      return node.informed;
    }
    let s = 0, c = 0;
    for (const ch of node.children) {
      if (this.tune(ch)) {
        s += this.nodes[ch].q;
        c++;
      }
    }
    if (c > 0) {
      node.q = s / c;
      node.informed = true;
    }
    return node.informed;
  }

  /** The node at a key, created (with inherited quanta) where missing. */
  nodeAt(key: QuantumKey): number {
    let v = 0;
    for (const step of key) v = this.child(v, step.startsWith("q:") ? "queues" : "apps", step.slice(2));
    return v;
  }

  /** Every node in creation order (parents first) with its tuning data, and the next refresh time. */
  exportState(): { nextRefresh: number; nodes: QuantumNodeState[] } {
    const keys: QuantumKey[] = [[]];
    this.nodes.forEach((n, v) => {
      for (const [name, id] of n.queues) keys[id] = [...keys[v], `q:${name}`];
      for (const [name, id] of n.apps) keys[id] = [...keys[v], `a:${name}`];
    });
    return { nextRefresh: this.nextRefresh, nodes: this.nodes.map((n, v) => ({ key: keys[v], q: n.q, informed: n.informed, sum: n.sum, done: n.done })) };
  }

  /** A fresh updater's tree from an exported one (checked first; this one must be new). Running tasks: `restoreRunning`. */
  importState(state: unknown, field: string): void {
    const o = stateObject(state, field);
    const nextRefresh = stateNumber(o.nextRefresh, `${field}.nextRefresh`);
    const nodes = stateArray(o.nodes, `${field}.nodes`).map((x, j): QuantumNodeState => {
      const f = `${field}.nodes[${j}]`;
      const n = stateObject(x, f);
      const key = stateArray(n.key, `${f}.key`).map((s, i) => {
        const step = stateString(s, `${f}.key[${i}]`);
        if (!step.startsWith("q:") && !step.startsWith("a:")) throw new InputError(`${f}.key[${i}]`, `expected 'q:<queue>' or 'a:<app>', got ${describeValue(step)}`);
        return step;
      });
      if (typeof n.informed !== "boolean") throw new InputError(`${f}.informed`, `expected true or false, got ${describeValue(n.informed)}`);
      return { key, q: stateNumber(n.q, `${f}.q`, 0), informed: n.informed, sum: stateNumber(n.sum, `${f}.sum`, 0), done: stateNumber(n.done, `${f}.done`, 0) };
    });
    if (nodes.length === 0 || nodes[0].key.length !== 0) throw new InputError(`${field}.nodes[0]`, "expected the root (key [])");
    // parents first: every key but the root extends an earlier one by one step
    const seen = new Set<string>([JSON.stringify([])]);
    nodes.forEach((n, j) => {
      if (j === 0) return;
      const id = JSON.stringify(n.key);
      if (seen.has(id) || !seen.has(JSON.stringify(n.key.slice(0, -1)))) throw new InputError(`${field}.nodes[${j}].key`, "a duplicate node, or one listed before its parent");
      seen.add(id);
    });
    if (this.nodes.length !== 1 || this.running.size > 0) throw new InputError(field, "a quantum state is imported into a new updater only");
    this.nextRefresh = nextRefresh;
    for (const n of nodes) Object.assign(this.nodes[this.nodeAt(n.key)], { q: n.q, informed: n.informed, sum: n.sum, done: n.done });
  }

  /** The app node a running task was started under. */
  nodeOfRunning(taskId: string): number {
    const r = this.running.get(taskId);
    if (!r) throw new InputError("taskId", `no running task '${taskId}'`);
    return r.app;
  }

  /** A running task taken over from an exported state: started at `start` with the quantum `q`. */
  restoreRunning(appNode: number, taskId: string, start: number, q: number): void {
    this.taskStarted(this.nodeId("appNode", appNode), taskId, start);
    this.running.get(taskId)!.q = q;
  }

  /** A node id of this updater (whole, in range), else an InputError naming `field`. */
  private nodeId(field: string, v: unknown): number {
    if (typeof v !== "number" || !Number.isInteger(v) || v < 0 || v >= this.nodes.length) {
      throw new InputError(field, `must be a node id from queue() or app() (0..${this.nodes.length - 1}), got ${describeValue(v)}`);
    }
    return v;
  }

  private child(parent: number, kind: "queues" | "apps", name: string): number {
    const byName = this.nodes[parent][kind];
    let id = byName.get(name);
    if (id !== undefined) return id;
    id = this.nodes.length;
    this.nodes.push(newNode(parent, this.nodes[parent].q));
    this.nodes[parent].children.push(id);
    byName.set(name, id);
    return id;
  }
}

/** A time: a finite number (a NaN would make every later quantum NaN). */
function checkTime(t: unknown): void {
  if (typeof t !== "number" || !Number.isFinite(t)) throw new InputError("t", `must be a finite number (got ${describeValue(t)})`);
}

function checkPath(path: unknown): void {
  if (!Array.isArray(path)) throw new InputError("path", `expected an array of queue names, got ${describeValue(path)}`);
  path.forEach((p, j) => {
    if (typeof p !== "string") throw new InputError(`path[${j}]`, `must be a string (got ${describeValue(p)})`);
  });
}
