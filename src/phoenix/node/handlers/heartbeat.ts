// The monitor's heartbeat: the heartbeat hook (the CRV monitor's round), then the next beat
// while anything is active or pending.
import { HEARTBEAT } from "../events.js";
import type { NodeModel } from "../model.js";

export function onHeartbeat(m: NodeModel): void {
  m.hooks.heartbeat();
  if (m.active > 0 || m.events.pending > 0) m.at(m.beatGuard.next(m.now, m.o.heartbeat), HEARTBEAT);
}
