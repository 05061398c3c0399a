// An indexed 4-ary min-heap over item ids 0..n-1 ordered by (key, tie), ties then by id:
// the event core's heap for integer ids whose keys change in place (update), and that leave
// and re-enter (remove / insert). The dispatch (src/dispatch/dispatcher.ts) keeps one over the
// queues with runnable tasks and one per resource, so a decision costs O(log N) instead of a
// scan over all queues. For objects under a comparator, see Heap (heap.ts).
// Layout for the cache (docs/performance.md, "Live scheduler"): each position holds its item's
// key and tie next to its id, so a sift reads one contiguous run per level (four children in a
// row) instead of jumping to per-id arrays; four children per node halve the levels. The order
// is total, so the top is the same item whatever the shape.
// Lazy decreases: a key lowered below the one the heap holds for the item waits in a short
// "lowered" list instead of sifting up; top() is then the smaller of the heap's top (unless
// lowered itself) and the lowered items. An item raised back to the key the heap holds needs no
// sift at all: the live scheduler's finish (a queue's key drops) followed by a start of that
// queue (its key back up) costs no heap work.

/** Lowered items kept off the heap order at most (top() scans them). */
const LOWERED = 8;

export class IndexedHeap {
  /** Each item's key, by id. */
  readonly key: Float64Array;
  /** Secondary order for equal keys (e.g. a random draw, or the first leaf index), by id. */
  readonly tie: Float64Array;
  /** Ids by heap position, and their keys and ties by position. */
  private readonly heap: Int32Array;
  private readonly hkey: Float64Array;
  private readonly htie: Float64Array;
  private readonly pos: Int32Array; // -1 when not in the heap
  /** Items whose key (or tie) is below the one their heap position holds. */
  private readonly lowered = new Int32Array(LOWERED);
  private nLowered = 0;
  size = 0;

  constructor(n: number) {
    this.key = new Float64Array(n);
    this.tie = new Float64Array(n);
    this.heap = new Int32Array(n);
    this.hkey = new Float64Array(n);
    this.htie = new Float64Array(n);
    this.pos = new Int32Array(n).fill(-1);
  }

  has(id: number): boolean {
    return this.pos[id] >= 0;
  }

  /** The smallest id, or -1 when empty. */
  top(): number {
    if (this.nLowered === 0) return this.size > 0 ? this.heap[0] : -1;
    // the heap's top is the smallest item whose key the heap holds; a lowered item may be smaller
    const t = this.heap[0];
    let best = this.loweredAt(t) < 0 ? t : -1;
    for (let i = 0; i < this.nLowered; i++) {
      const x = this.lowered[i];
      if (best < 0 || this.before(x, best)) best = x;
    }
    return best;
  }

  /** Item a before item b by their own (key, tie, id). */
  private before(a: number, b: number): boolean {
    const ka = this.key[a], kb = this.key[b];
    if (ka !== kb) return ka < kb;
    const ta = this.tie[a], tb = this.tie[b];
    if (ta !== tb) return ta < tb;
    return a < b;
  }

  private loweredAt(id: number): number {
    for (let i = 0; i < this.nLowered; i++) if (this.lowered[i] === id) return i;
    return -1;
  }

  /** Takes id off the lowered list (if it is on it). */
  private unlower(id: number): void {
    if (this.nLowered === 0) return;
    const i = this.loweredAt(id);
    if (i >= 0) this.lowered[i] = this.lowered[--this.nLowered];
  }

  insert(id: number): void {
    if (this.pos[id] >= 0) return;
    const p = this.size++;
    this.heap[p] = id;
    this.hkey[p] = this.key[id];
    this.htie[p] = this.tie[id];
    this.pos[id] = p;
    this.up(p);
  }

  remove(id: number): void {
    const p = this.pos[id];
    if (p < 0) return;
    this.unlower(id);
    this.size--;
    this.pos[id] = -1;
    if (p === this.size) return;
    const last = this.heap[this.size];
    this.heap[p] = last;
    this.hkey[p] = this.hkey[this.size];
    this.htie[p] = this.htie[this.size];
    this.pos[last] = p;
    this.up(p);
    this.down(this.pos[last]);
  }

  /**
   * Sets the key (and tie) of an item. In the heap: below the key its position holds, it goes on
   * the lowered list (sifted up only when the list is full); back at that key, it is in place;
   * above it, it sifts down.
   */
  update(id: number, key: number, tie = this.tie[id]): void {
    if (key === this.key[id] && tie === this.tie[id]) return;
    this.key[id] = key;
    this.tie[id] = tie;
    const p = this.pos[id];
    if (p < 0) return;
    const hk = this.hkey[p], ht = this.htie[p];
    if (key === hk && tie === ht) { this.unlower(id); return; }
    if (key < hk || (key === hk && tie < ht)) {
      if (this.loweredAt(id) >= 0) return;
      if (this.nLowered < LOWERED) { this.lowered[this.nLowered++] = id; return; }
      this.hkey[p] = key;
      this.htie[p] = tie;
      this.up(p);
      return;
    }
    this.unlower(id);
    this.hkey[p] = key;
    this.htie[p] = tie;
    if (key >= hk) this.down(p);
    else { this.up(p); this.down(this.pos[id]); } // NaN on either side: no order to go by
  }

  clear(): void {
    for (let i = 0; i < this.size; i++) this.pos[this.heap[i]] = -1;
    this.size = 0;
    this.nLowered = 0;
  }

  /** Moves the item at p up to its place. */
  private up(p: number): void {
    const h = this.heap, hk = this.hkey, ht = this.htie, pos = this.pos;
    const x = h[p], kx = hk[p], tx = ht[p];
    while (p > 0) {
      const parent = (p - 1) >> 2;
      const kp = hk[parent];
      if (!(kx < kp || (kx === kp && (tx < ht[parent] || (tx === ht[parent] && x < h[parent]))))) break;
      const y = h[parent];
      h[p] = y;
      hk[p] = kp;
      ht[p] = ht[parent];
      pos[y] = p;
      p = parent;
    }
    h[p] = x;
    hk[p] = kx;
    ht[p] = tx;
    pos[x] = p;
  }

  /** Moves the item at p down to its place. */
  private down(p: number): void {
    const h = this.heap, hk = this.hkey, ht = this.htie, pos = this.pos;
    const n = this.size;
    const x = h[p], kx = hk[p], tx = ht[p];
    for (;;) {
      const first = 4 * p + 1;
      if (first >= n) break;
      // the smallest of up to four children
      let c = first;
      const end = first + 4 < n ? first + 4 : n;
      for (let i = first + 1; i < end; i++) {
        const ki = hk[i], kc = hk[c];
        if (ki < kc || (ki === kc && (ht[i] < ht[c] || (ht[i] === ht[c] && h[i] < h[c])))) c = i;
      }
      const kc = hk[c];
      if (!(kc < kx || (kc === kx && (ht[c] < tx || (ht[c] === tx && h[c] < x))))) break;
      const y = h[c];
      h[p] = y;
      hk[p] = kc;
      ht[p] = ht[c];
      pos[y] = p;
      p = c;
    }
    h[p] = x;
    hk[p] = kx;
    ht[p] = tx;
    pos[x] = p;
  }
}
