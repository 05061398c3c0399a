// An in-process scheduler (any object with the live scheduler's methods) as a target of the
// whole-scheduler fuzzer: each request becomes the method call, each result the answer the
// sidecar protocol would give, and a throw becomes an `{error}` answer.
import type { SchedulerRequest, SchedulerSupports, SchedulerTarget } from "./types.js";

/** What the fuzzer calls; methods may be async. `createScheduler`'s result is one. */
export interface SchedulerUnderTest {
  addQueue(name: string, options: { weight?: number; minShare?: number; parent?: string }): unknown;
  removeQueue(name: string): unknown;
  submit(queue: string, task: { id: string; demand: number[]; job?: string }): unknown;
  cancel(id: string): unknown;
  finish(id: string): unknown;
  /** The tasks started now (`[{id, queue}]`), or `{ started, preempted? }` for a scheduler that preempts. */
  schedule(): unknown;
  nextWakeup?(): unknown;
  /** Declared capabilities (as `init`'s answer `supports` over the protocol). */
  supports?: SchedulerSupports;
}

/** Makes a fresh scheduler; `clock` is the fuzzer's manual clock in seconds, the rest is `init`'s fields. */
export type SchedulerFactory = (options: { capacity: number[]; clock: () => number } & Record<string, unknown>) => SchedulerUnderTest | Promise<SchedulerUnderTest>;

export function methodsTarget(factory: SchedulerFactory): SchedulerTarget {
  let s: SchedulerUnderTest | null = null;
  let now = 0;
  const clock = () => now;
  const call = async (req: SchedulerRequest): Promise<unknown> => {
    if (req.op === "init") {
      const { op: _op, clock: _clock, time, ...rest } = req;
      now = typeof time === "number" ? time : 0;
      s = await factory({ ...rest, capacity: req.capacity as number[], clock });
      return { ok: true, ...(s.supports ? { supports: s.supports } : {}) };
    }
    if (!s) throw new Error("the first request must be init");
    if (typeof req.time === "number") now = req.time;
    switch (req.op) {
      case "addQueue": return { admission: (await s.addQueue(req.queue as string, { weight: req.weight as number, ...(req.minShare !== undefined ? { minShare: req.minShare as number } : {}) })) ?? null };
      case "removeQueue": return { waiting: (await s.removeQueue(req.queue as string)) ?? [] };
      case "submit": await s.submit(req.queue as string, req.task as { id: string; demand: number[] }); return { ok: true };
      case "cancel": return (await s.cancel(req.id as string)) ?? { ok: true };
      case "finish": await s.finish(req.id as string); return { ok: true };
      case "schedule": { const r = await s.schedule(); return Array.isArray(r) ? { started: r } : r; }
      case "nextWakeup": return { time: s.nextWakeup ? ((await s.nextWakeup()) ?? null) : null };
      default: throw new Error(`unknown op ${JSON.stringify(req.op)}`);
    }
  };
  const answer = async (req: SchedulerRequest): Promise<Record<string, unknown>> => {
    try {
      // through JSON, as over the protocol: the answer is plain data, detached from the scheduler
      return JSON.parse(JSON.stringify((await call(req)) ?? null)) as Record<string, unknown>;
    } catch (e) {
      return { error: (e as Error)?.message ?? String(e) };
    }
  };
  // requests may be sent before earlier ones are answered: an async scheduler still sees them in order
  let last: Promise<unknown> = Promise.resolve();
  return {
    send(req) {
      const next = last.then(() => answer(req));
      last = next;
      return next;
    },
  };
}
