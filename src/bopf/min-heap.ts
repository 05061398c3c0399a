// The (key, id) min-heap of admission control, on the event core's Heap with lazy deletion:
// admission peeks the smallest tolerated queue count of the guaranteed queues in O(1)
// (amortised: stale tops are popped once), inserts in O(log n), and a leaving queue is only
// marked dead. Ids must never be reused (the scheduler numbers every admission afresh).
// Entries live in typed arrays (slots, reused after a pop, kept by clear()) and the heap
// orders slot numbers, so refilling allocates nothing. A batch admission appends its entries
// at once (appendUnordered) with their minimum, and the heap order is built bottom-up only
// when first needed: a decision that never removes the smallest entry (every admission of a
// batch, and the safety checks after it) never pays for ordering thousands of entries.
import { Heap } from "../collections/heap.js";

export class LazyMinHeap {
  private keys = new Float64Array(64);
  private ids = new Int32Array(64);
  /** Slots ever used since clear(); freed slots wait in `free`. */
  private slots = 0;
  private free: number[] = [];
  private readonly heap = new Heap<number>((a, b) => less(this.keys[a], this.ids[a], this.keys[b], this.ids[b]));
  private readonly dead = new Set<number>();
  /** true after appendUnordered until the heap is next looked into: then topKey, topId hold the smallest live entry */
  private shortcut = false;
  private topKey = Infinity;
  private topId = -1;

  /** Forgets every entry (the arrays are kept for reuse). */
  clear(): void {
    this.slots = 0;
    this.free.length = 0;
    this.heap.clear();
    this.dead.clear();
    this.shortcut = false;
  }

  push(key: number, id: number): void {
    this.shortcut = false;
    const slot = this.slot();
    this.keys[slot] = key;
    this.ids[slot] = id;
    this.heap.push(slot);
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
    for (let i = 0; i < count; i++) {
      const slot = this.slot();
      this.keys[slot] = keys[i];
      this.ids[slot] = ids[i];
      this.heap.appendUnordered(slot);
    }
    this.shortcut = true;
    this.topKey = minKey;
    this.topId = minId;
  }

  /** The id of the smallest live entry, or -1 when there is none. */
  peekIdOrNone(): number {
    if (this.peekKey() === Infinity && this.heap.size === 0) return -1;
    return this.peekId();
  }

  /** Marks `id` removed; it disappears when it reaches the top. */
  remove(id: number): void {
    this.dead.add(id);
  }

  /** The live entry with the smallest key (ties: smallest id), or null. */
  peek(): { key: number; id: number } | null {
    this.shortcut = false;
    this.prune();
    const top = this.heap.peek();
    return top !== undefined ? { key: this.keys[top], id: this.ids[top] } : null;
  }

  /** The smallest live key, or +Infinity when empty (no allocation). */
  peekKey(): number {
    if (this.shortcut) {
      if (this.dead.size === 0) return this.topKey;
      this.shortcut = false;
    }
    this.prune();
    const top = this.heap.peek();
    return top !== undefined ? this.keys[top] : Infinity;
  }

  /** The id of the smallest live entry (call after peekKey found one). */
  peekId(): number {
    return this.shortcut ? this.topId : this.ids[this.heap.peek()!];
  }

  private prune(): void {
    if (this.dead.size === 0) return;
    for (let top = this.heap.peek(); top !== undefined && this.dead.has(this.ids[top]); top = this.heap.peek()) {
      this.dead.delete(this.ids[top]);
      this.free.push(this.heap.pop()!);
    }
  }

  /** A free slot, growing the arrays by doubling when none is left. */
  private slot(): number {
    if (this.free.length > 0) return this.free.pop()!;
    if (this.slots === this.keys.length) {
      const cap = this.slots * 2;
      const keys = new Float64Array(cap); keys.set(this.keys); this.keys = keys;
      const ids = new Int32Array(cap); ids.set(this.ids); this.ids = ids;
    }
    return this.slots++;
  }
}

function less(ka: number, ia: number, kb: number, ib: number): boolean {
  return ka < kb || (ka === kb && ia < ib);
}
