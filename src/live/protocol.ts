// The sidecar protocol (docs/live-scheduler.md, "serve"): one JSON request per line, one JSON
// response line per request. The first request is `init`; a bad request gets {"error": "..."}
// and the session goes on with its state unchanged (the scheduler's calls change nothing when
// they refuse). Pure: the CLI (src/cli/serve.ts) wires it to stdin/stdout or a TCP socket.
import type { Engine } from "../engine/engine.js";
import { InputError, describeValue } from "../errors.js";
import { createScheduler, restoreScheduler, type Scheduler, type SchedulerSnapshot } from "./scheduler.js";

const OPS = ["init", "restore", "addQueue", "updateQueue", "removeQueue", "submit", "cancel", "schedule", "finish", "shares", "explain", "nextWakeup", "snapshot"] as const;
const QUEUE_FIELDS = ["weight", "path", "kind", "bursts", "minShare", "maxShare", "warp"] as const;

export class ServeSession {
  private scheduler: Scheduler | null = null;
  /** Manual clock (init {"clock": "manual"}): requests carry "time" in seconds. */
  private manual = false;
  private time = 0;

  constructor(private readonly engine: Engine) {}

  private clock = (): number => (this.manual ? this.time : Date.now() / 1000);

  /** One request line in, one response line out (without the newline). */
  handle(line: string): string {
    try {
      let req: unknown;
      try {
        req = JSON.parse(line);
      } catch {
        throw new InputError("request", "not valid JSON");
      }
      if (req === null || typeof req !== "object" || Array.isArray(req)) throw new InputError("request", `expected a JSON object, got ${describeValue(req)}`);
      return JSON.stringify(this.apply(req as Record<string, unknown>));
    } catch (e) {
      if (e instanceof InputError) return JSON.stringify({ error: e.message, field: e.field });
      return JSON.stringify({ error: e instanceof Error ? e.message : String(e) });
    }
  }

  private apply(req: Record<string, unknown>): unknown {
    const op = req.op;
    if (typeof op !== "string" || !(OPS as readonly string[]).includes(op)) throw new InputError("op", `unknown op ${describeValue(op)} (known: ${OPS.join(", ")})`);
    if (req.time !== undefined && op !== "init" && op !== "restore") {
      if (!this.manual) throw new InputError("time", "only with a manual clock (init with \"clock\": \"manual\")");
      if (!(typeof req.time === "number" && Number.isFinite(req.time) && req.time >= this.time)) throw new InputError("time", `must be a finite number >= the last time ${this.time} (got ${describeValue(req.time)})`);
    }
    if (op === "init" || op === "restore") {
      const clock = req.clock ?? "wall";
      if (clock !== "wall" && clock !== "manual") throw new InputError("clock", `must be 'wall' or 'manual' (got ${describeValue(clock)})`);
      const manual = clock === "manual";
      if (req.time !== undefined && !(manual && typeof req.time === "number" && Number.isFinite(req.time))) throw new InputError("time", `needs "clock": "manual" and a finite number (got ${describeValue(req.time)})`);
      const prev = { manual: this.manual, time: this.time };
      this.manual = manual;
      this.time = typeof req.time === "number" ? req.time : 0;
      try {
        if (op === "init") {
          expectKeys(req, ["op", "policy", "capacity", "resources", "reservation", "starvationGuard", "policyOptions", "seed", "clock", "time"]);
          this.scheduler = createScheduler({
            policy: req.policy as string, capacity: req.capacity as number[], resources: req.resources as string[] | undefined, reservation: req.reservation as boolean | undefined,
            starvationGuard: req.starvationGuard as boolean | undefined,
            policyOptions: req.policyOptions as Record<string, unknown> | undefined, seed: req.seed as number | undefined, engine: this.engine, clock: this.clock,
          });
        } else {
          expectKeys(req, ["op", "snapshot", "clock", "time"]);
          this.scheduler = restoreScheduler(req.snapshot as SchedulerSnapshot, { engine: this.engine, clock: this.clock });
        }
      } catch (e) {
        this.manual = prev.manual;
        this.time = prev.time;
        throw e;
      }
      return { ok: true, policy: this.scheduler.policyName };
    }
    const s = this.scheduler;
    if (!s) throw new InputError("op", "the first request must be init (or restore)");
    const prevTime = this.time;
    if (typeof req.time === "number") this.time = req.time;
    try {
      switch (op) {
        case "addQueue": expectKeys(req, ["op", "queue", ...QUEUE_FIELDS, "time"]); return { admission: s.addQueue(req.queue as string, queueOptions(req)) };
        case "updateQueue": expectKeys(req, ["op", "queue", ...QUEUE_FIELDS, "time"]); return { admission: s.updateQueue(req.queue as string, queueOptions(req)) };
        case "removeQueue": expectKeys(req, ["op", "queue", "time"]); return { waiting: s.removeQueue(req.queue as string) };
        case "submit": expectKeys(req, ["op", "queue", "task", "time"]); s.submit(req.queue as string, req.task as never); return { ok: true };
        case "cancel": expectKeys(req, ["op", "id", "time"]); return s.cancel(req.id as string);
        case "schedule": expectKeys(req, ["op", "free", "time"]); return { started: s.schedule(req.free as number[] | undefined) };
        case "finish": expectKeys(req, ["op", "id", "time"]); s.finish(req.id as string); return { ok: true };
        case "shares": expectKeys(req, ["op", "time"]); return { shares: s.shares() };
        case "explain": expectKeys(req, ["op", "queue", "time"]); return s.explain(req.queue as string);
        case "nextWakeup": expectKeys(req, ["op", "time"]); return { time: s.nextWakeup() };
        default: expectKeys(req, ["op", "time"]); return { snapshot: s.snapshot() };
      }
    } catch (e) {
      this.time = prevTime;
      throw e;
    }
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
