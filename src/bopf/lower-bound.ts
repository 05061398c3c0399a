// The first index in sorted ids[0, n) whose value is >= id (n when none is): the binary search
// the admission rows (id -> slot) and the hard-id list share.
export function lowerBound(ids: ArrayLike<number>, n: number, id: number): number {
  let lo = 0, hi = n;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (ids[mid]! < id) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
