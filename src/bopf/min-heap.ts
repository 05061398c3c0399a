// A binary min-heap of (key, id) with lazy deletion: admission control peeks the smallest
// tolerated queue count of the guaranteed queues in O(1) (amortised: stale tops are popped
// once), inserts in O(log n), and a leaving queue is only marked dead. Ids must never be
// reused (the scheduler numbers every admission afresh). Keys and ids live in typed
// arrays that grow by doubling and are kept by clear(), so refilling allocates nothing.

export class LazyMinHeap {
  private keys = new Float64Array(64);
  private ids = new Int32Array(64);
  private size = 0;
  private readonly dead = new Set<number>();

  /** Forgets every entry (the arrays are kept for reuse). */
  clear(): void {
    this.size = 0;
    this.dead.clear();
  }

  push(key: number, id: number): void {
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
   * Pushes (keys[id], id) for every id in [from, to) with cls[id] <= maxClass (admitBatch's
   * guaranteed queues): appended, then the heap order restored by one bottom-up build
   * (Floyd, O(size)) when they are many, else by sifting each up. Any valid heap has the
   * same top (the order is total: key, then id), so peek answers as after pushes one by one.
   * Example: empty heap, keys [5, 2, 7], cls [0, 2, 1] -> entries (5, 0) and (7, 2); peek
   * (5, 0). Edge values: an empty range or no guaranteed id changes nothing.
   */
  pushGuaranteed(keys: Float64Array, cls: Uint8Array, from: number, to: number, maxClass: number): void {
    const size0 = this.size;
    let added = 0;
    for (let id = from; id < to; id++) if (cls[id] <= maxClass) added++;
    if (added === 0) return;
    if (size0 + added > this.keys.length) this.growTo(Math.max(size0 + added, this.keys.length * 2));
    const hk = this.keys, hi = this.ids;
    let s = size0;
    for (let id = from; id < to; id++) {
      if (cls[id] <= maxClass) {
        hk[s] = keys[id];
        hi[s] = id;
        s++;
      }
    }
    this.size = s;
    if (added * 4 >= s) {
      for (let i = (s >> 1) - 1; i >= 0; i--) this.siftDown(i);
    } else {
      for (let i = size0; i < s; i++) this.siftUp(i);
    }
  }

  private siftUp(at: number): void {
    const keys = this.keys, ids = this.ids;
    const key = keys[at], id = ids[at];
    let i = at;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!(less(key, id, keys[p], ids[p]))) break;
      keys[i] = keys[p]; ids[i] = ids[p];
      i = p;
    }
    keys[i] = key; ids[i] = id;
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
    this.prune();
    return this.size > 0 ? { key: this.keys[0], id: this.ids[0] } : null;
  }

  /** The smallest live key, or +Infinity when empty (no allocation). */
  peekKey(): number {
    this.prune();
    return this.size > 0 ? this.keys[0] : Infinity;
  }

  /** The id of the smallest live entry (call after peekKey found one). */
  peekId(): number {
    return this.ids[0];
  }

  private prune(): void {
    if (this.dead.size === 0) return;
    while (this.size > 0 && this.dead.has(this.ids[0])) {
      this.dead.delete(this.ids[0]);
      this.pop();
    }
  }

  private pop(): void {
    const keys = this.keys, ids = this.ids;
    const n = --this.size;
    const lastK = keys[n], lastI = ids[n];
    if (n === 0) return;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= n) break;
      const r = l + 1;
      const c = r < n && less(keys[r], ids[r], keys[l], ids[l]) ? r : l;
      if (!less(keys[c], ids[c], lastK, lastI)) break;
      keys[i] = keys[c]; ids[i] = ids[c];
      i = c;
    }
    keys[i] = lastK; ids[i] = lastI;
  }

  private growTo(cap: number): void {
    const keys = new Float64Array(cap); keys.set(this.keys); this.keys = keys;
    const ids = new Int32Array(cap); ids.set(this.ids); this.ids = ids;
  }
}

function less(ka: number, ia: number, kb: number, ib: number): boolean {
  return ka < kb || (ka === kb && ia < ib);
}
