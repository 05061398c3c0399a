// The monitor's heartbeat: the heartbeat hook (the CRV monitor's round), then the next beat
// while anything is active or pending.
import { InputError } from "../../../errors.js";
import { HEARTBEAT } from "../events.js";
import type { NodeModel } from "../model.js";

export function onHeartbeat(m: NodeModel): void {
  m.hooks.heartbeat();
  if (m.active > 0 || m.events.pending > 0) {
    // a heartbeat below the time resolution (now + heartbeat == now) never advances, and one
    // tiny against the run's span (or a task lasting 1e300 s) means billions of ticks: refused
    // by name, not a hang
    const now = m.now, hb = m.o.heartbeat;
    const next = now + hb;
    if (!(next > now)) throw new InputError("heartbeat", `${hb} s is below the time resolution at t = ${now} s (t + heartbeat == t)`);
    if (++m.beats > m.maxBeats) throw new InputError("heartbeat", `the run needs more than ${m.maxBeats} heartbeats (span / heartbeat at t = ${now} s): the heartbeat or a task duration is out of scale`);
    m.at(next, HEARTBEAT);
  }
}
