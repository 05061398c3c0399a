// The live scheduler's task ledger: which task is in which slot (the string API's ids, or
// handles), and the per-queue rows the policies read (pending, usage, demand = usage + pending),
// kept current on every change, with each queue's accumulated dominant share x seconds and its
// max-share cap. Hot paths allocate nothing (docs/performance.md, "Live scheduler").
import { InputError, describeValue } from "../errors.js";
import type { Dispatcher } from "../dispatch/dispatcher.js";
import { FREE, type LiveQueue, type LiveState } from "./live-state.js";

/** Which API a scheduler's tasks came from (one at a time: docs/live-scheduler.md, "Handles"). */
export const NO_TASKS = 0, IDS = 1, HANDLES = 2;
/** Slack of share comparisons (max and min shares). */
export const SHARE_EPS = 1e-9;

export interface TaskInput {
  id: string;
  demand: number[];
  estimate?: number;
  /** Job the task belongs to (default: its own id): the job arrives with its first task and ends with its last. */
  job?: string;
  /** LQ burst index (into the queue's `bursts`): its first task opens the burst, for the burst's window. */
  burst?: number;
}

export class TaskLedger {
  /** The string API's ids -> slots. */
  readonly tasks = new Map<string, number>();
  /** The API of the tasks held: string ids or handles (either while none is held). */
  mode = NO_TASKS;
  /** Starts so far (the running tasks' order in snapshots). */
  starts = 0;

  constructor(private readonly state: LiveState, private readonly k: number, private readonly dispatcher: Dispatcher) {}

  /** A scheduler holds tasks of one API at a time (ids or handles); either while it holds none. */
  useApi(mode: number, field: string): void {
    if (this.mode !== mode && this.state.slots.count > 0) throw new InputError(field, this.mode === IDS ? "this scheduler's tasks have string ids (submit, finish, cancel)" : "this scheduler's tasks are handles (submitHandle, finishHandle, cancelHandle)");
  }

  /** The slot of task `id` (string API). */
  task(id: unknown): number {
    if (typeof id !== "string") throw new InputError("id", `expected a task id, got ${describeValue(id)}`);
    const s = this.tasks.get(id);
    if (s === undefined) throw new InputError("id", `unknown task '${id}'`);
    return s;
  }

  /** The slot of handle `h` (handle API). */
  handle(h: unknown): number {
    const slots = this.state.slots;
    if (!(typeof h === "number" && Number.isInteger(h) && h >= 0 && h < slots.size && slots.state[h] !== FREE && slots.id[h] === undefined)) {
      throw new InputError("handle", `unknown task handle ${describeValue(h)}`);
    }
    return h;
  }

  /** The slot holding task `id` other than `except` (a scan: only a refused duplicate needs it). */
  slotOfId(id: string, except: number): number {
    const slots = this.state.slots;
    for (let x = 0; x < slots.size; x++) if (x !== except && slots.state[x] !== FREE && slots.id[x] === id) return x;
    throw new Error(`task '${id}' has no slot`);
  }

  /** Forgets a task that is no longer waiting or running: its id and its slot. */
  dropSlot(s: number): void {
    const slots = this.state.slots;
    const id = slots.id[s];
    if (id !== undefined) this.tasks.delete(id);
    slots.free(s);
  }

  /** A task's fields as the host wrote them; the id is the handle as a decimal string for a handle task. */
  taskInput(s: number): TaskInput {
    const slots = this.state.slots;
    const id = slots.idOf(s);
    const o: TaskInput = { id, demand: Array.from(slots.demand[s]!) };
    if (!Number.isNaN(slots.estimate[s])) o.estimate = slots.estimate[s];
    const job = slots.job[s];
    if (job !== undefined && job !== id) o.job = job;
    if (slots.burst[s] >= 0) o.burst = slots.burst[s];
    return o;
  }

  /** Adds (sign 1) or removes (-1) a waiting task's demand d from queue q's pending row. */
  addPending(q: LiveQueue, d: Float64Array, sign: 1 | -1): void {
    const none = q.waitingCount === 0;
    const st = this.state, pending = st.pendingRows, usage = st.usageRows, demand = st.demandRows;
    const k = this.k, o = q.index * k;
    for (let r = 0; r < k; r++) {
      const p = pending[o + r] + sign * d[r];
      const pr = none || p < 0 ? 0 : p;
      pending[o + r] = pr;
      demand[o + r] = usage[o + r] + pr;
    }
    if (q.maxShare < 1 || q.capped) this.refreshCap(q);
    this.dispatcher.touch(st, q.index);
  }

  /** Adds (sign 1) or removes (-1) a running task's demand d from queue q's usage and the total. */
  addUsage(q: LiveQueue, d: Float64Array, sign: 1 | -1): void {
    const none = q.runningCount === 0;
    const st = this.state, pending = st.pendingRows, usage = st.usageRows, demand = st.demandRows, used = st.used;
    const k = this.k, o = q.index * k;
    for (let r = 0; r < k; r++) {
      const u = usage[o + r] + sign * d[r];
      const ur = none || u < 0 ? 0 : u;
      usage[o + r] = ur;
      demand[o + r] = ur + pending[o + r];
      const x = used[r] + sign * d[r];
      used[r] = x > 0 ? x : 0;
    }
    if (q.maxShare < 1 || q.capped) this.refreshCap(q);
    this.dispatcher.touch(st, q.index);
  }

  /** Max share: a queue whose next task would take its dominant share above it shows no runnable task. */
  refreshCap(q: LiveQueue): void {
    const max = q.maxShare;
    if (max >= 1 || q.head < 0) { q.capped = false; return; }
    const head = this.state.slots.demand[q.head]!;
    let after = 0;
    for (let r = 0; r < this.k; r++) after = Math.max(after, (q.usage[r] + head[r]) / this.state.capacity[r]);
    q.capped = after > max + SHARE_EPS;
  }

  /** Brings a queue's accumulated usage up to `time` (lazily, per queue, on change). */
  settle(q: LiveQueue, time: number): void {
    if (time === q.since) return;
    const rows = this.state.usageRows, cap = this.state.capacity, k = this.k, o = q.index * k;
    let d = 0;
    for (let r = 0; r < k; r++) { const s = rows[o + r] / cap[r]; if (s > d) d = s; }
    q.accumulated += d * (time - q.since);
    q.since = time;
  }
}

