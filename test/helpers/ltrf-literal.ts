// LTRF Algorithm 1 done literally (docs/policies/ltrf.md): one task at a time, a scan of all queues for the
// smallest U/w (ties: lowest index). O(N) per task — the obviously-correct reference the
// kernels (binary heap once, bucket queue now) are compared against bit for bit.

export interface LtrfLiteralInput {
  free: ArrayLike<number>;
  /** one task's demand per queue, queue-major N*K */
  tasks: ArrayLike<number>;
  pending: ArrayLike<number>;
  usage: ArrayLike<number>;
  weights?: ArrayLike<number>;
  increments: ArrayLike<number>;
  blocking: boolean;
}

export function ltrfLiteral(x: LtrfLiteralInput): { count: number[]; usage: number[]; free: number[] } {
  const n = x.pending.length, k = x.free.length;
  const free = Array.from(x.free), usage = Array.from(x.usage), left = Array.from(x.pending);
  const count = new Array<number>(n).fill(0);
  const w = (i: number) => (x.weights ? x.weights[i] : 1);
  const aside = new Array<boolean>(n).fill(false);
  const row = (i: number) => Array.from({ length: k }, (_, r) => x.tasks[i * k + r]);
  for (let i = 0; i < n; i++) {
    // work-conserving: tasks needing nothing start up front, U += pending * inc
    if (!x.blocking && left[i] > 0 && row(i).every((d) => d === 0)) {
      count[i] = left[i]; usage[i] = usage[i] + left[i] * x.increments[i]; left[i] = 0;
    }
  }
  for (;;) {
    let best = -1;
    for (let i = 0; i < n; i++) {
      if (left[i] === 0 || aside[i]) continue;
      if (best < 0 || usage[i] / w(i) < usage[best] / w(best)) best = i;
    }
    if (best < 0) break;
    if (!row(best).every((d, r) => !(d > free[r]))) {
      if (x.blocking) break; // Algorithm 1's wait for a release
      aside[best] = true; // free only shrinks within a call: it cannot fit later
      continue;
    }
    for (let r = 0; r < k; r++) free[r] = free[r] - x.tasks[best * k + r];
    count[best]++; left[best]--; usage[best] = usage[best] + x.increments[best];
  }
  return { count, usage, free };
}
