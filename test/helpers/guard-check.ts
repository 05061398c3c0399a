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
  /** The dispatch's priority tier (Policy.tier; default 0): lower tiers come first. */
  tier?: number;
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
 * the head's task would no longer fit beside it. The head is a queue of smallest weighted share
 * in the lowest tier (a reservation kept from an earlier point survives ties, so any of the tied
 * queues may be it).
 */
export function unjustifiedWaits(capacity: readonly number[], used: readonly number[], queues: readonly WaitingQueue[], guard: boolean): string[] {
  const waiting = queues.map((q, i) => i).filter((i) => queues[i].head !== null);
  if (!guard) return waiting.filter((i) => fitsIn(capacity, used, queues[i].head!)).map((i) => `queue ${i}: its next task fits`);
  if (waiting.length === 0) return [];
  const tier = Math.min(...waiting.map((i) => queues[i].tier ?? 0));
  const first = waiting.filter((i) => (queues[i].tier ?? 0) === tier);
  const least = Math.min(...first.map((i) => weightedShare(capacity, queues[i])));
  let best: string[] | null = null;
  for (const h of first.filter((i) => weightedShare(capacity, queues[i]) === least)) {
    const out = unjustifiedBeside(capacity, used, queues, waiting, h);
    if (best === null || out.length < best.length) best = out;
  }
  return best!;
}

/** With queue h as the head whose task is reserved, the waits nothing justifies. */
function unjustifiedBeside(capacity: readonly number[], used: readonly number[], queues: readonly WaitingQueue[], waiting: readonly number[], h: number): string[] {
  const held = queues[h].head!;
  const out: string[] = [];
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
