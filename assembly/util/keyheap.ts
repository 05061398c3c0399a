// Binary min-heap of packed 16-byte entries: f64 key at +0, u32 id at +8, u32 aux at +12
// (a payload carried along, not compared), ordered by (key, id). Key and id sit in the entry, so comparing two entries never reads
// another array, and one v128 move copies an entry. The JS twin (src/kernels/ltrf/twin.ts)
// keeps the same heap in a Float64Array of (key, id) pairs and moves entries identically.
//
// Example: entries (2, 7), (1, 9), (1, 3) heapified -> top (1, 3): equal keys go to the
// smaller id. Keys must not be NaN (callers validate); -0 and +0 compare equal.

/** Bytes for a heap of n entries. */
export function keyHeapBytes(n: i32): usize {
  return <usize>n << 4;
}

@inline export function khKey(heap: usize, pos: i32): f64 {
  return load<f64>(heap + (<usize>pos << 4));
}

@inline export function khId(heap: usize, pos: i32): u32 {
  return load<u32>(heap + (<usize>pos << 4), 8);
}

@inline export function khAux(heap: usize, pos: i32): u32 {
  return load<u32>(heap + (<usize>pos << 4), 12);
}

@inline export function khSet(heap: usize, pos: i32, key: f64, id: u32, aux: u32): void {
  const a = heap + (<usize>pos << 4);
  store<f64>(a, key);
  store<u32>(a, id, 8);
  store<u32>(a, aux, 12);
}

/** Places (key, id, aux) into the hole at pos and moves it down to where it belongs. */
export function khSiftDown(heap: usize, size: i32, pos: i32, key: f64, id: u32, aux: u32): void {
  for (;;) {
    let c = 2 * pos + 1;
    if (c >= size) break;
    let ca = heap + (<usize>c << 4);
    let ck = load<f64>(ca);
    let ci = load<u32>(ca, 8);
    if (c + 1 < size) {
      const dk = load<f64>(ca, 16), di = load<u32>(ca, 24);
      if (dk < ck || (dk == ck && di < ci)) { c++; ca += 16; ck = dk; ci = di; }
    }
    if (!(ck < key || (ck == key && ci < id))) break;
    v128.store(heap + (<usize>pos << 4), v128.load(ca));
    pos = c;
  }
  khSet(heap, pos, key, id, aux);
}

/** Floyd's bottom-up build over entries 0..size-1: O(size). */
export function khBuild(heap: usize, size: i32): void {
  for (let h = (size >> 1) - 1; h >= 0; h--) khSiftDown(heap, size, h, khKey(heap, h), khId(heap, h), khAux(heap, h));
}

/** Removes the top entry; returns the new size. */
export function khPop(heap: usize, size: i32): i32 {
  size--;
  if (size > 0) khSiftDown(heap, size, 0, khKey(heap, size), khId(heap, size), khAux(heap, size));
  return size;
}
