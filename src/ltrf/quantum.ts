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
// Groups, queues and applications are three namespaces ("g:", "q:", "a:" steps): a queue named
// like a group is another node. An application whose job ended (appEnded) is folded into its
// queue: its final quantum keeps its place in the queue's average, so the average adds the same
// numbers in the same order (creation order) as if the node were still there, and the node is
// forgotten. Finished apps behind an older live one wait as bare numbers until everything before
// them has ended too; past MAX_KEPT such numbers in the whole tree, a queue's are folded at once
// (its average then adds them in finish order: the last bits of its quantum may differ). A
// refresh re-averages only the nodes below which a task finished or an app was folded.
//
// Example: Q0 = 10. App a1 finishes tasks of 4 s and 8 s (Q = 6), a2 one of 12 s (Q = 12);
// both in leaf queue "fb": Q(fb) = 9; "fb" is the only informed child of the root: Q0 = 9,
// and a new app in an untouched queue now starts from 9.
import { InputError, describeValue } from "../errors.js";
import { stateArray, stateNumber, stateObject, stateString } from "../policy/state-check.js";

/** A node's key: the steps from the root, "g:<group>", "q:<queue>" or "a:<app>" (names may contain ':'). */
export type QuantumKey = string[];

/** Finished apps kept as numbers for the averages' order, in the whole tree, before a queue's are folded at once. */
export const MAX_KEPT = 2 ** 16;

/** Folded children of a node: their sum and count (the prefix of its average), and the numbers kept behind a live child. */
export interface QuantumPast { sum: number; count: number; kept: Array<[number, number]> }

/** One node of an exported tree. */
export interface QuantumNodeState { key: QuantumKey; q: number; informed: boolean; sum: number; done: number; past?: QuantumPast }

/** A child in its parent's average: a live node, or (node -1) the final quantum of a folded app. */
interface Entry { node: number; q: number }

type Kind = "groups" | "queues" | "apps";
const STEP: Record<Kind, string> = { groups: "g:", queues: "q:", apps: "a:" };

interface QNode {
  id: number;
  parent: number;
  /** Its name and namespace among its parent's children. */
  name: string;
  kind: Kind;
  /** Children in creation order, from `first` on (earlier ones are folded into foldSum / foldCount). */
  entries: Entry[];
  first: number;
  foldSum: number;
  foldCount: number;
  /** Its own entry in its parent's list. */
  entry: Entry | null;
  q: number;
  informed: boolean;
  /** Something below changed since the last refresh: re-average it then. */
  dirty: boolean;
  /** Applications: sum and count of finished running times, and tasks running now. */
  sum: number;
  done: number;
  running: number;
  /** Child nodes by name, one map per namespace. */
  groups: Map<string, number>;
  queues: Map<string, number>;
  apps: Map<string, number>;
}

function newNode(id: number, parent: number, kind: Kind, name: string, q: number): QNode {
  return { id, parent, name, kind, entries: [], first: 0, foldSum: 0, foldCount: 0, entry: null, q, informed: false, dirty: false, sum: 0, done: 0, running: 0, groups: new Map(), queues: new Map(), apps: new Map() };
}

export class QuantumUpdater {
  private readonly nodes: Array<QNode | null> = [];
  /** Ids of forgotten nodes, taken again by new ones. */
  private readonly freeIds: number[] = [];
  private readonly running = new Map<string, { app: number; start: number; q: number }>();
  /** Folded apps' numbers still kept behind a live sibling, in the whole tree. */
  private kept = 0;
  private nextRefresh: number;
  readonly refreshInterval: number;

  constructor(q0: number, refreshInterval = 1) {
    if (typeof q0 !== "number" || !(q0 >= 0) || !Number.isFinite(q0)) throw new InputError("quantum", `must be a finite number >= 0 (got ${describeValue(q0)})`);
    if (typeof refreshInterval !== "number" || !(refreshInterval >= 0) || !Number.isFinite(refreshInterval)) throw new InputError("refreshInterval", `must be a finite number >= 0 (got ${describeValue(refreshInterval)})`);
    this.refreshInterval = refreshInterval;
    this.nextRefresh = 0;
    this.nodes.push(newNode(0, -1, "groups", "", q0));
  }

  /** The queue node for a path of queues (root = []), created top-down with inherited quanta. */
  queue(path: readonly string[]): number {
    checkPath(path);
    // one step per path element, each looked up among its parent's children: ['a', 'b'] and
    // ['a/b'] are different queues, and an app is keyed by its queue and its name
    let v = 0;
    for (const name of path) v = this.child(v, "queues", name);
    return v;
  }

  /** The node of queue `name` under the groups `groups` (group and queue names are separate namespaces). */
  leafQueue(groups: readonly string[], name: string): number {
    checkPath(groups);
    if (typeof name !== "string") throw new InputError("name", `must be a string (got ${describeValue(name)})`);
    let v = 0;
    for (const g of groups) v = this.child(v, "groups", g);
    return this.child(v, "queues", name);
  }

  /** The application node `app` in queue `path`, created with the leaf queue's quantum. */
  app(path: readonly string[], app: string): number {
    if (typeof app !== "string") throw new InputError("app", `must be a string (got ${describeValue(app)})`);
    return this.child(this.queue(path), "apps", app);
  }

  /** The application node `app` under the queue node `queueNode` (from queue() or leafQueue()). */
  appOf(queueNode: number, app: string): number {
    this.nodeId("queueNode", queueNode);
    if (typeof app !== "string") throw new InputError("app", `must be a string (got ${describeValue(app)})`);
    return this.child(queueNode, "apps", app);
  }

  quantum(node: number): number {
    return this.node(this.nodeId("node", node)).q;
  }

  taskStarted(appNode: number, taskId: string, t: number): void {
    this.nodeId("appNode", appNode);
    if (typeof taskId !== "string") throw new InputError("taskId", `must be a string (got ${describeValue(taskId)})`);
    checkTime(t);
    // a second start under a running id would lose the first task's start time
    if (this.running.has(taskId)) throw new InputError("taskId", `task '${taskId}' is already running (ids are unique among running tasks)`);
    const a = this.node(appNode);
    this.running.set(taskId, { app: appNode, start: t, q: a.q });
    a.running++;
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
    const a = this.node(r.app);
    const d = t - r.start;
    a.sum += d;
    a.done++;
    a.running--;
    this.markDirty(r.app);
    return d;
  }

  /**
   * The job of app node `appNode` ended (none of its tasks runs): its final quantum is folded into
   * its queue's average and the node is forgotten (a later app of that name is a new one).
   */
  appEnded(appNode: number): void {
    const v = this.nodeId("appNode", appNode);
    const a = this.node(v);
    if (v === 0 || a.kind !== "apps") throw new InputError("appNode", `node ${v} is not an application`);
    if (a.running > 0) throw new InputError("appNode", `application node ${v} has ${a.running} running tasks`);
    const p = this.node(a.parent);
    p.apps.delete(a.name);
    const e = a.entry!;
    if (a.done > 0) {
      e.node = -1;
      e.q = a.sum / a.done; // what the next refresh would give it
      this.kept++;
      this.markDirty(a.parent);
    } else {
      // never informed: left out of every average, so it goes without a trace
      e.node = -2;
    }
    this.nodes[v] = null;
    this.freeIds.push(v);
    this.foldPrefix(p);
    if (this.kept > MAX_KEPT) this.foldAll(p);
  }

  /** Bottom-up self-tuning, if the refresh interval has passed. */
  refresh(t: number, force = false): void {
    checkTime(t);
    if (!force && t < this.nextRefresh) return;
    this.nextRefresh = t + this.refreshInterval;
    this.tune(0);
  }

  /** Nodes held now (live ones), and folded apps kept as numbers: what the state's size is bounded by. */
  get size(): { nodes: number; kept: number } {
    return { nodes: this.nodes.length - this.freeIds.length, kept: this.kept };
  }

  private tune(v: number): boolean {
    const node = this.node(v);
    if (!node.dirty) return node.informed;
    node.dirty = false;
    if (node.entries.length === 0 && node.foldCount === 0) {
      if (node.done > 0) {
        node.q = node.sum / node.done;
        node.informed = true;
      }
      return node.informed;
    }
    let s = node.foldSum, c = node.foldCount;
    for (let j = node.first; j < node.entries.length; j++) {
      const e = node.entries[j];
      if (e.node === -1) {
        s += e.q;
        c++;
      } else if (e.node >= 0 && this.tune(e.node)) {
        s += this.node(e.node).q;
        c++;
      }
    }
    if (c > 0) {
      node.q = s / c;
      node.informed = true;
    }
    return node.informed;
  }

  private markDirty(v: number): void {
    for (let u = v; u >= 0; u = this.node(u).parent) {
      const n = this.node(u);
      if (n.dirty && u !== v) return;
      n.dirty = true;
    }
  }

  /** Folded entries at the front of p's list join its prefix sum (in order: the same additions). */
  private foldPrefix(p: QNode): void {
    const es = p.entries;
    while (p.first < es.length && es[p.first].node < 0) {
      const e = es[p.first++];
      if (e.node === -1) {
        p.foldSum += e.q;
        p.foldCount++;
        this.kept--;
      }
    }
    if (p.first > 32 && p.first * 2 > es.length) {
      es.splice(0, p.first);
      p.first = 0;
    }
  }

  /** Past the budget: every folded entry of p joins its prefix now (in finish order, not creation order). */
  private foldAll(p: QNode): void {
    const live: Entry[] = [];
    for (let j = p.first; j < p.entries.length; j++) {
      const e = p.entries[j];
      if (e.node >= 0) live.push(e);
      else if (e.node === -1) {
        p.foldSum += e.q;
        p.foldCount++;
        this.kept--;
      }
    }
    p.entries = live;
    p.first = 0;
    for (let u = p.id; u >= 0; u = this.node(u).parent) this.node(u).dirty = true;
  }

  /** The node at a key, created (with inherited quanta) where missing. */
  nodeAt(key: QuantumKey): number {
    let v = 0;
    for (const step of key) v = this.child(v, step.startsWith("g:") ? "groups" : step.startsWith("q:") ? "queues" : "apps", step.slice(2));
    return v;
  }

  /** Every live node, parents first and siblings in creation order, with its tuning data; and the next refresh time. */
  exportState(): { nextRefresh: number; nodes: QuantumNodeState[] } {
    const out: QuantumNodeState[] = [];
    const visit = (v: number, key: QuantumKey): void => {
      const n = this.node(v);
      const s: QuantumNodeState = { key, q: n.q, informed: n.informed, sum: n.sum, done: n.done };
      const kept: Array<[number, number]> = [];
      const live: number[] = [];
      for (let j = n.first; j < n.entries.length; j++) {
        const e = n.entries[j];
        if (e.node >= 0) live.push(e.node);
        else if (e.node === -1) kept.push([live.length + kept.length, e.q]);
      }
      if (n.foldCount > 0 || kept.length > 0) s.past = { sum: n.foldSum, count: n.foldCount, kept };
      out.push(s);
      for (const c of live) { const ch = this.node(c); visit(c, [...key, STEP[ch.kind] + ch.name]); }
    };
    visit(0, []);
    return { nextRefresh: this.nextRefresh, nodes: out };
  }

  /** A fresh updater's tree from an exported one (checked first; this one must be new). Running tasks: `restoreRunning`. */
  importState(state: unknown, field: string): void {
    const o = stateObject(state, field);
    const nextRefresh = stateNumber(o.nextRefresh, `${field}.nextRefresh`);
    const nodes = stateArray(o.nodes, `${field}.nodes`).map((x, j) => readNode(x, `${field}.nodes[${j}]`));
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
    const ids = nodes.map((n) => this.nodeAt(n.key));
    nodes.forEach((n, j) => {
      const node = this.node(ids[j]);
      Object.assign(node, { q: n.q, informed: n.informed, sum: n.sum, done: n.done, dirty: true });
      if (!n.past) return;
      node.foldSum = n.past.sum;
      node.foldCount = n.past.count;
      // the kept numbers go back to their places among the live children (which nodeAt appended in order)
      for (const [at, q] of n.past.kept) {
        if (at > node.entries.length) throw new InputError(`${field}.nodes[${j}].past.kept`, `position ${at} is past the node's ${node.entries.length} children`);
        node.entries.splice(at, 0, { node: -1, q });
        this.kept++;
      }
    });
  }

  /** A live node's key (as exportState lists it). */
  keyOf(node: number): QuantumKey {
    const key: QuantumKey = [];
    for (let v = this.nodeId("node", node); v > 0; v = this.node(v).parent) key.push(STEP[this.node(v).kind] + this.node(v).name);
    return key.reverse();
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

  /** A node id of this updater (whole, in range, live), else an InputError naming `field`. */
  private nodeId(field: string, v: unknown): number {
    if (typeof v !== "number" || !Number.isInteger(v) || v < 0 || v >= this.nodes.length || this.nodes[v] === null) {
      throw new InputError(field, `must be a node id from queue() or app() (0..${this.nodes.length - 1}), got ${describeValue(v)}`);
    }
    return v;
  }

  private node(v: number): QNode {
    return this.nodes[v]!;
  }

  private child(parent: number, kind: Kind, name: string): number {
    const p = this.node(parent);
    const byName = p[kind];
    let id = byName.get(name);
    if (id !== undefined) return id;
    id = this.freeIds.length > 0 ? this.freeIds.pop()! : this.nodes.length;
    const n = newNode(id, parent, kind, name, p.q);
    n.entry = { node: id, q: 0 };
    if (id === this.nodes.length) this.nodes.push(n);
    else this.nodes[id] = n;
    p.entries.push(n.entry);
    byName.set(name, id);
    return id;
  }
}

/** One exported node, checked. */
function readNode(x: unknown, f: string): QuantumNodeState {
  const n = stateObject(x, f);
  const key = stateArray(n.key, `${f}.key`).map((s, i) => {
    const step = stateString(s, `${f}.key[${i}]`);
    if (!step.startsWith("g:") && !step.startsWith("q:") && !step.startsWith("a:")) throw new InputError(`${f}.key[${i}]`, `expected 'g:<group>', 'q:<queue>' or 'a:<app>', got ${describeValue(step)}`);
    return step;
  });
  if (typeof n.informed !== "boolean") throw new InputError(`${f}.informed`, `expected true or false, got ${describeValue(n.informed)}`);
  const out: QuantumNodeState = { key, q: stateNumber(n.q, `${f}.q`, 0), informed: n.informed, sum: stateNumber(n.sum, `${f}.sum`, 0), done: stateNumber(n.done, `${f}.done`, 0) };
  if (n.past !== undefined) {
    const p = stateObject(n.past, `${f}.past`);
    let last = -1;
    const kept = stateArray(p.kept, `${f}.past.kept`).map((e, j): [number, number] => {
      const pair = stateArray(e, `${f}.past.kept[${j}]`);
      const at = stateNumber(pair[0], `${f}.past.kept[${j}][0]`, 0);
      if (!Number.isInteger(at) || at <= last) throw new InputError(`${f}.past.kept[${j}][0]`, `expected a whole position after ${last}, got ${describeValue(at)}`);
      last = at;
      return [at, stateNumber(pair[1], `${f}.past.kept[${j}][1]`, 0)];
    });
    const count = stateNumber(p.count, `${f}.past.count`, 0);
    if (!Number.isInteger(count)) throw new InputError(`${f}.past.count`, `expected a whole number, got ${count}`);
    out.past = { sum: stateNumber(p.sum, `${f}.past.sum`, 0), count, kept };
  }
  return out;
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
