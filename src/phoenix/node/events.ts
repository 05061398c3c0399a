// Event types of the node-level model; a handler per type (handlers/). Payloads a, b: see each.
// Every event is scheduled by absolute time at priority 0 (Environment.scheduleAt), so one
// instant's events run in the order they were scheduled.
import type { Keyed } from "../../des/event-queue.js";

/** A job arrives: a = job index. */
export const ARRIVE = 0;
/** A probe or a centrally placed task reaches a worker: a = worker, b = in-flight entry id. */
export const PROBE = 1;
/** A worker's task request is answered with a task: a = worker, b = task. */
export const GRANT = 2;
/** A task ends: a = worker. */
export const END = 3;
/** A worker's task request is answered with a cancel: a = worker. */
export const FREE = 4;
/** The monitor's heartbeat. */
export const HEARTBEAT = 5;
/** The reordering round of one instant, behind every event already queued for it. */
export const FLUSH = 6;

/** An event on the discrete-event core (src/des): its type (above) and two payloads whose meaning the type sets. */
export interface NodeEvent extends Keyed {
  type: number;
  a: number;
  b: number;
}
