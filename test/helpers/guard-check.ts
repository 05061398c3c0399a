// What the dispatch's starvation guard allows to stay unstarted after a scheduling point
// (src/dispatch/head-reservation.ts): the head of the elastic order (smallest weighted dominant
// share, ties by queue index) waits only because its next task does not fit, and any other
// queue's next task that fits in what is free waits only because it would take room the head's
// task needs. Shared by the guard's property test and the live scheduler's model-based test.

export interface WaitingQueue {
  usage: readonly number[];
  weight: number;
  /** The next task's demand, null when the queue has nothing waiting. */
  head: readonly number[] | null;
}

const EPS = 1e-12;

function fitsIn(capacity: readonly number[], used: readonly number[], task: readonly number[]): boolean {
  return task.every((d, r) => used[r] + d <= capacity[r] * (1 + EPS));
}

/** The weighted dominant share as the dispatch keys its heap (max usage / capacity, then / weight). */
export function weightedShare(capacity: readonly number[], q: WaitingQueue): number {
  let dom = 0;
  for (let r = 0; r < capacity.length; r++) {
    const s = q.usage[r] / capacity[r];
    if (s > dom) dom = s;
  }
  return dom / q.weight;
}

/**
 * Waiting queues whose next task fits in what is free and that nothing justifies leaving
 * unstarted, as "queue i: why" lines (empty: the point was work conserving). With `guard`, the
 * head's task is reserved: another queue's task may wait when, on a resource both tasks need,
 * the head's task would no longer fit beside it.
 */
export function unjustifiedWaits(capacity: readonly number[], used: readonly number[], queues: readonly WaitingQueue[], guard: boolean): string[] {
  const waiting = queues.map((q, i) => i).filter((i) => queues[i].head !== null);
  const out: string[] = [];
  if (!guard) {
    for (const i of waiting) if (fitsIn(capacity, used, queues[i].head!)) out.push(`queue ${i}: its next task fits`);
    return out;
  }
  if (waiting.length === 0) return out;
  let h = waiting[0];
  for (const i of waiting) if (weightedShare(capacity, queues[i]) < weightedShare(capacity, queues[h])) h = i;
  const held = queues[h].head!;
  if (fitsIn(capacity, used, held)) out.push(`queue ${h} (the head): its next task fits`);
  for (const i of waiting) {
    if (i === h) continue;
    const t = queues[i].head!;
    if (!fitsIn(capacity, used, t)) continue;
    const conflicts = t.some((d, r) => d > 0 && held[r] > 0 && used[r] + d + held[r] > capacity[r] * (1 + EPS));
    if (!conflicts) out.push(`queue ${i}: its next task fits and leaves room for the head's (queue ${h})`);
  }
  return out;
}
