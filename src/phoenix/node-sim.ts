// The node-level discrete-event simulator (docs/policies/phoenix.md; separate from the
// queue-level one in src/sim): one execution slot and one queue per worker, late binding,
// probes, a central scheduler for long jobs, heartbeats, and queue reordering through
// engine.crvReorder. The model's state and shared steps are node/model.ts, the event handlers
// node/handlers/, and everything a policy decides is a hook filled by its plugins (policies.ts).
//
// Time line of a short job (probe ratio 2, network round trip 0.5 ms): it arrives at t, sends
// 2n probes that reach their workers at t + 0.25 ms; when a probe reaches the head of an idle
// worker the worker asks the job's scheduler for a task and gets one (or a cancel, when all n
// tasks are already bound) 0.5 ms later; the task then runs its trace duration. Its response
// time is the end of its last task minus t.
//
// Events at one instant run in (time, sequence) order.
import type { Engine } from "../engine/engine.js";
import { InputError, describeValue } from "../errors.js";
import type { Machines } from "./constraints.js";
import { composeHooks } from "./node/compose.js";
import { ARRIVE, END, FLUSH, FREE, GRANT, HEARTBEAT, PROBE } from "./node/events.js";
import { onArrival } from "./node/handlers/arrival.js";
import { onFlush } from "./node/handlers/flush.js";
import { onHeartbeat } from "./node/handlers/heartbeat.js";
import { onProbe } from "./node/handlers/probe.js";
import { onCancel, onGrant } from "./node/handlers/request.js";
import { onTaskEnd } from "./node/handlers/task-end.js";
import { NodeModel } from "./node/model.js";
import { checkOptions, type NodeSimSettings } from "./node/options.js";
import type { NodePolicy } from "./node/plugin.js";
import { nodeResult, type NodeSimResult } from "./node/result.js";
import { getNodePolicy } from "./policies.js";
import type { PhoenixJob } from "./workload.js";

export type { JobOutcome, NodeSimResult } from "./node/result.js";

export interface NodeSimOptions extends NodeSimSettings {
  engine: Engine;
  /** A registered name (policies.ts) or a policy from getNodePolicy / composePolicy. */
  policy: string | NodePolicy;
  /** Worker attributes; default: generated from the seed (machines.ts). */
  machines?: Machines;
}

type Handler = (m: NodeModel, a: number, b: number) => void;

/** The handler of each event type (node/events.ts), indexed by type. */
const HANDLERS: readonly Handler[] = (() => {
  const h: Handler[] = [];
  h[ARRIVE] = (m, a) => onArrival(m, a);
  h[PROBE] = onProbe;
  h[GRANT] = onGrant;
  h[END] = (m, a) => onTaskEnd(m, a);
  h[FREE] = (m, a) => onCancel(m, a);
  h[HEARTBEAT] = (m) => onHeartbeat(m);
  h[FLUSH] = (m) => onFlush(m);
  return h;
})();

export function simulateNodes(jobsIn: readonly PhoenixJob[], opts: NodeSimOptions): NodeSimResult {
  const o = checkOptions(opts);
  const policy = resolvePolicy(opts.policy);
  const m = new NodeModel(jobsIn, o, opts.engine, opts.machines);
  m.install(composeHooks(m, policy));

  for (let i = 0; i < m.jobs.length; i++) m.at(m.jobs[i].spec.arrival, ARRIVE, i);
  if (m.jobs.length > 0) m.at(m.firstArr, HEARTBEAT);
  m.events.run((e) => {
    m.stats.events++;
    HANDLERS[e.type](m, e.a, e.b);
  });
  return nodeResult(m, policy.name);
}

function resolvePolicy(p: unknown): NodePolicy {
  if (typeof p === "string") return getNodePolicy(p);
  if (p === null || typeof p !== "object" || typeof (p as NodePolicy).name !== "string" || !Array.isArray((p as NodePolicy).plugins)) {
    throw new InputError("policy", `expected a node policy name or a policy from getNodePolicy, got ${describeValue(p)}`);
  }
  (p as NodePolicy).plugins.forEach((x, i) => {
    if (x === null || typeof x !== "object" || typeof x.build !== "function") throw new InputError(`policy.plugins[${i}]`, `expected a node plugin {name, fills, build}, got ${describeValue(x)}`);
  });
  return p as NodePolicy;
}
