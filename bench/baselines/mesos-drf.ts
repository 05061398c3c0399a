// What a Mesos user gets instead of DRF progressive filling: discrete DRF as in the DRF
// paper's Algorithm 1 and Mesos' DRF sorter. Every queue's demand is a number of equal
// tasks; repeatedly the queue with the lowest weighted dominant share (ties: lowest index)
// launches one task if it fits in what is left; a queue whose next task does not fit, or
// that has launched all its tasks, leaves. It ends when no queue is left.
// Cost: O(T log N) for T launched tasks (a binary heap keyed by dominant share / weight).

/** A binary min-heap of queue indices keyed by (key, index). */
class QueueHeap {
  readonly items: Int32Array;
  size = 0;
  constructor(n: number, private readonly key: Float64Array) {
    this.items = new Int32Array(n);
  }
  private less(a: number, b: number): boolean {
    const ka = this.key[a], kb = this.key[b];
    return ka < kb || (ka === kb && a < b);
  }
  push(i: number): void {
    let at = this.size++;
    while (at > 0) {
      const parent = (at - 1) >> 1;
      if (!this.less(i, this.items[parent])) break;
      this.items[at] = this.items[parent];
      at = parent;
    }
    this.items[at] = i;
  }
  top(): number {
    return this.items[0];
  }
  /** Restores the heap after the top's key grew (or removes it when `remove`). */
  siftTop(remove: boolean): void {
    const items = this.items;
    const moving = remove ? items[--this.size] : items[0];
    const size = this.size;
    let at = 0;
    for (;;) {
      let child = 2 * at + 1;
      if (child >= size) break;
      if (child + 1 < size && this.less(items[child + 1], items[child])) child++;
      if (!this.less(items[child], moving)) break;
      items[at] = items[child];
      at = child;
    }
    if (size > 0) items[at] = moving;
  }
}

export class MesosDrfScratch {
  key = new Float64Array(0);
  taskShare = new Float64Array(0);
  used = new Float64Array(0);
  heap: QueueHeap | null = null;
}

/**
 * Launches tasks of size demands[i] / tasksPerQueue; writes the task count per queue into
 * `tasks` (N) and returns the total. Inputs are assumed valid.
 */
export function mesosDrf(
  n: number, k: number, capacity: Float64Array, demands: Float64Array, weights: Float64Array | null,
  tasksPerQueue: number, tasks: Int32Array, s: MesosDrfScratch = new MesosDrfScratch(),
): number {
  if (s.key.length < n) {
    s.key = new Float64Array(n);
    s.taskShare = new Float64Array(n);
  }
  if (s.used.length < k) s.used = new Float64Array(k);
  if (!s.heap || s.heap.items.length < n) s.heap = new QueueHeap(s.key.length, s.key);
  const { key, taskShare, used, heap } = s;
  heap.size = 0;
  used.fill(0, 0, k);
  for (let i = 0; i < n; i++) {
    tasks[i] = 0;
    let ds = 0;
    for (let r = 0; r < k; r++) ds = Math.max(ds, demands[i * k + r] / tasksPerQueue / capacity[r]);
    taskShare[i] = ds / (weights ? weights[i] : 1);
    key[i] = 0;
    if (ds > 0) heap.push(i);
  }
  let total = 0;
  while (heap.size > 0) {
    const i = heap.top();
    const base = i * k;
    let fits = true;
    for (let r = 0; r < k; r++) {
      if (used[r] + demands[base + r] / tasksPerQueue > capacity[r]) {
        fits = false;
        break;
      }
    }
    if (!fits) {
      heap.siftTop(true);
      continue;
    }
    for (let r = 0; r < k; r++) used[r] += demands[base + r] / tasksPerQueue;
    const launched = ++tasks[i];
    total++;
    key[i] = launched * taskShare[i];
    heap.siftTop(launched === tasksPerQueue);
  }
  return total;
}
