// The live scheduler's answers about its queues: shares() (usage, dominant share, the policy's
// target, accumulated usage) and explain(queue) (rank, fit, admission, min/max share state and a
// sentence saying why the queue is where it is).
import { exceeds, fits } from "../dispatch/fit.js";
import type { Admission } from "../policy/policy.js";
import type { LiveCore } from "./core.js";
import { dominantShare } from "../policy/dominant-share.js";
import type { LiveQueue } from "./live-state.js";

export interface QueueShare {
  queue: string;
  usage: number[];
  dominantShare: number;
  /** The policy's target (resource units), when it computes targets. */
  target: number[] | null;
  /** Dominant share x seconds held so far. */
  accumulated: number;
  waiting: number;
  running: number;
}

export interface QueueExplanation {
  queue: string;
  weightedShare: number;
  rank: number | null;
  waiting: number;
  running: number;
  nextTaskFits: boolean | null;
  admission: Admission;
  reason: string;
}

/** Per queue at `time` (the policy bound and timers fired): usage, shares, the policy's target, accumulated usage. */
export function queueShares(core: LiveCore, time: number): QueueShare[] {
  const st = core.state;
  const k = core.k;
  const policy = core.binding.policy;
  let targets: Float64Array | null = null;
  if (policy.shares) {
    targets = new Float64Array(st.queues.length * k);
    policy.shares(st, targets);
  }
  return st.queues.map((q) => ({
    queue: q.spec.name,
    usage: Array.from(q.usage),
    dominantShare: dominantShare(q.usage, st.capacity),
    target: targets ? Array.from(targets.subarray(q.index * k, q.index * k + k)) : null,
    accumulated: q.accumulated + dominantShare(q.usage, st.capacity) * (time - q.since),
    waiting: q.waitingCount,
    running: q.runningCount,
  }));
}

/** Why queue q is where it is: its weighted dominant share, rank among queues with waiting tasks, and whether its next task fits. */
export function explainQueue(core: LiveCore, q: LiveQueue): QueueExplanation {
  const st = core.state;
  const told = q.rejected ? {} : core.binding.policy.explain?.(st, q.index) ?? {};
  const key = (x: LiveQueue) => dominantShare(x.usage, st.capacity) / (x.spec.weight ?? 1);
  const w = key(q);
  const head = q.head;
  const fitsNow = head >= 0 ? fits(st, st.slots.demand[head]!) : null;
  let rank: number | null = null;
  if (head >= 0) {
    rank = 1;
    for (const x of st.queues) if (x !== q && x.head >= 0 && (key(x) < w || (key(x) === w && x.index < q.index))) rank++;
  }
  const admission = core.binding.admissionOf(q);
  const min = q.spec.params?.minShare as number | undefined;
  const max = q.spec.params?.maxShare as number | undefined;
  const parts: string[] = [];
  if (q.rejected) parts.push(`rejected at admission (${admission.reason}): it starts nothing`);
  else if (head < 0) parts.push("no waiting task");
  else {
    parts.push(told.order ?? `weighted dominant share ${w.toPrecision(4)} (dominant share / weight ${q.spec.weight ?? 1}) is number ${rank} among queues with waiting tasks`);
    parts.push(`its next task ${fitsNow ? "fits in what is free" : "does not fit in what is free"}`);
    if (q.capped) parts.push(`it is at its max share ${max}: its next task would take it above`);
    const held = heldFor(core, q);
    if (held) parts.push(`the starvation guard holds the room its next task needs for queue '${held}' (the head of the DRF order, whose next task does not fit)`);
    if (min !== undefined && !core.ownShares && dominantShare(q.usage, st.capacity) < min) parts.push(`it is below its min share ${min}: served before the policy's order`);
  }
  if (told.notes) parts.push(...told.notes);
  return { queue: q.spec.name, weightedShare: w, rank, waiting: q.waitingCount, running: q.runningCount, nextTaskFits: fitsNow, admission, reason: parts.join("; ") };
}

/** The queue whose reserved task keeps q's next task from starting now (the starvation guard), or null. */
function heldFor(core: LiveCore, q: LiveQueue): string | null {
  const h = core.dispatcher.reservedQueue;
  const st = core.state;
  const head = q.head >= 0 ? st.slots.demand[q.head] : null;
  const other = h >= 0 && h !== q.index ? st.queues[h] : null;
  const reserved = other && other.head >= 0 ? st.slots.demand[other.head] : null;
  if (!head || !reserved || !core.binding.policy.shares) return null;
  for (let r = 0; r < core.k; r++) {
    const d = head[r], x = reserved[r];
    if (d > 0 && x > 0 && exceeds(st.used[r] + d, x, st.capacity[r])) return st.queues[h].spec.name;
  }
  return null;
}
