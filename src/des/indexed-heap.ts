// An indexed binary min-heap over item ids 0..n-1 ordered by (key, tie), ties then by id:
// the event core's heap for integer ids whose keys change in place (update), and that leave
// and re-enter (remove / insert). H-LTRF keeps one per group (children with pending tasks)
// and one over all demanding leaves, so every allocation costs O(depth * log fanout) instead
// of a scan over all queues. For objects under a comparator, see Heap (heap.ts).

export class IndexedHeap {
  readonly key: Float64Array;
  /** Secondary order for equal keys (e.g. a random draw, or the first leaf index). */
  readonly tie: Float64Array;
  private readonly heap: Int32Array;
  private readonly pos: Int32Array; // -1 when not in the heap
  size = 0;

  constructor(n: number) {
    this.key = new Float64Array(n);
    this.tie = new Float64Array(n);
    this.heap = new Int32Array(n);
    this.pos = new Int32Array(n).fill(-1);
  }

  has(id: number): boolean {
    return this.pos[id] >= 0;
  }

  /** The smallest id, or -1 when empty. */
  top(): number {
    return this.size > 0 ? this.heap[0] : -1;
  }

  insert(id: number): void {
    if (this.pos[id] >= 0) return;
    this.heap[this.size] = id;
    this.pos[id] = this.size;
    this.size++;
    this.up(this.size - 1);
  }

  remove(id: number): void {
    const p = this.pos[id];
    if (p < 0) return;
    this.size--;
    this.pos[id] = -1;
    if (p === this.size) return;
    const last = this.heap[this.size];
    this.heap[p] = last;
    this.pos[last] = p;
    this.up(p);
    this.down(this.pos[last]);
  }

  /**
   * Sets the key (and tie) of an item; re-orders it if it is in the heap: only up for a smaller
   * (key, tie), only down for a larger one, not at all for the same.
   */
  update(id: number, key: number, tie = this.tie[id]): void {
    const oldKey = this.key[id], oldTie = this.tie[id];
    if (key === oldKey && tie === oldTie) return;
    this.key[id] = key;
    this.tie[id] = tie;
    const p = this.pos[id];
    if (p < 0) return;
    if (key < oldKey || (key === oldKey && tie < oldTie)) this.up(p);
    else if (key > oldKey || key === oldKey) this.down(p);
    else { this.up(p); this.down(this.pos[id]); } // NaN on either side: no order to go by
  }

  clear(): void {
    for (let i = 0; i < this.size; i++) this.pos[this.heap[i]] = -1;
    this.size = 0;
  }

  private less(a: number, b: number): boolean {
    const ka = this.key[a], kb = this.key[b];
    if (ka !== kb) return ka < kb;
    const ta = this.tie[a], tb = this.tie[b];
    if (ta !== tb) return ta < tb;
    return a < b;
  }

  private up(p: number): void {
    const h = this.heap;
    const x = h[p];
    while (p > 0) {
      const parent = (p - 1) >> 1;
      const y = h[parent];
      if (!this.less(x, y)) break;
      h[p] = y;
      this.pos[y] = p;
      p = parent;
    }
    h[p] = x;
    this.pos[x] = p;
  }

  private down(p: number): void {
    const h = this.heap;
    const x = h[p];
    for (;;) {
      let c = 2 * p + 1;
      if (c >= this.size) break;
      if (c + 1 < this.size && this.less(h[c + 1], h[c])) c++;
      const y = h[c];
      if (!this.less(y, x)) break;
      h[p] = y;
      this.pos[y] = p;
      p = c;
    }
    h[p] = x;
    this.pos[x] = p;
  }
}
