// A binary min-heap of (key, id) with lazy deletion: admission control peeks the smallest
// tolerated queue count of the guaranteed queues in O(1) (amortised: stale tops are popped
// once), inserts in O(log n), and a leaving queue is only marked dead. Ids must never be
// reused (the scheduler numbers every admission afresh). Keys and ids live in typed
// arrays that grow by doubling and are kept by clear(), so refilling allocates nothing.
// A batch admission appends its entries at once (appendUnordered) with their minimum, and
// the heap order is built bottom-up only when first needed: a decision that never removes
// the smallest entry (every admission of a batch, and the safety checks after it) never
// pays for ordering thousands of entries.

export class LazyMinHeap {
  private keys = new Float64Array(64);
  private ids = new Int32Array(64);
  private size = 0;
  private readonly dead = new Set<number>();
  /** false after appendUnordered until order(): then topKey, topId hold the smallest live entry */
  private ordered = true;
  private topKey = Infinity;
  private topId = -1;

  /** Forgets every entry (the arrays are kept for reuse). */
  clear(): void {
    this.size = 0;
    this.dead.clear();
    this.ordered = true;
  }

  push(key: number, id: number): void {
    this.order();
    if (this.size === this.keys.length) this.growTo(this.size * 2);
    const keys = this.keys, ids = this.ids;
    let i = this.size++;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!(less(key, id, keys[p], ids[p]))) break;
      keys[i] = keys[p]; ids[i] = ids[p];
      i = p;
    }
    keys[i] = key; ids[i] = id;
  }

  /**
   * Appends `count` entries (keys[i], ids[i]) at once (admitBatch's guaranteed queues) whose
   * heap order is built only when first needed: `minKey`, `minId` must be the smallest live
   * entry after the append (the caller's running minimum, as the admission kernel keeps it),
   * so peekKey / peekId answer at once while nothing was removed; the first push, removal
   * that reaches the top, or peek() builds the order bottom-up (Floyd, O(size)) once. Any
   * valid heap has the same top (the order is total: key, then id). Example: empty heap,
   * append [(5, 0), (7, 2)] with min (5, 0): peekKey 5, peekId 0, nothing ordered; a push
   * of (6, 3) orders first, then sifts it in. Edge values: count 0 changes nothing.
   */
  appendUnordered(keys: Float64Array, ids: Int32Array, count: number, minKey: number, minId: number): void {
    if (count === 0) return;
    const s = this.size;
    if (s + count > this.keys.length) this.growTo(Math.max(s + count, this.keys.length * 2));
    this.keys.set(count === keys.length ? keys : keys.subarray(0, count), s);
    this.ids.set(count === ids.length ? ids : ids.subarray(0, count), s);
    this.size = s + count;
    this.ordered = false;
    this.topKey = minKey;
    this.topId = minId;
  }

  /** The id of the smallest live entry, or -1 when there is none. */
  peekIdOrNone(): number {
    if (this.peekKey() === Infinity && this.size === 0) return -1;
    return this.peekId();
  }

  /** Builds the heap order of appended entries (once after appendUnordered). */
  private order(): void {
    if (this.ordered) return;
    for (let i = (this.size >> 1) - 1; i >= 0; i--) this.siftDown(i);
    this.ordered = true;
  }

  private siftDown(at: number): void {
    const keys = this.keys, ids = this.ids, n = this.size;
    const key = keys[at], id = ids[at];
    let i = at;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= n) break;
      const r = l + 1;
      const c = r < n && less(keys[r], ids[r], keys[l], ids[l]) ? r : l;
      if (!less(keys[c], ids[c], key, id)) break;
      keys[i] = keys[c]; ids[i] = ids[c];
      i = c;
    }
    keys[i] = key; ids[i] = id;
  }

  /** Marks `id` removed; it disappears when it reaches the top. */
  remove(id: number): void {
    this.dead.add(id);
  }

  /** The live entry with the smallest key (ties: smallest id), or null. */
  peek(): { key: number; id: number } | null {
    this.order();
    this.prune();
    return this.size > 0 ? { key: this.keys[0], id: this.ids[0] } : null;
  }

  /** The smallest live key, or +Infinity when empty (no allocation). */
  peekKey(): number {
    if (!this.ordered) {
      if (this.dead.size === 0) return this.topKey;
      this.order();
    }
    this.prune();
    return this.size > 0 ? this.keys[0] : Infinity;
  }

  /** The id of the smallest live entry (call after peekKey found one). */
  peekId(): number {
    return this.ordered ? this.ids[0] : this.topId;
  }

  private prune(): void {
    if (this.dead.size === 0) return;
    while (this.size > 0 && this.dead.has(this.ids[0])) {
      this.dead.delete(this.ids[0]);
      this.pop();
    }
  }

  private pop(): void {
    const n = --this.size;
    if (n === 0) return;
    // the last entry moves to the root and sinks (siftDown reads the size just decremented)
    this.keys[0] = this.keys[n];
    this.ids[0] = this.ids[n];
    this.siftDown(0);
  }

  private growTo(cap: number): void {
    const keys = new Float64Array(cap); keys.set(this.keys); this.keys = keys;
    const ids = new Int32Array(cap); ids.set(this.ids); this.ids = ids;
  }
}

function less(ka: number, ia: number, kb: number, ib: number): boolean {
  return ka < kb || (ka === kb && ia < ib);
}
