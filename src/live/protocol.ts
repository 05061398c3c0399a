// The sidecar protocol (docs/live-scheduler.md, "serve"): one JSON request per line, one JSON
// response line per request. The first request is `init`; a bad request gets {"error": "..."}
// and the session goes on with its state unchanged (the scheduler's calls change nothing when
// they refuse). Pure: the CLI (src/cli/serve.ts) wires it to stdin/stdout or a TCP socket.
// A session is bounded (SessionLimits): queues and tasks held (a restore's slots count); past a
// bound a request is refused, nothing changed, so one session cannot take the memory of the
// others. A clock jump costs no work per second crossed (live LTRF keeps no fairness series:
// docs/policies/ltrf.md, "Live use"), so a request's time needs no bound of its own.
import type { Engine } from "../engine/engine.js";
import { InputError, describeValue } from "../errors.js";
import { createScheduler, restoreScheduler, type Scheduler, type SchedulerSnapshot } from "./scheduler.js";

/** Per-session bounds of `fairsched serve` (docs/live-scheduler.md, "Limits"). */
export interface SessionLimits {
  /** Queues a session may hold (addQueue and restore past it are refused). */
  maxQueues: number;
  /** Tasks a session may hold, waiting and running; a restore of handle tasks takes every slot up to its largest handle, so handles must be below it too. */
  maxTasks: number;
}

export const DEFAULT_SESSION_LIMITS: Readonly<SessionLimits> = { maxQueues: 10_000, maxTasks: 100_000 };


const OPS = ["init", "restore", "addQueue", "updateQueue", "removeQueue", "submit", "cancel", "schedule", "finish", "shares", "explain", "nextWakeup", "snapshot"] as const;
const QUEUE_FIELDS = ["weight", "path", "kind", "bursts", "minShare", "maxShare", "warp"] as const;

export class ServeSession {
  private scheduler: Scheduler | null = null;
  /** Manual clock (init {"clock": "manual"}): requests carry "time" in seconds. */
  private manual = false;
  private time = 0;
  /** Tasks the scheduler holds (waiting and running), counted from the answers. */
  private tasks = 0;
  private queues = 0;
  private readonly limits: SessionLimits;

  constructor(private readonly engine: Engine, limits: Partial<SessionLimits> = {}) {
    this.limits = { ...DEFAULT_SESSION_LIMITS, ...limits };
  }

  private clock = (): number => (this.manual ? this.time : Date.now() / 1000);

  /** One request line in, one response line out (without the newline). */
  handle(line: string): string {
    let op: unknown;
    try {
      let req: unknown;
      try {
        req = JSON.parse(line);
      } catch {
        throw new InputError("request", "not valid JSON");
      }
      if (req === null || typeof req !== "object" || Array.isArray(req)) throw new InputError("request", `expected a JSON object, got ${describeValue(req)}`);
      op = (req as Record<string, unknown>).op;
      return JSON.stringify(this.apply(req as Record<string, unknown>));
    } catch (e) {
      if (e instanceof InputError) {
        const field = requestField(op, e.field);
        const problem = e.message.startsWith(`${e.field}: `) ? e.message.slice(e.field.length + 2) : e.message;
        return JSON.stringify({ error: `${field}: ${problem}`, field });
      }
      // not the request's fault as far as the protocol can tell: said as such, without a field
      return JSON.stringify({ error: `internal error: ${safeMessage(e)}` });
    }
  }

  private apply(req: Record<string, unknown>): unknown {
    const op = req.op;
    if (typeof op !== "string" || !(OPS as readonly string[]).includes(op)) throw new InputError("op", `unknown op ${describeValue(op)} (known: ${OPS.join(", ")})`);
    if (req.time !== undefined && op !== "init" && op !== "restore") {
      if (!this.manual) throw new InputError("time", "only with a manual clock (init with \"clock\": \"manual\")");
      if (!(typeof req.time === "number" && Number.isFinite(req.time) && req.time >= this.time)) throw new InputError("time", `must be a finite number >= the last time ${this.time} (got ${describeValue(req.time)})`);
    }
    if (op === "init" || op === "restore") return this.start(op, req);
    const s = this.scheduler;
    if (!s) throw new InputError("op", "the first request must be init (or restore)");
    const prevTime = this.time;
    if (typeof req.time === "number") this.time = req.time;
    try {
      return this.call(s, op, req);
    } catch (e) {
      this.time = prevTime;
      throw e;
    }
  }

  /** init and restore: a new scheduler, or none changed when refused. */
  private start(op: "init" | "restore", req: Record<string, unknown>): unknown {
    const clock = req.clock ?? "wall";
    if (clock !== "wall" && clock !== "manual") throw new InputError("clock", `must be 'wall' or 'manual' (got ${describeValue(clock)})`);
    const manual = clock === "manual";
    if (req.time !== undefined && !(manual && typeof req.time === "number" && Number.isFinite(req.time))) throw new InputError("time", `needs "clock": "manual" and a finite number (got ${describeValue(req.time)})`);
    let counts: { queues: number; tasks: number };
    if (op === "init") {
      expectKeys(req, ["op", "policy", "capacity", "resources", "reservation", "starvationGuard", "policyOptions", "seed", "clock", "time"]);
      counts = { queues: 0, tasks: 0 };
    } else {
      expectKeys(req, ["op", "snapshot", "clock", "time"]);
      counts = this.checkSnapshotSize(req.snapshot);
    }
    const prev = { manual: this.manual, time: this.time };
    this.manual = manual;
    this.time = typeof req.time === "number" ? req.time : 0;
    try {
      if (op === "init") {
        this.scheduler = createScheduler({
          policy: req.policy as string, capacity: req.capacity as number[], resources: req.resources as string[] | undefined, reservation: req.reservation as boolean | undefined,
          starvationGuard: req.starvationGuard as boolean | undefined,
          policyOptions: req.policyOptions as Record<string, unknown> | undefined, seed: req.seed as number | undefined, engine: this.engine, clock: this.clock,
        });
      } else {
        this.scheduler = restoreScheduler(req.snapshot as SchedulerSnapshot, { engine: this.engine, clock: this.clock });
      }
    } catch (e) {
      this.manual = prev.manual;
      this.time = prev.time;
      throw e;
    }
    this.queues = counts.queues;
    this.tasks = counts.tasks;
    return { ok: true, policy: this.scheduler.policyName };
  }

  private call(s: Scheduler, op: string, req: Record<string, unknown>): unknown {
    switch (op) {
      case "addQueue": {
        expectKeys(req, ["op", "queue", ...QUEUE_FIELDS, "time"]);
        if (this.queues >= this.limits.maxQueues) throw new InputError("queue", `the session holds ${this.queues} queues, its limit (serve --max-queues)`);
        const admission = s.addQueue(req.queue as string, queueOptions(req));
        this.queues++;
        return { admission };
      }
      case "updateQueue": expectKeys(req, ["op", "queue", ...QUEUE_FIELDS, "time"]); return { admission: s.updateQueue(req.queue as string, queueOptions(req)) };
      case "removeQueue": {
        expectKeys(req, ["op", "queue", "time"]);
        const waiting = s.removeQueue(req.queue as string);
        this.queues--;
        this.tasks -= waiting.length;
        return { waiting };
      }
      case "submit": {
        expectKeys(req, ["op", "queue", "task", "time"]);
        if (this.tasks >= this.limits.maxTasks) throw new InputError("task", `the session holds ${this.tasks} tasks, its limit (serve --max-tasks): finish or cancel some first`);
        s.submit(req.queue as string, req.task as never);
        this.tasks++;
        return { ok: true };
      }
      case "cancel": {
        expectKeys(req, ["op", "id", "time"]);
        const r = s.cancel(req.id as string);
        this.tasks--;
        return r;
      }
      case "schedule": expectKeys(req, ["op", "free", "time"]); return { started: s.schedule(req.free as number[] | undefined) };
      case "finish": expectKeys(req, ["op", "id", "time"]); s.finish(req.id as string); this.tasks--; return { ok: true };
      case "shares": expectKeys(req, ["op", "time"]); return { shares: s.shares() };
      case "explain": expectKeys(req, ["op", "queue", "time"]); return s.explain(req.queue as string);
      case "nextWakeup": expectKeys(req, ["op", "time"]); return { time: s.nextWakeup() };
      default: expectKeys(req, ["op", "time"]); return { snapshot: s.snapshot() };
    }
  }

  /** A snapshot's queues, tasks and slots within the session's limits (before restoring anything). */
  private checkSnapshotSize(snapshot: unknown): { queues: number; tasks: number } {
    const snap = (snapshot !== null && typeof snapshot === "object" ? snapshot : {}) as Record<string, unknown>;
    const queues = Array.isArray(snap.queues) ? snap.queues : [];
    if (queues.length > this.limits.maxQueues) throw new InputError("snapshot.queues", `holds ${queues.length} queues, past this session's limit of ${this.limits.maxQueues} (serve --max-queues)`);
    let tasks = 0;
    queues.forEach((q: unknown, i) => {
      if (q === null || typeof q !== "object") return;
      for (const what of ["waiting", "running"] as const) {
        const list = (q as Record<string, unknown>)[what];
        if (!Array.isArray(list)) continue;
        tasks += list.length;
        if (tasks > this.limits.maxTasks) throw new InputError(`snapshot.queues[${i}].${what}`, `brings the snapshot's tasks past this session's limit of ${this.limits.maxTasks} (serve --max-tasks)`);
        if (snap.handles !== true) continue;
        // a restore of handle tasks takes every slot up to the largest handle
        list.forEach((t: unknown, j) => {
          const id = t !== null && typeof t === "object" ? (t as Record<string, unknown>).id : undefined;
          if (typeof id === "string" && /^[0-9]{1,9}$/.test(id) && Number(id) >= this.limits.maxTasks) {
            throw new InputError(`snapshot.queues[${i}].${what}[${j}].id`, `handle ${id} would take ${Number(id) + 1} task slots, past this session's limit of ${this.limits.maxTasks} (serve --max-tasks)`);
          }
        });
      }
    });
    return { queues: queues.length, tasks };
  }
}

function expectKeys(req: Record<string, unknown>, allowed: readonly string[]): void {
  for (const k of Object.keys(req)) if (!allowed.includes(k)) throw new InputError(k, `unknown key for op '${String(req.op)}' (known: ${allowed.join(", ")})`);
}

function queueOptions(req: Record<string, unknown>): Record<string, unknown> {
  const o: Record<string, unknown> = {};
  for (const k of QUEUE_FIELDS) if (req[k] !== undefined) o[k] = req[k];
  return o;
}

/**
 * The field as the request wrote it: the scheduler's API names a queue `name` and a queue's
 * settings `options.X` (its parameters); a request names them `queue` and `X`.
 * Edge: `options` alone (never raised for a request, whose settings are always an object) stays.
 */
export function requestField(op: unknown, field: string): string {
  if (op === "addQueue" || op === "updateQueue" || op === "removeQueue" || op === "explain" || op === "submit") {
    if (field === "name") return "queue";
    if (field.startsWith("options.")) return field.slice("options.".length);
  }
  return field;
}

/** An error's message, or what it is when reading it throws (a hostile getter, a Proxy). */
function safeMessage(e: unknown): string {
  try {
    if (e instanceof Error && typeof e.message === "string") return e.message;
    return typeof e === "object" && e !== null ? "a non-Error object was thrown" : String(e);
  } catch {
    return "an error whose message cannot be read";
  }
}
