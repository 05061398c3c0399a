// The bound on a run's heartbeats (src/des/runaway-guard.ts) with the node model's two messages.
import { InputError } from "../../errors.js";
import { RunawayGuard } from "../../des/runaway-guard.js";

/**
 * The runaway guard of a run's heartbeats: a heartbeat below the time resolution
 * (now + heartbeat == now) never advances, and one tiny against the run's span (or a task
 * lasting 1e300 s) means billions of ticks: refused by name, not a hang.
 */
export function heartbeatGuard(maxBeats: number, heartbeat: number): RunawayGuard {
  return new RunawayGuard(maxBeats, (t) =>
    t + heartbeat === t
      ? new InputError("heartbeat", `${heartbeat} s is below the time resolution at t = ${t} s (t + heartbeat == t)`)
      : new InputError("heartbeat", `the run needs more than ${maxBeats} heartbeats (span / heartbeat at t = ${t} s): the heartbeat or a task duration is out of scale`),
  );
}
