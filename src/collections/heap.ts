// A binary min-heap with a caller-supplied strict ordering: the one heap of the event core
// (the event queue sits on it) and of every model that keeps a priority queue of objects
// (Justice's admission offers, ...). The ordering must be total (break ties with a sequence
// number or an index) so that pop order, and with it every run, is deterministic: with a
// total order the heap pops exactly the sorted order, whatever the insertion history.
// For integer ids whose keys change in place (update / remove), see IndexedHeap
// (indexed-heap.ts). Example: less = (a, b) => a < b; push 5, 3, 4 -> pop 3, 4, 5.

export class Heap<T> {
  private readonly items: T[] = [];
  /** false after appendUnordered until the order is built (Floyd, once, when first needed) */
  private ordered = true;

  /** `less(a, b)` is true when `a` must come out before `b`. */
  constructor(private readonly less: (a: T, b: T) => boolean) {}

  get size(): number {
    return this.items.length;
  }

  push(x: T): void {
    if (!this.ordered) this.order();
    const a = this.items;
    a.push(x);
    let i = a.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!this.less(x, a[p])) break;
      a[i] = a[p];
      i = p;
    }
    a[i] = x;
  }

  /** The smallest item without removing it, or undefined when empty. */
  peek(): T | undefined {
    if (!this.ordered) this.order();
    return this.items[0];
  }

  /**
   * Adds `x` without ordering it: a batch of appends is ordered bottom-up (Floyd, O(size))
   * by the next push, peek or pop, so a batch that is never looked into costs no ordering.
   */
  appendUnordered(x: T): void {
    this.items.push(x);
    this.ordered = false;
  }

  /** Removes and returns the smallest item, or undefined when empty. */
  pop(): T | undefined {
    if (!this.ordered) this.order();
    const a = this.items;
    if (a.length === 0) return undefined;
    const top = a[0];
    const last = a.pop() as T;
    if (a.length > 0) this.siftDown(0, last);
    return top;
  }

  /** Forgets every item (keeps the storage for reuse). */
  clear(): void {
    this.items.length = 0;
    this.ordered = true;
  }

  private order(): void {
    const a = this.items;
    for (let i = (a.length >> 1) - 1; i >= 0; i--) this.siftDown(i, a[i]);
    this.ordered = true;
  }

  /** Places `x` at hole `i`, moving smaller children up. */
  private siftDown(i: number, x: T): void {
    const a = this.items;
    const n = a.length;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= n) break;
      const r = l + 1;
      const c = r < n && this.less(a[r], a[l]) ? r : l;
      if (!this.less(a[c], x)) break;
      a[i] = a[c];
      i = c;
    }
    a[i] = x;
  }
}
