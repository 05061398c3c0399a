// The answer to a worker's task request (late binding), one round trip after it asked: a task
// to run, or a cancel (all the job's tasks were bound through other probes).
import type { NodeModel } from "../model.js";

/** The job granted `task`: it starts now. */
export function onGrant(m: NodeModel, worker: number, task: number): void {
  m.startTask(worker, m.current[worker]!, task, m.now);
}

/** The job had no task left: the worker is free and takes its next entry. */
export function onCancel(m: NodeModel, worker: number): void {
  m.release(worker);
  m.dispatch(worker);
}
