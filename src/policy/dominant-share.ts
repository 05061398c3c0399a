// A queue's dominant share: the largest fraction of any resource's capacity its vector holds
// (DRF's measure; a zero vector has share 0).

/** max over r of x[r] / capacity[r], at least 0. */
export function dominantShare(x: ArrayLike<number>, capacity: ArrayLike<number>): number {
  let s = 0;
  for (let r = 0; r < capacity.length; r++) s = Math.max(s, x[r] / capacity[r]);
  return s;
}
