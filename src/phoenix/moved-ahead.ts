// How many tasks of one reordered queue moved ahead of a task that was ahead of them: the
// CRV kernel's `reordered` count (assembly/crv.ts), restricted to one queue so the simulator
// can count the queues reordered in CRV mode apart from those in SRPT mode.
//
// `order` maps each new position p in [start, end) to the task's old flat index. A task is
// counted when some task that was ahead of it (a smaller old index) now sits behind it.
// Example: old order a b c, new order c a b -> new positions a 1, b 2, c 0: reading old
// order, a (1) and b (2) keep the running maximum, c (0) is below it: 1 task (c).
// An empty or single-task queue counts 0.

/** Tasks of the queue order[start..end) now ahead of a task that was ahead of them. */
export function movedAhead(order: ArrayLike<number>, start: number, end: number): number {
  const len = end - start;
  const newPos = new Int32Array(len);
  for (let p = start; p < end; p++) newPos[order[p] - start] = p - start;
  let maxBefore = -1, moved = 0;
  for (let i = 0; i < len; i++) {
    const np = newPos[i];
    if (maxBefore > np) moved++;
    if (np > maxBefore) maxBefore = np;
  }
  return moved;
}
